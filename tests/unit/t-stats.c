// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark statistics.  Every reference value below was computed with
 * Python's mpmath at 40 significant digits (betainc(..., regularized=
 * True) for the t distribution, bisection for its quantiles), and the
 * t quantiles agree with the printed Student t tables; the t quantile
 * for one degree of freedom is also tan(pi (p - 1/2)) exactly.
 */
#include "ci/stats.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <math.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int near(double got, double want, double tol, const char *what)
{
	int r = ok(fabs(got - want) <= tol, "%s", what);

	if (!r)
		printf("#   got: %.12g\n#  want: %.12g (within %g)\n", got,
		       want, tol);
	return r;
}

/* Relative tolerance, for values of any size. */
static int near_rel(double got, double want, double rel, const char *what)
{
	return near(got, want, fabs(want) * rel, what);
}

static void test_t_distribution(void)
{
	static const struct {
		double p, df, t;
	} table[] = {
		{ 0.975, 1, 12.7062047362 },
		{ 0.975, 2, 4.30265272975 },
		{ 0.975, 3, 3.18244630528 },
		{ 0.975, 5, 2.57058183564 },
		{ 0.975, 10, 2.22813885199 },
		{ 0.975, 30, 2.0422724563 },
		{ 0.975, 100, 1.98397151852 },
		{ 0.975, 1000, 1.96233908083 },
		{ 0.95, 4, 2.13184678633 },
		{ 0.995, 7, 3.49948329735 },
		{ 0.9995, 1, 636.619248769 },
		{ 0.9995, 3, 12.9239786367 },
		{ 0.6, 12, 0.259032745677 },
		{ 0.975, 2.5, 3.574654842 },	/* fractional, as Welch gives */
		{ 0.975, 17.3, 2.10703200375 },
	};
	char what[128];
	size_t i;
	int df;

	for (i = 0; i < N(table); i++) {
		snprintf(what, sizeof(what), "t(%g, %g) = %g", table[i].p,
			 table[i].df, table[i].t);
		near_rel(stats_t_quantile(table[i].p, table[i].df), table[i].t,
			 1e-6, what);
		snprintf(what, sizeof(what), "t(%g, %g) = -%g", 1 - table[i].p,
			 table[i].df, table[i].t);
		near_rel(stats_t_quantile(1 - table[i].p, table[i].df),
			 -table[i].t, 1e-6, what);
	}
	/* The printed table's three decimals. */
	near(stats_t_quantile(0.975, 1), 12.706, 5e-4, "table: t(0.975, 1) = 12.706");
	near(stats_t_quantile(0.975, 5), 2.571, 5e-4, "table: t(0.975, 5) = 2.571");
	near(stats_t_quantile(0.975, 10), 2.228, 5e-4, "table: t(0.975, 10) = 2.228");
	near(stats_t_quantile(0.975, 30), 2.042, 5e-4, "table: t(0.975, 30) = 2.042");
	near(stats_t_quantile(0.975, INFINITY), 1.95996398454, 1e-9,
	     "t(0.975, inf) is the normal 1.95996");
	near(stats_t_quantile(0.975, 1e7), 1.95996398454, 1e-5,
	     "t(0.975, 1e7) tends to the normal");
	ok(stats_t_quantile(0.5, 7) == 0, "the median is 0");
	ok(isnan(stats_t_quantile(0, 3)) && isnan(stats_t_quantile(1, 3)) &&
	   isnan(stats_t_quantile(0.9, 0)) && isnan(stats_t_quantile(NAN, 3)),
	   "quantile outside (0, 1) or df <= 0 is NAN");

	/* Exact forms: df 1 is Cauchy, df 2 is (2p-1) / sqrt(2p(1-p)). */
	for (df = 1; df <= 2; df++) {
		double p, worst = 0;

		for (p = 0.51; p < 0.999; p += 0.01) {
			double want = df == 1 ? tan(M_PI * (p - 0.5)) :
				      (2 * p - 1) / sqrt(2 * p * (1 - p));
			double err = fabs(stats_t_quantile(p, df) - want) / want;

			if (err > worst)
				worst = err;
		}
		ok(worst < 1e-8, "df %d matches its closed form over p (worst %g)",
		   df, worst);
	}

	/* The inverse really is an inverse, for every df 1..1000. */
	{
		double worst = 0;

		for (df = 1; df <= 1000; df++) {
			double t = stats_t_quantile(0.975, df);
			double err = fabs(stats_t_cdf(t, df) - 0.975);

			if (err > worst)
				worst = err;
		}
		ok(worst < 1e-10, "cdf(quantile(0.975, df)) = 0.975 for df 1..1000 (worst %g)",
		   worst);
	}
	/* Monotone in df towards the normal value. */
	{
		double prev = INFINITY;
		int monotone = 1;

		for (df = 1; df <= 1000; df++) {
			double t = stats_t_quantile(0.975, df);

			if (!(t < prev && t > 1.95996398454))
				monotone = 0;
			prev = t;
		}
		ok(monotone, "t(0.975, df) falls with df and stays above 1.95996");
	}

	near(stats_t_cdf(2.0, 5), 0.949030260585071, 1e-12, "cdf(2.0, 5)");
	near(stats_t_cdf(-1.5, 3), 0.115291932622412, 1e-12, "cdf(-1.5, 3)");
	near(stats_t_cdf(0.3, 1), 0.592773579077742, 1e-12, "cdf(0.3, 1)");
	near(stats_t_cdf(4.0, 40), 0.999867043802167, 1e-12, "cdf(4.0, 40)");
	near(stats_t_cdf(0, 9), 0.5, 1e-15, "cdf(0) = 1/2");
	near(stats_beta_inc(2.5, 0.5, 0.3), 0.0189271240719457, 1e-13,
	     "I_0.3(2.5, 0.5)");
	near(stats_beta_inc(10, 3, 0.9), 0.889130022255, 1e-11,
	     "I_0.9(10, 3) (the symmetric branch)");
	ok(stats_beta_inc(2, 3, 0) == 0 && stats_beta_inc(2, 3, 1) == 1,
	   "I_0 = 0, I_1 = 1");
}

