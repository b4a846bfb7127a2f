// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark statistics: means, spread, Student t intervals, Welch's
 * test, and the verdicts of a comparison (see ci/stats.h; the plan and
 * its boundaries are in ci/sequential.c).
 */
#include "ci/stats.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_samples_init(struct stats_samples *s)
{
	s->v = NULL;
	s->nr = s->alloc = 0;
}

void stats_samples_add(struct stats_samples *s, double v)
{
	ALLOC_GROW(s->v, s->nr, s->alloc);
	s->v[s->nr++] = v;
}

void stats_samples_release(struct stats_samples *s)
{
	free(s->v);
	stats_samples_init(s);
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_hmean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += 1 / x[i];
	}
	return n / sum;
}

double stats_stddev(const double *x, size_t n)
{
	double mean, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	/* Two passes: the textbook one-pass formula cancels badly. */
	mean = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (n - 1));
}

double stats_min(const double *x, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (!i || x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (!i || x[i] > m)
			m = x[i];
	return m;
}

double stats_cv(const double *x, size_t n)
{
	double mean = stats_mean(x, n);

	if (n < 2 || mean == 0)
		return NAN;
	return stats_stddev(x, n) / fabs(mean);
}

/*
 * The continued fraction for the incomplete beta function, evaluated
 * from the front with the modified Lentz method.  Converges quickly
 * for x < (a + 1) / (a + b + 2); the caller uses the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) otherwise.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d, f;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 10000; m++) {
		double num, step;

		/* The even term d_{2m}. */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		f *= d * c;

		/* The odd term d_{2m+1}. */
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		step = d * c;
		f *= step;
		if (fabs(step - 1) < 4e-16)
			break;
	}
	return f;
}

double stats_beta_inc(double a, double b, double x)
{
	double front;

	if (isnan(x) || isnan(a) || isnan(b) || a <= 0 || b <= 0)
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	/* x^a (1-x)^b / B(a, b), in logs to avoid overflow. */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* Beyond this many degrees of freedom, t is the normal distribution. */
#define T_NORMAL_DF 1e10

/* P(|T| >= |t|): the two-sided tail. */
static double t_two_tail(double t, double df)
{
	if (isinf(t))
		return 0;
	if (df >= T_NORMAL_DF)
		return erfc(fabs(t) / sqrt(2));
	return stats_beta_inc(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	tail = t_two_tail(t, df) / 2;
	return t > 0 ? 1 - tail : tail;
}

/* t > 0 with P(|T| >= t) = tail, for T of df degrees of freedom. */
static double t_for_tail(double tail, double df)
{
	double lo, hi;
	int i;

	if (df >= T_NORMAL_DF) {
		/* erfc(z / sqrt 2) falls as z grows; bisect on z. */
		lo = 0;
		hi = 40;
		for (i = 0; i < 200 && hi - lo > 2 * DBL_EPSILON * hi; i++) {
			double mid = (lo + hi) / 2;

			if (erfc(mid / sqrt(2)) > tail)
				lo = mid;
			else
				hi = mid;
		}
		return (lo + hi) / 2;
	}

	/*
	 * The tail is I_x(df/2, 1/2) with x = df / (df + t^2), which grows
	 * with x; bisect on x in (0, 1), to a relative precision so that
	 * the large t of small df stay exact, then turn x back into t.
	 */
	lo = 0;
	hi = 1;
	for (i = 0; i < 2000 && hi - lo > 2 * DBL_EPSILON * hi; i++) {
		double mid = (lo + hi) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (stats_beta_inc(df / 2, 0.5, mid) < tail)
			lo = mid;
		else
			hi = mid;
	}
	lo = (lo + hi) / 2;
	return sqrt(df * (1 - lo) / lo);
}

double stats_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || df <= 0 || p <= 0 || p >= 1)
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	return t_for_tail(2 * (1 - p), df);
}

/* Mean, stddev and 95% half-width of the values on the scale tested. */
struct moments {
	size_t n;
	double mean, var;
};

static int moments_get(const double *x, size_t n, int harmonic,
		       struct moments *m)
{
	double *r = NULL;
	const double *v = x;
	size_t i;

