// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmtests-style tables of a bench's stored samples (see
 * ci/benchtable.h): the rows of the statistics of each metric, the
 * runs, and the Ops table of /proc/vmstat deltas.
 */
#include "ci/benchtable.h"
#include "ci/vmstat.h"
#include "tools/lib/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BT_DECIMALS 2

/* A column: a cell's samples, and what they are compared with. */
struct bt_col {
	char label[80];
	const struct grid_cell *cell;
	const struct grid_cell *ref;	/* by version: compared with this */
	int is_ref;			/* the first column: the reference */
};

struct bt {
	const struct check *c;
	struct bt_col *col;
	size_t ncol;
	int fixed;		/* one fixed comparison (two versions) */
};

/* One metric at one column. */
struct bt_stat {
	int have, have_cmp;
	struct stats_summary sum;
	double min, max, ref_min, ref_max;
	struct stats_comparison cmp;
};

/* A row of a table: its cells as text, printed once all are known. */
struct bt_row {
	const char *kind;	/* "Amean", ...; NULL for an Ops row */
	char *name;
	char **cells;
};

struct bt_rows {
	struct bt_row *items;
	size_t nr, alloc, ncol;
};

static void rows_add(struct bt_rows *rows, const char *kind, const char *name,
		     char **cells)
{
	ALLOC_GROW(rows->items, rows->nr, rows->alloc);
	rows->items[rows->nr].kind = kind;
	rows->items[rows->nr].name = xstrdup(name);
	rows->items[rows->nr].cells = cells;
	rows->nr++;
}

static void rows_release(struct bt_rows *rows)
{
	size_t i, j;

	for (i = 0; i < rows->nr; i++) {
		for (j = 0; j < rows->ncol; j++)
			free(rows->items[i].cells[j]);
		free(rows->items[i].cells);
		free(rows->items[i].name);
	}
	free(rows->items);
	memset(rows, 0, sizeof(*rows));
}

/*
 * The rows under a header of the columns' labels: the kind column (when
 * some row has one), the names padded to the longest, each cell
 * right-aligned in the width of the widest cell or label.
 */
static void rows_print(struct strbuf *out, const struct bt *t,
		       const struct bt_rows *rows)
{
	size_t i, j, namew = 0, cw = 0;
	int kinds = 0;

	for (i = 0; i < rows->nr; i++) {
		if (strlen(rows->items[i].name) > namew)
			namew = strlen(rows->items[i].name);
		kinds |= rows->items[i].kind != NULL;
		for (j = 0; j < t->ncol; j++)
			if (strlen(rows->items[i].cells[j]) > cw)
				cw = strlen(rows->items[i].cells[j]);
	}
	for (j = 0; j < t->ncol; j++)
		if (strlen(t->col[j].label) > cw)
			cw = strlen(t->col[j].label);
	strbuf_addf(out, "%*s%-*s", kinds ? STATS_KIND_WIDTH : 0, "",
		    (int)namew, "");
	for (j = 0; j < t->ncol; j++)
		strbuf_addf(out, "  %*s", (int)cw, t->col[j].label);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i < rows->nr; i++) {
		const struct bt_row *r = &rows->items[i];

		if (kinds)
			strbuf_addf(out, "%-*s ", STATS_KIND_WIDTH - 1,
				    r->kind ? r->kind : "");
		strbuf_addf(out, "%-*s", (int)namew, r->name);
		for (j = 0; j < t->ncol; j++)
			strbuf_addf(out, "  %*s", (int)cw, r->cells[j]);
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
}

/*
 * Column col's samples of metric (NULL: the check's own) and those it
 * is compared with (none for the reference column).  0 when it has none.
 */
static int col_samples(const struct bt_col *col, const char *metric,
		       const double **v, size_t *n, const double **ref,
		       size_t *nref)
{
	const struct grid_metric *m = NULL, *rm;

	*ref = NULL;
	*nref = 0;
	if (!metric) {
		*v = col->cell->samples;
		*n = col->cell->nr_samples;
		if (col->is_ref) {
		} else if (col->ref) {
			*ref = col->ref->samples;
			*nref = col->ref->nr_samples;
		} else {
			*ref = col->cell->base_samples;
			*nref = col->cell->nr_base_samples;
		}
		return *n > 0;
	}
	m = grid_cell_metric(col->cell, metric);
	if (!m || !m->nr)
		return 0;
	*v = m->samples;
	*n = m->nr;
	if (col->is_ref) {
	} else if (col->ref) {
		rm = grid_cell_metric(col->ref, metric);
		if (rm) {
			*ref = rm->samples;
			*nref = rm->nr;
		}
	} else {
		*ref = m->base_samples;
		*nref = m->nr_base;
	}
	return 1;
}