/* Samples used below. */
static const double A[] = { 8740.1, 8752.3, 8745.9, 8749.0, 8751.2, 8746.5 };
static const double B[] = { 8801.5, 8790.2, 8812.7, 8799.9, 8803.0 };
static const double C[] = { 9290.0, 9301.4, 9279.6, 9288.8, 9292.1, 9289.9 };
static const double D[] = { 8744.0, 8760.3, 8738.2, 8751.7 };
static const double E[] = { 19.1, 22.4, 18.7, 25.3, 20.2 };
static const double F[] = { 24.9, 21.8, 27.6, 23.3, 26.1, 22.0, 25.5 };
/* p = 0.0188 by Welch, though the two 95% intervals overlap. */
static const double G[] = { 10.0, 10.4, 9.8, 10.2, 10.1, 9.9, 10.3, 10.0 };
static const double H[] = { 10.25, 10.6, 10.1, 10.4, 10.3, 10.2, 10.55, 10.3 };
/* p = 0.0076, a real change of +0.32%, known within 0.41%. */
static const double K[] = { 1000, 1004, 998, 1002, 1001, 999, 1003, 1000 };
static const double L[] = { 1003.1, 1006.6, 1001.6, 1004.6, 1003.6, 1002.6,
			    1006.1, 1002.6 };

static void test_descriptive(void)
{
	static const double neg[] = { 3, -1, 2 };
	static const double one[] = { 42 };
	struct stats_summary s;

	near(stats_mean(A, N(A)), 8747.5, 1e-9, "mean of A");
	near(stats_hmean(A, N(A)), 8747.49814560129, 1e-8, "harmonic mean of A");
	near(stats_stddev(A, N(A)), 4.41134900002242, 1e-10, "stddev of A (n - 1)");
	near(stats_cv(A, N(A)), 0.000504298256647319, 1e-13, "cv of A");
	near(stats_mean(E, N(E)), 21.14, 1e-12, "mean of E");
	near(stats_hmean(E, N(E)), 20.8763511330144, 1e-11, "harmonic mean of E");
	near(stats_stddev(E, N(E)), 2.73367883995176, 1e-12, "stddev of E");
	near(stats_cv(E, N(E)), 0.129313095551171, 1e-12, "cv of E");
	ok(stats_hmean(E, N(E)) < stats_mean(E, N(E)), "Hmean < Amean");
	ok(isnan(stats_hmean(neg, N(neg))), "no harmonic mean of a value <= 0");
	ok(isnan(stats_stddev(one, 1)) && isnan(stats_cv(one, 1)),
	   "no stddev of one sample");
	near(stats_mean(one, 1), 42, 0, "mean of one sample");
	ok(isnan(stats_mean(NULL, 0)), "no mean of nothing");
	{
		/* Large offset, tiny spread: the two-pass sum keeps it. */
		double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

		near(stats_stddev(big, 3), 1, 1e-6, "stddev survives a large offset");
	}

	ok(!stats_summarize(A, N(A), 0, &s), "summarize A");
	near(s.mean, 8747.5, 1e-9, "A: Amean");
	near(s.ci_low, 8742.87057313936, 1e-7, "A: 95%% interval low");
	near(s.ci_high, 8752.12942686064, 1e-7, "A: 95%% interval high");
	near(s.stddev, 4.41134900002242, 1e-10, "A: stddev");
	ok(s.n == 6 && !s.harmonic, "A: n and kind");

	ok(!stats_summarize(D, N(D), 0, &s), "summarize D");
	near(s.ci_low, 8733.29277798088, 1e-7, "D: 95%% interval low (t for df 3)");
	near(s.ci_high, 8763.80722201912, 1e-7, "D: 95%% interval high");

	ok(!stats_summarize(E, N(E), STATS_HARMONIC, &s), "summarize E as a rate");
	ok(s.harmonic, "E: harmonic");
	near(s.mean, 20.8763511330144, 1e-11, "E: Hmean");
	near(s.ci_low, 18.1505535598741, 1e-10, "E: Hmean interval low (from 1/x)");
	near(s.ci_high, 24.5655315196173, 1e-10, "E: Hmean interval high (from 1/x)");
	near(s.stddev, 2.73367883995176, 1e-12, "E: stddev is of the samples");

	ok(!stats_summarize(one, 1, 0, &s) && s.mean == 42 &&
	   isnan(s.ci_low) && isnan(s.ci_high), "one sample: a mean, no interval");
	error_clear();
	ok(stats_summarize(NULL, 0, 0, &s) < 0, "no samples is an error");
	ok(strstr(error_last(), "no samples") != NULL, "  saying so: %s",
	   error_last());
	ok(stats_summarize(neg, N(neg), STATS_HARMONIC, &s) < 0,
	   "a rate <= 0 is an error");
	ok(strstr(error_last(), "harmonic") != NULL, "  saying so: %s",
	   error_last());
}

