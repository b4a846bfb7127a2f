// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/report.h"
#include "ci/grid.h"
#include "ci/engine.h"
#include "ci/kind.h"
#include "ci/stats.h"
#include "ci/warnings.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void report_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		case '"':
			strbuf_addstr(out, "&quot;");
			break;
		case '\'':
			strbuf_addstr(out, "&#39;");
			break;
		default:
			/* control characters have no business in a page */
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				strbuf_addch(out, '?');
			else
				strbuf_addch(out, c);
		}
	}
}

/* ---- the stored results of one version ---- */

/* ---- the result tables ---- */

/* The status's name in lower case: "pass", "fail", ... */
static void status_class(struct strbuf *out, const struct grid_cell *cell)
{
	const char *p;

	if (!cell->have) {
		strbuf_addstr(out, "none");
		return;
	}
	for (p = result_status_name(cell->res.status); *p; p++)
		strbuf_addch(out, (char)tolower((unsigned char)*p));
}

/* A bench cell also says whether the change is better or worse. */
static const char *verdict_class(const struct check *c,
				 const struct grid_cell *cell)
{
	if (check_kind_ops(c->kind)->results != KIND_RESULTS_SAMPLES ||
	    !cell->have_cmp)
		return "";
	if (cell->cmp.verdict == STATS_BETTER)
		return " better";
	if (cell->cmp.verdict == STATS_WORSE)
		return " worse";
	if (cell->cmp.verdict == STATS_INCONCLUSIVE)
		return " inconclusive";
	return "";
}

static void table_cell(struct strbuf *out, const struct check *c,
		       const struct grid_cell *cell, size_t i)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addstr(out, "<td class=\"");
	status_class(out, cell);
	strbuf_addf(out, "%s\"", verdict_class(c, cell));
	if (cell->have) {
		strbuf_addstr(out, " title=\"");
		report_escape(out, result_status_name(cell->res.status));
		strbuf_addf(out, ", %.1fs", cell->res.duration);
		strbuf_addstr(out, "\"");
	}
	strbuf_addstr(out, ">");
	grid_cell_text(&text, c, cell, i);
	report_escape(out, text.buf);
	strbuf_addstr(out, "</td>");
	strbuf_release(&text);
}

static int column_used(const struct grid *rv, size_t k)
{
	size_t i;

	for (i = 0; i <= rv->v->nr_patches; i++)
		if (grid_cell(rv, i, k)->have)
			return 1;
	return 0;
}

static void table_head(struct strbuf *out, const struct grid *rv,
		       const struct check_list *checks)
{
	size_t k;

	strbuf_addstr(out, "<table class=\"results\">\n<thead><tr>"
		      "<th>patch</th>");
	for (k = 0; k < checks->nr; k++) {
		if (!column_used(rv, k))
			continue;
		strbuf_addstr(out, "<th>");
		report_escape(out, checks->items[k].name);
		strbuf_addf(out, "<br><small>%s</small></th>",
			    check_kind_name(checks->items[k].kind));
	}
	strbuf_addstr(out, "<th class=\"subject\">subject</th></tr></thead>\n");
}

static void table_row(struct strbuf *out, const struct grid *rv,
		      const struct check_list *checks, size_t i)
{
	const struct series_version *v = rv->v;
	size_t k;

	if (i)
		strbuf_addf(out, "<tr><th>%zu/%zu</th>", i, v->nr_patches);
	else
		strbuf_addstr(out, "<tr class=\"base\"><th>base</th>");
	for (k = 0; k < checks->nr; k++)
		if (column_used(rv, k))
			table_cell(out, &checks->items[k], grid_cell(rv, i, k),
				   i);
	strbuf_addstr(out, "<td class=\"subject\">");
	if (i) {
		report_escape(out, v->patches[i - 1].subject);
	} else {
		strbuf_addf(out, "<code>%s</code>", oid_short(&v->base, 12));
		if (v->base_ref) {
			strbuf_addstr(out, " (");
			report_escape(out, v->base_ref);
			strbuf_addstr(out, ")");
		}
	}
	strbuf_addstr(out, "</td></tr>\n");
}

