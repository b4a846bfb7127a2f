// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP / TAP parsing: kunit's nested KTAP (the layout of the kernel's
 * Documentation/dev-tools/ktap.rst), kselftest's run_kselftest.sh TAP
 * 13 with each test's output behind "# ", directives, plans not met,
 * bail-outs, crashes, and serial-console noise.
 */
#include "ci/ktap.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <stdlib.h>

static struct ktap_result res;
static int parse_ret;

static void parse(const char *text)
{
	ktap_result_release(&res);
	error_clear();
	parse_ret = ktap_parse(text, strlen(text), &res);
}

/*
 * "path=STATUS path=STATUS ..." of the leaves, for one-line checks.
 * (Test descriptions here never contain '#': prove would read a
 * "# TODO" or "# SKIP" in them as a directive of this very output.)
 */
static const char *leaves(void)
{
	static struct strbuf sb = STRBUF_INIT;
	struct ktap_leaf *v;
	size_t nr, i;

	strbuf_reset(&sb);
	nr = ktap_result_leaves(&res, &v);
	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", v[i].path,
			    ktap_status_name(v[i].status));
	ktap_leaves_free(v, nr);
	return sb.buf;
}

static const char *counts(void)
{
	static char buf[128];
	const struct ktap_counts *c = &res.counts;

	snprintf(buf, sizeof(buf), "pass %d fail %d skip %d xfail %d todo %d error %d missing %d",
		 c->pass, c->fail, c->skip, c->xfail, c->todo, c->error,
		 c->missing);
	return buf;
}

static const char *verdict(void)
{
	return ktap_verdict_name(res.verdict);
}

/* Finds a test by its path of 1-based child positions, 0-terminated. */
static const struct ktap_test *child(const struct ktap_test *t, ...)
{
	va_list ap;
	int i;

	va_start(ap, t);
	while (t && (i = va_arg(ap, int)) > 0)
		t = (size_t)i <= t->nr_subtests ? t->subtests[i - 1] : NULL;
	va_end(ap);
	return t;
}

static void test_kunit_nested(void)
{
	/* The nesting of the KTAP specification's examples. */
	parse("KTAP version 1\n"
	      "1..2\n"
	      "    KTAP version 1\n"
	      "    # Subtest: example\n"
	      "    1..3\n"
	      "    ok 1 example_simple_test\n"
	      "        KTAP version 1\n"
	      "        # Subtest: example_params\n"
	      "        1..2\n"
	      "        ok 1 param-0\n"
	      "        # example_params: needs more memory\n"
	      "        ok 2 param-1 # SKIP no memory\n"
	      "    ok 2 example_params\n"
	      "    # example_todo: not done yet\n"
	      "    not ok 3 example_todo # TODO not implemented\n"
	      "# example: pass:2 fail:0 skip:0 total:3\n"
	      "ok 1 example\n"
	      "    KTAP version 1\n"
	      "    # Subtest: second\n"
	      "    1..1\n"
	      "    ok 1 - second_test\n"
	      "ok 2 second\n");
	is_int(parse_ret, 0, "kunit: parsed");
	is_int(res.version, 1, "kunit: KTAP version 1");
	is_str(verdict(), "PASS", "kunit: PASS (pass, skip, todo)");
	ok(res.reason == NULL, "kunit: no reason for a PASS");
	is_str(leaves(), "example/example_simple_test=PASS "
	       "example/example_params/param-0=PASS "
	       "example/example_params/param-1=SKIP "
	       "example/example_todo=TODO second/second_test=PASS",
	       "kunit: leaves with paths");
	is_str(counts(), "pass 3 fail 0 skip 1 xfail 0 todo 1 error 0 missing 0",
	       "kunit: counts");
	{
		const struct ktap_test *t = child(&res.root, 1, 2, 2, 0);

		ok(t && t->number == 2 && t->directive == KTAP_DIRECTIVE_SKIP,
		   "kunit: param-1 is number 2, SKIP");
		is_str(t ? t->directive_text : NULL, "SKIP no memory",
		       "kunit: the directive's text");
		is_str(t ? t->diagnostic : NULL,
		       "example_params: needs more memory\n",
		       "kunit: the diagnostic line before it");
		t = child(&res.root, 1, 0);
		ok(t && t->plan == 3 && t->has_result && t->ok &&
		   !strcmp(t->name, "example"), "kunit: suite example, plan 3");
		is_str(t ? t->diagnostic : NULL,
		       "example: pass:2 fail:0 skip:0 total:3\n",
		       "kunit: the suite's summary diagnostic");
		t = child(&res.root, 1, 3, 0);
		ok(t && !t->ok && t->status == KTAP_TODO,
		   "kunit: not ok with a TODO directive is TODO, not FAIL");
		t = child(&res.root, 2, 1, 0);
		is_str(t ? t->name : NULL, "second_test",
		       "kunit: TAP 14 \"ok 1 - name\" loses the dash");
	}
	is_int(res.root.plan, 2, "kunit: top plan");
}