	m->n = n;
	if (harmonic) {
		r = xmalloc(n * sizeof(*r));
		for (i = 0; i < n; i++) {
			if (!(x[i] > 0)) {
				free(r);
				return error("harmonic mean of a sample <= 0 (%g)",
					     x[i]);
			}
			r[i] = 1 / x[i];
		}
		v = r;
	}
	m->mean = stats_mean(v, n);
	m->var = n > 1 ? pow(stats_stddev(v, n), 2) : NAN;
	free(r);
	return 0;
}

int stats_summarize(const double *x, size_t n, unsigned int flags,
		    struct stats_summary *out)
{
	int harmonic = !!(flags & STATS_HARMONIC);
	struct moments m;
	double half;
	int ret;

	out->n = n;
	out->harmonic = harmonic;
	out->mean = out->stddev = out->cv = NAN;
	out->ci_low = out->ci_high = NAN;
	if (!n)
		return error("no samples to summarize");
	ret = moments_get(x, n, harmonic, &m);
	if (ret)
		return ret;
	out->stddev = stats_stddev(x, n);
	out->cv = stats_cv(x, n);
	if (!harmonic) {
		out->mean = m.mean;
		if (n < 2)
			return 0;
		half = stats_t_quantile(0.975, n - 1) * sqrt(m.var / n);
		out->ci_low = m.mean - half;
		out->ci_high = m.mean + half;
		return 0;
	}
	/* m is of 1/x: 1 / mean(1/x) is the harmonic mean. */
	out->mean = 1 / m.mean;
	if (n < 2)
		return 0;
	half = stats_t_quantile(0.975, n - 1) * sqrt(m.var / n);
	out->ci_low = 1 / (m.mean + half);
	out->ci_high = m.mean - half > 0 ? 1 / (m.mean - half) : INFINITY;
	return 0;
}

static void welch_from_moments(const struct moments *a,
			       const struct moments *b,
			       struct stats_welch *out)
{
	double va = a->var / a->n, vb = b->var / b->n;
	double se = sqrt(va + vb), half;

	out->diff = b->mean - a->mean;
	if (va + vb > 0) {
		out->df = (va + vb) * (va + vb) /
			  (va * va / (a->n - 1) + vb * vb / (b->n - 1));
		out->t = out->diff / se;
		out->p = t_two_tail(out->t, out->df);
	} else {
		/* No spread at all: the means either match or do not. */
		out->df = a->n + b->n - 2;
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
	}
	half = stats_t_quantile(0.975, out->df) * se;
	out->diff_low = out->diff - half;
	out->diff_high = out->diff + half;
}

int stats_welch_test(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_welch *out)
{
	struct moments ma, mb;

	if (na < 2 || nb < 2)
		return error("Welch's t-test needs two samples a side, have %zu and %zu",
			     na, nb);
	moments_get(a, na, 0, &ma);
	moments_get(b, nb, 0, &mb);
	welch_from_moments(&ma, &mb, out);
	return 0;
}

static void welch_clear(struct stats_welch *w)
{
	w->t = w->df = w->p = w->diff = w->diff_low = w->diff_high = NAN;
}

/* The two-sided normal quantiles of the 5% level and of 80% power. */
#define Z_ALPHA 1.959963984540054
#define Z_POWER 0.841621233572914

/*
 * A difference d of the means on the scale tested, in % of the base's
 * mean there (mean_t): for a rate, the means are of 1/x, and the change
 * of the harmonic mean 1/mean_t is 1 / (1 + d / mean_t) - 1.
 */
static double diff_pct(double d, double mean_t, int harmonic)
{
	double den;

	if (!harmonic)
		return d / fabs(mean_t) * 100;
	den = 1 + d / mean_t;
	return den > 0 ? (1 / den - 1) * 100 : INFINITY;
}

/* Which look of plan p runs a side of m (at least two) is. */
static size_t look_of(const struct stats_plan *p, size_t m)
{
	size_t k = 0;

	while (k + 1 < p->nr_looks && (size_t)p->look_runs[k + 1] <= m)
		k++;
	return k;
}