static void test_welch(void)
{
	static const double flat1[] = { 5, 5, 5 }, flat2[] = { 6, 6 };
	struct stats_welch w;

	ok(!stats_welch_test(A, N(A), B, N(B), &w), "Welch A vs B");
	near(w.t, 13.4313934972401, 1e-9, "A vs B: t");
	near(w.df, 5.96316666562296, 1e-10, "A vs B: Welch-Satterthwaite df");
	near_rel(w.p, 1.10717179443695e-5, 1e-7, "A vs B: p");
	near(w.diff, 53.96, 1e-9, "A vs B: difference");
	near(w.diff_low, 44.114907688358, 1e-7, "A vs B: interval low");
	near(w.diff_high, 63.8050923116425, 1e-7, "A vs B: interval high");

	ok(!stats_welch_test(A, N(A), C, N(C), &w), "Welch A vs C");
	near(w.t, 161.06044949746, 1e-7, "A vs C: t");
	near(w.df, 8.4463262733714, 1e-10, "A vs C: df");
	near_rel(w.p, 4.9861155455616e-16, 1e-5, "A vs C: tiny p stays accurate");

	ok(!stats_welch_test(A, N(A), D, N(D), &w), "Welch A vs D");
	near(w.t, 0.205026902828953, 1e-11, "A vs D: t");
	near(w.df, 3.86028653113842, 1e-10, "A vs D: df");
	near(w.p, 0.847905614279405, 1e-11, "A vs D: p");

	ok(!stats_welch_test(E, N(E), F, N(F), &w), "Welch E vs F");
	near(w.t, 2.2526843131428, 1e-11, "E vs F: t");
	near(w.df, 7.41462968094357, 1e-10, "E vs F: df");
	near(w.p, 0.0568889136203606, 1e-11, "E vs F: p");
	near(w.diff_low, -0.125748904915976, 1e-9, "E vs F: interval low");
	near(w.diff_high, 6.76003461920169, 1e-9, "E vs F: interval high");

	ok(!stats_welch_test(B, N(B), A, N(A), &w) && w.t < 0 &&
	   fabs(w.t + 13.4313934972401) < 1e-9, "swapping the sides flips t");

	ok(!stats_welch_test(flat1, 3, flat2, 2, &w) && isinf(w.t) &&
	   w.t > 0 && w.p == 0, "no spread, different means: p = 0");
	ok(!stats_welch_test(flat1, 3, flat1, 3, &w) && w.t == 0 && w.p == 1,
	   "no spread, same means: p = 1");
	error_clear();
	ok(stats_welch_test(A, 1, B, N(B), &w) < 0, "one sample a side is an error");
	ok(strstr(error_last(), "two samples") != NULL, "  saying so: %s",
	   error_last());
}

