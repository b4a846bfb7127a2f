// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/coverresults.h"
#include "tools/lib/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int column_used(const struct grid *g, size_t k)
{
	size_t i;

	for (i = 0; i <= g->v->nr_patches; i++)
		if (grid_cell(g, i, k)->have)
			return 1;
	return 0;
}

static void position_label(struct strbuf *out, const struct grid *g, size_t i)
{
	if (i == 0)
		strbuf_addstr(out, "base");
	else
		strbuf_addf(out, "%zu/%zu", i, g->v->nr_patches);
}

void cover_results_table(struct strbuf *out, const struct check_list *checks,
			 const struct grid *g)
{
	size_t n = g->v->nr_patches, i, k, labelw = 4;
	size_t *width = xcalloc(checks->nr + 1, sizeof(*width));
	struct strbuf cell = STRBUF_INIT, label = STRBUF_INIT;

	for (i = 0; i <= n; i++) {
		strbuf_reset(&label);
		position_label(&label, g, i);
		if (label.len > labelw)
			labelw = label.len;
	}
	for (k = 0; k < checks->nr; k++) {
		if (!column_used(g, k))
			continue;
		width[k] = strlen(checks->items[k].name);
		for (i = 0; i <= n; i++) {
			strbuf_reset(&cell);
			grid_cell_text(&cell, &checks->items[k],
				       grid_cell(g, i, k), i);
			if (cell.len > width[k])
				width[k] = cell.len;
		}
	}
	strbuf_addf(out, "%-*s", (int)labelw, "");
	for (k = 0; k < checks->nr; k++)
		if (width[k])
			strbuf_addf(out, "  %-*s", (int)width[k],
				    checks->items[k].name);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i <= n; i++) {
		strbuf_reset(&label);
		position_label(&label, g, i);
		strbuf_addf(out, "%-*s", (int)labelw, label.buf);
		for (k = 0; k < checks->nr; k++) {
			if (!width[k])
				continue;
			strbuf_reset(&cell);
			grid_cell_text(&cell, &checks->items[k],
				       grid_cell(g, i, k), i);
			strbuf_addf(out, "  %-*s", (int)width[k], cell.buf);
		}
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&cell);
	strbuf_release(&label);
	free(width);
}

/* One column of a bench table: a label and its samples' statistics. */
struct bench_col {
	char label[80];
	struct stats_summary sum;
	double pct;		/* gain against the first column */
	double sd_pct;		/* stddev change, > 0 is less spread */
	enum stats_mark mark;	/* of the verdict against the first */
	int runs_needed;	/* inconclusive: runs a side to decide */
};

#define BENCH_DECIMALS 2

/* "12", or "40 (109 needed)" when inconclusive: the runs a side. */
static void runs_cell(struct strbuf *out, const struct bench_col *col)
{
	strbuf_addf(out, "%zu", col->sum.n);
	if (col->runs_needed > 0)
		strbuf_addf(out, " (%d needed)", col->runs_needed);
}

static void print_bench(struct strbuf *out, const struct check *c,
			const struct bench_col *col, size_t ncol)
{
	const char *kind = col[0].sum.harmonic ? "Hmean" : "Amean";
	struct stats_cell *cells = xcalloc(ncol, sizeof(*cells));
	struct strbuf cell = STRBUF_INIT;
	size_t i, cw = 0, namew = strlen(c->name);

	for (i = 0; i < ncol; i++) {
		strbuf_reset(&cell);
		stats_format_cell(&cell, col[i].sum.mean, col[i].pct,
				  col[i].mark, BENCH_DECIMALS);
		if (cell.len > cw)
			cw = cell.len;
		strbuf_reset(&cell);
		runs_cell(&cell, &col[i]);
		if (cell.len > cw)
			cw = cell.len;
		if (strlen(col[i].label) > cw)
			cw = strlen(col[i].label);
	}
	/* header: the labels right-aligned over their cells */
	strbuf_addf(out, "%-5s  %-*s", "", (int)namew, "");
	for (i = 0; i < ncol; i++)
		strbuf_addf(out, "  %*s", (int)cw, col[i].label);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');

	for (i = 0; i < ncol; i++) {
		cells[i].value = col[i].sum.mean;
		cells[i].pct = col[i].pct;
		cells[i].mark = col[i].mark;
	}
	stats_format_row(out, kind, c->name, (int)namew, cells, ncol, (int)cw,
			 BENCH_DECIMALS);
	strbuf_addch(out, '\n');
	for (i = 0; i < ncol; i++) {
		cells[i].value = col[i].sum.stddev;
		cells[i].pct = col[i].sd_pct;
		cells[i].mark = STATS_MARK_NONE;
	}
	stats_format_row(out, "Stdev", c->name, (int)namew, cells, ncol,
			 (int)cw, BENCH_DECIMALS);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "%-5s  %-*s", "Runs", (int)namew, c->name);
	for (i = 0; i < ncol; i++) {
		strbuf_reset(&cell);
		runs_cell(&cell, &col[i]);
		strbuf_addf(out, "  %*s", (int)cw, cell.buf);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&cell);
	free(cells);
}

