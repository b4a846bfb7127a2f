// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/grid.h"
#include "ci/engine.h"
#include "ci/kind.h"
#include "ci/static.h"
#include "ci/vmstat.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* What c's results hold (kind.h), from its kind. */
static enum kind_results results_of(const struct check *c)
{
	return check_kind_ops(c->kind)->results;
}

/* What the grid reads of c's results' details (kind.h). */
static enum kind_details details_of(const struct check *c)
{
	return check_kind_ops(c->kind)->details;
}

/*
 * A kind that never runs on the base (lint, the static kinds): its
 * base cell is empty, not missing.
 */
static int never_on_base(const struct check *c)
{
	return !(check_kind_ops(c->kind)->needs &
		 (KIND_ON_BASE | KIND_ON_BASE_TOO));
}

struct grid_cell *grid_cell(const struct grid *g, size_t i, size_t k)
{
	return &g->cells[i * g->ncols + k];
}

static void grid_metrics_free(struct grid_cell *c)
{
	size_t i;

	for (i = 0; i < c->nr_metrics; i++) {
		free(c->metrics[i].name);
		free(c->metrics[i].samples);
		free(c->metrics[i].seq);
		free(c->metrics[i].base_samples);
	}
	free(c->metrics);
	c->metrics = NULL;
	c->nr_metrics = 0;
}

const struct grid_metric *grid_cell_metric(const struct grid_cell *cell,
					   const char *name)
{
	size_t i;

	for (i = 0; i < cell->nr_metrics; i++)
		if (!strcmp(cell->metrics[i].name, name))
			return &cell->metrics[i];
	return NULL;
}

void grid_metric_plan(const struct check *c, int fixed,
		      struct stats_plan *out)
{
	if (fixed)
		stats_plan_fixed(out, STATS_HIGHER_IS_BETTER,
				 c->threshold_pct);
	else
		stats_plan_init(out, STATS_HIGHER_IS_BETTER, c->min_runs,
				c->max_runs, c->threshold_pct);
}

const char *grid_metric_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_BETTER:
		return "higher";
	case STATS_WORSE:
		return "lower";
	case STATS_SAME:
		return "same";
	case STATS_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

int grid_metric_compare(const double *base, size_t nbase, const double *patch,
			size_t npatch, const struct stats_plan *p,
			struct stats_comparison *c)
{
	struct stats_welch w;
	int r = stats_compare(base, nbase, patch, npatch, p, c);

	if (r < 0 || c->base.mean != 0 || nbase < 2 || npatch < 2)
		return r;
	if (c->patch.mean == 0 && c->base.stddev == 0 &&
	    c->patch.stddev == 0) {
		/* 0 every run, both sides */
		c->verdict = STATS_SAME;
		c->decided = 1;
		c->runs_needed = 0;
		c->change_pct = c->gain_pct = c->low_pct = c->high_pct = 0;
		return 0;
	}
	if (c->patch.mean == 0 || stats_welch_test(base, nbase, patch, npatch,
						   &w) < 0) {
		error_clear();
		return 0;
	}
	/* from 0: no change in %, but the difference can be told apart */
	c->welch = w;
	c->significant = w.diff_low > 0 || w.diff_high < 0;
	c->decided = c->significant;
	c->verdict = !c->significant ? STATS_INCONCLUSIVE :
		     w.diff > 0 ? STATS_BETTER : STATS_WORSE;
	c->change_pct = c->gain_pct = copysign(INFINITY, w.diff);
	c->runs_needed = c->decided ? 0 : -1;
	return 0;
}

/* The secondary metrics of a bench cell, from the store. */
static int load_metrics(struct results *rs, const struct check *c,
			struct grid_cell *cell)
{
	struct results_metric *m;
	size_t n, i;
	int r = results_metrics_get(rs, c->hash, cell->res.key, &m, &n);

	if (r < 0)
		return r;
	cell->metrics = xcalloc(n + 1, sizeof(*cell->metrics));
	for (i = 0; i < n; i++) {
		cell->metrics[i].name = m[i].name;
		cell->metrics[i].samples = m[i].vals;
		cell->metrics[i].seq = m[i].seq;
		cell->metrics[i].nr = m[i].n;
	}
	cell->nr_metrics = n;
	free(m);	/* its strings and arrays are the cell's now */
	return 0;
}