/* A fixed plan (one look, the plain 95% interval) with threshold thr. */
static void fixed(struct stats_plan *p, unsigned int flags, double thr)
{
	stats_plan_release(p);
	stats_plan_fixed(p, flags, thr);
}

static void test_compare(void)
{
	struct stats_comparison c;
	struct stats_plan p = { 0 };

	/* fio-like throughput: higher is better, a rate. */
	fixed(&p, STATS_HIGHER_IS_BETTER | STATS_HARMONIC, 0.5);
	ok(!stats_compare(A, N(A), B, N(B), &p, &c), "compare A, B as a rate");
	near(c.base.mean, 8747.49814560129, 1e-8, "base Hmean");
	near(c.patch.mean, 8801.45413885603, 1e-8, "patch Hmean");
	near(c.change_pct, (8801.45413885603 / 8747.49814560129 - 1) * 100,
	     1e-9, "change in %% of the Hmean");
	ok(c.gain_pct == c.change_pct, "higher is better: the gain is the change");
	near(c.welch.t, -13.4787105030443, 1e-8, "the test runs on 1/x");
	near_rel(c.welch.p, 1.02086725860685e-5, 1e-6, "p on 1/x");
	near(c.welch.df, 6.00946207026829, 1e-9, "df on 1/x");
	near(c.base.ci_low, 8742.86983165405, 1e-7, "Hmean interval low");
	near(c.patch.ci_high, 8811.43621272959, 1e-7, "Hmean interval high");
	/* mpmath: the interval on 1/x mapped to the change of the Hmean */
	near(c.low_pct, 0.50431828761998, 1e-9, "interval of the change: low");
	near(c.high_pct, 0.72956641420511, 1e-9, "  and high");
	ok(c.look == 1 && fabs(c.level - 0.05) < 1e-12,
	   "a fixed plan: one look at the 5%% level");
	ok(c.significant && !c.equivalent && c.decided &&
	   c.verdict == STATS_BETTER && c.runs_needed == 0,
	   "outside +-0.5%%, excludes 0: better (%s)",
	   stats_verdict_name(c.verdict));
	fixed(&p, STATS_HIGHER_IS_BETTER | STATS_HARMONIC, 2);
	ok(!stats_compare(A, N(A), B, N(B), &p, &c) && c.significant &&
	   c.equivalent && c.verdict == STATS_SAME,
	   "inside +-2%%: the same, though real (%s)",
	   stats_verdict_name(c.verdict));
	ok(c.threshold_pct == 2, "the threshold is reported");

	/* The same numbers as times: lower is better. */
	fixed(&p, 0, 0.5);
	ok(!stats_compare(A, N(A), B, N(B), &p, &c), "compare A, B as times");
	near(c.change_pct, 53.96 / 8747.5 * 100, 1e-9, "change in %% of the Amean");
	near(c.gain_pct, -53.96 / 8747.5 * 100, 1e-9, "lower is better: gain < 0");
	near(c.welch.t, 13.4313934972401, 1e-9, "t on x");
	near(c.low_pct, 44.114907688358 / 8747.5 * 100, 1e-9,
	     "the interval of the change is Welch's, in %% of the base");
	ok(c.verdict == STATS_WORSE, "verdict: %s", stats_verdict_name(c.verdict));
	ok(!strcmp(stats_verdict_name(c.verdict), "worse"), "named worse");

	fixed(&p, STATS_HIGHER_IS_BETTER, 2);
	ok(!stats_compare(A, N(A), C, N(C), &p, &c) &&
	   c.verdict == STATS_BETTER && c.significant,
	   "A -> C: +6.2%% significant, better");
	near(c.gain_pct, 542.8 / 8747.5 * 100, 1e-9, "  by 6.205%%");

	ok(!stats_compare(A, N(A), D, N(D), &p, &c),
	   "compare A, D");
	ok(c.verdict == STATS_SAME && c.equivalent && !c.significant,
	   "A -> D: no change, known within +-0.2%%: the same (%s)",
	   stats_verdict_name(c.verdict));
	fixed(&p, STATS_HIGHER_IS_BETTER, 0.1);
	ok(!stats_compare(A, N(A), D, N(D), &p, &c) &&
	   c.verdict == STATS_INCONCLUSIVE && c.runs_needed > (int)N(D),
	   "  but not within +-0.1%%: inconclusive, %d runs a side needed",
	   c.runs_needed);

	/*
	 * The bug this replaces: p = 0.057, so neither rule found a change,
	 * and the old verdict was "same"; the interval of the change is
	 * -0.6% .. +32%, far from inside +-2%.
	 */
	fixed(&p, STATS_HIGHER_IS_BETTER, 2);
	ok(!stats_compare(E, N(E), F, N(F), &p, &c), "compare E, F");
	near(c.low_pct, -0.594838717672547, 1e-9, "E -> F: interval low");
	near(c.high_pct, 31.9774579905473, 1e-9, "  and high");
	ok(c.verdict == STATS_INCONCLUSIVE && !c.decided && !c.equivalent &&
	   !c.significant, "E -> F: no evidence either way: inconclusive, "
	   "never the same (%s)", stats_verdict_name(c.verdict));
	/* mpmath: 2 (z.975 + z.8)^2 s^2 / d^2 = 8.69 */
	is_int(c.runs_needed, 9, "  projected: 9 runs a side decide");

	ok(!stats_compare(G, N(G), H, N(H), &p, &c) &&
	   c.verdict == STATS_BETTER,
	   "G -> H: p 0.019, +2.9%% beyond the threshold: better, though "
	   "the two 95%% intervals overlap (%s)", stats_verdict_name(c.verdict));
	ok(!stats_compare(K, N(K), L, N(L), &p, &c) &&
	   c.verdict == STATS_SAME && c.significant,
	   "K -> L: a real +0.3%%, inside +-2%%: the same");
	fixed(&p, STATS_HIGHER_IS_BETTER, 0.3);
	ok(!stats_compare(K, N(K), L, N(L), &p, &c) &&
	   c.verdict == STATS_BETTER, "  but better with a threshold of 0.3%%");

	fixed(&p, STATS_HIGHER_IS_BETTER, 2);
	ok(!stats_compare(A, 1, B, 1, &p, &c) &&
	   c.verdict == STATS_INCONCLUSIVE && !c.decided &&
	   fabs(c.gain_pct - (8801.5 / 8740.1 - 1) * 100) < 1e-9 &&
	   isnan(c.low_pct) && c.runs_needed == 2,
	   "one run a side: inconclusive, the change still given, 2 needed");
	{
		static const double f1[] = { 5, 5, 5 }, f2[] = { 6, 6, 6 };

		ok(!stats_compare(f1, 3, f1, 3, &p, &c) &&
		   c.verdict == STATS_SAME, "no spread, equal: the same");
		ok(!stats_compare(f1, 3, f2, 3, &p, &c) &&
		   c.verdict == STATS_BETTER, "no spread, +20%%: better");
	}
	ok(!strcmp(stats_verdict_name(STATS_INCONCLUSIVE), "inconclusive") &&
	   !strcmp(stats_verdict_name(STATS_SAME), "same") &&
	   !strcmp(stats_verdict_name(STATS_BETTER), "better"),
	   "verdict names");
	ok(stats_compare(A, 0, B, N(B), &p, &c) < 0, "no base samples: an error");
	stats_plan_release(&p);
}