static void version_table(struct strbuf *out, const struct series *s,
			  const struct grid *rv,
			  const struct check_list *checks)
{
	size_t i;

	strbuf_addf(out, "<section class=\"version\">\n<h2 id=\"v%d\">v%d "
		    "<small>(%zu patch%s)</small></h2>\n", rv->v->number,
		    rv->v->number, rv->v->nr_patches,
		    rv->v->nr_patches == 1 ? "" : "es");
	if (!rv->any) {
		strbuf_addstr(out, "<p>No stored results: run <code>respin "
			      "check ");
		report_escape(out, s->name);
		strbuf_addf(out, "@v%d</code>.</p>\n</section>\n",
			    rv->v->number);
		return;
	}
	table_head(out, rv, checks);
	strbuf_addstr(out, "<tbody>\n");
	for (i = 0; i <= rv->v->nr_patches; i++)
		table_row(out, rv, checks, i);
	strbuf_addstr(out, "</tbody>\n</table>\n</section>\n");
}

/* ---- plots ---- */

#define PLOT_W 680
#define PLOT_H 400
#define PLOT_LEFT 80
#define PLOT_RIGHT 20
#define PLOT_TOP 52
#define PLOT_BOTTOM 92

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define PALETTE_NR (sizeof(palette) / sizeof(palette[0]))

struct axis {
	double lo, hi, step;
	int decimals;
};