/* A 6.1 run_kselftest.sh run of four vm tests. */
static const char kselftest_61[] =
	"TAP version 13\n"
	"1..4\n"
	"# selftests: vm: mremap_test\n"
	"# TAP version 13\n"
	"# 1..3\n"
	"# ok 1 Expandable mremap\n"
	"# ok 2 Range mremap\n"
	"# # mremap took 12 ms\n"
	"# ok 3 mremap backwards\n"
	"# # Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n"
	"ok 1 selftests: vm: mremap_test\n"
	"# selftests: vm: hugepage-mmap\n"
	"# TAP version 13\n"
	"# 1..1\n"
	"# ok 1 # SKIP no hugepages configured\n"
	"ok 2 selftests: vm: hugepage-mmap # SKIP\n"
	"# selftests: vm: ksm_tests\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# ok 1 merge across nodes\n"
	"# ok 2 unmerge # XFAIL known on this config\n"
	"ok 3 selftests: vm: ksm_tests\n"
	"# selftests: vm: run_vmtests.sh\n"
	"# TAP version 13\n"
	"# 1..5\n"
	"# ok 1 hugetlb\n"
	"# ok 2 userfaultfd\n"
	"not ok 4 selftests: vm: run_vmtests.sh # TIMEOUT 45 seconds\n";

static void test_kselftest(void)
{
	const struct ktap_test *t;

	parse(kselftest_61);
	is_int(parse_ret, 0, "kselftest: parsed");
	is_int(res.version, 13, "kselftest: TAP version 13");
	is_str(verdict(), "FAIL", "kselftest: a TIMEOUT is a FAIL");
	is_str(leaves(), "vm/mremap_test/Expandable mremap=PASS "
	       "vm/mremap_test/Range mremap=PASS "
	       "vm/mremap_test/mremap backwards=PASS "
	       "vm/hugepage-mmap/#1=SKIP "
	       "vm/ksm_tests/merge across nodes=PASS "
	       "vm/ksm_tests/unmerge=XFAIL "
	       "vm/run_vmtests.sh/hugetlb=PASS "
	       "vm/run_vmtests.sh/userfaultfd=PASS "
	       "vm/run_vmtests.sh/#3=ERROR "
	       "vm/run_vmtests.sh/#4=ERROR "
	       "vm/run_vmtests.sh/#5=ERROR",
	       "kselftest: leaves, runner names as vm/test");
	is_str(counts(), "pass 6 fail 0 skip 1 xfail 1 todo 0 error 3 missing 3",
	       "kselftest: the three tests cut off count as missing");
	is_str(res.reason, "vm/run_vmtests.sh failed: TIMEOUT 45 seconds",
	       "kselftest: the reason");

	t = child(&res.root, 4, 0);
	ok(t && t->number == 4 && t->status == KTAP_FAIL &&
	   t->directive == KTAP_DIRECTIVE_TIMEOUT,
	   "kselftest: not ok 4 with a TIMEOUT directive: FAIL");
	is_str(t ? t->directive_text : NULL, "TIMEOUT 45 seconds",
	       "kselftest: the timeout's text");
	ok(t && t->plan == 5 && t->plan_mismatch,
	   "kselftest: its plan of 5 was not met");
	t = child(&res.root, 1, 0);
	is_str(t ? t->name : NULL, "selftests: vm: mremap_test",
	       "kselftest: the runner's line names the nested test");
	is_str(t ? t->diagnostic : NULL,
	       "selftests: vm: mremap_test\n"
	       "Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n",
	       "kselftest: runner and summary diagnostics");
	t = child(&res.root, 1, 3, 0);
	is_str(t ? t->diagnostic : NULL, "mremap took 12 ms\n",
	       "kselftest: a nested diagnostic belongs to the next test");
	t = child(&res.root, 2, 0);
	ok(t && t->status == KTAP_SKIP && t->nr_subtests == 1,
	   "kselftest: ok 2 with a SKIP directive");
	is_int(res.root.nr_subtests, 4, "kselftest: four top-level tests");

	/* The same run, complete and passing. */
	{
		struct strbuf sb = STRBUF_INIT;
		char *cut;

		strbuf_addstr(&sb, kselftest_61);
		cut = strstr(sb.buf, "# ok 2 userfaultfd\n");
		strbuf_setlen(&sb, cut - sb.buf);
		strbuf_addstr(&sb, "# ok 2 userfaultfd\n"
			      "# ok 3 thp\n"
			      "# ok 4 mlock\n"
			      "# ok 5 ksm\n"
			      "ok 4 selftests: vm: run_vmtests.sh\n");
		parse(sb.buf);
		is_str(verdict(), "PASS", "kselftest complete: PASS");
		is_str(counts(), "pass 9 fail 0 skip 1 xfail 1 todo 0 error 0 missing 0",
		       "kselftest complete: counts");
		strbuf_release(&sb);
	}
}