/* n samples of mean m and standard deviation sd exactly (n even). */
static void exact(struct stats_samples *s, size_t n, double m, double sd)
{
	double a = sd * sqrt((double)(n - 1) / n);
	size_t i;

	s->nr = 0;
	for (i = 0; i < n; i++)
		stats_samples_add(s, m + (i % 2 ? a : -a));
}

static void test_plan(void)
{
	static const int looks30[] = { 5, 7, 9, 12, 15, 19, 24, 30 };
	static const int looks40[] = { 5, 7, 9, 12, 15, 19, 24, 30, 40 };
	/*
	 * Lan-DeMets, O'Brien-Fleming-like, 5 equal looks, 5% two-sided:
	 * looks 1 and 2 from mpmath (the normal quantile; the bivariate
	 * normal integrated with quad, corr sqrt(1/2)), looks 3 to 5 as
	 * the published tables print them (4 digits).
	 */
	static const double published[] = { 4.87688494879, 3.35701192157,
					    2.6803, 2.2898, 2.0310 };
	static const double tol[] = { 1e-8, 1e-8, 1e-4, 1e-4, 1e-4 };
	double t[5] = { 0.2, 0.4, 0.6, 0.8, 1.0 }, z[5];
	struct stats_plan p;
	size_t i;
	int same = 1;

	near(stats_obf_spent(1, 0.05), 0.05, 1e-12, "all of alpha is spent at t = 1");
	ok(stats_obf_spent(0.2, 0.05) < 2e-6, "little of it at t = 0.2: %g",
	   stats_obf_spent(0.2, 0.05));
	ok(!stats_gs_bounds(t, 5, 0.05, z), "boundaries of 5 equal looks");
	for (i = 0; i < 5; i++)
		near(z[i], published[i], tol[i], "  the look's boundary");
	t[2] = 0.4;
	ok(stats_gs_bounds(t, 5, 0.05, z) < 0 &&
	   strstr(error_last(), "must grow"), "times that do not grow: an error");
	error_clear();

	stats_plan_init(&p, 0, 5, 30, 2);
	ok(p.nr_looks == N(looks30), "5..30 runs: %zu looks", p.nr_looks);
	for (i = 0; i < N(looks30) && i < p.nr_looks; i++)
		same &= p.look_runs[i] == looks30[i];
	ok(same, "  at 5, 7, 9, 12, 15, 19, 24 and 30 runs a side");
	for (i = 1, same = 1; i < p.nr_looks; i++)
		same &= p.look_z[i] < p.look_z[i - 1];
	ok(same && p.look_z[0] > 5 && p.look_z[p.nr_looks - 1] < 2.05 &&
	   p.look_z[p.nr_looks - 1] > 1.96,
	   "  strict early (z %.2f), near 1.96 at the end (z %.3f)",
	   p.look_z[0], p.look_z[p.nr_looks - 1]);
	stats_plan_release(&p);
	stats_plan_init(&p, 0, 5, 40, 2);
	for (i = 0, same = p.nr_looks == N(looks40); same && i < N(looks40); i++)
		same &= p.look_runs[i] == looks40[i];
	ok(same, "5..40: a look just short of 40 moves to 40");
	stats_plan_release(&p);
	stats_plan_init(&p, 0, 3, 3, 2);
	ok(p.nr_looks == 1 && p.look_runs[0] == 3 &&
	   fabs(p.look_z[0] - 1.95996398454) < 1e-9,
	   "3..3: one look, the plain 95%% interval");
	stats_plan_release(&p);
	ok(p.look_runs == NULL && p.nr_looks == 0, "a released plan is empty");
}

