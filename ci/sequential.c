// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plan of an adaptive benchmark comparison: its looks, and the
 * group-sequential boundary of each (Lan-DeMets alpha spending with the
 * O'Brien-Fleming-like function), so that looking again and again at
 * growing samples keeps the overall error at alpha.
 *
 * The boundaries come from the canonical joint distribution of the
 * test statistics at the looks: the score S(t) is a Brownian motion in
 * the information time t, so S at one look is S at the one before plus
 * an independent N(0, dt).  The density of S on the region where no
 * earlier look stopped is carried from look to look on a grid
 * (Simpson's rule), and each look's boundary is the one at which the
 * chance of stopping there for the first time, with no real change, is
 * the alpha spent since the look before.
 */
#include "ci/stats.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Intervals of the grid over the continuation region (even). */
#define GS_GRID 200
/* No boundary beyond this (a two-sided level of about 1e-15). */
#define GS_ZMAX 8.0

static double normal_upper(double x)
{
	return 0.5 * erfc(x / sqrt(2.0));
}

static double normal_density(double x)
{
	return exp(-0.5 * x * x) / sqrt(2.0 * M_PI);
}

/* z with P(|Z| >= z) = level, for a standard normal Z. */
static double normal_two_sided(double level)
{
	double lo = 0, hi = GS_ZMAX;
	int i;

	if (!(level < 1))
		return 0;
	for (i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;

		if (2 * normal_upper(mid) > level)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_obf_spent(double t, double alpha)
{
	double z;

	if (!(t > 0))
		return 0;
	if (t > 1)
		t = 1;
	/* each side spends alpha / 2 by the one-sided function */
	z = normal_two_sided(alpha / 2) / sqrt(t);
	return 2 * (2 - 2 * (1 - normal_upper(z)));
}

/* The density of S on the grid s[] of [-b, b], with Simpson weights. */
struct gs_grid {
	double s[GS_GRID + 1], w[GS_GRID + 1], f[GS_GRID + 1];
};

static void grid_points(struct gs_grid *g, double b)
{
	double h = 2 * b / GS_GRID;
	int j;

	for (j = 0; j <= GS_GRID; j++) {
		g->s[j] = -b + j * h;
		g->w[j] = h / 3 * (j == 0 || j == GS_GRID ? 1 : j % 2 ? 4 : 2);
	}
}

/* P(first stop at a boundary +-b, an increment of sd later). */
static double grid_cross(const struct gs_grid *g, double b, double sd)
{
	double sum = 0;
	int j;

	for (j = 0; j <= GS_GRID; j++)
		sum += g->w[j] * g->f[j] * (normal_upper((b - g->s[j]) / sd) +
					    normal_upper((b + g->s[j]) / sd));
	return sum;
}

/* The density at the next look, on [-b, b], an increment of sd later. */
static void grid_step(const struct gs_grid *from, struct gs_grid *to,
		      double b, double sd)
{
	int i, j;

	grid_points(to, b);
	for (i = 0; i <= GS_GRID; i++) {
		double sum = 0;

		for (j = 0; j <= GS_GRID; j++)
			sum += from->w[j] * from->f[j] *
			       normal_density((to->s[i] - from->s[j]) / sd);
		to->f[i] = sum / sd;
	}
}

int stats_gs_bounds(const double *t, size_t k, double alpha, double *z)
{
	struct gs_grid *cur, *next, *tmp;
	double spent = 0;	/* the chance of having stopped so far */
	size_t i, j;

	if (!(alpha > 0 && alpha < 1))
		return error("a significance level of %g is not in (0, 1)",
			     alpha);
	for (i = 0; i < k; i++)
		if (!(t[i] > 0 && t[i] <= 1) || (i && !(t[i] > t[i - 1])))
			return error("the information times of the looks "
				     "must grow within (0, 1]");
	if (!k)
		return 0;
	cur = xmalloc(sizeof(*cur));
	next = xmalloc(sizeof(*next));
	z[0] = normal_two_sided(stats_obf_spent(t[0], alpha));
	spent = 2 * normal_upper(z[0]);
	if (k > 1) {
		double sd0 = sqrt(t[0]);

		grid_points(cur, z[0] * sd0);
		for (j = 0; j <= GS_GRID; j++)
			cur->f[j] = normal_density(cur->s[j] / sd0) / sd0;
	}
	for (i = 1; i < k; i++) {
		double target = stats_obf_spent(t[i], alpha) - spent;
		double sd = sqrt(t[i] - t[i - 1]), rt = sqrt(t[i]);
		double lo = 0, hi = GS_ZMAX;
		int it;

		/* the chance of a first stop falls as the boundary rises */
		if (target <= 0 || grid_cross(cur, hi * rt, sd) >= target)
			lo = hi;
		for (it = 0; it < 200 && hi - lo > 1e-10; it++) {
			double mid = (lo + hi) / 2;

			if (grid_cross(cur, mid * rt, sd) > target)
				lo = mid;
			else
				hi = mid;
		}
		z[i] = (lo + hi) / 2;
		spent += grid_cross(cur, z[i] * rt, sd);
		if (i + 1 < k) {
			grid_step(cur, next, z[i] * rt, sd);
			tmp = cur;
			cur = next;
			next = tmp;
		}
	}
	free(cur);
	free(next);
	return 0;
}

/*
 * The looks: after min_runs a side, then about a quarter more each
 * time (at least two runs), the last at max_runs; a look that would
 * fall just short of the maximum is moved to it.
 */
static size_t plan_looks(int min_runs, int max_runs, int *out)
{
	size_t k = 0;
	int n = min_runs;

	for (;;) {
		int step, next, slack;

		if (out)
			out[k] = n;
		k++;
		if (n >= max_runs)
			break;
		step = (n + 3) / 4 > 2 ? (n + 3) / 4 : 2;
		next = n + step;
		slack = next / 8 > 2 ? next / 8 : 2;
		if (next > max_runs - slack)
			next = max_runs;
		n = next;
	}
	return k;
}

void stats_plan_fixed(struct stats_plan *p, unsigned int flags,
		      double threshold_pct)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags;
	p->threshold_pct = threshold_pct;
	p->nr_looks = 1;
	p->look_runs = xcalloc(1, sizeof(*p->look_runs));
	p->look_z = xcalloc(1, sizeof(*p->look_z));
	p->look_z[0] = normal_two_sided(STATS_ALPHA);
}

void stats_plan_init(struct stats_plan *p, unsigned int flags, int min_runs,
		     int max_runs, double threshold_pct)
{
	double *t;
	size_t i;

	if (min_runs < 1)
		min_runs = 1;
	if (max_runs < min_runs)
		max_runs = min_runs;
	memset(p, 0, sizeof(*p));
	p->flags = flags;
	p->threshold_pct = threshold_pct;
	p->min_runs = min_runs;
	p->max_runs = max_runs;
	p->nr_looks = plan_looks(min_runs, max_runs, NULL);
	p->look_runs = xcalloc(p->nr_looks, sizeof(*p->look_runs));
	p->look_z = xcalloc(p->nr_looks, sizeof(*p->look_z));
	plan_looks(min_runs, max_runs, p->look_runs);
	t = xcalloc(p->nr_looks, sizeof(*t));
	for (i = 0; i < p->nr_looks; i++)
		t[i] = (double)p->look_runs[i] / max_runs;
	/* the times grow within (0, 1] by construction: cannot fail */
	if (stats_gs_bounds(t, p->nr_looks, STATS_ALPHA, p->look_z) < 0)
		abort();
	free(t);
}

void stats_plan_release(struct stats_plan *p)
{
	free(p->look_runs);
	free(p->look_z);
	memset(p, 0, sizeof(*p));
}
