/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_BENCHTABLE_H
#define RESPIN_CI_BENCHTABLE_H

#include "ci/grid.h"

/*
 * A bench's stored samples in the layout of mmtests' compare-kernels,
 * which mm developers read and paste: the cover letter's tables and
 * respin results --format mmtests.
 *
 * A title line, then a table whose columns are the base and each
 * patch with samples (or two versions), and whose rows are, for the
 * metric and then each secondary metric (other respin-metric lines):
 *
 *	Amean     NAME  100.00 (   0.00%)  110.00 *  10.00%*
 *	Stddev, CoeffVar (stddev in % of the mean), Min, Max
 *
 * (Hmean for a rate), the change in % against the first column (> 0
 * is better; for spread rows, less spread), "*" around it when better
 * or worse (secondary metrics: higher or lower), "( )" the same, "?"
 * inconclusive; then "Runs" (the runs a side; "40 (109 needed)" when
 * inconclusive).  Each patch is compared with the base's runs of its
 * own span (ci/grid.h).  Then, for /proc/vmstat deltas, a table of one
 * row a counter, the mean delta a run:
 *
 *	Ops Compaction pages isolated  1234.00 (   0.00%)  1100.00 * -10.86%*
 *
 * the counter named as mmtests names it (ci/vmstat.h) or by its own
 * name, the change in % with its sign, "*" when its interval excludes
 * 0 (mmtests prints totals with no marks; respin has every run's
 * delta, so it compares them).  Counters that stayed 0 everywhere are
 * left out.
 */

/* Bench k of grid g: the base and each patch.  Nothing when no samples. */
void bench_table_by_patch(struct strbuf *out, const struct check *c,
			  const struct grid *g, size_t k);
/*
 * The whole series (its last patch), the previous version prev against
 * g: samples taken apart, each against its own base, compared once as
 * they are (the plain 95% interval).
 */
void bench_table_by_version(struct strbuf *out, const struct check *c,
			    const struct grid *g, const struct grid *prev,
			    size_t k);

#endif