/* Fills col from samples, compared with the first column's (ref). */
static int bench_col_fill(struct bench_col *col, const struct stats_plan *p,
			  const double *ref, size_t nref, const double *x,
			  size_t n)
{
	struct stats_comparison cmp;

	if (stats_summarize(x, n, p->flags, &col->sum) < 0) {
		error_clear();
		return -1;
	}
	col->pct = 0;
	col->sd_pct = 0;
	col->mark = STATS_MARK_NONE;
	col->runs_needed = 0;
	if (ref == x || !nref)
		return 0;
	if (stats_compare(ref, nref, x, n, p, &cmp) == 0) {
		col->pct = cmp.gain_pct;
		col->mark = stats_verdict_mark(cmp.verdict);
		col->runs_needed = cmp.runs_needed;
		if (cmp.base.stddev > 0)
			col->sd_pct = (cmp.base.stddev - cmp.patch.stddev) /
				      cmp.base.stddev * 100.0;
	}
	error_clear();
	return 0;
}

static const char *direction(const struct check *c)
{
	return c->higher ? "higher is better" : "lower is better";
}

/* Base and every patch of one version. */
static void bench_by_patch(struct strbuf *out, const struct check *c,
			   const struct grid *g, size_t k)
{
	struct bench_col *col = xcalloc(g->v->nr_patches + 1, sizeof(*col));
	struct stats_plan plan;
	size_t i, ncol = 0;

	check_stats_plan(c, &plan);

	for (i = 0; i <= g->v->nr_patches; i++) {
		const struct grid_cell *cell = grid_cell(g, i, k);
		struct strbuf label = STRBUF_INIT;

		if (!cell->have || !cell->nr_samples)
			continue;
		position_label(&label, g, i);
		snprintf(col[ncol].label, sizeof(col[ncol].label), "%s",
			 label.buf);
		strbuf_release(&label);
		/* a patch against the base's runs of its own span */
		if (bench_col_fill(&col[ncol], &plan, !i ? cell->samples :
				   cell->base_samples, !i ? cell->nr_samples :
				   cell->nr_base_samples, cell->samples,
				   cell->nr_samples) == 0)
			ncol++;
	}
	if (ncol) {
		strbuf_addf(out, "%s (%s%s%s, the same within +-%g%%), v%d, "
			    "against the base:\n", c->name,
			    c->metric ? c->metric : "", c->metric ? ", " : "",
			    direction(c), c->threshold_pct, g->v->number);
		print_bench(out, c, col, ncol);
	}
	stats_plan_release(&plan);
	free(col);
}

/* The whole series (its last patch), previous version against this. */
static void bench_by_version(struct strbuf *out, const struct check *c,
			     const struct grid *g, const struct grid *prev,
			     size_t k)
{
	const struct grid_cell *a = grid_cell(prev, prev->v->nr_patches, k);
	const struct grid_cell *b = grid_cell(g, g->v->nr_patches, k);
	struct bench_col col[2];
	struct stats_plan plan;
	int r;

	if (!prev->v->nr_patches || !g->v->nr_patches || !a->have ||
	    !a->nr_samples || !b->have || !b->nr_samples)
		return;
	snprintf(col[0].label, sizeof(col[0].label), "v%d %zu/%zu",
		 prev->v->number, prev->v->nr_patches, prev->v->nr_patches);
	snprintf(col[1].label, sizeof(col[1].label), "v%d %zu/%zu",
		 g->v->number, g->v->nr_patches, g->v->nr_patches);
	/* taken apart, each against its own base: one fixed comparison */
	stats_plan_fixed(&plan, check_stats_flags(c), c->threshold_pct);
	r = bench_col_fill(&col[0], &plan, a->samples, a->nr_samples,
			   a->samples, a->nr_samples);
	if (!r)
		r = bench_col_fill(&col[1], &plan, a->samples, a->nr_samples,
				   b->samples, b->nr_samples);
	stats_plan_release(&plan);
	if (r < 0)
		return;
	strbuf_addf(out, "%s, the whole series, v%d against v%d:\n", c->name,
		    g->v->number, prev->v->number);
	print_bench(out, c, col, 2);
}

void cover_bench_tables(struct strbuf *out, const struct check_list *checks,
			const struct grid *g, const struct grid *prev)
{
	size_t k, before;

	for (k = 0; k < checks->nr; k++) {
		const struct check *c = &checks->items[k];

		if (c->kind != CHECK_BENCH || !column_used(g, k))
			continue;
		if (out->len)
			strbuf_addch(out, '\n');
		before = out->len;
		bench_by_patch(out, c, g, k);
		if (prev && prev->cells && k < prev->ncols) {
			if (out->len > before)
				strbuf_addch(out, '\n');
			bench_by_version(out, c, g, prev, k);
		}
	}
}
