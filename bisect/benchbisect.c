// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/benchbisect.h"
#include "bisect/benchprobe.h"
#include "bisect/report.h"
#include "bisect/search.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum bench_answer {
	BB_FOUND,		/* worse than the base and than the one before */
	BB_GRADUAL,		/* worse than the base, not than the one before */
	BB_INCONCLUSIVE,	/* against the one before: not decided */
	BB_NONE,		/* the last patch is not worse than the base */
	BB_UNTESTABLE,		/* the search met undecided positions only */
};

static const char *answer_name(enum bench_answer a)
{
	static const char *const names[] = { "found", "gradual",
		"inconclusive", "none", "untestable" };

	return names[a];
}

/* Searches for where it gets better again: the outcomes flipped. */
struct flipped {
	struct bench_probe *bp;
	size_t off;
};

static enum bisect_outcome flip(enum bisect_outcome o)
{
	return o == BISECT_GOOD ? BISECT_BAD : o == BISECT_BAD ? BISECT_GOOD : o;
}

static int flipped_test(void *data, size_t i, int again,
			enum bisect_outcome *out)
{
	struct flipped *f = data;
	int r = bench_probe_test(f->bp, f->off + i, again, out);

	*out = flip(*out);
	return r;
}

/* The first patch after fb no longer worse than the base, or 0. */
static int find_undo(struct bench_probe *bp, struct bisect *b, size_t fb,
		     size_t *undo)
{
	struct flipped f = { bp, fb };
	struct bisect_probe p = { flipped_test, &f };
	struct bisect u;
	size_t i;
	int r;

	*undo = 0;
	bisect_init(&u, b->n - fb);
	for (i = 0; i <= u.n; i++)
		u.at[i] = flip(b->at[fb + i]);
	r = bisect_run(&u, &p);
	if (!r && u.answer == BISECT_FOUND)
		*undo = fb + u.first_bad;
	for (i = 0; i <= u.n; i++)
		b->at[fb + i] = flip(u.at[i]);
	bisect_release(&u);
	return r;
}

struct report {
	enum bench_answer answer;
	size_t first_bad, last_good, undo, runs;
	struct stats_comparison pair;	/* first_bad against last_good */
	int have_pair;
};

static void result_line(struct strbuf *out, const struct report *rp,
			const struct bench_probe *bp,
			const struct series_version *v)
{
	struct strbuf pos = STRBUF_INIT, before = STRBUF_INIT;
	const struct stats_comparison *vb = &bp->cmp[rp->first_bad];

	bisect_position_name(&pos, v, rp->first_bad, 1);
	bisect_position_name(&before, v, rp->last_good, 0);
	switch (rp->answer) {
	case BB_FOUND:
		/* what a reader needs without the rest: which commit, what
		 * moved which way, and how many runs each side had */
		strbuf_reset(&pos);
		bisect_culprit_name(&pos, v, rp->first_bad);
		strbuf_addf(out, "Bisected to %s: %s %+.1f%% \u00b1 %.1f%% (%s; "
			    "%s is better), n=%zu vs %zu runs", pos.buf,
			    bp->c->metric ? bp->c->metric : bp->c->name,
			    rp->pair.change_pct,
			    (rp->pair.high_pct - rp->pair.low_pct) / 2,
			    stats_verdict_name(rp->pair.verdict),
			    bp->c->higher ? "higher" : "lower",
			    rp->pair.patch.n, rp->pair.base.n);
		if (rp->last_good)
			strbuf_addf(out, " against %s; %+.1f%% against the base",
				    before.buf, vb->change_pct);
		break;
	case BB_GRADUAL:
		strbuf_addf(out, "Not one patch: from %s on %s is worse than the "
			    "base (%+.1f%%), but not than %s (%+.1f%%, %s)",
			    pos.buf, bp->c->name, vb->change_pct, before.buf,
			    rp->pair.change_pct,
			    stats_verdict_name(rp->pair.verdict));
		break;
	case BB_INCONCLUSIVE:
		strbuf_addf(out, "Inconclusive: %s is worse than the base "
			    "(%+.1f%%), but against %s (%+.1f%%, n=%zu vs %zu) "
			    "it would need about %d runs a side", pos.buf,
			    vb->change_pct, before.buf, rp->pair.change_pct,
			    rp->pair.patch.n, rp->pair.base.n,
			    rp->pair.runs_needed);
		break;
	case BB_NONE:
		strbuf_addf(out, "Nothing to bisect: %s at %zu/%zu is not worse "
			    "than the base", bp->c->name, v->nr_patches,
			    v->nr_patches);
		break;
	case BB_UNTESTABLE:
		strbuf_addf(out, "Inconclusive: %s cannot tell the patches from "
			    "the base within its runs (see the positions)",
			    bp->c->name);
		break;
	}
	if (rp->undo && (rp->answer == BB_FOUND || rp->answer == BB_GRADUAL)) {
		strbuf_reset(&pos);
		bisect_position_name(&pos, v, rp->undo, 1);
		strbuf_addf(out, "; undone by %s", pos.buf);
	}
	strbuf_release(&pos);
	strbuf_release(&before);
}

