/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_COVERRESULTS_H
#define RESPIN_REVIEW_COVERRESULTS_H

#include "ci/grid.h"

/*
 * The results parts of a cover letter, from what respin check stored:
 *
 * a table, one row a position (the base, then each patch), one column a
 * check, cells as "respin results" prints them;
 *
 * and for each benchmark, the tables of ci/benchtable.h, in the style
 * of mmtests' compare output: at the base and after each patch, then
 * the whole series against the previous version's.
 */
void cover_results_table(struct strbuf *out, const struct check_list *checks,
			 const struct grid *g);
void cover_bench_tables(struct strbuf *out, const struct check_list *checks,
			const struct grid *g, const struct grid *prev);

#endif
