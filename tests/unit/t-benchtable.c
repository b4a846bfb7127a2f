// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mmtests-style tables of a bench (ci/benchtable.c) from a grid
 * made here: the statistic rows of the metric and a secondary metric,
 * the columns aligned, CoeffVar, the "*" "( )" marks, the runs, and the
 * Ops table of vmstat deltas (mmtests' names, a change from 0, the
 * counters that stayed 0 left out); the whole series against the
 * previous version.
 */
#include "tap.h"
#include "ci/benchtable.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

#define N5(a, b, c, d, e) { a, b, c, d, e }

static const double tput[3][5] = {
	N5(100.0, 101.0, 99.0, 100.5, 99.5),	/* base */
	N5(100.0, 101.0, 99.0, 100.5, 99.5),	/* 1/2: the same */
	N5(110.0, 111.0, 109.0, 110.5, 109.5),	/* 2/2: +10% */
};

struct metric_def {
	const char *name;
	double v[3][5];
};

static const struct metric_def metrics[] = {
	{ "latency", { N5(5, 5, 5, 5, 5), N5(5, 5, 5, 5, 5),
		       N5(6, 6, 6, 6, 6) } },
	{ "vmstat:compact_isolated", { N5(1000, 1010, 990, 1005, 995),
				       N5(1000, 1010, 990, 1005, 995),
				       N5(2000, 2010, 1990, 2005, 1995) } },
	{ "vmstat:compact_stall", { N5(0, 0, 0, 0, 0), N5(0, 0, 0, 0, 0),
				    N5(12, 12, 12, 12, 12) } },
	{ "vmstat:pgmajfault", { N5(0, 0, 0, 0, 0), N5(0, 0, 0, 0, 0),
				 N5(0, 0, 0, 0, 0) } },
	{ "vmstat:unevictable_pgs_mlocked", { N5(0, 0, 0, 0, 0),
					      N5(0, 0, 0, 0, 0),
					      N5(1024, 1024, 1024, 1024,
						 1024) } },
};
#define NR_METRICS (sizeof(metrics) / sizeof(*metrics))

static double *copy(const double *v)
{
	double *c = malloc(5 * sizeof(*c));

	memcpy(c, v, 5 * sizeof(*c));
	return c;
}

/* A grid of one bench column: the base and two patches, 5 runs each. */
static void make_grid(struct grid *g, struct series_version *v, int number,
		      int with_metrics)
{
	size_t i, m;

	memset(v, 0, sizeof(*v));
	v->number = number;
	v->nr_patches = 2;
	memset(g, 0, sizeof(*g));
	g->v = v;
	g->ncols = 1;
	g->any = 1;
	g->cells = calloc(3, sizeof(*g->cells));
	for (i = 0; i < 3; i++) {
		struct grid_cell *cell = &g->cells[i];

		cell->have = 1;
		cell->samples = copy(tput[i]);
		cell->nr_samples = 5;
		if (i) {	/* the base's runs of its span: all five */
			cell->base_samples = copy(tput[0]);
			cell->nr_base_samples = 5;
		}
		if (!with_metrics)
			continue;
		cell->metrics = calloc(NR_METRICS, sizeof(*cell->metrics));
		cell->nr_metrics = NR_METRICS;
		for (m = 0; m < NR_METRICS; m++) {
			struct grid_metric *gm = &cell->metrics[m];

			gm->name = strdup(metrics[m].name);
			gm->samples = copy(metrics[m].v[i]);
			gm->nr = 5;
			if (i) {
				gm->base_samples = copy(metrics[m].v[0]);
				gm->nr_base = 5;
			}
		}
	}
}

static char check_name[] = "tput", check_metric[] = "ops";

static void check_init(struct check *c)
{
	memset(c, 0, sizeof(*c));
	c->name = check_name;
	c->kind = CHECK_BENCH;
	c->metric = check_metric;
	c->higher = 1;
	c->min_runs = c->max_runs = 5;
	c->threshold_pct = 2;
}

/* Every line of text has its columns where the header puts them. */
static int columns_aligned(const char *text, size_t skip)
{
	const char *p = text;
	size_t width = 0, line = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (line++ >= skip && len && strncmp(p, "Runs", 4)) {
			if (!width)
				width = len;
			else if (len != width)
				return 0;
		}
		p = eol ? eol + 1 : p + len;
		if (!len)
			break;		/* the Ops table has widths of its own */
	}
	return 1;
}

