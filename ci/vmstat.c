// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/vmstat read twice around a bench run: the counters, the globs
 * that pick them, the deltas as metric lines, and the names mmtests
 * gives the common ones (see ci/vmstat.h).
 */
#include "ci/vmstat.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void vmstat_release(struct vmstat *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		free(v->items[i].name);
	free(v->items);
	memset(v, 0, sizeof(*v));
}

static int name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

int vmstat_parse(struct vmstat *out, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t line = 0;

	vmstat_release(out);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *name_end;
		uint64_t value = 0;
		int digits = 0;

		if (!eol)
			eol = end;
		line++;
		while (q < eol && name_char((unsigned char)*q))
			q++;
		name_end = q;
		if (q < eol && *q == ' ')
			q++;
		while (q < eol && *q >= '0' && *q <= '9') {
			value = value * 10 + (uint64_t)(*q++ - '0');
			digits++;
		}
		if (eol == p) {
			p = eol + 1;	/* an empty line (the last) */
			continue;
		}
		if (name_end == p || !digits || q != eol)
			return error("vmstat line %zu is not 'name value': "
				     "'%.*s'", line, (int)(eol - p > 80 ? 80 :
							     eol - p), p);
		ALLOC_GROW(out->items, out->nr, out->alloc);
		out->items[out->nr].name = xstrndup(p, (size_t)(name_end - p));
		out->items[out->nr].value = value;
		out->nr++;
		p = eol + 1;
	}
	return 0;
}

int vmstat_read(struct vmstat *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!path)
		path = VMSTAT_PATH;
	if (strbuf_read_file(&sb, path) < 0) {
		r = error_errno("cannot read %s", path);
		strbuf_release(&sb);
		return r;
	}
	r = vmstat_parse(out, sb.buf, sb.len);
	if (r < 0)
		r = error("%s: %s", path, error_last());
	strbuf_release(&sb);
	return r;
}

const struct vmstat_counter *vmstat_find(const struct vmstat *v,
					 const char *name)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->items[i].name, name))
			return &v->items[i];
	return NULL;
}

/* A glob over counter names: 0, or an error saying what is wrong. */
static int glob_check(const char *key, const char *w)
{
	const char *p;

	if (!strcmp(w, "all"))
		return 0;
	for (p = w; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '_' || *p == '*' || *p == '?')
			continue;
		if (*p == '[') {
			const char *close = p + 1;

			if (*close == '!' || *close == '^')
				close++;
			if (*close == ']')	/* a first ']' is a member */
				close++;
			close = strchr(close, ']');
			if (!close)
				return error("%s: '%s' has a '[' without its "
					     "']'", key, w);
			p = close;
			continue;
		}
		return error("%s: '%s' is not a glob of /proc/vmstat counter "
			     "names (lower-case letters, digits, '_' and the "
			     "wildcards * ? [...]; or all)", key, w);
	}
	return 0;
}

int vmstat_globs_check(const char *key, const char *globs)
{
	struct strbuf w = STRBUF_INIT;
	const char *p = globs;
	int r = 0, n = 0;

	while (!r && strbuf_next_word(&w, &p, " \t")) {
		r = glob_check(key, w.buf);
		n++;
	}
	if (!r && !n)
		r = error("%s: no counters named (globs like 'compact_* "
			  "pgscan_*', or all)", key);
	strbuf_release(&w);
	return r;
}

int vmstat_globs_match(const char *globs, const char *name)
{
	struct strbuf w = STRBUF_INIT;
	const char *p = globs;
	int hit = 0;

	while (!hit && strbuf_next_word(&w, &p, " \t"))
		hit = !strcmp(w.buf, "all") || !fnmatch(w.buf, name, 0);
	strbuf_release(&w);
	return hit;
}

size_t vmstat_delta_lines(struct strbuf *out, const struct vmstat *before,
			  const struct vmstat *after, const char *globs)
{
	size_t i, n = 0;

	for (i = 0; i < after->nr; i++) {
		const struct vmstat_counter *a = &after->items[i], *b;

		if (!vmstat_globs_match(globs, a->name))
			continue;
		b = vmstat_find(before, a->name);
		if (!b)
			continue;
		/* unsigned wrap-around, then signed: a gauge may go down */
		strbuf_addf(out, "respin-metric: " VMSTAT_METRIC_PREFIX
			    "%s %" PRId64 "\n", a->name,
			    (int64_t)(a->value - b->value));
		n++;
	}
	return n;
}