static void widen(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* A value axis over every mean and interval end, on round numbers. */
static void axis_fit(struct axis *a, const struct report_plot *p)
{
	double lo = INFINITY, hi = -INFINITY, raw, mag, norm;
	size_t j, i;

	for (j = 0; j < p->nr; j++)
		for (i = 0; i < p->lines[j].nr; i++) {
			const struct report_point *pt = &p->lines[j].points[i];

			if (!pt->have)
				continue;
			widen(&lo, &hi, pt->mean);
			widen(&lo, &hi, pt->low);
			widen(&lo, &hi, pt->high);
		}
	if (lo > hi) {
		lo = 0;
		hi = 1;
	} else if (lo == hi) {
		double pad = lo ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	raw = (hi - lo) / 5;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	a->step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
	if (a->hi <= a->lo)
		a->hi = a->lo + a->step;
	a->decimals = a->step >= 1 ? 0 : (int)ceil(-log10(a->step) - 1e-9);
}

static double axis_y(const struct axis *a, double v)
{
	double h = PLOT_H - PLOT_TOP - PLOT_BOTTOM;

	return PLOT_TOP + h - (v - a->lo) / (a->hi - a->lo) * h;
}

static size_t plot_positions(const struct report_plot *p)
{
	size_t j, n = 0;

	for (j = 0; j < p->nr; j++)
		if (p->lines[j].nr > n)
			n = p->lines[j].nr;
	return n;
}

static double slot_width(const struct report_plot *p)
{
	size_t n = plot_positions(p);

	return (double)(PLOT_W - PLOT_LEFT - PLOT_RIGHT) / (n ? n : 1);
}

/* The x of position i for line j: lines sit side by side in a slot. */
static double plot_x(const struct report_plot *p, size_t j, size_t i)
{
	double slot = slot_width(p), dodge = slot * 0.5 / p->nr;

	if (dodge > 16)
		dodge = 16;
	return PLOT_LEFT + (i + 0.5) * slot +
	       ((double)j - (double)(p->nr - 1) / 2) * dodge;
}

static void plot_title(struct strbuf *out, const struct report_plot *p)
{
	strbuf_addf(out, "<text class=\"title\" x=\"%d\" y=\"22\" "
		    "text-anchor=\"middle\">", PLOT_W / 2);
	report_escape(out, p->name);
	if (p->metric) {
		strbuf_addstr(out, ": ");
		report_escape(out, p->metric);
	}
	strbuf_addf(out, " (%s is better)</text>\n",
		    p->higher ? "higher" : "lower");
	strbuf_addf(out, "<text class=\"sub\" x=\"%d\" y=\"40\" "
		    "text-anchor=\"middle\">%s with its 95%% interval, "
		    "per position</text>\n", PLOT_W / 2,
		    p->harmonic ? "harmonic mean" : "mean");
}

static void plot_value_axis(struct strbuf *out, const struct report_plot *p,
			    const struct axis *a)
{
	double v, y;
	int t;

	for (t = 0; (v = a->lo + t * a->step) <= a->hi + a->step / 1e6; t++) {
		y = axis_y(a, v);
		strbuf_addf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			    "x2=\"%d\" y2=\"%.1f\"/>\n", PLOT_LEFT, y,
			    PLOT_W - PLOT_RIGHT, y);
		strbuf_addf(out, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%.*f</text>\n",
			    PLOT_LEFT - 6, y + 4, a->decimals,
			    fabs(v) < a->step / 1e6 ? 0.0 : v);
	}
	strbuf_addf(out, "<text class=\"label\" transform=\"translate(16 %d) "
		    "rotate(-90)\" text-anchor=\"middle\">",
		    PLOT_TOP + (PLOT_H - PLOT_TOP - PLOT_BOTTOM) / 2);
	report_escape(out, p->metric ? p->metric : p->name);
	strbuf_addstr(out, "</text>\n");
}

/* "1/N" when every version has N patches, else "i". */
static void position_label(struct strbuf *out, const struct report_plot *p,
			   size_t i)
{
	size_t j, n = p->nr ? p->lines[0].nr : 0;

	if (!i) {
		strbuf_addstr(out, "base");
		return;
	}
	for (j = 1; j < p->nr; j++)
		if (p->lines[j].nr != n)
			n = 0;
	if (n)
		strbuf_addf(out, "%zu/%zu", i, n - 1);
	else
		strbuf_addf(out, "%zu", i);
}

static void plot_position_axis(struct strbuf *out,
			       const struct report_plot *p)
{
	size_t i, n = plot_positions(p);
	int base = PLOT_H - PLOT_BOTTOM;
	double slot = slot_width(p);

	strbuf_addf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		    "y2=\"%d\"/>\n<line class=\"axis\" x1=\"%d\" y1=\"%d\" "
		    "x2=\"%d\" y2=\"%d\"/>\n", PLOT_LEFT, base,
		    PLOT_W - PLOT_RIGHT, base, PLOT_LEFT, PLOT_TOP,
		    PLOT_LEFT, base);
	for (i = 0; i < n; i++) {
		struct strbuf label = STRBUF_INIT;
		double x = PLOT_LEFT + (i + 0.5) * slot;

		position_label(&label, p, i);
		strbuf_addf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">%s</text>\n", x, base + 18,
			    label.buf);
		strbuf_release(&label);
	}
	strbuf_addf(out, "<text class=\"label\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">patches applied</text>\n",
		    PLOT_LEFT + (PLOT_W - PLOT_LEFT - PLOT_RIGHT) / 2,
		    base + 40);
}

static void plot_interval(struct strbuf *out, const struct axis *a,
			  const struct report_point *pt, double x,
			  const char *color)
{
	double y1, y2;

	if (!isfinite(pt->low) || !isfinite(pt->high))
		return;
	y1 = axis_y(a, pt->low);
	y2 = axis_y(a, pt->high);
	strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    x, y1, x, y2, color);
	strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    x - 5, y1, x + 5, y1, color);
	strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    x - 5, y2, x + 5, y2, color);
}

static void plot_point_title(struct strbuf *out, const struct report_plot *p,
			     const struct report_line *l, size_t i)
{
	const struct report_point *pt = &l->points[i];
	struct strbuf label = STRBUF_INIT;

	position_label(&label, p, i);
	strbuf_addf(out, "<title>v%d %s: %g", l->version, label.buf,
		    pt->mean);
	if (isfinite(pt->low) && isfinite(pt->high))
		strbuf_addf(out, " [%g, %g]", pt->low, pt->high);
	strbuf_addstr(out, "</title>");
	strbuf_release(&label);
}