void grid_release(struct grid *g)
{
	size_t i, n;

	if (g->cells) {
		n = (g->v->nr_patches + 1) * g->ncols;
		for (i = 0; i < n; i++) {
			struct grid_cell *c = &g->cells[i];

			if (c->have)
				result_release(&c->res);
			warning_set_release(&c->warnings);
			warning_set_release(&c->added);
			warning_set_release(&c->fixed);
			free(c->samples);
			free(c->seq);
			free(c->base_samples);
			grid_metrics_free(c);
			if (c->ks)
				kselftest_changes_release(c->ks);
			free(c->ks);
		}
		free(g->cells);
	}
	memset(g, 0, sizeof(*g));
}

static int load_cell(git_repository *repo, struct results *rs,
		     const struct series_version *v, const struct check *c,
		     size_t i, struct grid_cell *cell)
{
	struct strbuf key = STRBUF_INIT;
	int r;

	if (i == 0 && never_on_base(c))
		return 0;
	r = engine_key(repo, v, c, i, &key);
	if (!r)
		r = results_get(rs, c->hash, key.buf, &cell->res);
	strbuf_release(&key);
	if (r == RESPIN_ENOTFOUND)
		return 0;
	if (r < 0)
		return r;
	cell->have = 1;
	/* a guest check's details: its kernel's warnings, as a build's */
	if (c->guest)
		warning_set_parse_lines(&cell->warnings, cell->res.details ?
					cell->res.details : "");
	if (results_of(c) == KIND_RESULTS_SAMPLES) {
		r = results_samples_get_seq(rs, c->hash, cell->res.key,
					    &cell->samples, &cell->seq,
					    &cell->nr_samples);
		return r < 0 ? r : load_metrics(rs, c, cell);
	}
	if (details_of(c) == KIND_DETAILS_WARNINGS)
		warning_set_parse_lines(&cell->warnings, cell->res.details ?
					cell->res.details : "");
	/* a static kind's cell says itself what its patch adds */
	if (details_of(c) == KIND_DETAILS_ADDED)
		static_details_parse(cell->res.details, &cell->added,
				     &cell->fixed, &cell->warnings);
	return 0;
}

/* A patch's secondary metrics against the base's, each of its span. */
static void compare_metrics(const struct grid_cell *base,
			    struct grid_cell *cur, const struct stats_plan *p)
{
	size_t m;

	for (m = 0; m < cur->nr_metrics; m++) {
		struct grid_metric *gm = &cur->metrics[m];
		const struct grid_metric *bm = grid_cell_metric(base, gm->name);

		if (!bm || !bm->nr || !gm->nr)
			continue;
		gm->base_samples = xcalloc(bm->nr, sizeof(*gm->base_samples));
		gm->nr_base = stats_window(bm->samples, bm->seq, bm->nr,
					   gm->seq, gm->nr, gm->base_samples);
		if (gm->nr_base &&
		    !grid_metric_compare(gm->base_samples, gm->nr_base,
					 gm->samples, gm->nr, p, &gm->cmp))
			gm->have_cmp = 1;
		error_clear();
	}
}

/* Bench k: each patch against the base. */
static void compare_bench(struct grid *g, const struct check *c, size_t k)
{
	const struct grid_cell *base = grid_cell(g, 0, k);
	struct stats_plan plan, mplan;
	size_t i;

	if (!base->have || !base->nr_samples)
		return;
	check_stats_plan(c, &plan);
	grid_metric_plan(c, 0, &mplan);
	for (i = 1; i <= g->v->nr_patches; i++) {
		struct grid_cell *cur = grid_cell(g, i, k);

		if (!cur->have || !cur->nr_samples)
			continue;
		cur->base_samples = xcalloc(base->nr_samples,
					    sizeof(*cur->base_samples));
		cur->nr_base_samples = stats_window(base->samples, base->seq,
						    base->nr_samples, cur->seq,
						    cur->nr_samples,
						    cur->base_samples);
		if (cur->nr_base_samples &&
		    !stats_compare(cur->base_samples, cur->nr_base_samples,
				   cur->samples, cur->nr_samples, &plan,
				   &cur->cmp))
			cur->have_cmp = 1;
		error_clear();
		compare_metrics(base, cur, &mplan);
	}
	stats_plan_release(&plan);
	stats_plan_release(&mplan);
}

