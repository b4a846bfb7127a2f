// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/replyresults.h"
#include "ci/grid.h"
#include "ci/kind.h"
#include "series/store.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct find {
	git_repository *repo;
	const struct reply_target *t;
	int pass;		/* 0: by Message-ID; 1: by patch-id */
	struct series s;	/* the series found, loaded */
	int version;		/* its version */
	size_t index;		/* 1-based patch; 0 the cover letter */
	size_t rank;		/* pass 0: which Message-ID (0 the nearest) */
	int found;
	int r;
};

/* The rank of id among the Message-IDs of the target, or -1. */
static long id_rank(const struct reply_target *t, const char *id)
{
	size_t i;

	if (!id)
		return -1;
	for (i = 0; i < t->nr_ids; i++)
		if (!strcmp(t->ids[i], id))
			return (long)i;
	return -1;
}

/* Whether a find at version (rank) beats the one kept. */
static int better(const struct find *f, int version, size_t rank)
{
	int want = f->t->version;

	if (!f->found)
		return 1;
	if (f->pass == 0)
		return rank < f->rank;
	/* by patch-id: the version the subject names, else the newest */
	if (want && f->version == want)
		return 0;
	if (want && version == want)
		return 1;
	return version > f->version;
}

/*
 * Keeps a find in s.  f->s holds the series of the find kept: s itself
 * (a shallow copy) once *kept, else another series, released here.
 */
static void take(struct find *f, struct series *s, int version, size_t index,
		 size_t rank, int *kept)
{
	if (!better(f, version, rank))
		return;
	if (f->found && !*kept)
		series_release(&f->s);
	f->s = *s;
	f->version = version;
	f->index = index;
	f->rank = rank;
	f->found = 1;
	*kept = 1;
}

static int find_in(const char *name, void *data)
{
	struct find *f = data;
	const struct reply_target *t = f->t;
	struct series s;
	size_t i, k;
	int r, kept = 0;

	r = series_load(f->repo, name, &s, SERIES_LOAD_ALL);
	if (r < 0) {
		f->r = r;
		return 1;
	}
	for (i = s.nr_versions; i-- > 0;) {
		struct series_version *v = &s.versions[i];
		long rk;

		if (f->pass == 0) {
			/*
			 * What send recorded (or import read): the cover
			 * letter's Message-ID, each patch's; a version
			 * without a cover has its 1/N's as its own.
			 */
			rk = id_rank(t, v->message_id);
			if (rk >= 0 && (!v->nr_patches ||
					!v->patches[0].message_id ||
					strcmp(v->patches[0].message_id,
					       v->message_id)))
				take(f, &s, v->number, 0, (size_t)rk, &kept);
			for (k = 0; k < v->nr_patches; k++) {
				rk = id_rank(t, v->patches[k].message_id);
				if (rk >= 0)
					take(f, &s, v->number, k + 1,
					     (size_t)rk, &kept);
			}
			continue;
		}
		if (!t->pid)
			break;
		for (k = 0; k < v->nr_patches; k++) {
			struct series_patch *p = &v->patches[k];

			if (!git_oid_is_zero(&p->patch_id) &&
			    git_oid_equal(&p->patch_id, t->pid)) {
				take(f, &s, v->number, t->whole ? 0 : k + 1,
				     0, &kept);
				break;
			}
		}
	}
	if (!kept)
		series_release(&s);
	return 0;
}

static void bench_line(struct strbuf *out, const struct check *c,
		       const struct grid_cell *cell)
{
	const struct stats_comparison *cmp = &cell->cmp;

	if (!cell->have_cmp) {
		strbuf_addf(out, "%.2f (n=%zu; nothing at the base to compare "
			    "with)", stats_mean(cell->samples, cell->nr_samples),
			    cell->nr_samples);
		return;
	}
	strbuf_addf(out, "%.2f vs %.2f at the base: ", cmp->patch.mean,
		    cmp->base.mean);
	grid_pct(out, cmp->change_pct);
	if (!isnan(cmp->low_pct)) {
		strbuf_addstr(out, " (95% interval ");
		grid_pct(out, cmp->low_pct);
		strbuf_addstr(out, " .. ");
		grid_pct(out, cmp->high_pct);
		strbuf_addf(out, ", p=%.3g)", cmp->welch.p);
	}
	strbuf_addf(out, ", %s, %s is better, n=%zu and %zu",
		    stats_verdict_name(cmp->verdict),
		    c->higher ? "higher" : "lower", cmp->patch.n, cmp->base.n);
	if (cmp->runs_needed > 0)
		strbuf_addf(out, "; about %d runs a side would decide",
			    cmp->runs_needed);
}

