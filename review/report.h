/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REPORT_H
#define RESPIN_REVIEW_REPORT_H

#include "ci/checks.h"
#include "ci/results.h"
#include "series/store.h"

/*
 * A report: one self-contained HTML page (inline CSS, inline SVG, no
 * script, nothing fetched from the network) with the stored results of
 * a series: a table a version (a row a patch, a column a check, cells
 * as "respin results" prints them) and a plot a benchmark (the mean
 * and its 95% interval at each position, one series of points a
 * version).  Every string from the series or from mail is escaped.
 */

/* Appends s escaped for HTML text and attribute values. */
void report_escape(struct strbuf *out, const char *s);

/* One position of a plot; have = 0 leaves it out. */
struct report_point {
	int have;
	double mean;
	double low, high;	/* the 95% interval; NAN when unknown */
};

/* The points of one version, index 0 the base. */
struct report_line {
	int version;
	struct report_point *points;
	size_t nr;
};

struct report_plot {
	const char *name;	/* the check */
	const char *metric;
	int higher;		/* higher is better */
	int harmonic;		/* the means are harmonic means */
	struct report_line *lines;
	size_t nr;
};

/* Appends the plot as an <svg> element. */
void report_plot_svg(struct strbuf *out, const struct report_plot *p);

/*
 * Appends the page for series s to out.  version 0: every version that
 * has any stored result, the latest first; otherwise only that version
 * (an error if it was recorded from mail only).  checks and rs as
 * checks_load() and results_open() give them.
 */
int report_build(git_repository *repo, struct series *s, int version,
		 struct check_list *checks, struct results *rs,
		 struct strbuf *out);

/*
 * Writes buf to path through a temporary file in the same directory
 * renamed into place; the error names a directory that does not exist.
 */
int report_write(const char *path, const struct strbuf *buf);

#endif