/* Build k: the warnings new and gone at each patch. */
static void diff_warnings(struct grid *g, size_t k)
{
	size_t i, w;

	for (i = 1; i <= g->v->nr_patches; i++) {
		struct grid_cell *cur = grid_cell(g, i, k);
		const struct grid_cell *prev = grid_cell(g, i - 1, k);

		if (!cur->have || !prev->have)
			continue;
		for (w = 0; w < cur->warnings.nr; w++)
			if (!warning_set_has(&prev->warnings,
					     cur->warnings.items[w]))
				warning_set_add(&cur->added,
						cur->warnings.items[w]);
		for (w = 0; w < prev->warnings.nr; w++)
			if (!warning_set_has(&cur->warnings,
					     prev->warnings.items[w]))
				warning_set_add(&cur->fixed,
						prev->warnings.items[w]);
	}
}

/* Kselftest k: the tests new, gone, broken and fixed at each patch. */
static int diff_kselftest(struct grid *g, struct results *rs,
			  const struct check *c, size_t k)
{
	struct strbuf before = STRBUF_INIT, now = STRBUF_INIT;
	size_t i;
	int r = 0;

	for (i = 1; i <= g->v->nr_patches && r >= 0; i++) {
		struct grid_cell *cur = grid_cell(g, i, k);
		const struct grid_cell *prev = grid_cell(g, i - 1, k);

		if (!cur->have || !prev->have)
			continue;
		strbuf_reset(&before);
		strbuf_reset(&now);
		r = results_log(rs, c->hash, prev->res.key, &before);
		if (!r)
			r = results_log(rs, c->hash, cur->res.key, &now);
		if (r == RESPIN_ENOTFOUND) {
			error_clear();
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		cur->ks = xcalloc(1, sizeof(*cur->ks));
		kselftest_changes_compute(cur->ks, before.buf, before.len,
					  now.buf, now.len);
	}
	strbuf_release(&before);
	strbuf_release(&now);
	return r;
}

int grid_load(struct grid *g, git_repository *repo, struct results *rs,
	      const struct check_list *checks,
	      const struct series_version *v)
{
	size_t i, k, n = v->nr_patches;
	int r;

	memset(g, 0, sizeof(*g));
	g->v = v;
	g->ncols = checks->nr;
	g->cells = xcalloc((n + 1) * checks->nr + 1, sizeof(*g->cells));
	for (i = 0; i <= n; i++)
		for (k = 0; k < checks->nr; k++) {
			struct grid_cell *cell = grid_cell(g, i, k);

			r = load_cell(repo, rs, v, &checks->items[k], i, cell);
			if (r < 0)
				return r;
			g->any |= cell->have;
		}
	for (k = 0; k < checks->nr; k++) {
		if (checks->items[k].guest)
			diff_warnings(g, k);	/* the kernel's, at runtime */
		if (results_of(&checks->items[k]) == KIND_RESULTS_SAMPLES)
			compare_bench(g, &checks->items[k], k);
		else if (details_of(&checks->items[k]) ==
			 KIND_DETAILS_WARNINGS)
			diff_warnings(g, k);
		else if (details_of(&checks->items[k]) ==
			 KIND_DETAILS_SELFTESTS &&
			 (r = diff_kselftest(g, rs, &checks->items[k], k)) < 0)
			return r;
	}
	return 0;
}

int grid_store_open(git_repository *repo, struct grid_store *st)
{
	struct strbuf path = STRBUF_INIT;
	int r = 0;

	memset(st, 0, sizeof(*st));
	strbuf_addf(&path, "%srespin/results.db",
		    git_repository_commondir(repo));
	if (access(path.buf, F_OK) == 0) {
		r = checks_load(repo, &st->checks);
		if (!r)
			r = results_open(repo, &st->rs);
	}
	strbuf_release(&path);
	if (r < 0)
		grid_store_close(st);
	return r;
}

void grid_store_close(struct grid_store *st)
{
	results_close(st->rs);
	checks_release(&st->checks);
	memset(st, 0, sizeof(*st));
}

int grid_load_stored(struct grid *g, git_repository *repo,
		     const struct grid_store *st,
		     const struct series_version *v)
{
	if (!st->rs || series_version_mail_only(v)) {
		memset(g, 0, sizeof(*g));
		g->v = v;
		return 0;
	}
	return grid_load(g, repo, st->rs, &st->checks, v);
}

/* ---- cells as text ---- */

static void plural(struct strbuf *out, const char *what, size_t n)
{
	strbuf_addf(out, "%zu %s%s", n, what, n == 1 ? "" : "s");
}

static void build_text(struct strbuf *out, const struct grid_cell *cell,
		       size_t i)
{
	if (i == 0) {
		strbuf_addstr(out, "ok, ");
		plural(out, "warning", cell->warnings.nr);
		return;
	}
	strbuf_addstr(out, "ok");
	if (cell->added.nr) {
		strbuf_addstr(out, " +");
		plural(out, "warning", cell->added.nr);
	}
	if (cell->fixed.nr)
		strbuf_addf(out, " -%zu", cell->fixed.nr);
}

void grid_pct(struct strbuf *out, double pct)
{
	/* what rounds to zero prints as +0.0, whatever its sign */
	if (fabs(pct) < 0.05)
		pct = 0.0;
	strbuf_addf(out, "%+.1f%%", pct);
}

const char *grid_verdict_mark(const struct stats_comparison *c)
{
	switch (stats_verdict_mark(c->verdict)) {
	case STATS_MARK_SIGNIFICANT:
		return " *";
	case STATS_MARK_UNSURE:
		return " ?";
	case STATS_MARK_NONE:
		break;
	}
	return "";
}

static void comparison_json(struct json *j, const struct stats_comparison *c,
			    const char *verdict)
{
	json_string_member(j, "verdict", verdict);
	json_key(j, "change_pct");
	json_double(j, c->change_pct);
	json_key(j, "gain_pct");
	json_double(j, c->gain_pct);
	json_key(j, "interval_pct");
	json_array_begin(j);
	json_double(j, c->low_pct);
	json_double(j, c->high_pct);
	json_array_end(j);
	json_key(j, "threshold_pct");
	json_double(j, c->threshold_pct);
	json_bool_member(j, "significant", c->significant);
	json_int_member(j, "n_base", (int64_t)c->base.n);
	json_int_member(j, "n_patch", (int64_t)c->patch.n);
	json_key(j, "runs_needed");
	if (c->runs_needed > 0)
		json_int(j, c->runs_needed);
	else
		json_null(j);
}

void grid_comparison_json(struct json *j, const struct stats_comparison *c)
{
	comparison_json(j, c, stats_verdict_name(c->verdict));
}

static void metric_json(struct json *j, const struct grid_metric *m,
			const char *name)
{
	size_t w;

	json_key(j, name);
	json_object_begin(j);
	json_key(j, "samples");
	json_array_begin(j);
	for (w = 0; w < m->nr; w++)
		json_double(j, m->samples[w]);
	json_array_end(j);
	json_key(j, "mean");
	json_double(j, stats_mean(m->samples, m->nr));
	json_key(j, "stddev");
	if (m->nr > 1)
		json_double(j, stats_stddev(m->samples, m->nr));
	else
		json_null(j);
	/* no direction: higher or lower, not better or worse */
	if (m->have_cmp)
		comparison_json(j, &m->cmp,
				grid_metric_verdict_name(m->cmp.verdict));
	json_object_end(j);
}

void grid_metrics_json(struct json *j, const struct grid_cell *cell)
{
	static const char prefix[] = VMSTAT_METRIC_PREFIX;
	size_t m, n = strlen(prefix);
	int pass;

	for (pass = 0; pass < 2; pass++) {
		int open = 0;

		for (m = 0; m < cell->nr_metrics; m++) {
			const struct grid_metric *gm = &cell->metrics[m];
			int vm = !strncmp(gm->name, prefix, n);

			if (vm != pass)
				continue;
			if (!open++) {
				json_key(j, pass ? "vmstat" : "metrics");
				json_object_begin(j);
			}
			metric_json(j, gm, gm->name + (vm ? n : 0));
		}
		if (open)
			json_object_end(j);
	}
}

static void bench_text(struct strbuf *out, const struct grid_cell *cell,
		       size_t i)
{
	if (i == 0 || !cell->have_cmp) {
		strbuf_addf(out, "%.2f (n=%zu)",
			    stats_mean(cell->samples, cell->nr_samples),
			    cell->nr_samples);
		return;
	}
	grid_pct(out, cell->cmp.gain_pct);
	strbuf_addf(out, "%s (n=%zu", grid_verdict_mark(&cell->cmp),
		    cell->nr_samples);
	if (cell->cmp.runs_needed > 0)
		strbuf_addf(out, ", %d needed", cell->cmp.runs_needed);
	strbuf_addch(out, ')');
}

static void cell_text(struct strbuf *out, const struct check *c,
		      const struct grid_cell *cell, size_t i)
{
	if (!cell->have)
		strbuf_addstr(out, i == 0 && never_on_base(c) ? "" : "-");
	else if (details_of(c) == KIND_DETAILS_WARNINGS &&
		 cell->res.status == RESULT_PASS)
		build_text(out, cell, i);
	else if (results_of(c) == KIND_RESULTS_SAMPLES && cell->nr_samples)
		bench_text(out, cell, i);
	else {
		const char *st = result_status_name(cell->res.status);

		/*
		 * One look a state: a cell that failed says so, even when
		 * its summary is only counts ("FAIL 1E 0W", not "1E 0W"
		 * beside a passing "0E 1W").
		 */
		if (cell->res.status != RESULT_PASS &&
		    cell->res.status != RESULT_SKIP && cell->res.summary &&
		    !strcasestr(cell->res.summary, st) &&
		    !(cell->res.status == RESULT_FAIL &&
		      strcasestr(cell->res.summary, "fail")))
			strbuf_addf(out, "%s ", st);
		strbuf_addstr(out, cell->res.summary ? cell->res.summary : st);
		/* a kselftest cell: what the patch changed */
		if (cell->ks)
			kselftest_changes_text(cell->ks, out);
	}
}

/* A guest check's cell: the kernel warnings its patch adds. */
static void runtime_text(struct strbuf *out, const struct check *c,
			 const struct grid_cell *cell)
{
	if (!c->guest || !cell->have || !cell->added.nr)
		return;
	strbuf_addf(out, ", +%zu kernel warning%s", cell->added.nr,
		    cell->added.nr == 1 ? "" : "s");
}

void grid_cell_text(struct strbuf *out, const struct check *c,
		    const struct grid_cell *cell, size_t i)
{
	size_t start = out->len;

	cell_text(out, c, cell, i);
	if (out->len > start)
		runtime_text(out, c, cell);
}

/*
 * A build or a static check in words: "build ok, no new warnings",
 * "sparse ok, 2 new warnings", "build FAIL", "kdoc no .c or .h files".
 */
static void build_words(struct strbuf *out, const struct grid_cell *cell)
{
	if (cell->res.status != RESULT_PASS) {
		strbuf_addstr(out, cell->res.summary ? cell->res.summary :
			      result_status_name(cell->res.status));
		return;
	}
	strbuf_addstr(out, "ok, ");
	if (cell->added.nr) {
		plural(out, "new warning", cell->added.nr);
	} else {
		strbuf_addstr(out, "no new warnings");
	}
	if (cell->fixed.nr)
		strbuf_addf(out, ", %zu fixed", cell->fixed.nr);
}

size_t grid_patch_line(struct strbuf *out, const struct check_list *checks,
		       const struct grid *g, size_t i)
{
	size_t k, n = 0;

	for (k = 0; k < g->ncols; k++) {
		const struct check *c = &checks->items[k];
		const struct grid_cell *cell = grid_cell(g, i, k);

		if (!cell->have)
			continue;
		strbuf_addf(out, "%s%s ", n++ ? "; " : "", c->name);
		if (results_of(c) == KIND_RESULTS_WARNINGS)
			build_words(out, cell);
		else
			grid_cell_text(out, c, cell, i);
	}
	return n;
}
