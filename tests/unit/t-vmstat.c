// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/vmstat around a bench run (ci/vmstat.c): parsing, the globs of
 * respin.check.NAME.vmstat, the deltas as metric lines and mmtests'
 * names, on two real reads of this machine's /proc/vmstat kept in
 * tests/data/bench/ (before and after a stress-ng run) and on the live
 * file itself.
 */
#include "tap.h"
#include "testdata.h"
#include "ci/vmstat.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void fixture(struct vmstat *v, const char *name)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/bench/%s", test_data_dir(), name);
	if (vmstat_read(v, path.buf) < 0)
		printf("# %s\n", error_last());
	strbuf_release(&path);
}

/* The value of "respin-metric: vmstat:NAME V" in lines, or -1. */
static long long line_value(const char *lines, const char *name)
{
	struct strbuf want = STRBUF_INIT;
	const char *p;
	long long v = -1;

	strbuf_addf(&want, "respin-metric: vmstat:%s ", name);
	p = strstr(lines, want.buf);
	if (p)
		v = strtoll(p + want.len, NULL, 10);
	strbuf_release(&want);
	return v;
}

static void test_parse(void)
{
	struct vmstat v = VMSTAT_INIT;
	static const char text[] = "nr_free_pages 5734210\npgfault 12\n"
				   "compact_stall 0\n";

	is_int(vmstat_parse(&v, text, sizeof(text) - 1), 0, "parse text");
	is_int((long long)v.nr, 3, "three counters");
	is_str(v.items[1].name, "pgfault", "in the file's order");
	is_int((long long)vmstat_find(&v, "nr_free_pages")->value, 5734210,
	       "a value");
	ok(!vmstat_find(&v, "pgmajfault"), "a counter it lacks");
	is_int(vmstat_parse(&v, "pgfault 12\nbroken\n", 18), -1,
	       "a line without a value is an error");
	ok(strstr(error_last(), "line 2") != NULL, "naming the line: %s",
	   error_last());
	is_int(vmstat_parse(&v, "pgfault 1x\n", 11), -1,
	       "a value with a letter is an error");
	is_int(vmstat_parse(&v, "pgfault 18446744073709551615\n", 29), 0,
	       "an unsigned long at its top");
	ok(v.items[0].value == 18446744073709551615ull, "read whole");
	error_clear();
	vmstat_release(&v);
}

static void test_globs(void)
{
	static const char *const good[] = {
		"compact_*", "compact_* pgscan_*", "all", "pg?can_kswapd",
		"thp_[a-f]*", "nr_[!a]*", "  pgfault\tpgmajfault ",
	};
	static const struct {
		const char *globs, *msg;
	} bad[] = {
		{ "Compact_*", "is not a glob of /proc/vmstat counter names" },
		{ "compact_[", "has a '[' without its ']'" },
		{ "compact-stall", "is not a glob" },
		{ "compact_*/x", "is not a glob" },
		{ "", "no counters named" },
		{ "  ", "no counters named" },
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++)
		is_int(vmstat_globs_check("respin.check.x.vmstat", good[i]), 0,
		       "'%s' is good", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		is_int(vmstat_globs_check("respin.check.x.vmstat",
					  bad[i].globs), -1, "'%s' is bad",
		       bad[i].globs);
		ok(strstr(error_last(), "respin.check.x.vmstat: ") ==
		   error_last() && strstr(error_last(), bad[i].msg),
		   "  says so, naming the key: %s", error_last());
	}
	error_clear();
	ok(vmstat_globs_match("compact_* pgscan_*", "pgscan_kswapd"),
	   "the second glob matches");
	ok(!vmstat_globs_match("compact_* pgscan_*", "pgsteal_kswapd"),
	   "neither matches");
	ok(vmstat_globs_match("all", "nr_free_pages"), "all matches any");
	ok(vmstat_globs_match("thp_[a-f]*", "thp_fault_alloc") &&
	   !vmstat_globs_match("thp_[a-f]*", "thp_split_page"),
	   "a bracket");
	ok(!vmstat_globs_match("compact", "compact_stall"),
	   "a name without a wildcard is the whole name");
}