static void patch_lines(struct strbuf *out, const struct check_list *checks,
			const struct grid *g, size_t i, const char *indent)
{
	size_t k;

	for (k = 0; k < g->ncols; k++) {
		const struct check *c = &checks->items[k];
		const struct grid_cell *cell = grid_cell(g, i, k);
		const char *status;

		if (!cell->have)
			continue;
		strbuf_addf(out, "%s%s: ", indent, c->name);
		if (check_kind_ops(c->kind)->results == KIND_RESULTS_SAMPLES &&
		    cell->nr_samples)
			bench_line(out, c, cell);
		else
			grid_cell_text(out, c, cell, i);
		status = result_status_name(cell->res.status);

		if (cell->res.status != RESULT_PASS &&
		    (!cell->res.summary || !strstr(cell->res.summary, status)))
			strbuf_addf(out, " [%s]", status);
		strbuf_addch(out, '\n');
	}
}

int reply_results(git_repository *repo, const struct reply_target *t,
		  struct strbuf *out)
{
	struct find f = { 0 };
	struct grid_store st;
	struct grid g = { 0 };
	struct series_version *v;
	size_t i, before = out->len;
	int r = 0;

	f.repo = repo;
	f.t = t;
	/* a Message-ID recorded is the version sent; a patch-id may be many */
	for (f.pass = 0; f.pass < 2 && !f.found && r >= 0; f.pass++)
		r = series_foreach_name(repo, find_in, &f);
	if (f.r < 0) {
		if (f.found)
			series_release(&f.s);
		return f.r;
	}
	if (r < 0) {
		if (f.found)
			series_release(&f.s);
		return r;
	}
	if (!f.found) {
		struct strbuf also = STRBUF_INIT;

		for (i = 1; i < t->nr_ids && i < 4; i++)
			strbuf_addf(&also, "%s<%s>", i > 1 ? ", " : "",
				    t->ids[i]);
		r = error_code(RESPIN_ENOTFOUND, "no recorded version holds "
			       "<%s>%s%s%s (by Message-ID or by the patch-id of "
			       "its diff): import or track it, then respin "
			       "check", t->ids[0], also.len ? " nor " : "",
			       also.buf, also.len ? ", which it answers" : "");
		strbuf_release(&also);
		return r;
	}
	v = series_version_find(&f.s, f.version);
	r = grid_store_open(repo, &st);
	if (!r)
		r = grid_load_stored(&g, repo, &st, v);
	if (r < 0)
		goto out;
	if (!g.any) {
		r = error_code(RESPIN_ENOTFOUND, "nothing is stored for %s v%d: "
			       "run respin check %s@v%d", f.s.name, v->number,
			       f.s.name, v->number);
		goto out;
	}
	if (f.index) {
		struct series_patch *p = &v->patches[f.index - 1];

		strbuf_addf(out, "respin check of %s v%d %zu/%zu", f.s.name,
			    v->number, f.index, v->nr_patches);
		if (!git_oid_is_zero(&p->commit))
			strbuf_addf(out, " (commit %s)", oid_short(&p->commit, 12));
		strbuf_addstr(out, ":\n");
		patch_lines(out, &st.checks, &g, f.index, "  ");
	} else {
		strbuf_addf(out, "respin check of %s v%d, at the base and after "
			    "each patch:\n", f.s.name, v->number);
		for (i = 0; i <= v->nr_patches; i++) {
			if (i)
				strbuf_addf(out, "  %zu/%zu %s\n", i,
					    v->nr_patches, v->patches[i - 1].subject);
			else
				strbuf_addstr(out, "  base\n");
			patch_lines(out, &st.checks, &g, i, "    ");
		}
	}
	if (out->len == before)
		r = error_code(RESPIN_ENOTFOUND, "nothing is stored for %s v%d",
			       f.s.name, v->number);
out:
	grid_release(&g);
	grid_store_close(&st);
	series_release(&f.s);
	return r;
}