static void plot_line(struct strbuf *out, const struct report_plot *p,
		      const struct axis *a, size_t j)
{
	const struct report_line *l = &p->lines[j];
	const char *color = palette[j % PALETTE_NR];
	double px = 0, py = 0;
	int have_prev = 0;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct report_point *pt = &l->points[i];
		double x = plot_x(p, j, i), y;

		if (!pt->have || !isfinite(pt->mean)) {
			have_prev = 0;
			continue;
		}
		y = axis_y(a, pt->mean);
		if (have_prev)
			strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" "
				    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				    "stroke-opacity=\"0.4\"/>\n", px, py, x, y,
				    color);
		plot_interval(out, a, pt, x, color);
		strbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" "
			    "fill=\"%s\">", x, y, color);
		plot_point_title(out, p, l, i);
		strbuf_addstr(out, "</circle>\n");
		px = x;
		py = y;
		have_prev = 1;
	}
}

static void plot_legend(struct strbuf *out, const struct report_plot *p)
{
	int x = PLOT_LEFT, y = PLOT_H - 18;
	size_t j;

	for (j = 0; j < p->nr; j++) {
		strbuf_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" "
			    "fill=\"%s\"/><text class=\"tick\" x=\"%d\" "
			    "y=\"%d\">v%d</text>\n", x + 5, y,
			    palette[j % PALETTE_NR], x + 14, y + 4,
			    p->lines[j].version);
		x += 64;
	}
}

void report_plot_svg(struct strbuf *out, const struct report_plot *p)
{
	struct axis a;
	size_t j;

	axis_fit(&a, p);
	strbuf_addf(out, "<svg class=\"plot\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		    PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	report_escape(out, p->name);
	strbuf_addstr(out, "\">\n");
	strbuf_addf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		    "fill=\"#ffffff\" stroke=\"#cccccc\"/>\n", PLOT_W, PLOT_H);
	plot_title(out, p);
	plot_value_axis(out, p, &a);
	plot_position_axis(out, p);
	for (j = 0; j < p->nr; j++)
		plot_line(out, p, &a, j);
	plot_legend(out, p);
	strbuf_addstr(out, "</svg>\n");
}

/* ---- the page ---- */

struct report {
	git_repository *repo;
	struct series *s;
	struct check_list *checks;
	struct results *rs;
	struct grid *vs;		/* shown, latest first */
	size_t nr;
};

static void point_from_cell(struct report_point *pt, const struct check *c,
			    const struct grid_cell *cell)
{
	struct stats_summary sum;

	pt->have = 0;
	pt->low = pt->high = NAN;
	if (!cell->have || !cell->nr_samples)
		return;
	if (stats_summarize(cell->samples, cell->nr_samples,
			    check_stats_flags(c), &sum) < 0) {
		error_clear();
		return;
	}
	pt->have = 1;
	pt->mean = sum.mean;
	pt->low = sum.ci_low;
	pt->high = sum.ci_high;
}

/* The plot of bench k over every shown version, oldest first. */
static void bench_plot(struct report *rp, size_t k, struct strbuf *out)
{
	const struct check *c = &rp->checks->items[k];
	struct report_plot p = { c->name, c->metric, c->higher, c->harmonic,
				 NULL, 0 };
	size_t j, i;

	p.lines = xcalloc(rp->nr + 1, sizeof(*p.lines));
	for (j = rp->nr; j-- > 0;) {
		const struct grid *rv = &rp->vs[j];
		struct report_line *l = &p.lines[p.nr];

		if (!rv->cells || !column_used(rv, k))
			continue;
		l->version = rv->v->number;
		l->nr = rv->v->nr_patches + 1;
		l->points = xcalloc(l->nr, sizeof(*l->points));
		for (i = 0; i < l->nr; i++)
			point_from_cell(&l->points[i], c, grid_cell(rv, i, k));
		p.nr++;
	}
	if (p.nr) {
		strbuf_addstr(out, "<figure>\n");
		report_plot_svg(out, &p);
		strbuf_addstr(out, "</figure>\n");
	}
	for (j = 0; j < p.nr; j++)
		free(p.lines[j].points);
	free(p.lines);
}