void vmstat_globs_unmatched(struct strbuf *out, const struct vmstat *v,
			    const char *globs)
{
	struct strbuf w = STRBUF_INIT;
	const char *p = globs;
	size_t i;

	while (strbuf_next_word(&w, &p, " \t")) {
		int hit = !strcmp(w.buf, "all") && v->nr;

		for (i = 0; !hit && i < v->nr; i++)
			hit = !fnmatch(w.buf, v->items[i].name, 0);
		if (!hit)
			strbuf_addf(out, "%s%s", out->len ? " " : "", w.buf);
	}
	strbuf_release(&w);
}

/*
 * The counters mmtests' compare-kernels names in its "Ops" rows where a
 * row is one counter, in the order it prints them (its rows made of
 * several counters, such as Minor Faults or the efficiencies, are not
 * here: those counters keep their own names).
 */
static const struct {
	const char *counter, *name;
} mmtests_names[] = {
	{ "pgmajfault", "Major Faults" },
	{ "pswpin", "Swap Ins" },
	{ "pswpout", "Swap Outs" },
	{ "allocstall", "Allocation stalls" },
	{ "pgalloc_dma", "DMA allocs" },
	{ "pgalloc_dma32", "DMA32 allocs" },
	{ "pgalloc_normal", "Normal allocs" },
	{ "pgalloc_movable", "Movable allocs" },
	{ "pgscan_direct", "Direct pages scanned" },
	{ "pgscan_kswapd", "Kswapd pages scanned" },
	{ "pgsteal_kswapd", "Kswapd pages reclaimed" },
	{ "pgsteal_direct", "Direct pages reclaimed" },
	{ "nr_vmscan_write", "Page writes by reclaim" },
	{ "nr_vmscan_immediate_reclaim", "Page reclaim immediate" },
	{ "pgrescued", "Page rescued immediate" },
	{ "slabs_scanned", "Slabs scanned" },
	{ "pginodesteal", "Direct inode steals" },
	{ "kswapd_inodesteal", "Kswapd inode steals" },
	{ "thp_fault_alloc", "THP fault alloc" },
	{ "thp_fault_fallback", "THP fault fallback" },
	{ "thp_collapse_alloc", "THP collapse alloc" },
	{ "thp_collapse_alloc_failed", "THP collapse fail" },
	{ "thp_split_page", "THP split" },
	{ "thp_split_page_failed", "THP split failed" },
	{ "compact_stall", "Compaction stalls" },
	{ "compact_success", "Compaction success" },
	{ "compact_fail", "Compaction failures" },
	{ "pgmigrate_success", "Page migrate success" },
	{ "pgmigrate_fail", "Page migrate failure" },
	{ "compact_isolated", "Compaction pages isolated" },
	{ "compact_migrate_scanned", "Compaction migrate scanned" },
	{ "compact_free_scanned", "Compaction free scanned" },
	{ "compact_daemon_wake", "Kcompactd wake" },
	{ "compact_daemon_migrate_scanned", "Kcompactd migrate scanned" },
	{ "compact_daemon_free_scanned", "Kcompactd free scanned" },
	{ "numa_hit", "NUMA alloc hit" },
	{ "numa_miss", "NUMA alloc miss" },
	{ "numa_interleave", "NUMA interleave hit" },
	{ "numa_local", "NUMA alloc local" },
	{ "numa_pte_updates", "NUMA base-page range updates" },
	{ "numa_huge_pte_updates", "NUMA huge PMD updates" },
	{ "numa_hint_faults", "NUMA hint faults" },
	{ "numa_hint_faults_local", "NUMA hint local faults" },
	{ "numa_pages_migrated", "NUMA pages migrated" },
};

int vmstat_mmtests_rank(const char *counter)
{
	size_t i;

	for (i = 0; i < sizeof(mmtests_names) / sizeof(*mmtests_names); i++)
		if (!strcmp(mmtests_names[i].counter, counter))
			return (int)i;
	return -1;
}

const char *vmstat_mmtests_name(const char *counter)
{
	int k = vmstat_mmtests_rank(counter);

	return k < 0 ? NULL : mmtests_names[k].name;
}