static void test_sequential(void)
{
	struct stats_samples b = STATS_SAMPLES_INIT, q = STATS_SAMPLES_INIT;
	struct stats_comparison c;
	struct stats_plan p;

	/* G -> H is "better" at one fixed look, but at look 2 of 5..30 */
	stats_plan_init(&p, STATS_HIGHER_IS_BETTER, 5, 30, 2);
	ok(!stats_compare(G, N(G), H, N(H), &p, &c) && c.look == 2,
	   "8 runs a side is look 2 (7 runs) of 5..30");
	near(c.level, erfc(p.look_z[1] / sqrt(2)), 1e-15, "  at its level");
	ok(c.level < 1e-4 && c.verdict == STATS_INCONCLUSIVE &&
	   c.runs_needed == 9,
	   "  too strict to decide yet: inconclusive, the next look (9) needed");

	/*
	 * The seed's case: -2.7% at 7.1% noise, 40 runs a side, the last
	 * look of 5..40: 2 (z.975 + z.8)^2 7.1^2 / 2.7^2 = 108.5 a side.
	 */
	stats_plan_release(&p);
	stats_plan_init(&p, STATS_HIGHER_IS_BETTER, 5, 40, 2);
	exact(&b, 40, 100, 7.1);
	exact(&q, 40, 97.3, 7.1);
	ok(!stats_compare(b.v, b.nr, q.v, q.nr, &p, &c) && c.look == 9,
	   "the seed's case at 40 runs: the last look");
	near(c.change_pct, -2.7, 1e-9, "  -2.7%%");
	ok(c.verdict == STATS_INCONCLUSIVE && !c.equivalent,
	   "  inconclusive, not the same (%s)", stats_verdict_name(c.verdict));
	is_int(c.runs_needed, 109, "  about 109 runs a side needed");
	is_int(stats_next_look(&p, b.nr, q.nr, &c), 0,
	       "  and at the maximum: the loop stops");
	exact(&b, 110, 100, 7.1);
	exact(&q, 110, 97.3, 7.1);
	ok(!stats_compare(b.v, b.nr, q.v, q.nr, &p, &c) &&
	   c.verdict == STATS_WORSE,
	   "with 110 runs a side it is worse (%s)", stats_verdict_name(c.verdict));
	stats_samples_release(&b);
	stats_samples_release(&q);
	stats_plan_release(&p);
}