static void test_exit_code_not_trusted(void)
{
	/*
	 * mremap_test style: a subtest says "not ok" but the program
	 * exits 0, so the runner prints "ok".  The subtest decides.
	 */
	parse("TAP version 13\n"
	      "1..1\n"
	      "# selftests: vm: mremap_test\n"
	      "# TAP version 13\n"
	      "# 1..3\n"
	      "# ok 1 Expandable mremap\n"
	      "# not ok 2 Range mremap: Source and destination regions overlapping\n"
	      "# ok 3 mremap backwards\n"
	      "# # Totals: pass:2 fail:1 xfail:0 xpass:0 skip:0 error:0\n"
	      "ok 1 selftests: vm: mremap_test\n");
	is_str(verdict(), "FAIL", "not ok with exit 0: FAIL");
	is_str(leaves(), "vm/mremap_test/Expandable mremap=PASS "
	       "vm/mremap_test/Range mremap: Source and destination regions overlapping=FAIL "
	       "vm/mremap_test/mremap backwards=PASS",
	       "not ok with exit 0: the failing subtest");
	is_str(res.reason, "vm/mremap_test/Range mremap: Source and destination "
	       "regions overlapping failed", "not ok with exit 0: reason");

	/* The other way: every subtest ok, the runner saw a crash. */
	parse("TAP version 13\n"
	      "1..1\n"
	      "# selftests: vm: map_fixed_noreplace\n"
	      "# TAP version 13\n"
	      "# 1..2\n"
	      "# ok 1 first\n"
	      "# ok 2 second\n"
	      "not ok 1 selftests: vm: map_fixed_noreplace # exit=139\n");
	is_str(verdict(), "FAIL", "all subtests ok, runner not ok: FAIL");
	is_str(leaves(), "vm/map_fixed_noreplace=FAIL "
	       "vm/map_fixed_noreplace/first=PASS "
	       "vm/map_fixed_noreplace/second=PASS",
	       "the runner's failure is a leaf of its own");
	is_str(counts(), "pass 2 fail 1 skip 0 xfail 0 todo 0 error 0 missing 0",
	       "and is counted");
	ok(child(&res.root, 1, 0)->directive == KTAP_DIRECTIVE_OTHER,
	   "the runner's exit=139 is kept as text");
}