static void test_by_patch(void)
{
	struct series_version v;
	struct grid g;
	struct check c;
	struct strbuf out = STRBUF_INIT;

	check_init(&c);
	make_grid(&g, &v, 3, 1);
	bench_table_by_patch(&out, &c, &g, 0);
	is_str(out.buf,
"tput (ops, higher is better, the same within +-2%), v3, against the base:\n"
"                                base                1/2                2/2\n"
"Amean     tput     100.00 (   0.00%)  100.00 (   0.00%)  110.00 *  10.00%*\n"
"Amean     latency    5.00 (   0.00%)    5.00 (   0.00%)    6.00 *  20.00%*\n"
"Stddev    tput       0.79 (   0.00%)    0.79 (   0.00%)    0.79 (   0.00%)\n"
"Stddev    latency    0.00 (   0.00%)    0.00 (   0.00%)    0.00 (   0.00%)\n"
"CoeffVar  tput       0.79 (   0.00%)    0.79 (   0.00%)    0.72 (   9.09%)\n"
"CoeffVar  latency    0.00 (   0.00%)    0.00 (   0.00%)    0.00 (   0.00%)\n"
"Min       tput      99.00 (   0.00%)   99.00 (   0.00%)  109.00 (  10.10%)\n"
"Min       latency    5.00 (   0.00%)    5.00 (   0.00%)    6.00 (  20.00%)\n"
"Max       tput     101.00 (   0.00%)  101.00 (   0.00%)  111.00 (   9.90%)\n"
"Max       latency    5.00 (   0.00%)    5.00 (   0.00%)    6.00 (  20.00%)\n"
"Runs      tput                     5                  5                  5\n"
"\n"
"tput, /proc/vmstat, the mean change a run, v3, against the base:\n"
"                                             base                 1/2                 2/2\n"
"Ops Compaction stalls             0.00 (   0.00%)     0.00 (   0.00%)    12.00 *     n/a*\n"
"Ops Compaction pages isolated  1000.00 (   0.00%)  1000.00 (   0.00%)  2000.00 * 100.00%*\n"
"Ops unevictable_pgs_mlocked       0.00 (   0.00%)     0.00 (   0.00%)  1024.00 *     n/a*\n",
	       "by patch: the statistics' rows, then the Ops rows");
	ok(columns_aligned(out.buf, 1), "the main table's lines are as long "
	   "as its header");
	ok(!strstr(out.buf, "Major Faults"), "a counter 0 everywhere is left "
	   "out");
	strbuf_reset(&out);

	/* a lower-is-better metric: +10% is worse, still "*" */
	c.higher = 0;
	bench_table_by_patch(&out, &c, &g, 0);
	ok(strstr(out.buf, "110.00 * -10.00%*\n") != NULL,
	   "lower is better: the gain is -10%%, marked");
	ok(strstr(out.buf, "109.00 ( -10.10%)") != NULL,
	   "Min follows the direction");
	strbuf_reset(&out);

	/* a rate: Hmean; the secondary metric stays Amean */
	c.higher = 1;
	c.harmonic = 1;
	bench_table_by_patch(&out, &c, &g, 0);
	ok(strstr(out.buf, "\nHmean     tput ") &&
	   strstr(out.buf, "\nAmean     latency "), "Hmean for a rate");
	strbuf_reset(&out);
	grid_release(&g);

	/* without secondary metrics: no Ops table */
	c.harmonic = 0;
	make_grid(&g, &v, 3, 0);
	bench_table_by_patch(&out, &c, &g, 0);
	ok(!strstr(out.buf, "Ops ") && !strstr(out.buf, "latency"),
	   "no secondary metrics, no rows of them");
	ok(strstr(out.buf, "\nAmean     tput  100.00 (   0.00%)") != NULL,
	   "the name column as wide as the name");
	strbuf_release(&out);
	grid_release(&g);
}

static void test_inconclusive(void)
{
	static const double base[5] = { 100, 90, 110, 95, 105 };
	static const double patch[5] = { 102, 92, 113, 97, 107 };
	struct series_version v;
	struct grid g;
	struct check c;
	struct strbuf out = STRBUF_INIT;

	check_init(&c);
	make_grid(&g, &v, 1, 0);
	memcpy(g.cells[0].samples, base, sizeof(base));
	memcpy(g.cells[1].base_samples, base, sizeof(base));
	memcpy(g.cells[1].samples, patch, sizeof(patch));
	memcpy(g.cells[2].base_samples, base, sizeof(base));
	bench_table_by_patch(&out, &c, &g, 0);
	ok(strstr(out.buf, "102.20 ?   2.20%?") != NULL,
	   "inconclusive: ? around the change");
	ok(strstr(out.buf, "\nRuns      tput                  5     "
		  "5 (212 needed)                  5\n") != NULL,
	   "the runs row says the runs a side needed");
	strbuf_release(&out);
	grid_release(&g);
}

static void test_by_version(void)
{
	static const char want[] = "tput, the whole series, v2 against v1:\n"
		"                              v1 2/2             v2 2/2\n"
		"Amean     tput     100.00 (   0.00%)  110.00 *  10.00%*\n";
	struct series_version v1, v2;
	struct grid g1, g2;
	struct check c;
	struct strbuf out = STRBUF_INIT;

	check_init(&c);
	make_grid(&g1, &v1, 1, 1);
	make_grid(&g2, &v2, 2, 1);
	/* v1's last patch is at the base's level: v2 is 10% better */
	memcpy(g1.cells[2].samples, tput[0], sizeof(tput[0]));
	memcpy(g1.cells[2].metrics[1].samples, metrics[1].v[0],
	       sizeof(metrics[1].v[0]));
	bench_table_by_version(&out, &c, &g2, &g1, 0);
	ok(!strncmp(out.buf, want, strlen(want)),
	   "v2 against v1, from the previous version's last patch");
	ok(strstr(out.buf, "\ntput, /proc/vmstat, the mean change a run, the "
		  "whole series, v2 against v1:\n") != NULL,
	   "its Ops table");
	ok(strstr(out.buf, "Ops Compaction pages isolated  1000.00 (   0.00%)"
		  "  2000.00 * 100.00%*\n") != NULL,
	   "a counter against the previous version's");
	strbuf_release(&out);
	grid_release(&g1);
	grid_release(&g2);
}

int main(void)
{
	test_by_patch();
	test_inconclusive();
	test_by_version();
	return done_testing();
}
