/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_STATS_H
#define RESPIN_CI_STATS_H

#include <stddef.h>
#include <stdint.h>

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
/* The smallest and largest sample; NAN when n is 0. */
double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);

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

/*
 * Verdicts.  A comparison of a patch's samples with the base's gives
 * the change in % of the base, its interval, and one of:
 *
 *   better, worse   the interval of the change excludes 0 (significant)
 *   same            the interval lies inside +-threshold % of the base:
 *                   an equivalence test, so "same" is evidence of no
 *                   change that matters, never mere absence of evidence
 *   inconclusive    neither yet; runs_needed says how many runs a side
 *                   would decide, projected from the spread seen so far
 *
 * When the interval lies inside +-threshold and excludes 0, the change
 * is real but smaller than the threshold says matters: "same".
 *
 * The adaptive loop looks at the data repeatedly (after min runs, then
 * at planned looks up to max), so each look's interval is a repeated
 * confidence interval: its level comes from a group-sequential boundary
 * with O'Brien-Fleming-like alpha spending (Lan-DeMets), computed
 * exactly by recursive numerical integration, so that over all looks
 * the chance of a wrong "better"/"worse" (and of a "same" whose
 * interval misses the truth) stays at 5%.  See docs/design.md.
 */
enum stats_verdict {
	STATS_INCONCLUSIVE,	/* not decided (or too few runs) */
	STATS_BETTER,		/* significant, in the good direction */
	STATS_WORSE,		/* significant, in the bad direction */
	STATS_SAME,		/* the interval lies inside +-threshold */
};

#define STATS_ALPHA 0.05		/* over all looks, two-sided */
#define STATS_POWER 0.80		/* for the projected runs */
#define STATS_THRESHOLD_PCT 2.0		/* respin.check.NAME.threshold */
#define STATS_RUNS_NEEDED_MAX 1000000	/* projections are capped here */

/*
 * The plan of an adaptive comparison: which looks it takes (runs a
 * side at each, from min_runs growing by about a quarter up to
 * max_runs) and the boundary of each.  A plan made by
 * stats_plan_fixed() has one look at whatever runs there are (a fixed
 * sample: the plain 95% interval).  stats_plan_release() frees it.
 */
struct stats_plan {
	unsigned int flags;	/* STATS_HIGHER_IS_BETTER, STATS_HARMONIC */
	double threshold_pct;	/* "same" within +- this % of the base */
	int min_runs, max_runs;	/* a side; 0, 0 for a fixed plan */
	size_t nr_looks;
	int *look_runs;		/* runs a side at each look (0: any) */
	double *look_z;		/* the look's two-sided normal boundary */
};

void stats_plan_init(struct stats_plan *p, unsigned int flags, int min_runs,
		     int max_runs, double threshold_pct);
void stats_plan_fixed(struct stats_plan *p, unsigned int flags,
		      double threshold_pct);
void stats_plan_release(struct stats_plan *p);

/*
 * Group-sequential pieces, exported for the tests.  The two-sided alpha
 * that the Lan-DeMets O'Brien-Fleming-like function has spent by
 * information time t in (0, 1], each side spending alpha / 2:
 * 2 (2 - 2 Phi(z_{1-alpha/4} / sqrt t)).  stats_gs_bounds()
 * fills z[0..k-1], the two-sided boundaries (normal scale) of looks at
 * increasing times t[0..k-1] under that spending; returns 0 or an error.
 */
double stats_obf_spent(double t, double alpha);
int stats_gs_bounds(const double *t, size_t k, double alpha, double *z);

/* Base versus patch. */
struct stats_comparison {
	struct stats_summary base, patch;
	/* Welch's test on the scale tested (1/x for STATS_HARMONIC) */
	struct stats_welch welch;
	double change_pct;	/* (patch - base) / base * 100, raw sign */
	/* change_pct, negated when lower is better: > 0 means better. */
	double gain_pct;
	/* The interval of change_pct at this look's level (NAN: n < 2). */
	double low_pct, high_pct;
	double threshold_pct;	/* of the plan */
	size_t look;		/* which look of the plan this is (1-based) */
	double level;		/* the look's two-sided level (0.05 at one) */
	int significant;	/* the interval excludes 0 */
	int equivalent;		/* the interval is inside +-threshold */
	int decided;		/* the verdict is not inconclusive */
	enum stats_verdict verdict;
	/*
	 * Inconclusive: the runs a side (in all) projected to decide, for
	 * 80% power at the 5% level from the change and spread seen so
	 * far (at least the plan's next look); 0 when decided, -1 when
	 * there is nothing to project from.
	 */
	int runs_needed;
};