static void test_plans(void)
{
	/* Top-level tests missing: the run crashed. */
	parse("KTAP version 1\n"
	      "1..5\n"
	      "ok 1 a\n"
	      "ok 2 b\n"
	      "[   42.123456] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	      "[   42.123999] Kernel panic - not syncing: Fatal exception\n");
	is_str(verdict(), "ERROR", "missing top-level tests: ERROR");
	is_str(leaves(), "a=PASS b=PASS #3=ERROR #4=ERROR #5=ERROR",
	       "missing tests are listed");
	is_str(counts(), "pass 2 fail 0 skip 0 xfail 0 todo 0 error 3 missing 3",
	       "and counted");
	is_str(res.reason, "#3 is missing: the run stopped early",
	       "the reason names the first missing test");
	is_int(res.ignored, 2, "the kernel's lines are ignored");

	/* A gap in the numbers. */
	parse("1..3\nok 1 a\nok 3 c\n");
	is_str(leaves(), "a=PASS #2=ERROR c=PASS", "a gap: missing in place");
	is_str(verdict(), "ERROR", "a gap: ERROR");

	/* More results than planned. */
	parse("1..2\nok 1 a\nok 2 b\nok 3 c\n");
	is_str(verdict(), "ERROR", "more results than planned: ERROR");
	is_str(res.reason, "the top level planned 2 tests, reported 3",
	       "  with the counts");

	/* The plan may come last. */
	parse("ok 1 a\nnot ok 2 b\n1..2\n");
	is_str(verdict(), "FAIL", "plan at the end: fine, a FAIL");
	is_str(res.reason, "b failed", "  b failed");

	/* No plan at all: the end never came. */
	parse("TAP version 13\nok 1 a\nok 2 b\n");
	is_str(verdict(), "ERROR", "no plan: ERROR");
	is_str(res.reason, "no test plan (1..N) at the top level", "  saying so");

	/* Nothing to run. */
	parse("TAP version 13\n1..0 # SKIP no tests for this arch\n");
	is_str(verdict(), "PASS", "1..0: nothing to run, PASS");
	is_str(res.root.directive_text, "SKIP no tests for this arch",
	       "1..0: the skip reason");
	is_int(res.root.plan, 0, "1..0: plan 0");

	/* Only a header: started, then died. */
	parse("TAP version 13\n");
	is_str(verdict(), "ERROR", "a header only: ERROR");

	/* A nested plan not met, but its runner said ok. */
	parse("TAP version 13\n1..1\n"
	      "# TAP version 13\n# 1..3\n# ok 1 x\n"
	      "ok 1 selftests: a: b\n");
	is_str(verdict(), "ERROR", "nested plan short under an ok: ERROR");
	is_str(counts(), "pass 1 fail 0 skip 0 xfail 0 todo 0 error 2 missing 2",
	       "  two missing");
	is_str(res.reason, "a/b/#2 is missing: the run stopped early",
	       "  the reason");
}

static void test_bail_out(void)
{
	parse("TAP version 13\n1..3\nok 1 a\nBail out! no /dev/kvm\n");
	is_str(verdict(), "ERROR", "top-level bail-out: ERROR");
	ok(res.root.bailed_out, "  the root bailed out");
	is_str(res.root.bail_reason, "no /dev/kvm", "  with the reason");
	is_str(res.reason, "bail out in the top level: no /dev/kvm",
	       "  said first");
	is_str(counts(), "pass 1 fail 0 skip 0 xfail 0 todo 0 error 2 missing 2",
	       "  the rest missing");

	/* kselftest's ksft_exit_fail_msg(): nested, then the runner. */
	parse("TAP version 13\n1..2\n"
	      "# selftests: vm: madv_populate\n"
	      "# TAP version 13\n"
	      "# 1..21\n"
	      "# ok 1 range allocated\n"
	      "# Bail out! MADV_POPULATE_READ is not available\n"
	      "not ok 1 selftests: vm: madv_populate # exit=1\n"
	      "# selftests: vm: gup_test\n"
	      "ok 2 selftests: vm: gup_test\n");
	is_str(verdict(), "FAIL", "nested bail-out under a not ok: FAIL");
	ok(child(&res.root, 1, 0)->bailed_out, "  the test bailed out");
	is_str(child(&res.root, 1, 0)->bail_reason,
	       "MADV_POPULATE_READ is not available", "  its reason");
	is_str(res.reason, "vm/madv_populate failed: exit=1",
	       "  the reason is the runner's line");
	is_int(res.counts.missing, 20, "  its 20 missing subtests counted");

	/* A bail-out printed with no header or plan first. */
	parse("TAP version 13\n1..1\n"
	      "# selftests: x: y\n"
	      "# Bail out! cannot open /proc/self/pagemap\n"
	      "not ok 1 selftests: x: y # exit=1\n");
	is_str(verdict(), "FAIL", "a bare nested bail-out: FAIL, not ERROR");
	ok(!res.root.bailed_out, "  the top level did not bail out");
}

static void test_crash(void)
{
	/* Output stops inside a nested test, mid-line. */
	parse("TAP version 13\n"
	      "1..3\n"
	      "# selftests: vm: mremap_test\n"
	      "ok 1 selftests: vm: mremap_test\n"
	      "# selftests: vm: userfaultfd\n"
	      "# TAP version 13\n"
	      "# 1..4\n"
	      "# ok 1 anon\n"
	      "# ok 2 sh");
	is_str(verdict(), "ERROR", "crash mid-output: ERROR");
	ok(res.partial_line, "  the last line was cut");
	is_str(leaves(), "vm/mremap_test=PASS vm/userfaultfd/anon=PASS "
	       "vm/userfaultfd/sh=PASS vm/userfaultfd/#3=ERROR "
	       "vm/userfaultfd/#4=ERROR #3=ERROR",
	       "  what ran, and what is missing at both levels");
	is_str(res.reason, "output ended inside vm/userfaultfd",
	       "  the reason names the test");
	ok(child(&res.root, 2, 0)->cut_off, "  the nested test is cut off");

	/* Cut off with no nested plan: the test itself is the leaf. */
	parse("KTAP version 1\n1..1\n"
	      "    KTAP version 1\n"
	      "    # Subtest: suite\n"
	      "    ok 1 case_a\n");
	is_str(leaves(), "suite=ERROR suite/case_a=PASS",
	       "cut off, no plan: the suite itself is an ERROR leaf");
	is_str(verdict(), "ERROR", "  ERROR");

	/* A half-written result line at the end is just noise. */
	parse("1..2\nok 1 a\nnot o");
	is_str(leaves(), "a=PASS #2=ERROR", "a truncated result line");
}

static void test_directives(void)
{
	parse("TAP version 13\n"
	      "1..9\n"
	      "ok 1 plain\n"
	      "not ok 2 broken\n"
	      "ok 3 skipped # SKIP not here\n"
	      "not ok 4 old-style skip # SKIP\n"
	      "ok 5 lower case # skip why not\n"
	      "not ok 6 todo # TODO later\n"
	      "ok 7 xfail # XFAIL expected to fail\n"
	      "not ok 8 error # ERROR could not start\n"
	      "ok 9 hash#inside # SKIP\n");
	is_str(leaves(), "plain=PASS broken=FAIL skipped=SKIP old-style skip=SKIP "
	       "lower case=SKIP todo=TODO xfail=XFAIL error=ERROR "
	       "hash#inside=SKIP", "every directive");
	is_str(counts(), "pass 1 fail 1 skip 4 xfail 1 todo 1 error 1 missing 0",
	       "every directive counted");
	is_str(verdict(), "ERROR", "an ERROR directive: ERROR");
	is_str(child(&res.root, 5, 0)->directive_text, "skip why not",
	       "directive text as written");
	ok(child(&res.root, 6, 0)->directive == KTAP_DIRECTIVE_TODO &&
	   child(&res.root, 7, 0)->directive == KTAP_DIRECTIVE_XFAIL &&
	   child(&res.root, 8, 0)->directive == KTAP_DIRECTIVE_ERROR &&
	   child(&res.root, 1, 0)->directive == KTAP_DIRECTIVE_NONE,
	   "directive kinds");

	parse("1..2\nok 1 # SKIP\nok 2 x # SKIP\n");
	is_str(verdict(), "PASS", "all skipped: PASS");
	is_str(leaves(), "#1=SKIP x=SKIP", "a nameless test is named by its number");

	/* 6.1's memfd_secret under run_vmtests.sh: plan 3, one result */
	parse("TAP version 13\n1..2\n# TAP version 13\n# 1..3\n"
	      "# ok 2 # SKIP memfd_secret is not supported\n"
	      "ok 1 memfd_secret # SKIP\n"
	      "# 1..1\n# not ok 1 inner\nok 2 outer # SKIP\n");
	is_str(leaves(), "memfd_secret/#1=SKIP memfd_secret/#2=SKIP "
	       "memfd_secret/#3=SKIP outer/inner=FAIL", "a skipped test's "
	       "broken plan: its missing tests skipped too");
	is_str(verdict(), "FAIL", "no ERROR for the skipped test's plan, "
	       "a failure below a skipped one still counts");
}

static void test_console_noise(void)
{
	/* QEMU serial console: CRLF, colours, a reset, printk stamps. */
	parse("\x1b" "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.0)\r\r\n"
	      "Booting from ROM..\r\n"
	      "[    0.000000] Linux version 6.1.0 (gcc 12.2.0)\r\n"
	      "[    1.234567] Run /init as init process\r\n"
	      "TAP version 13\r\n"
	      "1..2\r\n"
	      "# selftests: vm: mremap_test\r\n"
	      "# TAP version 13\r\n"
	      "# 1..2\r\n"
	      "# \x1b[32mok\x1b[0m 1 Expandable mremap\r\n"
	      "[    3.100000] random: crng init done\r\n"
	      "# ok 2 Range mremap\r\n"
	      "ok 1 selftests: vm: mremap_test\r\n"
	      "\x1b[1;31mnot ok\x1b[0m 2 selftests: vm: compaction_test # exit=1\r\n"
	      "[    4.000000] reboot: Power down\r\n");
	is_str(verdict(), "FAIL", "console: FAIL");
	is_str(leaves(), "vm/mremap_test/Expandable mremap=PASS "
	       "vm/mremap_test/Range mremap=PASS vm/compaction_test=FAIL",
	       "console: CR, escapes and kernel lines gone");
	is_int(res.ignored, 6, "console: six lines ignored");
	ok(!child(&res.root, 1, 1, 0)->name ||
	   !strchr(child(&res.root, 1, 1, 0)->name, '\r'),
	   "console: no CR left in names");

	/* kunit printed through printk, with timestamps. */
	parse("[    0.512345] KTAP version 1\n"
	      "[    0.512346] 1..1\n"
	      "[    0.512350]     KTAP version 1\n"
	      "[    0.512351]     # Subtest: list-kunit-test\n"
	      "[    0.512352]     1..2\n"
	      "[    0.512400]     ok 1 list_test_list_init\n"
	      "[    0.512401] some driver: probe of foo failed\n"
	      "[    0.512450]     ok 2 list_test_list_add\n"
	      "[    0.512500] ok 1 list-kunit-test\n");
	is_str(verdict(), "PASS", "printk KTAP: PASS");
	is_str(leaves(), "list-kunit-test/list_test_list_init=PASS "
	       "list-kunit-test/list_test_list_add=PASS",
	       "printk KTAP: timestamps stripped");
	is_int(res.ignored, 1, "printk KTAP: the driver line ignored");

	/* Built-in kunit at boot, then the kselftests: two documents. */
	parse("KTAP version 1\n1..1\nok 1 boot-suite\n"
	      "[    2.0] Freeing unused kernel memory\n"
	      "TAP version 13\n1..2\nok 1 selftests: a: b\n"
	      "not ok 2 selftests: a: c\n");
	is_str(leaves(), "boot-suite=PASS a/b=PASS a/c=FAIL",
	       "two documents in one log");
	is_str(verdict(), "FAIL", "two documents: FAIL from the second");
	is_int(res.root.plan, 3, "two documents: plans add up");

	parse("KTAP version 1\n1..2\nok 1 x\n"
	      "TAP version 13\n1..1\nok 1 y\n");
	is_str(verdict(), "ERROR", "a document cut short before the next");
	is_str(leaves(), "x=PASS #2=ERROR y=PASS", "  its missing test listed");
}

static void test_kunit_in_kselftest(void)
{
	/* kunit's KTAP (indented) inside kselftest's "# ". */
	parse("TAP version 13\n"
	      "1..1\n"
	      "# selftests: kunit: run.sh\n"
	      "# KTAP version 1\n"
	      "# 1..1\n"
	      "#     KTAP version 1\n"
	      "#     # Subtest: mm-suite\n"
	      "#     1..2\n"
	      "#     ok 1 a\n"
	      "#     not ok 2 b\n"
	      "# not ok 1 mm-suite\n"
	      "not ok 1 selftests: kunit: run.sh\n");
	is_str(leaves(), "kunit/run.sh/mm-suite/a=PASS kunit/run.sh/mm-suite/b=FAIL",
	       "three levels, mixed prefixes");
	is_str(verdict(), "FAIL", "  FAIL");
}

static void test_not_ktap(void)
{
	parse("make: *** [Makefile:1234: vmlinux] Error 2\n"
	      "okay then\n"
	      "ok computer\n"
	      "1..x\n");
	is_int(parse_ret, RESPIN_ENOTFOUND, "no KTAP: ENOTFOUND");
	ok(strstr(error_last(), "no KTAP") != NULL, "  saying so: %s",
	   error_last());
	is_str(verdict(), "ERROR", "  verdict ERROR");
	is_str(res.reason, "no KTAP or TAP output", "  reason");
	is_int(res.ignored, 4, "  all four lines ignored");

	parse("");
	is_int(parse_ret, RESPIN_ENOTFOUND, "empty: ENOTFOUND");
	is_int(res.lines, 0, "empty: no lines");

	/* Embedded NULs must not stop the parse. */
	{
		static const char nul[] = "1..2\nok 1 a\0\nok 2 b\n";

		ktap_result_release(&res);
		parse_ret = ktap_parse(nul, sizeof(nul) - 1, &res);
		is_str(leaves(), "a=PASS b=PASS", "a NUL in the output");
	}
}

static void test_json(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	parse("TAP version 13\n1..2\n"
	      "# TAP version 13\n# 1..1\n# # hello\n# ok 1 inner\n"
	      "ok 1 selftests: a: b\n"
	      "not ok 2 c # TIMEOUT 45 seconds\n");
	json_init(&j, &sb, 0);
	ktap_result_to_json(&j, &res, KTAP_JSON_TREE | KTAP_JSON_LEAVES |
					  KTAP_JSON_DIAGNOSTICS);
	is_str(sb.buf,
	       "{\"verdict\":\"FAIL\",\"reason\":\"c failed: TIMEOUT 45 seconds\","
	       "\"version\":13,\"plan\":2,"
	       "\"counts\":{\"pass\":1,\"fail\":1,\"skip\":0,\"xfail\":0,"
	       "\"todo\":0,\"error\":0,\"missing\":0},"
	       "\"lines\":8,\"ignored\":0,"
	       "\"tests\":[{\"number\":1,\"name\":\"selftests: a: b\","
	       "\"status\":\"PASS\",\"plan\":1,\"subtests\":[{\"number\":1,"
	       "\"name\":\"inner\",\"status\":\"PASS\",\"diagnostic\":\"hello\\n\"}]},"
	       "{\"number\":2,\"name\":\"c\",\"status\":\"FAIL\","
	       "\"directive\":\"TIMEOUT 45 seconds\"}],"
	       "\"leaves\":[{\"path\":\"a/b/inner\",\"status\":\"PASS\"},"
	       "{\"path\":\"c\",\"status\":\"FAIL\",\"directive\":\"TIMEOUT 45 seconds\"}]}",
	       "JSON: tree, leaves, diagnostics");

	strbuf_reset(&sb);
	json_init(&j, &sb, 0);
	ktap_result_to_json(&j, &res, 0);
	ok(!strstr(sb.buf, "\"tests\"") && !strstr(sb.buf, "\"leaves\"") &&
	   strstr(sb.buf, "\"counts\""), "JSON: only the summary when asked");

	parse("1..3\nok 1 a\nBail out! disk full\n");
	strbuf_reset(&sb);
	json_init(&j, &sb, 0);
	ktap_result_to_json(&j, &res, KTAP_JSON_TREE);
	ok(strstr(sb.buf, "\"bail_out\":\"disk full\"") &&
	   strstr(sb.buf, "{\"number\":2,\"status\":\"ERROR\",\"missing\":true}"),
	   "JSON: bail-out and missing tests");
	strbuf_release(&sb);
}

static void test_cut_anywhere(void)
{
	size_t len = strlen(kselftest_61), last, i;
	int never_pass = 1, always_found = 1;
	const char *p;

	/* The run's last result line starts here. */
	p = strstr(kselftest_61, "not ok 4 selftests");
	last = p - kselftest_61;
	for (i = 0; i < len; i++) {
		ktap_result_release(&res);
		ktap_parse(kselftest_61, i, &res);
		if (res.verdict == KTAP_VERDICT_PASS)
			never_pass = 0;
		if (i > 20 && (!res.found || (i < last &&
		    res.verdict != KTAP_VERDICT_ERROR)))
			always_found = 0;
	}
	ok(never_pass, "a run cut at any byte is never a PASS");
	ok(always_found, "cut before its last result line: always ERROR");
}

static void test_garbage(void)
{
	static const char *const bits[] = {
		"ok ", "not ok ", "1..", "3", "12", " # SKIP", " # TODO",
		" # TIMEOUT 1 s", "# ", "    ", "\t", "\n", "\n", "\n",
		"Bail out!", "# Subtest: s", "KTAP version 1", "TAP version 13",
		"\r", "\x1b[1m", "\x1b", "[ 1.5] ", "name", " - ", "#", "0",
		"1..0", "\n# selftests: a: b\n",
	};
	struct strbuf sb = STRBUF_INIT;
	unsigned seed = 12345;
	int round, consistent = 1;

	for (round = 0; round < 3000; round++) {
		struct ktap_leaf *v;
		const struct ktap_counts *c = &res.counts;
		size_t nr, k, pieces;

		strbuf_reset(&sb);
		seed = seed * 1103515245 + 12345;
		pieces = (seed >> 16) % 60;
		for (k = 0; k < pieces; k++) {
			seed = seed * 1103515245 + 12345;
			strbuf_addstr(&sb, bits[(seed >> 16) %
						(sizeof(bits) / sizeof(bits[0]))]);
		}
		ktap_result_release(&res);
		ktap_parse(sb.buf, sb.len, &res);
		nr = ktap_result_leaves(&res, &v);
		if ((int)nr != c->pass + c->fail + c->skip + c->xfail +
				c->todo + c->error ||
		    (res.verdict == KTAP_VERDICT_PASS &&
		     (c->fail || c->error)))
			consistent = 0;
		ktap_leaves_free(v, nr);
	}
	ok(consistent, "3000 random token soups: leaves and counts agree");
	strbuf_release(&sb);

	/* A huge plan that never runs stays linear. */
	parse("1..100000\nok 1 a\n");
	is_int(res.counts.missing, 99999, "a plan of 100000 with one result");
	parse("1..100001\nok 1 a\n");
	is_int(res.counts.missing, 0, "a larger \"plan\" is not a plan");
	is_str(verdict(), "ERROR", "  so there is no plan");
}

static void test_restarts(void)
{
	/* Two kunit suites where the first never printed its result. */
	parse("KTAP version 1\n1..2\n"
	      "    KTAP version 1\n    # Subtest: one\n    1..1\n    ok 1 x\n"
	      "    KTAP version 1\n    # Subtest: two\n    1..1\n    ok 1 y\n"
	      "ok 2 two\n");
	is_str(leaves(), "one=ERROR one/x=PASS two/y=PASS",
	       "a suite without its result line, then the next");
	is_str(res.reason, "output ended inside one", "  the reason");

	/* Indentation that is not a multiple of four. */
	parse("1..2\n  ok 1 a\n      ok 1 inner\nok 2 b\n");
	is_str(leaves(), "a=PASS b/inner=PASS", "stray spaces are noise");
}

static void test_names(void)
{
	struct ktap_result fresh;

	is_str(ktap_status_name(KTAP_PASS), "PASS", "status PASS");
	is_str(ktap_status_name(KTAP_XFAIL), "XFAIL", "status XFAIL");
	is_str(ktap_status_name(KTAP_ERROR), "ERROR", "status ERROR");
	is_str(ktap_verdict_name(KTAP_VERDICT_FAIL), "FAIL", "verdict FAIL");

	ktap_result_release(&res);
	ok(res.root.nr_subtests == 0 && res.reason == NULL,
	   "release leaves an empty result");
	/*
	 * A second release must find nothing to free: the first one left
	 * an initialised result (a double free would crash here, or be
	 * reported by ASan in a SAN=1 build).
	 */
	ktap_result_release(&res);
	ktap_result_init(&fresh);
	ok(!memcmp(&res, &fresh, sizeof(fresh)),
	   "release twice: the result is as ktap_result_init() leaves it");
}

int main(void)
{
	ktap_result_init(&res);
	test_kunit_nested();
	test_kselftest();
	test_exit_code_not_trusted();
	test_plans();
	test_bail_out();
	test_crash();
	test_directives();
	test_console_noise();
	test_kunit_in_kselftest();
	test_not_ktap();
	test_json();
	test_cut_anywhere();
	test_garbage();
	test_restarts();
	test_names();
	ktap_result_release(&res);
	return done_testing();
}
