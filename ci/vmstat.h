/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_VMSTAT_H
#define RESPIN_CI_VMSTAT_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * What a bench run changed in /proc/vmstat (respin.check.NAME.vmstat):
 * the counters are read before and after the run by respin-bench-run
 * (tools/respin-bench-run.c), wherever the run happens (the host, or
 * the patch's kernel in a guest), and each counter a glob names is
 * printed as a secondary metric of the run,
 *
 *	respin-metric: vmstat:compact_isolated 1234
 *
 * which the bench kind stores beside the main metric, one sample a run.
 */
#define VMSTAT_METRIC_PREFIX "vmstat:"
#define VMSTAT_PATH "/proc/vmstat"

struct vmstat_counter {
	char *name;
	uint64_t value;
};

/* The counters of one read, in the file's order. */
struct vmstat {
	struct vmstat_counter *items;
	size_t nr, alloc;
};
#define VMSTAT_INIT { NULL, 0, 0 }

/*
 * Parses /proc/vmstat's text ("name value" lines) into out (emptied
 * first).  0, or an error naming the line that is not such a line.
 */
int vmstat_parse(struct vmstat *out, const char *text, size_t len);
/* Reads and parses path (VMSTAT_PATH when NULL); 0 or an error. */
int vmstat_read(struct vmstat *out, const char *path);
void vmstat_release(struct vmstat *v);
/* The counter named name, or NULL. */
const struct vmstat_counter *vmstat_find(const struct vmstat *v,
					 const char *name);

/*
 * The globs of the setting: words separated by blanks, each "all" or a
 * shell glob (fnmatch(3): * ? [...]) over counter names, which are
 * lower-case letters, digits and '_'.  vmstat_globs_check() is 0, or
 * an error naming key ("respin.check.NAME.vmstat") and the bad word.
 */
int vmstat_globs_check(const char *key, const char *globs);
/* 1 when a glob of globs (or "all") matches the counter name. */
int vmstat_globs_match(const char *globs, const char *name);

/*
 * The delta after - before of every counter globs matches that both
 * reads have, in after's order, as "respin-metric: vmstat:NAME DELTA"
 * lines appended to out; a counter may go down (a gauge such as
 * nr_free_pages): the delta is signed.  Returns the lines written.
 */
size_t vmstat_delta_lines(struct strbuf *out, const struct vmstat *before,
			  const struct vmstat *after, const char *globs);
/* The globs of globs that match no counter of v, separated by blanks. */
void vmstat_globs_unmatched(struct strbuf *out, const struct vmstat *v,
			    const char *globs);

/*
 * The name mmtests' compare-kernels gives a counter in its "Ops" rows
 * ("Compaction pages isolated" for compact_isolated), or NULL for a
 * counter it has no name for.  vmstat_mmtests_rank() is the counter's
 * place in mmtests' order of those rows (others after, -1).
 */
const char *vmstat_mmtests_name(const char *counter);
int vmstat_mmtests_rank(const char *counter);

#endif