/*
 * Compares the patch's samples with the base's under plan p.  Fewer
 * than two samples on either side gives STATS_INCONCLUSIVE (not an
 * error); returns an error only for no samples or a harmonic mean of
 * x <= 0.
 */
int stats_compare(const double *base, size_t nbase, const double *patch,
		  size_t npatch, const struct stats_plan *p,
		  struct stats_comparison *out);

/* "same", "better", "worse", "inconclusive". */
const char *stats_verdict_name(enum stats_verdict v);

/*
 * The base samples a patch is compared with: those of side a taken
 * during side b's runs, by seq (the order samples were stored in, both
 * ascending): every one stored between b's first and last sample, the
 * one just before that span, and, when that makes fewer than b has, the
 * one just after it (the base's run of b's last round, when the base
 * ran last in it).  With runs taken in turn (a, b, b, a, ...) the two
 * then cover the same time, so the drift of a warming or busy machine
 * falls on both; and since each sample is stored after every other,
 * runs a takes later, for other patches or another day, do not change
 * b's comparison.  Copies them to out (room for na) and returns how
 * many; none when nb is 0.
 */
size_t stats_window(const double *a, const int64_t *aseq, size_t na,
		    const int64_t *bseq, size_t nb, double *out);

/*
 * The adaptive loop's decision, with no processes: given the runs a
 * side so far and their comparison (NULL when a side has none), the
 * runs a side the next look wants (take runs until both sides have at
 * least that many), or 0 to stop: decided at one of the plan's looks,
 * or at its maximum.
 * respin check's engine and the statistical trial both call this.
 */
int stats_next_look(const struct stats_plan *p, size_t nbase, size_t npatch,
		    const struct stats_comparison *c);

/*
 * mmtests-style table cells, as mmtests' compare-kernels prints them:
 *   "8801.10 (   0.61%)"   STATS_MARK_NONE: the base, or the same
 *   "9290.33 *   6.20%*"   STATS_MARK_SIGNIFICANT: better or worse
 *   "8790.20 ?  -0.49%?"   STATS_MARK_UNSURE: inconclusive
 *   "   4.00 (     n/a)"   pct infinite: a change from 0
 * pct is the gain (> 0 better), in %7.2f; decimals digits after the
 * point of the value.
 */
enum stats_mark {
	STATS_MARK_NONE,
	STATS_MARK_SIGNIFICANT,
	STATS_MARK_UNSURE,
};

void stats_format_cell(struct strbuf *out, double value, double pct,
		       enum stats_mark mark, int decimals);

/* The mark of a comparison's verdict. */
enum stats_mark stats_verdict_mark(enum stats_verdict v);

struct stats_cell {
	double value;
	double pct;
	enum stats_mark mark;
};

/* mmtests' column of the statistic's name: "Amean     ", "CoeffVar  " */
#define STATS_KIND_WIDTH 10

/*
 * One row: "Amean     fio-randread  8747.59 (   0.00%)  8801.10 (   0.61%)".
 * kind ("Amean", "Hmean", "Stddev", "CoeffVar", "Min", "Max") is
 * padded to STATS_KIND_WIDTH (NULL: no such column, the name is the
 * whole label, as mmtests' "Ops Compaction stalls"), name to
 * name_width; cells are right-aligned in cell_width columns, each after
 * two spaces.  No newline is added.
 */
void stats_format_row(struct strbuf *out, const char *kind, const char *name,
		      int name_width, const struct stats_cell *cells,
		      size_t ncells, int cell_width, int decimals);

/* Fills a row's cells from a comparison (the base column is 0.00%). */
void stats_cell_from_comparison(struct stats_cell *cell,
				const struct stats_comparison *c);

#endif
