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
/* p = 0.0188 by Welch, but the two 95% intervals overlap. */
static const double G[] = { 10.0, 10.4, 9.8, 10.2, 10.1, 9.9, 10.3, 10.0 };
static const double H[] = { 10.25, 10.6, 10.1, 10.4, 10.3, 10.2, 10.55, 10.3 };
/* p = 0.0076, intervals overlap, interval of the difference 0.41%. */
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

static void test_compare(void)
{
	struct stats_comparison c;

	/* fio-like throughput: higher is better, a rate. */
	ok(!stats_compare(A, N(A), B, N(B),
			  STATS_HIGHER_IS_BETTER | STATS_HARMONIC, &c),
	   "compare A, B as a rate");
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
	ok(c.significant && !c.overlap && c.decided, "significant, decided");
	ok(c.verdict == STATS_BETTER, "verdict: %s", stats_verdict_name(c.verdict));

	/* The same numbers as times: lower is better. */
	ok(!stats_compare(A, N(A), B, N(B), 0, &c), "compare A, B as times");
	near(c.change_pct, 53.96 / 8747.5 * 100, 1e-9, "change in %% of the Amean");
	near(c.gain_pct, -53.96 / 8747.5 * 100, 1e-9, "lower is better: gain < 0");
	near(c.welch.t, 13.4313934972401, 1e-9, "t on x");
	ok(c.verdict == STATS_WORSE, "verdict: %s", stats_verdict_name(c.verdict));
	ok(!strcmp(stats_verdict_name(c.verdict), "worse"), "named worse");

	ok(!stats_compare(A, N(A), C, N(C), STATS_HIGHER_IS_BETTER, &c) &&
	   c.verdict == STATS_BETTER && c.significant,
	   "A -> C: +6.2%% significant");
	near(c.gain_pct, 542.8 / 8747.5 * 100, 1e-9, "  by 6.205%%");

	ok(!stats_compare(A, N(A), D, N(D), STATS_HIGHER_IS_BETTER, &c),
	   "compare A, D");
	ok(c.verdict == STATS_SAME && !c.significant && c.overlap,
	   "A -> D: the same (p 0.85, overlap): %s", stats_verdict_name(c.verdict));
	ok(c.negligible && c.decided,
	   "  and the difference is known within 0.33%%: negligible");
	ok(!stats_compare(E, N(E), F, N(F), 0, &c) && !c.negligible,
	   "E -> F: the interval of the difference is 33%% wide: not negligible");

	ok(!stats_compare(E, N(E), F, N(F), STATS_HIGHER_IS_BETTER, &c) &&
	   c.verdict == STATS_SAME && !c.decided,
	   "E -> F: p 0.057 and overlap agree: same, undecided");

	ok(!stats_compare(G, N(G), H, N(H), STATS_HIGHER_IS_BETTER, &c),
	   "compare G, H");
	near(c.welch.p, 0.01882290918, 1e-9, "G -> H: p < 0.05");
	ok(c.overlap, "G -> H: yet the intervals overlap");
	ok(c.verdict == STATS_INCONCLUSIVE && !c.significant && !c.decided,
	   "G -> H: the rules disagree: %s", stats_verdict_name(c.verdict));

	ok(!stats_compare(K, N(K), L, N(L), STATS_HIGHER_IS_BETTER, &c),
	   "compare K, L");
	near(c.welch.p, 0.007649018972, 1e-9, "K -> L: p < 0.05");
	ok(c.overlap && !c.significant, "K -> L: intervals overlap");
	ok(c.negligible && c.decided && c.verdict == STATS_SAME,
	   "K -> L: the difference is known within 0.41%%: negligible, same");

	ok(!stats_compare(A, 1, B, 1, STATS_HIGHER_IS_BETTER, &c) &&
	   c.verdict == STATS_INCONCLUSIVE && !c.decided &&
	   fabs(c.gain_pct - (8801.5 / 8740.1 - 1) * 100) < 1e-9,
	   "one run a side: inconclusive, the change still given");
	ok(!strcmp(stats_verdict_name(STATS_INCONCLUSIVE), "inconclusive") &&
	   !strcmp(stats_verdict_name(STATS_SAME), "same") &&
	   !strcmp(stats_verdict_name(STATS_BETTER), "better"),
	   "verdict names");
	ok(stats_compare(A, 0, B, N(B), 0, &c) < 0, "no base samples: an error");
}

static void samples_set(struct stats_samples *s, const double *v, size_t n)
{
	size_t i;

	s->nr = 0;
	for (i = 0; i < n; i++)
		stats_samples_add(s, v[i]);
}