static void test_fixture_deltas(void)
{
	struct vmstat before = VMSTAT_INIT, after = VMSTAT_INIT;
	struct strbuf out = STRBUF_INIT;
	size_t n;

	fixture(&before, "vmstat-before.txt");
	fixture(&after, "vmstat-after.txt");
	ok(before.nr > 150 && after.nr == before.nr,
	   "two real reads: %zu and %zu counters", before.nr, after.nr);
	n = vmstat_delta_lines(&out, &before, &after,
			       "pgfault thp_fault_alloc nr_free_pages");
	is_int((long long)n, 3, "three counters matched");
	is_str(out.buf, "respin-metric: vmstat:nr_free_pages -29290\n"
	       "respin-metric: vmstat:pgfault 678399\n"
	       "respin-metric: vmstat:thp_fault_alloc 64\n",
	       "the deltas, in the file's order; a gauge goes down");
	strbuf_reset(&out);
	n = vmstat_delta_lines(&out, &before, &after, "compact_*");
	ok(n >= 5 && line_value(out.buf, "compact_stall") == 0 &&
	   line_value(out.buf, "compact_isolated") == 0,
	   "compact_*: %zu counters, none moved by stress-ng", n);
	ok(!strstr(out.buf, "pgfault"), "only what the glob names");
	strbuf_reset(&out);
	n = vmstat_delta_lines(&out, &before, &after, "all");
	is_int((long long)n, (long long)after.nr, "all: every counter");
	strbuf_reset(&out);
	vmstat_globs_unmatched(&out, &after, "compact_* nosuch_* pgfault");
	is_str(out.buf, "nosuch_*", "the glob that matches nothing");
	vmstat_release(&before);
	vmstat_release(&after);
	strbuf_release(&out);
}

static void test_live(void)
{
	struct vmstat before = VMSTAT_INIT, after = VMSTAT_INIT;
	struct strbuf out = STRBUF_INIT;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = 256 * page;
	char *p;
	int r;

	if (access(VMSTAT_PATH, R_OK)) {
		skip("no readable %s here", VMSTAT_PATH);
		return;
	}
	r = vmstat_read(&before, NULL);
	is_int(r, 0, "read the real /proc/vmstat");
	ok(vmstat_find(&before, "pgfault") &&
	   vmstat_find(&before, "nr_free_pages"),
	   "it has pgfault and nr_free_pages");
	/*
	 * 256 pages locked and unlocked: counted in unevictable_pgs_*
	 * (by syscall(): AddressSanitizer's mlock does nothing)
	 */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = p != MAP_FAILED && !syscall(SYS_mlock, p, len);
	if (p != MAP_FAILED) {
		syscall(SYS_munlock, p, len);
		munmap(p, len);
	}
	vmstat_read(&after, NULL);
	vmstat_delta_lines(&out, &before, &after, "unevictable_pgs_mlocked "
			   "pgfault");
	if (r)
		ok(line_value(out.buf, "unevictable_pgs_mlocked") >= 256,
		   "256 pages mlocked here are in the delta: %lld",
		   line_value(out.buf, "unevictable_pgs_mlocked"));
	else
		skip("mlock refused here");
	ok(line_value(out.buf, "pgfault") >= 0,
	   "pgfault counted, never below 0: %lld",
	   line_value(out.buf, "pgfault"));
	vmstat_release(&before);
	vmstat_release(&after);
	strbuf_release(&out);
}

static void test_mmtests_names(void)
{
	is_str(vmstat_mmtests_name("compact_isolated"),
	       "Compaction pages isolated", "compact_isolated");
	is_str(vmstat_mmtests_name("compact_stall"), "Compaction stalls",
	       "compact_stall");
	is_str(vmstat_mmtests_name("pgscan_kswapd"), "Kswapd pages scanned",
	       "pgscan_kswapd");
	is_str(vmstat_mmtests_name("thp_fault_alloc"), "THP fault alloc",
	       "thp_fault_alloc");
	ok(!vmstat_mmtests_name("unevictable_pgs_mlocked"),
	   "a counter mmtests has no row for");
	ok(vmstat_mmtests_rank("pgmajfault") <
	   vmstat_mmtests_rank("compact_stall") &&
	   vmstat_mmtests_rank("compact_stall") <
	   vmstat_mmtests_rank("compact_isolated"),
	   "mmtests' order: faults, then compaction stalls, then isolated");
	is_int(vmstat_mmtests_rank("nr_free_pages"), -1, "no rank");
}

int main(void)
{
	if (!test_data_dir()) {
		printf("Bail out! no tests/data\n");
		return 1;
	}
	test_parse();
	test_globs();
	test_fixture_deltas();
	test_live();
	test_mmtests_names();
	return done_testing();
}