static void stat_fill(struct bt_stat *st, const struct bt_col *col,
		      const char *metric, const struct stats_plan *p)
{
	const double *v, *ref;
	size_t n, nref;

	memset(st, 0, sizeof(*st));
	if (!col_samples(col, metric, &v, &n, &ref, &nref))
		return;
	if (stats_summarize(v, n, p->flags, &st->sum) < 0) {
		error_clear();
		return;
	}
	st->have = 1;
	st->min = stats_min(v, n);
	st->max = stats_max(v, n);
	if (ref && nref && !(metric ? grid_metric_compare :
			     stats_compare)(ref, nref, v, n, p, &st->cmp)) {
		st->have_cmp = 1;
		st->ref_min = stats_min(ref, nref);
		st->ref_max = stats_max(ref, nref);
	}
	error_clear();
}

/* v against ref in %, > 0 better (higher: when higher); inf from 0. */
static double gain_of(double v, double ref, int higher)
{
	double pct;

	if (isnan(v) || isnan(ref))
		return 0;
	if (ref == 0)
		return v == 0 ? 0 : INFINITY;
	pct = (v - ref) / fabs(ref) * 100;
	return higher ? pct : -pct;
}

enum bt_kind { BT_MEAN, BT_STDDEV, BT_CV, BT_MIN, BT_MAX };

/* One statistic of one metric at one column, as a cell. */
static char *stat_cell(const struct bt_stat *st, enum bt_kind kind,
		       int higher, enum stats_mark mark)
{
	struct strbuf sb = STRBUF_INIT;
	const struct stats_summary *ref = &st->cmp.base;
	double v = NAN, pct = 0;

	if (!st->have)
		return xstrdup("-");
	switch (kind) {
	case BT_MEAN:
		v = st->sum.mean;
		if (st->have_cmp)
			pct = gain_of(v, ref->mean, higher);
		break;
	case BT_STDDEV:
		v = st->sum.stddev;
		if (st->have_cmp)
			pct = gain_of(v, ref->stddev, 0);
		break;
	case BT_CV:
		v = st->sum.cv * 100;
		if (st->have_cmp)
			pct = gain_of(v, ref->cv * 100, 0);
		break;
	case BT_MIN:
		v = st->min;
		if (st->have_cmp)
			pct = gain_of(v, st->ref_min, higher);
		break;
	case BT_MAX:
		v = st->max;
		if (st->have_cmp)
			pct = gain_of(v, st->ref_max, higher);
		break;
	}
	if (isnan(v)) {		/* a spread of one run */
		strbuf_release(&sb);
		return xstrdup("-");
	}
	stats_format_cell(&sb, v, pct, mark, BT_DECIMALS);
	return strbuf_detach(&sb, NULL);
}

static int is_vmstat(const char *name)
{
	return !strncmp(name, VMSTAT_METRIC_PREFIX,
			strlen(VMSTAT_METRIC_PREFIX));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* mmtests' order of its Ops rows, then the other counters by name. */
static int by_rank(const void *a, const void *b)
{
	const char *x = *(const char *const *)a + strlen(VMSTAT_METRIC_PREFIX);
	const char *y = *(const char *const *)b + strlen(VMSTAT_METRIC_PREFIX);
	int rx = vmstat_mmtests_rank(x), ry = vmstat_mmtests_rank(y);

	if (rx != ry)
		return rx < 0 ? 1 : ry < 0 ? -1 : rx - ry;
	return strcmp(x, y);
}

/* The secondary metrics of the columns: vmstat ones or the others. */
static size_t metric_names(const struct bt *t, int vmstat, const char ***out)
{
	const char **names = NULL;
	size_t n = 0, alloc = 0, j, m, k;

	for (j = 0; j < t->ncol; j++) {
		const struct grid_cell *cell = t->col[j].cell;

		for (m = 0; m < cell->nr_metrics; m++) {
			const char *name = cell->metrics[m].name;
			int seen = 0;

			if (is_vmstat(name) != vmstat)
				continue;
			for (k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], name);
			if (seen)
				continue;
			ALLOC_GROW(names, n, alloc);
			names[n++] = name;
		}
	}
	if (n)
		qsort(names, n, sizeof(*names), vmstat ? by_rank : by_name);
	*out = names;
	return n;
}