static void text_report(struct strbuf *res, const struct bisect *b,
			const struct report *rp, const struct bench_probe *bp,
			const struct series *s, const struct series_version *v)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	strbuf_addf(res, "%s v%d, bench %s: %zu run%s taken\n", s->name,
		    v->number, bp->c->name, rp->runs, rp->runs == 1 ? "" : "s");
	for (i = 0; i <= b->n; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		strbuf_reset(&line);
		bisect_position_name(&line, v, i, 0);
		strbuf_addf(res, "  %-8s %-10s %-6s %s\n", line.buf,
			    bisect_outcome_name(b->at[i]),
			    bp->ran[i] ? "ran" : "stored",
			    bp->why[i].buf);
	}
	if (rp->have_pair && rp->last_good) {
		strbuf_reset(&line);
		bisect_position_name(&line, v, rp->first_bad, 0);
		strbuf_addf(res, "  %s against ", line.buf);
		strbuf_reset(&line);
		bisect_position_name(&line, v, rp->last_good, 0);
		strbuf_addf(res, "%s: %s ", line.buf,
			    stats_verdict_name(rp->pair.verdict));
		bench_probe_effect(res, &rp->pair);
		strbuf_addch(res, '\n');
	}
	strbuf_reset(&line);
	result_line(&line, rp, bp, v);
	strbuf_addf(res, "%s\n", line.buf);
	strbuf_release(&line);
}

static void json_cmp(struct json *j, const char *key,
		     const struct stats_comparison *c)
{
	json_key(j, key);
	json_object_begin(j);
	json_string_member(j, "verdict", stats_verdict_name(c->verdict));
	json_key(j, "change_pct");
	json_double(j, c->change_pct);
	json_key(j, "interval_pct");
	json_array_begin(j);
	json_double(j, c->low_pct);
	json_double(j, c->high_pct);
	json_array_end(j);
	json_int_member(j, "n_before", (int64_t)c->base.n);
	json_int_member(j, "n_patch", (int64_t)c->patch.n);
	json_key(j, "runs_needed");
	if (c->verdict == STATS_INCONCLUSIVE && c->runs_needed > 0)
		json_int(j, c->runs_needed);
	else
		json_null(j);
	json_object_end(j);
}

static void json_report(struct strbuf *res, const struct bisect *b,
			const struct report *rp, const struct bench_probe *bp,
			const struct series *s, const struct series_version *v)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	struct json j;
	size_t i;
	int named = rp->answer != BB_NONE && rp->answer != BB_UNTESTABLE;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_string_member(&j, "check", bp->c->name);
	json_string_member(&j, "answer", answer_name(rp->answer));
	json_key(&j, "patch");
	if (named)
		json_int(&j, (int64_t)rp->first_bad);
	else
		json_null(&j);
	json_key(&j, "title");
	if (named && v->patches[rp->first_bad - 1].subject)
		json_string(&j, v->patches[rp->first_bad - 1].subject);
	else
		json_null(&j);
	json_key(&j, "before");
	if (named)
		json_int(&j, (int64_t)rp->last_good);
	else
		json_null(&j);
	if (named) {
		json_cmp(&j, "against_before", &rp->pair);
		json_cmp(&j, "against_base", &bp->cmp[rp->first_bad]);
	}
	json_key(&j, "undone_by");
	if (rp->undo)
		json_int(&j, (int64_t)rp->undo);
	else
		json_null(&j);
	json_int_member(&j, "runs", (int64_t)rp->runs);
	json_key(&j, "positions");
	json_array_begin(&j);
	for (i = 0; i <= b->n; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		json_object_begin(&j);
		json_int_member(&j, "patch", (int64_t)i);
		json_string_member(&j, "outcome", bisect_outcome_name(b->at[i]));
		json_bool_member(&j, "ran", bp->ran[i]);
		json_string_member(&j, "why", bp->why[i].buf);
		json_object_end(&j);
	}
	json_array_end(&j);
	result_line(&line, rp, bp, v);
	json_string_member(&j, "line", line.buf);
	json_object_end(&j);
	strbuf_addf(res, "%s\n", out.buf);
	strbuf_release(&out);
	strbuf_release(&line);
}