/* The runs a side of the plan's next look after m, or m + 1. */
static size_t look_after(const struct stats_plan *p, size_t m)
{
	size_t k;

	for (k = 0; k < p->nr_looks; k++)
		if ((size_t)p->look_runs[k] > m)
			return (size_t)p->look_runs[k];
	return m + 1;
}

/*
 * The runs a side that would decide, for 80% power at the 5% level,
 * given the change d and spread seen so far (both in % of the base):
 * n = 2 (z_a + z_b)^2 s^2 / e^2 to tell apart a change of e, where e is
 * d for "better"/"worse" and what d leaves of the threshold for "same";
 * the smaller of the two.  The sequential looks need a few % more.
 */
static int runs_projected(const struct moments *b, const struct moments *p,
			  double threshold, size_t m,
			  const struct stats_plan *plan)
{
	double k = (Z_ALPHA + Z_POWER) * (Z_ALPHA + Z_POWER);
	double d, s2, n = INFINITY;
	size_t next = look_after(plan, m);

	if (b->mean == 0 || isnan(b->var) || isnan(p->var))
		return -1;
	d = fabs(p->mean - b->mean) / fabs(b->mean) * 100;
	s2 = (b->var + p->var) / 2 / (b->mean * b->mean) * 1e4;
	if (d > 0)
		n = 2 * k * s2 / (d * d);
	if (threshold > d && 2 * k * s2 / ((threshold - d) *
					  (threshold - d)) < n)
		n = 2 * k * s2 / ((threshold - d) * (threshold - d));
	if (isnan(n))
		return -1;
	if (n < next)
		n = next;
	if (n > STATS_RUNS_NEEDED_MAX)
		return STATS_RUNS_NEEDED_MAX;
	return (int)ceil(n);
}

int stats_compare(const double *base, size_t nbase, const double *patch,
		  size_t npatch, const struct stats_plan *p,
		  struct stats_comparison *out)
{
	int harmonic = !!(p->flags & STATS_HARMONIC);
	struct moments mb, mp;
	double se, half, lo, hi;
	size_t m = nbase < npatch ? nbase : npatch;
	int ret;

	memset(out, 0, sizeof(*out));
	out->change_pct = out->gain_pct = NAN;
	out->low_pct = out->high_pct = out->level = NAN;
	out->threshold_pct = p->threshold_pct;
	out->verdict = STATS_INCONCLUSIVE;
	welch_clear(&out->welch);

	ret = stats_summarize(base, nbase, p->flags, &out->base);
	if (!ret)
		ret = stats_summarize(patch, npatch, p->flags, &out->patch);
	if (ret)
		return ret;

	if (out->base.mean != 0) {
		out->change_pct = (out->patch.mean - out->base.mean) /
				  fabs(out->base.mean) * 100;
		out->gain_pct = p->flags & STATS_HIGHER_IS_BETTER ?
				out->change_pct : -out->change_pct;
	}
	out->look = look_of(p, m) + 1;
	if (m < 2 || out->base.mean == 0) {
		size_t first = p->nr_looks && p->look_runs[0] > 2 ?
			       (size_t)p->look_runs[0] : 2;

		out->runs_needed = m < first ? (int)first : -1;
		return 0;
	}

	moments_get(base, nbase, harmonic, &mb);
	moments_get(patch, npatch, harmonic, &mp);
	welch_from_moments(&mb, &mp, &out->welch);