static void page_plots(struct report *rp, struct strbuf *out)
{
	struct strbuf plots = STRBUF_INIT;
	size_t k;

	for (k = 0; k < rp->checks->nr; k++)
		if (check_kind_ops(rp->checks->items[k].kind)->results ==
		    KIND_RESULTS_SAMPLES)
			bench_plot(rp, k, &plots);
	if (!plots.len)
		return;
	strbuf_addstr(out, "<h2>Benchmarks</h2>\n<div class=\"plots\">\n");
	strbuf_add(out, plots.buf, plots.len);
	strbuf_addstr(out, "</div>\n");
	strbuf_release(&plots);
}

static const char page_css[] =
	"body{font-family:sans-serif;margin:2em;color:#222;"
	"background:#fff}\n"
	"h1{font-size:1.6em}h2{margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #bbb;padding:.25em .6em;text-align:left;"
	"vertical-align:top}\n"
	"thead th{background:#e4e8ee}tbody th{background:#f2f4f7;"
	"white-space:nowrap}\n"
	"td{white-space:nowrap;font-family:monospace}\n"
	"td.subject{font-family:sans-serif;white-space:normal}\n"
	"td.pass{background:#d5f2d5}td.fail{background:#f6c4c4}\n"
	"td.error{background:#e8c8f0}td.timeout{background:#fbe1a6}\n"
	"td.skip,td.other{background:#ececec}td.none{color:#888}\n"
	"td.better{font-weight:bold;color:#0a5d0a}"
	"td.worse{font-weight:bold;color:#9b0d0d}"
	"td.inconclusive{font-style:italic;color:#6b5200}\n"
	"dl.meta{display:grid;grid-template-columns:max-content auto;"
	"gap:.2em 1em}dl.meta dt{font-weight:bold}dl.meta dd{margin:0}\n"
	".legend span{display:inline-block;padding:.1em .6em;"
	"margin-right:.4em;border:1px solid #bbb}\n"
	".plots{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}\n"
	"svg.plot text{font-family:sans-serif;fill:#222}\n"
	"svg.plot .title{font-size:15px;font-weight:bold}\n"
	"svg.plot .sub,svg.plot .tick{font-size:12px}\n"
	"svg.plot .label{font-size:13px}\n"
	"svg.plot .grid{stroke:#e2e2e2}svg.plot .axis{stroke:#444}\n";

static void page_head(struct strbuf *out, const struct series *s)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\">\n<title>respin report: ");
	report_escape(out, s->name);
	strbuf_addstr(out, "</title>\n<style>\n");
	strbuf_addstr(out, page_css);
	strbuf_addstr(out, "</style>\n</head>\n<body>\n<h1>respin report: ");
	report_escape(out, s->name);
	strbuf_addstr(out, "</h1>\n");
}

static void meta_item(struct strbuf *out, const char *dt, const char *dd)
{
	strbuf_addf(out, "<dt>%s</dt><dd>", dt);
	report_escape(out, dd ? dd : "-");
	strbuf_addstr(out, "</dd>\n");
}

static void version_line(struct strbuf *out, const struct series_version *v)
{
	char date[32] = "?";
	time_t t = (time_t)v->recorded;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	strbuf_addf(out, "<li><b>v%d</b>: %zu patch%s on <code>%s</code>, "
		    "recorded %s", v->number, v->nr_patches,
		    v->nr_patches == 1 ? "" : "es", oid_short(&v->base, 12),
		    date);
	if (v->source && *v->source) {
		strbuf_addstr(out, ", from ");
		report_escape(out, v->source);
	}
	if (v->message_id && *v->message_id) {
		strbuf_addstr(out, ", <code>&lt;");
		report_escape(out, v->message_id);
		strbuf_addstr(out, "&gt;</code>");
	}
	strbuf_addstr(out, "</li>\n");
}