/* b against a into rp->pair: a as the base, run in turns as needed. */
static int pair(struct bench_probe *bp, struct engine *e,
		const struct check *c, size_t a, size_t b, struct report *rp)
{
	int decided, r;

	rp->have_pair = 0;
	if (!a) {
		/* against the base: its own comparison */
		rp->pair = bp->cmp[b];
		rp->have_pair = bp->have[b];
		return 0;
	}
	r = engine_bench_pair(e, c, a, b);
	if (r >= 0)
		r = bench_probe_compare(bp, a, b, &rp->pair, &decided);
	if (r < 0)
		return r;
	rp->have_pair = !r;
	/* the base's side may have grown: say it as it is now */
	if (bp->have[b]) {
		enum bisect_outcome o;

		r = bench_probe_stored(bp, b, &o);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The patches from b's last good to its first bad, each held against
 * the one before it: the first worse settles it (rp->answer BB_FOUND),
 * as does one the runs cannot decide (BB_INCONCLUSIVE); each that is
 * not worse is good (*gradual set when it had been bad).  1 settled,
 * 0 not, <0 errors.
 */
static int hold_first_bad(struct bench_probe *bp, struct engine *e,
			  const struct check *c, struct bisect *b,
			  struct report *rp, int *gradual)
{
	size_t cand;
	int r;

	for (cand = b->last_good + 1; cand <= b->first_bad; cand++) {
		rp->first_bad = cand;
		rp->last_good = cand - 1;
		r = pair(bp, e, c, cand - 1, cand, rp);
		if (r < 0)
			return r;
		if (rp->have_pair && rp->pair.verdict == STATS_WORSE) {
			rp->answer = BB_FOUND;
			return 1;
		}
		if (!rp->have_pair || rp->pair.verdict == STATS_INCONCLUSIVE) {
			rp->answer = BB_INCONCLUSIVE;
			return 1;
		}
		/* not worse than the one before: good */
		if (b->at[cand] == BISECT_BAD)
			*gradual = 1;
		b->at[cand] = BISECT_GOOD;
	}
	return 0;
}

/*
 * A regression stays: the patch after rp->first_bad is worse too, or
 * it undoes it (better than it).  One after it that is neither makes
 * this a false alarm of its own comparison: it is good, rp->answer
 * BB_UNTESTABLE, and the search goes on.  1 it stays, 0 a false alarm,
 * <0 errors.
 */
static int regression_stays(struct bench_probe *bp, struct engine *e,
			    const struct check *c, struct bisect *b,
			    struct report *rp)
{
	size_t nb = rp->first_bad + 1;
	struct report next = *rp;
	int r;

	if (b->at[nb] == BISECT_UNKNOWN &&
	    (r = bench_probe_test(bp, nb, 0, &b->at[nb])) < 0)
		return r;
	if (b->at[nb] != BISECT_GOOD)
		return 1;
	r = pair(bp, e, c, rp->first_bad, nb, &next);
	if (r < 0)
		return r;
	if (next.have_pair && next.pair.verdict == STATS_BETTER)
		return 1;
	b->at[rp->first_bad] = BISECT_GOOD;
	rp->answer = BB_UNTESTABLE;
	return 0;
}

int bench_bisect(struct engine *e, const struct check *c, int json,
		 struct strbuf *out)
{
	struct bench_probe bp;
	struct bisect_probe probe = { bench_probe_test, &bp };
	struct bisect b;
	struct report rp;
	size_t i, iter, before = 0, after = 0;
	int r, gradual = 0;

	memset(&rp, 0, sizeof(rp));
	bench_probe_init(&bp, e, c);
	bisect_init(&b, bp.n);
	r = bench_probe_samples(&bp, &before);
	for (i = 0; i <= bp.n && r >= 0; i++)
		r = bench_probe_stored(&bp, i, &b.at[i]);
	/*
	 * Search, then hold the first bad against the one before it; one
	 * that is not worse than its (good) predecessor was a false alarm
	 * of its own comparison with the base, or one step of a gradual
	 * change: it counts as good and the search goes on above it.
	 */
	rp.answer = BB_UNTESTABLE;
	for (iter = 0; r >= 0 && iter <= bp.n; iter++) {
		int settled;

		r = bisect_run(&b, &probe);
		if (r < 0)
			goto out;
		if (b.answer == BISECT_NONE) {
			rp.answer = gradual ? BB_GRADUAL : BB_NONE;
			break;
		}
		if ((b.answer != BISECT_FOUND && b.answer != BISECT_UNTESTABLE) ||
		    b.first_bad > bp.n || b.at[b.first_bad] != BISECT_BAD) {
			rp.answer = BB_UNTESTABLE;
			break;
		}
		settled = hold_first_bad(&bp, e, c, &b, &rp, &gradual);
		if (settled > 0 && rp.answer == BB_FOUND && rp.first_bad < bp.n)
			settled = regression_stays(&bp, e, c, &b, &rp);
		if (settled < 0) {
			r = settled;
			goto out;
		}
		if (settled)
			break;
	}
	if (rp.answer == BB_FOUND || rp.answer == BB_INCONCLUSIVE) {
		/* does a later patch undo it? */
		if (b.at[bp.n] == BISECT_UNKNOWN &&
		    (r = bench_probe_test(&bp, bp.n, 0, &b.at[bp.n])) < 0)
			goto out;
		if (b.at[bp.n] == BISECT_GOOD && rp.first_bad < bp.n &&
		    (r = find_undo(&bp, &b, rp.first_bad, &rp.undo)) < 0)
			goto out;
	}
	r = bench_probe_samples(&bp, &after);
	if (r < 0)
		goto out;
	rp.runs = after - before;
	if (json)
		json_report(out, &b, &rp, &bp, e->s, e->v);
	else
		text_report(out, &b, &rp, &bp, e->s, e->v);
	r = rp.answer == BB_FOUND ? 0 : 1;
out:
	bisect_release(&b);
	bench_probe_release(&bp);
	return r;
}
