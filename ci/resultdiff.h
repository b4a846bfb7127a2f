/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_RESULTDIFF_H
#define RESPIN_CI_RESULTDIFF_H

#include "ci/grid.h"
#include "ci/lint.h"
#include "tools/lib/json.h"

/*
 * What changed in the stored results of one patch from one version of
 * a series to another: row ia of grid a against row ib of grid b (a
 * pair of a range-diff), check by check.
 *
 *  - build: the status, and the warnings the patch adds (the grid's
 *    "added" set, compared without line numbers): new ones, and ones it
 *    no longer adds;
 *  - lint: the status, and findings (severity, type, file, message;
 *    not the line) in one version and not in the other;
 *  - ktap: the status, and the subtests (by path) whose result flipped;
 *  - bench: the change against the base in each version, and b's
 *    samples compared directly with a's;
 *  - command: the status and summary.
 *
 * Lint findings and KTAP subtests are read again from the stored logs.
 */

/* A KTAP subtest whose result differs; a or b is NULL where it is absent. */
struct resultdiff_flip {
	char *path;
	const char *a, *b;	/* ktap_status_name() */
};

struct resultdiff_check {
	const struct check *check;		/* borrowed */
	const struct grid_cell *a, *b;		/* borrowed; NULL: no result */
	int changed;
	struct warning_set new_warnings;	/* build: added in b, not a */
	struct warning_set fixed_warnings;	/* build: added in a, not b */
	int added_known;	/* build: both rows above have a build */
	struct lint_report new_findings;	/* lint: in b, not a */
	struct lint_report gone_findings;	/* lint: in a, not b */
	struct resultdiff_flip *flips;		/* ktap */
	size_t nr_flips, alloc_flips;
	struct stats_comparison direct;		/* bench: b against a */
	int have_direct;
};

struct resultdiff {
	struct resultdiff_check *checks;	/* a result on either side */
	size_t nr;
	int any_a, any_b;	/* some result on that side */
	int changed;		/* some check changed */
};

/*
 * Compares row ia of a with row ib of b (a or b may be NULL: a patch
 * that has no partner).  Both grids were loaded with the same checks.
 * Fills rd (release it with resultdiff_release(), also on an error);
 * returns 0 or a negative code.
 */
int resultdiff_compute(struct resultdiff *rd, struct results *rs,
		       const struct check_list *checks,
		       const struct grid *a, size_t ia,
		       const struct grid *b, size_t ib);
void resultdiff_release(struct resultdiff *rd);

/*
 * One line per change, each after prefix, version numbers va and vb
 * naming the sides:
 *
 *	build: FAIL -> PASS
 *	build: +1 warning: mm/x.c: warning: unused variable 'y' [-Wunused-variable]
 *	build: -1 warning: ...
 *	checkpatch: -ERROR: trailing whitespace (mm/vmscan.c)
 *	mm-selftests: mm/mremap_test: PASS -> FAIL
 *	fio: +6.2% * -> +0.3% against the base; v3 against v2: -5.6% *, worse
 *	mm-selftests: not run in v3
 *
 * and "unchanged" when both sides have results and nothing changed.
 * Nothing when neither side has results.
 */
void resultdiff_format(const struct resultdiff *rd, int va, int vb,
		       const char *prefix, struct strbuf *out);

/*
 * One JSON object (a value: call it where one may go): "changed" and
 * "checks", an object with a member per check (see docs/respin-diff.md).
 */
void resultdiff_to_json(const struct resultdiff *rd, struct json *j);

#endif