static void page_meta(struct strbuf *out, const struct series *s)
{
	size_t i;

	strbuf_addstr(out, "<dl class=\"meta\">\n");
	meta_item(out, "series", s->name);
	meta_item(out, "change-id", s->change_id);
	meta_item(out, "base", s->base_ref);
	strbuf_addf(out, "<dt>versions</dt><dd>%zu</dd>\n</dl>\n<ul>\n",
		    s->nr_versions);
	for (i = s->nr_versions; i-- > 0;)
		version_line(out, &s->versions[i]);
	strbuf_addstr(out, "</ul>\n");
}

static void page_legend(struct strbuf *out)
{
	strbuf_addstr(out, "<p class=\"legend\">Cells: "
		      "<span style=\"background:#d5f2d5\">"
		      "PASS</span><span style=\"background:#f6c4c4\">FAIL"
		      "</span><span style=\"background:#e8c8f0\">ERROR</span>"
		      "<span style=\"background:#fbe1a6\">TIMEOUT</span> "
		      "<code>-</code> nothing stored. Benchmarks: the change "
		      "against the base, better &gt; 0, <code>*</code> "
		      "better or worse (the 95% interval of the change "
		      "excludes 0), no mark the same (the interval lies "
		      "within the check's threshold), <code>?</code> "
		      "inconclusive, with the runs a side needed to "
		      "decide.</p>\n");
}

/* Loads the versions to show into rp->vs, the latest first. */
static int report_load(struct report *rp, int version)
{
	struct series *s = rp->s;
	size_t i;
	int r;

	rp->vs = xcalloc(s->nr_versions + 1, sizeof(*rp->vs));
	for (i = s->nr_versions; i-- > 0;) {
		struct grid *rv = &rp->vs[rp->nr];
		struct series_version *v = &s->versions[i];

		if (version && v->number != version)
			continue;
		r = series_version_ensure(rp->repo, s, v);
		if (r < 0)
			return r;
		if (series_version_mail_only(v)) {
			if (version)
				return error("%s v%d was recorded from mail "
					     "only: it has no results",
					     s->name, v->number);
			continue;
		}
		rp->nr++;
		r = grid_load(rv, rp->repo, rp->rs, rp->checks, v);
		if (r < 0)
			return r;
		if (!rv->any && !version)
			grid_release(&rp->vs[--rp->nr]);
	}
	return 0;
}

static void report_release(struct report *rp)
{
	size_t i;

	for (i = 0; i < rp->nr; i++)
		grid_release(&rp->vs[i]);
	free(rp->vs);
}

int report_build(git_repository *repo, struct series *s, int version,
		 struct check_list *checks, struct results *rs,
		 struct strbuf *out)
{
	struct report rp = { repo, s, checks, rs, NULL, 0 };
	size_t i;
	int r;

	r = report_load(&rp, version);
	if (r < 0)
		goto out;
	page_head(out, s);
	page_meta(out, s);
	if (!rp.nr) {
		strbuf_addstr(out, "<p>No version has stored results yet: run "
			      "<code>respin check ");
		report_escape(out, s->name);
		strbuf_addstr(out, "</code>.</p>\n");
	}
	page_plots(&rp, out);
	if (rp.nr)
		page_legend(out);
	for (i = 0; i < rp.nr; i++)
		version_table(out, s, &rp.vs[i], checks);
	strbuf_addstr(out, "</body>\n</html>\n");
out:
	report_release(&rp);
	return r;
}

/* ---- writing ---- */

static int check_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int r = 0;

	if (!slash)
		strbuf_addstr(&dir, ".");
	else
		strbuf_add(&dir, path, slash == path ? 1 : slash - path);
	if (stat(dir.buf, &st) < 0 || !S_ISDIR(st.st_mode))
		r = error("cannot write %s: there is no directory %s", path,
			  dir.buf);
	strbuf_release(&dir);
	return r;
}

int report_write(const char *path, const struct strbuf *buf)
{
	int r = check_dir(path);

	if (!r)
		r = write_file_atomic(path, NULL, buf->buf, buf->len, 0666);
	return r;
}