	/* the interval at this look's level: a repeated 95% interval */
	out->level = erfc(p->look_z[out->look - 1] / sqrt(2.0));
	se = sqrt(mb.var / mb.n + mp.var / mp.n);
	half = se > 0 ? t_for_tail(out->level, out->welch.df) * se : 0;
	lo = out->welch.diff - half;
	hi = out->welch.diff + half;
	if (harmonic) {
		out->low_pct = diff_pct(hi, mb.mean, 1);
		out->high_pct = diff_pct(lo, mb.mean, 1);
	} else {
		out->low_pct = diff_pct(lo, mb.mean, 0);
		out->high_pct = diff_pct(hi, mb.mean, 0);
	}
	out->significant = lo > 0 || hi < 0;
	out->equivalent = out->low_pct > -p->threshold_pct &&
			  out->high_pct < p->threshold_pct;
	if (out->equivalent)
		out->verdict = STATS_SAME;
	else if (out->significant)
		out->verdict = out->gain_pct > 0 ? STATS_BETTER : STATS_WORSE;
	out->decided = out->verdict != STATS_INCONCLUSIVE;
	out->runs_needed = out->decided ? 0 :
			   runs_projected(&mb, &mp, p->threshold_pct, m, p);
	return 0;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_SAME:
		return "same";
	case STATS_BETTER:
		return "better";
	case STATS_WORSE:
		return "worse";
	case STATS_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

size_t stats_window(const double *a, const int64_t *aseq, size_t na,
		    const int64_t *bseq, size_t nb, double *out)
{
	size_t start = 0, end, i;

	if (!nb || !na)
		return 0;
	/* the first of a within b's span, then one more before it */
	while (start < na && aseq[start] < bseq[0])
		start++;
	if (start)
		start--;
	/* past the last of a within the span */
	end = start;
	while (end < na && aseq[end] <= bseq[nb - 1])
		end++;
	/* short of b's count: the one after (its last round's, if last) */
	if (end - start < nb && end < na)
		end++;
	for (i = start; i < end; i++)
		out[i - start] = a[i];
	return end - start;
}

int stats_next_look(const struct stats_plan *p, size_t nbase, size_t npatch,
		    const struct stats_comparison *c)
{
	size_t m = nbase < npatch ? nbase : npatch, k;
	size_t first = p->nr_looks && p->look_runs[0] > 2 ?
		       (size_t)p->look_runs[0] : 2;
	int at_look = 0;

	if (m < first)
		return (int)first;
	for (k = 0; k < p->nr_looks; k++)
		at_look |= (size_t)p->look_runs[k] == m ||
			   (!p->look_runs[k] && m >= 2);
	/* stop only at a planned look: the boundaries are for those */
	if (c && c->decided && at_look)
		return 0;
	for (k = 0; k < p->nr_looks; k++)
		if ((size_t)p->look_runs[k] > m)
			return p->look_runs[k];
	return 0;
}

enum stats_mark stats_verdict_mark(enum stats_verdict v)
{
	switch (v) {
	case STATS_BETTER:
	case STATS_WORSE:
		return STATS_MARK_SIGNIFICANT;
	case STATS_INCONCLUSIVE:
		return STATS_MARK_UNSURE;
	case STATS_SAME:
		break;
	}
	return STATS_MARK_NONE;
}

void stats_format_cell(struct strbuf *out, double value, double pct,
		       enum stats_mark mark, int decimals)
{
	char mark_open = mark == STATS_MARK_SIGNIFICANT ? '*' :
			 mark == STATS_MARK_UNSURE ? '?' : '(';
	char mark_close = mark == STATS_MARK_NONE ? ')' : mark_open;

	strbuf_addf(out, "%.*f ", decimals, value);
	if (isinf(pct)) {
		/* a change from 0: no percentage (mmtests' width kept) */
		strbuf_addf(out, "%c%8s%c", mark_open, "n/a", mark_close);
		return;
	}
	if (isnan(pct))
		pct = 0;
	/* Never print "-0.00%". */
	if (fabs(pct) < 0.005)
		pct = 0;
	strbuf_addf(out, "%c%7.2f%%%c", mark_open, pct, mark_close);
}

void stats_format_row(struct strbuf *out, const char *kind, const char *name,
		      int name_width, const struct stats_cell *cells,
		      size_t ncells, int cell_width, int decimals)
{
	struct strbuf cell = STRBUF_INIT;
	size_t i;

	if (kind)
		strbuf_addf(out, "%-*s ", STATS_KIND_WIDTH - 1, kind);
	strbuf_addf(out, "%-*s", name_width, name);
	for (i = 0; i < ncells; i++) {
		strbuf_reset(&cell);
		stats_format_cell(&cell, cells[i].value, cells[i].pct,
				  cells[i].mark, decimals);
		strbuf_addf(out, "  %*s", cell_width, cell.buf);
	}
	strbuf_release(&cell);
}

void stats_cell_from_comparison(struct stats_cell *cell,
				const struct stats_comparison *c)
{
	cell->value = c->patch.mean;
	cell->pct = c->gain_pct;
	cell->mark = stats_verdict_mark(c->verdict);
}
