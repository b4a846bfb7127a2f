// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/benchprobe.h"
#include "ci/checks.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

void bench_probe_init(struct bench_probe *bp, struct engine *e,
		      const struct check *c)
{
	size_t i;

	memset(bp, 0, sizeof(*bp));
	bp->e = e;
	bp->c = c;
	bp->n = e->v->nr_patches;
	check_stats_plan(c, &bp->plan);
	bp->ran = xcalloc(bp->n + 1, 1);
	bp->have = xcalloc(bp->n + 1, 1);
	bp->cmp = xcalloc(bp->n + 1, sizeof(*bp->cmp));
	bp->why = xcalloc(bp->n + 1, sizeof(*bp->why));
	for (i = 0; i <= bp->n; i++)
		strbuf_init(&bp->why[i], 0);
}

void bench_probe_release(struct bench_probe *bp)
{
	size_t i;

	for (i = 0; bp->why && i <= bp->n; i++)
		strbuf_release(&bp->why[i]);
	free(bp->why);
	free(bp->ran);
	free(bp->have);
	free(bp->cmp);
	stats_plan_release(&bp->plan);
	memset(bp, 0, sizeof(*bp));
}

struct samples {
	double *v;
	int64_t *seq;
	size_t nr;
};

static int load(struct bench_probe *bp, size_t i, struct samples *s)
{
	struct strbuf key = STRBUF_INIT;
	int r = engine_key(bp->e->repo, bp->e->v, bp->c, i, &key);

	memset(s, 0, sizeof(*s));
	if (!r)
		r = results_samples_get_seq(bp->e->rs, bp->c->hash, key.buf,
					    &s->v, &s->seq, &s->nr);
	strbuf_release(&key);
	return r;
}

static void samples_free(struct samples *s)
{
	free(s->v);
	free(s->seq);
}

int bench_probe_samples(struct bench_probe *bp, size_t *total)
{
	size_t i;

	*total = 0;
	for (i = 0; i <= bp->n; i++) {
		struct samples s;
		int r = load(bp, i, &s);

		if (r < 0)
			return r;
		*total += s.nr;
		samples_free(&s);
	}
	return 0;
}

int bench_probe_compare(struct bench_probe *bp, size_t a, size_t b,
			struct stats_comparison *out, int *decided)
{
	struct samples sa, sb;
	double *window = NULL;
	size_t nw;
	int r;

	*decided = 0;
	if ((r = load(bp, a, &sa)) < 0)
		return r;
	if ((r = load(bp, b, &sb)) < 0) {
		samples_free(&sa);
		return r;
	}
	window = xcalloc(sa.nr + 1, sizeof(*window));
	nw = stats_window(sa.v, sa.seq, sa.nr, sb.seq, sb.nr, window);
	if (nw < 2 || sb.nr < 2) {
		r = 1;
		goto out;
	}
	r = stats_compare(window, nw, sb.v, sb.nr, &bp->plan, out);
	if (!r)
		*decided = !stats_next_look(&bp->plan, nw, sb.nr, out);
out:
	free(window);
	samples_free(&sa);
	samples_free(&sb);
	return r;
}

void bench_probe_effect(struct strbuf *out, const struct stats_comparison *c)
{
	/* the patch's runs first, as in the line a reply quotes */
	strbuf_addf(out, "%+.1f%% [%+.1f, %+.1f], n=%zu vs %zu", c->change_pct,
		    c->low_pct, c->high_pct, c->patch.n, c->base.n);
}

int bench_probe_stored(struct bench_probe *bp, size_t i,
		       enum bisect_outcome *out)
{
	struct stats_comparison cmp;
	int decided, r;

	*out = BISECT_UNKNOWN;
	if (!i) {
		*out = BISECT_GOOD;	/* the base is what the others are held to */
		strbuf_reset(&bp->why[0]);
		strbuf_addstr(&bp->why[0], "the base");
		return 0;
	}
	r = bench_probe_compare(bp, 0, i, &cmp, &decided);
	if (r)
		return r < 0 ? r : 0;
	bp->cmp[i] = cmp;
	bp->have[i] = 1;
	strbuf_reset(&bp->why[i]);
	strbuf_addf(&bp->why[i], "%s ", stats_verdict_name(cmp.verdict));
	bench_probe_effect(&bp->why[i], &cmp);
	if (!decided)
		return 0;
	switch (cmp.verdict) {
	case STATS_WORSE:
		*out = BISECT_BAD;
		break;
	case STATS_BETTER:
	case STATS_SAME:
		*out = BISECT_GOOD;
		break;
	default:
		*out = BISECT_SKIP;
		if (cmp.runs_needed > 0)
			strbuf_addf(&bp->why[i], " (%d needed)", cmp.runs_needed);
	}
	return 0;
}

int bench_probe_test(void *data, size_t i, int again,
		     enum bisect_outcome *out)
{
	struct bench_probe *bp = data;
	struct engine *e = bp->e;
	int r = bench_probe_stored(bp, i, out);

	(void)again;
	if (r < 0 || *out != BISECT_UNKNOWN)
		return r;
	e->only = (int)i;
	strbuf_reset(&e->report);
	r = engine_run(e);
	if (r < 0)
		return r;
	bp->ran[i] = 1;
	r = bench_probe_stored(bp, i, out);
	if (r < 0)
		return r;
	if (*out == BISECT_UNKNOWN) {
		size_t nl = strcspn(e->report.buf, "\n");

		strbuf_reset(&bp->why[i]);
		strbuf_add(&bp->why[i], e->report.buf, nl);
		if (!nl)
			strbuf_addstr(&bp->why[i], "no decision");
		*out = BISECT_SKIP;
	}
	return 0;
}
