/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_STATS_H
#define RESPIN_CI_STATS_H

#include <stddef.h>

struct strbuf;

/*
 * Benchmark statistics over stored samples.
 *
 * Which mean: a metric that is a time or a size per run (seconds,
 * latency, bytes) is summarised with the arithmetic mean (Amean).  A
 * metric that is a rate (operations per second, MB/s, requests per
 * second) is summarised with the harmonic mean (Hmean, STATS_HARMONIC):
 * when every run does the same amount of work, the mean rate is the
 * total work over the total time, which is the harmonic mean of the
 * rates.  For the harmonic mean, the interval and the tests are
 * computed on the reciprocals 1/x (where the mean is arithmetic) and
 * mapped back, so they stay consistent with the mean reported.
 *
 * Functions that return a double return NAN when the answer is not
 * defined (too few samples, a harmonic mean of values <= 0).
 */

/* A growable array of samples.  STATS_SAMPLES_INIT is empty. */
struct stats_samples {
	double *v;
	size_t nr, alloc;
};
#define STATS_SAMPLES_INIT { NULL, 0, 0 }

void stats_samples_init(struct stats_samples *s);
void stats_samples_add(struct stats_samples *s, double v);
void stats_samples_release(struct stats_samples *s);

/* Comparison flags. */
enum {
	STATS_HIGHER_IS_BETTER = 1 << 0,	/* throughput, not time */
	STATS_HARMONIC = 1 << 1,		/* a rate: use Hmean */
};

double stats_mean(const double *x, size_t n);
/* 1 / mean(1/x); NAN unless every sample is > 0. */
double stats_hmean(const double *x, size_t n);
/* Sample standard deviation (n - 1 in the denominator); NAN if n < 2. */
double stats_stddev(const double *x, size_t n);
/* Coefficient of variation: stddev / mean (a fraction, not %). */
double stats_cv(const double *x, size_t n);

/*
 * The Student t distribution with df degrees of freedom (df > 0, may be
 * fractional; df = INFINITY gives the normal distribution).
 * stats_t_cdf() is P(T <= t); stats_t_quantile() its inverse for
 * 0 < p < 1.  stats_beta_inc() is the regularized incomplete beta
 * function I_x(a, b).
 */
double stats_beta_inc(double a, double b, double x);
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/* A summary of one set of samples, for one kind of mean. */
struct stats_summary {
	size_t n;
	int harmonic;		/* mean is the harmonic mean */
	double mean;		/* Amean or Hmean */
	double stddev;		/* of the samples themselves */
	double cv;		/* stddev / arithmetic mean */
	double ci_low, ci_high;	/* 95% interval of the mean (NAN if n < 2) */
};

/* Fills out; returns 0, or an error when n == 0 or Hmean of x <= 0. */
int stats_summarize(const double *x, size_t n, unsigned int flags,
		    struct stats_summary *out);

/* Welch's unequal-variance t-test of mean(b) - mean(a). */
struct stats_welch {
	double t;		/* (mean b - mean a) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
	double diff;		/* mean b - mean a */
	double diff_low, diff_high;	/* 95% interval of diff */
};

/* Needs na, nb >= 2; returns 0 or an error. */
int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_welch *out);

enum stats_verdict {
	STATS_SAME,		/* both rules agree: no significant change */
	STATS_BETTER,		/* significant, in the good direction */
	STATS_WORSE,		/* significant, in the bad direction */
	STATS_INCONCLUSIVE,	/* the rules disagree, or too few runs */
};

/*
 * A change smaller than this (the full width of the 95% interval of
 * the difference, in % of the base mean) is negligible.
 */
#define STATS_NEGLIGIBLE_PCT 1.0
#define STATS_ALPHA 0.05

/* Base versus patch. */
struct stats_comparison {
	struct stats_summary base, patch;
	struct stats_welch welch;	/* on 1/x for STATS_HARMONIC */
	double change_pct;	/* (patch - base) / base * 100, raw sign */
	/* change_pct, negated when lower is better: > 0 means better. */
	double gain_pct;
	int overlap;		/* the two 95% intervals overlap */
	int significant;	/* p < 0.05 and no overlap (mmtests' rule) */
	int negligible;		/* the difference is known to be tiny */
	int decided;		/* significant or negligible */
	enum stats_verdict verdict;
};

/*
 * Compares the patch's samples with the base's.  Fewer than two
 * samples on either side gives STATS_INCONCLUSIVE (not an error);
 * returns an error only for no samples or a harmonic mean of x <= 0.
 */
int stats_compare(const double *base, size_t nbase, const double *patch,
		  size_t npatch, unsigned int flags, struct stats_comparison *out);

/* "same", "better", "worse", "inconclusive". */
const char *stats_verdict_name(enum stats_verdict v);

/*
 * Adaptive runs: how many more runs of each side to take before the
 * comparison is decided (significant, or negligible), estimated from
 * the spread seen so far.  Returns 0 when decided or when both sides
 * have max_runs samples; at least min_runs samples are always taken.
 */
int stats_more_runs_needed(const struct stats_samples *base,
			   const struct stats_samples *patch, unsigned int flags,
			   int min_runs, int max_runs);

/*
 * mmtests-style table cells:
 *   "8801.10 ( 0.61%)"   not significant
 *   "9290.33 * 6.20%*"   significant
 * pct is the gain (> 0 better); decimals digits after the point.
 */
void stats_format_cell(struct strbuf *out, double value, double pct,
		       int significant, int decimals);

struct stats_cell {
	double value;
	double pct;
	int significant;
};

/*
 * One row: "Amean  fio-randread  8747.59 ( 0.00%)  8801.10 ( 0.61%)".
 * kind is "Amean" or "Hmean" (padded to 6), name is padded to
 * name_width, cells are right-aligned in cell_width columns and
 * separated by two spaces.  No newline is added.
 */
void stats_format_row(struct strbuf *out, const char *kind, const char *name,
		      int name_width, const struct stats_cell *cells,
		      size_t ncells, int cell_width, int decimals);

/* Fills a row's cells from a comparison (the base column is 0.00%). */
void stats_cell_from_comparison(struct stats_cell *cell,
				const struct stats_comparison *c);

#endif