/* "12", or "40 (109 needed)" when inconclusive: the runs a side. */
static char *runs_cell(const struct bt_stat *st)
{
	struct strbuf sb = STRBUF_INIT;

	if (!st->have)
		return xstrdup("-");
	strbuf_addf(&sb, "%zu", st->sum.n);
	if (st->have_cmp && st->cmp.runs_needed > 0)
		strbuf_addf(&sb, " (%d needed)", st->cmp.runs_needed);
	return strbuf_detach(&sb, NULL);
}

/* The main table: each statistic for the metric and the others. */
static void main_table(struct strbuf *out, const struct bt *t)
{
	static const struct {
		enum bt_kind kind;
		const char *name;
	} stats[] = {
		{ BT_MEAN, NULL }, { BT_STDDEV, "Stddev" },
		{ BT_CV, "CoeffVar" }, { BT_MIN, "Min" }, { BT_MAX, "Max" },
	};
	const struct check *c = t->c;
	struct bt_rows rows = { NULL, 0, 0, t->ncol };
	struct bt_stat *st;
	struct stats_plan plan, mplan;
	const char **names;
	size_t nm = metric_names(t, 0, &names), m, j, s;

	st = xcalloc((nm + 1) * t->ncol, sizeof(*st));
	if (t->fixed)
		stats_plan_fixed(&plan, check_stats_flags(c), c->threshold_pct);
	else
		check_stats_plan(c, &plan);
	grid_metric_plan(c, t->fixed, &mplan);
	for (m = 0; m <= nm; m++)
		for (j = 0; j < t->ncol; j++)
			stat_fill(&st[m * t->ncol + j], &t->col[j],
				  m ? names[m - 1] : NULL, m ? &mplan : &plan);
	for (s = 0; s < sizeof(stats) / sizeof(*stats); s++) {
		for (m = 0; m <= nm; m++) {
			char **cells = xcalloc(t->ncol, sizeof(*cells));
			int higher = m ? 1 : c->higher;
			const char *kind = stats[s].name;

			if (!kind)
				kind = c->harmonic && !m ? "Hmean" : "Amean";

			for (j = 0; j < t->ncol; j++) {
				const struct bt_stat *x = &st[m * t->ncol + j];
				enum stats_mark mark = STATS_MARK_NONE;

				if (stats[s].kind == BT_MEAN && x->have_cmp)
					mark = stats_verdict_mark(
						x->cmp.verdict);
				cells[j] = stat_cell(x, stats[s].kind, higher,
						     mark);
			}
			rows_add(&rows, kind, m ? names[m - 1] : c->name,
				 cells);
		}
	}
	{
		char **cells = xcalloc(t->ncol, sizeof(*cells));

		for (j = 0; j < t->ncol; j++)
			cells[j] = runs_cell(&st[j]);
		rows_add(&rows, "Runs", c->name, cells);
	}
	rows_print(out, t, &rows);
	rows_release(&rows);
	stats_plan_release(&plan);
	stats_plan_release(&mplan);
	free(names);
	free(st);
}

/* Whether counter name is 0 in every sample of every column. */
static int all_zero(const struct bt *t, const char *name)
{
	size_t j, w;

	for (j = 0; j < t->ncol; j++) {
		const struct grid_metric *m = grid_cell_metric(t->col[j].cell,
							       name);

		for (w = 0; m && w < m->nr; w++)
			if (m->samples[w] != 0)
				return 0;
	}
	return 1;
}