static void test_more_runs(void)
{
	struct stats_samples b = STATS_SAMPLES_INIT, p = STATS_SAMPLES_INIT;
	int n;

	ok(stats_more_runs_needed(&b, &p, 0, 3, 10) == 3,
	   "nothing yet: the minimum");
	samples_set(&b, A, 2);
	samples_set(&p, B, 1);
	ok(stats_more_runs_needed(&b, &p, 0, 3, 10) == 2,
	   "one patch run: two more to the minimum");

	samples_set(&b, A, N(A));
	samples_set(&p, C, N(C));
	ok(stats_more_runs_needed(&b, &p, STATS_HIGHER_IS_BETTER, 3, 10) == 0,
	   "significant: decided, no more runs");

	samples_set(&b, K, N(K));
	samples_set(&p, L, N(L));
	ok(stats_more_runs_needed(&b, &p, 0, 3, 10) == 0,
	   "negligible: decided, no more runs");

	samples_set(&b, G, N(G));
	samples_set(&p, H, N(H));
	n = stats_more_runs_needed(&b, &p, 0, 3, 30);
	ok(n > 0 && n <= 30 - 8, "inconclusive G -> H: %d more runs", n);
	/*
	 * Projected: intervals of half-width t(k-1) s / sqrt(k) separate
	 * once 0.25 > t(k-1) (s_G + s_H) / sqrt(k): s_G = 0.2031,
	 * s_H = 0.1706: k = 11 gives 0.2511, k = 12 gives 0.2374.
	 */
	is_int(n, 4, "  enough to separate the intervals (k = 12)");
	ok(stats_more_runs_needed(&b, &p, 0, 3, 9) == 1,
	   "  but never past the maximum");
	ok(stats_more_runs_needed(&b, &p, 0, 3, 8) == 0,
	   "at the maximum: stop, undecided");

	samples_set(&b, A, N(A));
	samples_set(&p, D, N(D));
	ok(stats_more_runs_needed(&b, &p, 0, 3, 20) == 0,
	   "no difference, known within 0.33%%: decided");
	samples_set(&b, E, N(E));
	samples_set(&p, F, N(F));
	n = stats_more_runs_needed(&b, &p, 0, 3, 10);
	ok(n == 10 - 5, "no decision in sight, wide interval: up to the max (%d)",
	   n);
	/*
	 * E -> F differ by 3.317 with s_E + s_F = 4.905: at k = 11,
	 * t(10) 4.905 / sqrt(11) = 3.295 separates the intervals.
	 */
	is_int(stats_more_runs_needed(&b, &p, 0, 3, 20), 11 - 5,
	       "  a larger maximum: the projected 11 runs");

	{
		/* Adaptive loop: add samples until it says stop. */
		static const double noise[] = { 0.3, -0.5, 0.1, 0.6, -0.2,
						-0.4, 0.5, 0.0, -0.1, 0.2 };
		int runs = 0, more;

		stats_samples_release(&b);
		stats_samples_release(&p);
		while ((more = stats_more_runs_needed(&b, &p, STATS_HARMONIC,
						      3, 10)) > 0) {
			int k;

			for (k = 0; k < more; k++, runs++) {
				stats_samples_add(&b, 100 + noise[runs % 10]);
				stats_samples_add(&p, 100 + noise[(runs + 3) % 10]);
			}
		}
		ok(more == 0 && runs >= 3 && runs <= 10,
		   "a loop on a negligible change stops after %d runs", runs);
	}
	{
		double bad[] = { 1, 0, 2 };

		samples_set(&b, bad, 3);
		samples_set(&p, bad, 3);
		error_clear();
		ok(stats_more_runs_needed(&b, &p, STATS_HARMONIC, 3, 10) < 0,
		   "a rate of 0 is an error: %s", error_last());
	}
	stats_samples_release(&b);
	stats_samples_release(&p);
	ok(b.nr == 0 && b.v == NULL, "released samples are empty");
}

static void test_format(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct stats_comparison c;
	struct stats_cell cells[4] = {
		{ 8747.59, 0, 0 },
		{ 8801.10, 0.61, 0 },
		{ 9290.33, 6.2, 1 },
		{ 9367.29, 7.08, 1 },
	};

	stats_format_cell(&sb, 8801.10, 0.6117, 0, 2);
	is_str(sb.buf, "8801.10 ( 0.61%)", "cell, not significant");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 9290.33, 6.2, 1, 2);
	is_str(sb.buf, "9290.33 * 6.20%*", "cell, significant");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 0.4867, -5.123, 1, 4);
	is_str(sb.buf, "0.4867 *-5.12%*", "negative gain, four decimals");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, -0.001, 0, 2);
	is_str(sb.buf, "12.00 ( 0.00%)", "no -0.00%%");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, 123.456, 1, 2);
	is_str(sb.buf, "12.00 *123.46%*", "a large change widens the cell");
	strbuf_reset(&sb);
	stats_format_cell(&sb, 12.0, NAN, 0, 2);
	is_str(sb.buf, "12.00 ( 0.00%)", "an unknown change prints as 0");
	strbuf_reset(&sb);

	stats_format_row(&sb, "Amean", "fio-randread", 0, cells, 4, 0, 2);
	is_str(sb.buf, "Amean  fio-randread  8747.59 ( 0.00%)  8801.10 ( 0.61%)  "
	       "9290.33 * 6.20%*  9367.29 * 7.08%*",
	       "the design document's row");
	strbuf_reset(&sb);
	stats_format_row(&sb, "Hmean", "tput", 8, cells, 2, 18, 2);
	is_str(sb.buf, "Hmean  tput      "
	       "  8747.59 ( 0.00%)    8801.10 ( 0.61%)",
	       "padded name and cells");
	strbuf_reset(&sb);

	stats_compare(A, N(A), C, N(C), STATS_HIGHER_IS_BETTER, &c);
	stats_cell_from_comparison(&cells[0], &c);
	stats_format_cell(&sb, cells[0].value, cells[0].pct,
			  cells[0].significant, 2);
	is_str(sb.buf, "9290.30 * 6.21%*", "a cell from a comparison");
	strbuf_reset(&sb);
	stats_compare(A, N(A), D, N(D), STATS_HIGHER_IS_BETTER, &c);
	stats_cell_from_comparison(&cells[0], &c);
	stats_format_cell(&sb, cells[0].value, cells[0].pct,
			  cells[0].significant, 2);
	is_str(sb.buf, "8748.55 ( 0.01%)", "an insignificant cell from a comparison");
	strbuf_release(&sb);
}

int main(void)
{
	test_t_distribution();
	test_descriptive();
	test_welch();
	test_compare();
	test_more_runs();
	test_format();
	return done_testing();
}