static void test_window(void)
{
	/* the base's runs (ABBA with one patch) and the patch's */
	static const double base[] = { 10, 11, 12, 13, 14, 15 };
	static const int64_t bseq[] = { 1, 4, 5, 8, 9, 12 };
	static const int64_t pseq[] = { 2, 3, 6, 7, 10, 11 };
	static const int64_t later[] = { 20, 21 }, early[] = { 0 };
	static const int64_t mid[] = { 6, 7 }, wide[] = { 3, 10 };
	double out[6];
	size_t n;

	n = stats_window(base, bseq, 6, pseq, 6, out);
	ok(n == 6 && out[0] == 10 && out[5] == 15,
	   "taken in turns: all of the base's runs (%zu)", n);
	n = stats_window(base, bseq, 6, mid, 2, out);
	ok(n == 2 && out[0] == 12 && out[1] == 13,
	   "a span with none inside: the run before, and one after to make 2");
	n = stats_window(base, bseq, 6, wide, 2, out);
	ok(n == 5 && out[0] == 10 && out[1] == 11 && out[4] == 14,
	   "the run before and the four within: not the one after (%zu)", n);
	n = stats_window(base, bseq, 6, later, 2, out);
	ok(n == 1 && out[0] == 15,
	   "a patch run after the base: only the base's last run (%zu)", n);
	n = stats_window(base, bseq, 6, early, 1, out);
	ok(n == 1 && out[0] == 10,
	   "a patch run before the base: only its first run (%zu)", n);
	ok(stats_window(base, bseq, 6, pseq, 0, out) == 0 &&
	   stats_window(base, bseq, 0, pseq, 6, out) == 0,
	   "no runs on a side: none");
}

static void samples_set(struct stats_samples *s, const double *v, size_t n)
{
	size_t i;

	s->nr = 0;
	for (i = 0; i < n; i++)
		stats_samples_add(s, v[i]);
}

static void test_next_look(void)
{
	struct stats_samples b = STATS_SAMPLES_INIT, q = STATS_SAMPLES_INIT;
	struct stats_comparison c;
	struct stats_plan p;

	stats_plan_init(&p, 0, 3, 10, 2);
	is_int(stats_next_look(&p, 0, 0, NULL), 3, "nothing yet: the first look");
	is_int(stats_next_look(&p, 2, 1, NULL), 3, "short of it: the first look");
	samples_set(&b, A, N(A));
	samples_set(&q, C, N(C));
	ok(!stats_compare(b.v, 3, q.v, 3, &p, &c) && c.decided,
	   "+6.2%% at 3 runs a side: decided at the first look");
	is_int(stats_next_look(&p, 3, 3, &c), 0, "  so the loop stops");
	is_int(stats_next_look(&p, 4, 4, &c), 5,
	       "  but between looks it goes on to the next (5)");
	samples_set(&b, E, N(E));
	samples_set(&q, F, N(F));
	ok(!stats_compare(b.v, 3, q.v, 3, &p, &c) && !c.decided,
	   "E -> F at 3 runs: not decided");
	is_int(stats_next_look(&p, 3, 3, &c), 5, "  the next look: 5 a side");
	is_int(stats_next_look(&p, 10, 3, &c), 5,
	       "  a larger base: the patch still goes to 5");
	is_int(stats_next_look(&p, 9, 9, &c), 10, "  after 9: the last, 10");
	is_int(stats_next_look(&p, 10, 10, &c), 0, "  at 10: stop, undecided");

	{
		/* The loop as respin check runs it, on a negligible change. */
		static const double noise[] = { 0.3, -0.5, 0.1, 0.6, -0.2,
						-0.4, 0.5, 0.0, -0.1, 0.2 };
		struct stats_plan r;
		int runs = 0, want;

		stats_plan_init(&r, STATS_HARMONIC, 3, 30, 2);
		b.nr = q.nr = 0;
		for (;;) {
			int have = b.nr > 0;

			if (have)
				stats_compare(b.v, b.nr, q.v, q.nr, &r, &c);
			want = stats_next_look(&r, b.nr, q.nr, have ? &c : NULL);
			if (!want)
				break;
			for (; (int)b.nr < want; runs++) {
				stats_samples_add(&b, 100 + noise[runs % 10]);
				stats_samples_add(&q, 100 + noise[(runs + 3) % 10]);
			}
		}
		ok(c.verdict == STATS_SAME && runs < 30,
		   "a loop on no change stops after %d runs: %s", runs,
		   stats_verdict_name(c.verdict));
		stats_plan_release(&r);
	}
	{
		double bad[] = { 1, 0, 2 };

		samples_set(&b, bad, 3);
		samples_set(&q, bad, 3);
		p.flags = STATS_HARMONIC;
		error_clear();
		ok(stats_compare(b.v, b.nr, q.v, q.nr, &p, &c) < 0,
		   "a rate of 0 is an error: %s", error_last());
	}
	stats_samples_release(&b);
	stats_samples_release(&q);
	ok(b.nr == 0 && b.v == NULL, "released samples are empty");
	stats_plan_release(&p);
}