/* The Ops table of the vmstat deltas; 0 when there is none to show. */
static int ops_table(struct strbuf *out, const struct bt *t,
		     const char *title)
{
	struct bt_rows rows = { NULL, 0, 0, t->ncol };
	struct stats_plan plan;
	const char **names;
	size_t nm = metric_names(t, 1, &names), m, j;
	struct strbuf label = STRBUF_INIT;

	grid_metric_plan(t->c, t->fixed, &plan);
	for (m = 0; m < nm; m++) {
		const char *counter = names[m] + strlen(VMSTAT_METRIC_PREFIX);
		const char *mm = vmstat_mmtests_name(counter);
		char **cells;

		if (all_zero(t, names[m]))
			continue;
		cells = xcalloc(t->ncol, sizeof(*cells));
		for (j = 0; j < t->ncol; j++) {
			struct bt_stat st;

			stat_fill(&st, &t->col[j], names[m], &plan);
			cells[j] = stat_cell(&st, BT_MEAN, 1, st.have_cmp &&
					     st.cmp.significant ?
					     STATS_MARK_SIGNIFICANT :
					     STATS_MARK_NONE);
		}
		strbuf_reset(&label);
		strbuf_addf(&label, "Ops %s", mm ? mm : counter);
		rows_add(&rows, NULL, label.buf, cells);
	}
	if (rows.nr) {
		strbuf_addstr(out, title);
		rows_print(out, t, &rows);
	}
	rows_release(&rows);
	stats_plan_release(&plan);
	strbuf_release(&label);
	free(names);
	return rows.nr > 0;
}

static void label_position(char *out, size_t size, const struct grid *g,
			   size_t i)
{
	if (i == 0)
		snprintf(out, size, "base");
	else
		snprintf(out, size, "%zu/%zu", i, g->v->nr_patches);
}

void bench_table_by_patch(struct strbuf *out, const struct check *c,
			  const struct grid *g, size_t k)
{
	struct bt t = { c, NULL, 0, 0 };
	struct strbuf title = STRBUF_INIT;
	size_t i;

	t.col = xcalloc(g->v->nr_patches + 1, sizeof(*t.col));
	for (i = 0; i <= g->v->nr_patches; i++) {
		const struct grid_cell *cell = grid_cell(g, i, k);

		if (!cell->have || !cell->nr_samples)
			continue;
		label_position(t.col[t.ncol].label, sizeof(t.col[0].label), g,
			       i);
		t.col[t.ncol].cell = cell;
		/* the first column is the reference: the base, as a rule */
		t.col[t.ncol].is_ref = i == 0;
		t.ncol++;
	}
	if (t.ncol) {
		strbuf_addf(out, "%s (%s%s%s, the same within +-%g%%), v%d, "
			    "against the base:\n", c->name,
			    c->metric ? c->metric : "", c->metric ? ", " : "",
			    c->higher ? "higher is better" :
			    "lower is better", c->threshold_pct, g->v->number);
		main_table(out, &t);
		strbuf_addf(&title, "\n%s, /proc/vmstat, the mean change a "
			    "run, v%d, against the base:\n", c->name,
			    g->v->number);
		ops_table(out, &t, title.buf);
	}
	strbuf_release(&title);
	free(t.col);
}

void bench_table_by_version(struct strbuf *out, const struct check *c,
			    const struct grid *g, const struct grid *prev,
			    size_t k)
{
	const struct grid_cell *a, *b;
	struct bt_col col[2];
	struct bt t = { c, col, 2, 1 };
	struct strbuf title = STRBUF_INIT;

	if (!prev->v->nr_patches || !g->v->nr_patches)
		return;
	a = grid_cell(prev, prev->v->nr_patches, k);
	b = grid_cell(g, g->v->nr_patches, k);
	if (!a->have || !a->nr_samples || !b->have || !b->nr_samples)
		return;
	memset(col, 0, sizeof(col));
	snprintf(col[0].label, sizeof(col[0].label), "v%d %zu/%zu",
		 prev->v->number, prev->v->nr_patches, prev->v->nr_patches);
	snprintf(col[1].label, sizeof(col[1].label), "v%d %zu/%zu",
		 g->v->number, g->v->nr_patches, g->v->nr_patches);
	col[0].cell = a;
	col[0].is_ref = 1;
	col[1].cell = b;
	col[1].ref = a;
	strbuf_addf(out, "%s, the whole series, v%d against v%d:\n", c->name,
		    g->v->number, prev->v->number);
	main_table(out, &t);
	strbuf_addf(&title, "\n%s, /proc/vmstat, the mean change a run, the "
		    "whole series, v%d against v%d:\n", c->name, g->v->number,
		    prev->v->number);
	ops_table(out, &t, title.buf);
	strbuf_release(&title);
}
