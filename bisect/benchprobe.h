/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_BENCHPROBE_H
#define RESPIN_BISECT_BENCHPROBE_H

#include "bisect/search.h"
#include "ci/engine.h"
#include "ci/stats.h"

/*
 * The probe of respin bisect for a bench: position i is bad when its
 * runs are significantly worse than the base's (the verdicts of
 * ci/stats.c, from the samples respin check stores), good when better
 * or the same (within the threshold), untestable when still
 * inconclusive at the plan's maximum.  Runs are taken through the
 * engine only while the comparison is undecided.
 */
struct bench_probe {
	struct engine *e;	/* checks: the bench and the builds it needs */
	const struct check *c;
	struct stats_plan plan;
	size_t n;
	unsigned char *ran;		/* per position: took runs now */
	struct stats_comparison *cmp;	/* per position: against the base */
	unsigned char *have;		/* cmp[i] is set */
	struct strbuf *why;
};

void bench_probe_init(struct bench_probe *bp, struct engine *e,
		      const struct check *c);
void bench_probe_release(struct bench_probe *bp);

/* Every sample of every position stored: to count the runs taken. */
int bench_probe_samples(struct bench_probe *bp, size_t *total);

/*
 * b against a (a as the base): 0 with *out, 1 when a side has fewer
 * than two samples; <0 errors.  *decided: the plan would stop here.
 */
int bench_probe_compare(struct bench_probe *bp, size_t a, size_t b,
			struct stats_comparison *out, int *decided);

/* The outcome at i from what is stored alone (UNKNOWN: undecided). */
int bench_probe_stored(struct bench_probe *bp, size_t i,
		       enum bisect_outcome *out);

int bench_probe_test(void *data, size_t i, int again,
		     enum bisect_outcome *out);

/* "-3.1% [-3.9, -2.3], n=15 vs 20": the patch's runs, then the base's */
void bench_probe_effect(struct strbuf *out, const struct stats_comparison *c);

#endif