static void test_format(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct stats_comparison c;
	struct stats_plan p;
	struct stats_cell cells[4] = {
		{ 8747.59, 0, STATS_MARK_NONE },
		{ 8801.10, 0.61, STATS_MARK_NONE },
		{ 9290.33, 6.2, STATS_MARK_SIGNIFICANT },
		{ 9367.29, 7.08, STATS_MARK_SIGNIFICANT },
	};

	stats_format_cell(&sb, 8801.10, 0.6117, STATS_MARK_NONE, 2);
	is_str(sb.buf, "8801.10 (   0.61%)", "cell, the same (mmtests: %%7.2f)");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 9290.33, 6.2, STATS_MARK_SIGNIFICANT, 2);
	is_str(sb.buf, "9290.33 *   6.20%*", "cell, significant");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 8790.20, -0.49, STATS_MARK_UNSURE, 2);
	is_str(sb.buf, "8790.20 ?  -0.49%?", "cell, inconclusive");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 0.4867, -5.123, STATS_MARK_SIGNIFICANT, 4);
	is_str(sb.buf, "0.4867 *  -5.12%*", "negative gain, four decimals");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, -0.001, STATS_MARK_NONE, 2);
	is_str(sb.buf, "12.00 (   0.00%)", "no -0.00%%");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, 123.456, STATS_MARK_SIGNIFICANT, 2);
	is_str(sb.buf, "12.00 * 123.46%*", "a large change fills the width");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, NAN, STATS_MARK_NONE, 2);
	is_str(sb.buf, "12.00 (   0.00%)", "an unknown change prints as 0");
	strbuf_reset(&sb);

	stats_format_row(&sb, "Amean", "fio-randread", 0, cells, 4, 0, 2);
	is_str(sb.buf, "Amean     fio-randread  8747.59 (   0.00%)  "
	       "8801.10 (   0.61%)  9290.33 *   6.20%*  9367.29 *   7.08%*",
	       "the design document's row, in mmtests' columns");
	strbuf_reset(&sb);
	stats_format_row(&sb, "Hmean", "tput", 8, cells, 2, 20, 2);
	is_str(sb.buf, "Hmean     tput      "
	       "  8747.59 (   0.00%)    8801.10 (   0.61%)",
	       "padded name and cells");
	strbuf_reset(&sb);
	stats_format_row(&sb, "CoeffVar", "tput", 4, cells, 1, 0, 2);
	is_str(sb.buf, "CoeffVar  tput  8747.59 (   0.00%)",
	       "CoeffVar fills the statistic's column");
	strbuf_reset(&sb);
	stats_format_row(&sb, NULL, "Ops Compaction stalls", 0, cells + 2, 1,
			 0, 2);
	is_str(sb.buf, "Ops Compaction stalls  9290.33 *   6.20%*",
	       "an Ops row has no statistic's column");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 4, INFINITY, STATS_MARK_SIGNIFICANT, 2);
	is_str(sb.buf, "4.00 *     n/a*", "a change from 0: n/a, the width kept");
	strbuf_reset(&sb);
	ok(stats_min(A, N(A)) <= stats_mean(A, N(A)) &&
	   stats_max(A, N(A)) >= stats_mean(A, N(A)), "min <= mean <= max");
	ok(isnan(stats_min(A, 0)) && isnan(stats_max(A, 0)),
	   "no min or max of nothing");

	stats_plan_fixed(&p, STATS_HIGHER_IS_BETTER, 2);
	stats_compare(A, N(A), C, N(C), &p, &c);
	stats_cell_from_comparison(&cells[0], &c);
	stats_format_cell(&sb, cells[0].value, cells[0].pct, cells[0].mark, 2);
	is_str(sb.buf, "9290.30 *   6.21%*", "a cell from a comparison");
	strbuf_reset(&sb);
	stats_compare(A, N(A), D, N(D), &p, &c);
	stats_cell_from_comparison(&cells[0], &c);
	stats_format_cell(&sb, cells[0].value, cells[0].pct, cells[0].mark, 2);
	is_str(sb.buf, "8748.55 (   0.01%)", "a cell of the same from a comparison");
	strbuf_reset(&sb);
	stats_compare(E, N(E), F, N(F), &p, &c);
	stats_cell_from_comparison(&cells[0], &c);
	stats_format_cell(&sb, cells[0].value, cells[0].pct, cells[0].mark, 2);
	is_str(sb.buf, "24.46 ?  15.69%?", "an inconclusive cell from a comparison");
	stats_plan_release(&p);
	strbuf_release(&sb);
}

int main(void)
{
	test_t_distribution();
	test_descriptive();
	test_welch();
	test_compare();
	test_plan();
	test_sequential();
	test_window();
	test_next_look();
	test_format();
	return done_testing();
}
