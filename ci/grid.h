/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_GRID_H
#define RESPIN_CI_GRID_H

#include "ci/checks.h"
#include "ci/kselftest.h"
#include "ci/results.h"
#include "ci/stats.h"
#include "ci/warnings.h"
#include "series/store.h"

struct json;

/*
 * The stored results of one version as a grid: a row a position (0 is
 * the base, i the tree after patch i), a column a check.  Builds also
 * get the warnings new and gone since the row above; benches get their
 * samples and the comparison against the base (the base's samples of
 * the patch's own span of runs, as respin check compared them).  respin
 * results and respin report both read this.
 */
/*
 * A secondary metric of a bench at one position: another
 * "respin-metric:" line of its runs, or a /proc/vmstat delta
 * ("vmstat:compact_isolated"; respin.check.NAME.vmstat).  At a patch,
 * compared with the base's samples of the same metric in the patch's
 * span, as the main metric, but with no direction: its verdict is
 * "higher" or "lower" where the main metric's is better or worse.
 */
struct grid_metric {
	char *name;
	double *samples;
	int64_t *seq;
	size_t nr;
	double *base_samples;		/* at a patch: the base's span */
	size_t nr_base;
	struct stats_comparison cmp;
	int have_cmp;
};

struct grid_cell {
	int have;
	struct result res;
	struct warning_set warnings;	/* build: the set at this patch */
	struct warning_set added;	/* build: new since the previous */
	struct warning_set fixed;
	double *samples;		/* bench */
	int64_t *seq;			/* bench: the store's order */
	size_t nr_samples;
	/* bench: the base's samples of this patch's span (stats_window()) */
	double *base_samples;
	size_t nr_base_samples;
	struct stats_comparison cmp;	/* bench: against those */
	int have_cmp;
	/* kselftest: what changed since the row above, or NULL */
	struct kselftest_changes *ks;
	/* bench: its secondary metrics, sorted by name */
	struct grid_metric *metrics;
	size_t nr_metrics;
};

struct grid {
	const struct series_version *v;	/* borrowed */
	size_t ncols;
	struct grid_cell *cells;	/* (nr_patches + 1) * ncols */
	int any;			/* some result is stored */
};

int grid_load(struct grid *g, git_repository *repo, struct results *rs,
	      const struct check_list *checks,
	      const struct series_version *v);
struct grid_cell *grid_cell(const struct grid *g, size_t i, size_t k);

/*
 * What the grids of a command read from: the checks as configured and
 * the results store, opened only when one exists (rs stays NULL, and
 * nothing is created, in a repository never checked).
 */
struct grid_store {
	struct check_list checks;
	struct results *rs;
};

int grid_store_open(git_repository *repo, struct grid_store *st);
void grid_store_close(struct grid_store *st);
/*
 * grid_load() from st; an empty grid (g->any 0) when there is no store
 * or v was recorded from mail only (it has no trees).
 */
int grid_load_stored(struct grid *g, git_repository *repo,
		     const struct grid_store *st,
		     const struct series_version *v);
void grid_release(struct grid *g);

/* Cell's secondary metric name, or NULL. */
const struct grid_metric *grid_cell_metric(const struct grid_cell *cell,
					   const char *name);
/*
 * The plan a bench's secondary metrics are compared under: c's runs
 * and threshold, arithmetic means, and "higher" taken as the gain, so
 * gain_pct is the change itself (release it with stats_plan_release()).
 * fixed: one look at any runs (stats_plan_fixed()).
 */
void grid_metric_plan(const struct check *c, int fixed,
		      struct stats_plan *out);
/*
 * stats_compare() for a secondary metric (a counter's delta is often 0
 * at the base): from a base of 0 there is no change in % (gain_pct
 * infinite), but Welch's 95% interval of the difference tells whether
 * it moved (significant, better meaning higher); 0 in every run on both
 * sides is the same.
 */
int grid_metric_compare(const double *base, size_t nbase, const double *patch,
			size_t npatch, const struct stats_plan *p,
			struct stats_comparison *c);
/* A secondary metric's verdict: "higher", "lower", "same", "inconclusive". */
const char *grid_metric_verdict_name(enum stats_verdict v);
/*
 * The members of a bench cell's secondary metrics in JSON (inside the
 * cell's object): "metrics" and "vmstat" (the counters without their
 * prefix), each an object of NAME: { samples, mean, stddev, and at a
 * patch the comparison as grid_comparison_json() gives it, its verdict
 * higher, lower, same or inconclusive }; nothing when it has none.
 */
void grid_metrics_json(struct json *j, const struct grid_cell *cell);

/* A change in %: "+6.2%", never "-0.0%". */
void grid_pct(struct strbuf *out, double pct);
/* " *" better or worse, " ?" inconclusive, "" the same. */
const char *grid_verdict_mark(const struct stats_comparison *c);
/*
 * The members of a comparison in JSON (inside an object): verdict,
 * change_pct, gain_pct, interval_pct [low, high] (of change_pct),
 * threshold_pct, significant, n_base, n_patch, runs_needed (a side, in
 * all; null unless inconclusive).
 */
void grid_comparison_json(struct json *j, const struct stats_comparison *c);

/*
 * A cell as "respin results" prints it: "0E 1W", "ok +2 warnings",
 * "44/45 (1 skip)", a bench against the base: "+6.2% * (n=12)" (better
 * or worse), "+0.3% (n=12)" (the same), "-2.7% ? (n=40, 109 needed)"
 * (inconclusive, with the runs a side projected to decide); "-" when
 * nothing is stored.
 */
void grid_cell_text(struct strbuf *out, const struct check *c,
		    const struct grid_cell *cell, size_t i);
/*
 * Row i in one line, for a patch mail: "checkpatch 0E 0W; build ok, no
 * new warnings; mm 45/45; fio-randread +6.2% * (n=12)".  Checks with
 * nothing stored are left out; returns how many were written.
 */
size_t grid_patch_line(struct strbuf *out, const struct check_list *checks,
		       const struct grid *g, size_t i);

#endif
