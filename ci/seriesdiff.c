// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin diff's comparison of two versions (seriesdiff.h): the
 * range-diff, paired as asked, and the notes under each pairing line.
 */
#include "ci/seriesdiff.h"
#include "series/import.h"
#include "series/patchtexts.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int seriesdiff_is_mail_source(const char *arg)
{
	return !access(arg, R_OK) || !strncmp(arg, "lore:", 5) ||
	       !strncmp(arg, "notmuch:", 8) || !strcmp(arg, "-");
}

/* The patches of version vi of a mailset, as mail_patch. */
static int mailset_version_patches(struct mailset *ms, long vi,
				   struct mail_patch **out, size_t *nr)
{
	struct ms_version *v = &ms->versions[vi];
	struct mail_patch *mps = xcalloc((size_t)v->total, sizeof(*mps));
	long k;
	int r = mailset_load(ms, vi);

	for (k = 0; k < v->total && !r; k++)
		r = mail_patch_from_mailset(ms, vi, k, &mps[k]);
	if (r < 0) {
		mail_patches_free(mps, (size_t)v->total);
		return r;
	}
	*out = mps;
	*nr = (size_t)v->total;
	return 0;
}

/* Opens a mail source and groups it; the one series it must hold. */
static int open_mail(git_repository *repo, const char *spec,
		     struct mail_source **src, struct mailset *ms)
{
	int r;

	mailset_init(ms, NULL);
	r = mailset_source_open(repo, spec, 0, src);
	if (r < 0)
		return r;
	ms->src = *src;
	r = mailset_scan(ms);
	if (!r)
		r = mailset_group(ms, MAILSET_PATCH_IDS, NULL);
	if (r < 0)
		return r;
	if (ms->nr_series != 1)
		return error("%s holds %zu patch series; respin diff wants "
			     "one", mail_source_describe(*src),
			     ms->nr_series);
	return 0;
}

#define TRAILERS_PREFIX "    trailers: "
#define RESULTS_PREFIX "    results: "

/* After a pairing line: the tags its vB patch lost (trailerdiff.h). */
static void trailers_after_line(const struct trailerdiff *td,
				const struct rangediff_pair *p,
				struct strbuf *out)
{
	size_t i;

	for (i = 0; p->b >= 0 && i < td->nr; i++) {
		if (td->items[i].b != (size_t)p->b)
			continue;
		strbuf_addstr(out, TRAILERS_PREFIX);
		trailerdiff_describe(td, &td->items[i], out);
		strbuf_addch(out, '\n');
	}
}

static const struct grid *pair_grid(const struct seriesdiff_results *dr,
				    int side, int index)
{
	return index >= 0 ? &dr->grid[side] : NULL;
}

static int pair_results(const struct seriesdiff_results *dr,
			const struct rangediff_pair *p, struct resultdiff *rd)
{
	return resultdiff_compute(rd, dr->st.rs, &dr->st.checks,
				  pair_grid(dr, 0, p->a), (size_t)(p->a + 1),
				  pair_grid(dr, 1, p->b), (size_t)(p->b + 1));
}

/* After a pairing line: what changed in the pair's results. */
static int results_after_line(const struct seriesdiff_results *dr,
			      const struct rangediff_pair *p,
			      struct strbuf *out)
{
	struct resultdiff d;
	size_t mark = out->len;
	int r;

	if (p->a < 0 || p->b < 0) {
		int side = p->a < 0;
		size_t i = (size_t)(side ? p->b : p->a) + 1;

		strbuf_addstr(out, RESULTS_PREFIX);
		if (grid_patch_line(out, &dr->st.checks, &dr->grid[side], i))
			strbuf_addch(out, '\n');
		else
			strbuf_setlen(out, mark);
		return 0;
	}
	r = pair_results(dr, p, &d);
	if (!r)
		resultdiff_format(&d, dr->version[0], dr->version[1],
				  RESULTS_PREFIX, out);
	resultdiff_release(&d);
	return r;
}

/*
 * What is said under a pairing line besides git's: the splits and
 * squashes, then the pair's results (--results), then the lost tags.
 */
static int notes_after_line(const struct rangediff *rd, size_t k,
			    struct strbuf *out, void *data)
{
	struct seriesdiff *sd = data;
	int r = 0;

	splits_pair_notes(&sd->sp, rd, k, out);
	if (sd->results && sd->dr.on)
		r = results_after_line(&sd->dr, &rd->pairs[k], out);
	if (!r)
		trailers_after_line(&sd->td, &rd->pairs[k], out);
	return r;
}

/*
 * Pairs as asked (git's, then by title) and finds the splits: the
 * steps of splits_pair_versions(), which respin review and the cover
 * letter pair versions with.
 */
static void pair_and_split(struct seriesdiff *sd,
			   const struct seriesdiff_options *o)
{
	splits_pair_computed(&sd->rd, o->title_pairs, o->find_splits,
			     &sd->sp);
}

int seriesdiff_text(struct seriesdiff *sd, unsigned flags, struct strbuf *out)
{
	return rangediff_print_with(&sd->rd, flags, out, notes_after_line, sd);
}

/* The two versions of mail to compare: vi[], in ms[0] or ms[0], ms[1]. */
static int mail_versions(struct mailset *ms, int nr,
			 struct mail_source **src, long *vi)
{
	struct ms_series *s = &ms[0].series[0];

	if (nr == 2) {
		vi[0] = s->versions[s->nr - 1];
		vi[1] = ms[1].series[0].versions[ms[1].series[0].nr - 1];
		return 0;
	}
	if (s->nr < 2)
		return error("%s holds one version of \"%s\"; give two "
			     "mailboxes", mail_source_describe(src[0]),
			     s->title);
	vi[0] = s->versions[s->nr - 2];
	vi[1] = s->versions[s->nr - 1];
	return 0;
}

int seriesdiff_mail(git_repository *repo, int nr, const char **sources,
		    const struct seriesdiff_options *o, unsigned flags,
		    struct strbuf *out)
{
	struct mail_source *src[2] = { NULL, NULL };
	struct mailset ms[2];
	struct mail_patch *mp[2] = { NULL, NULL };
	size_t nmp[2] = { 0, 0 };
	struct trailerdiff_version tv[2];
	struct seriesdiff sd;
	long vi[2];
	int k, r;

	memset(ms, 0, sizeof(ms));
	memset(&sd, 0, sizeof(sd));
	trailerdiff_version_init(&tv[0], 0);
	trailerdiff_version_init(&tv[1], 0);
	r = open_mail(repo, sources[0], &src[0], &ms[0]);
	if (!r && nr == 2)
		r = open_mail(repo, sources[1], &src[1], &ms[1]);
	if (!r)
		r = mail_versions(ms, nr, src, vi);
	for (k = 0; k < 2 && !r; k++) {
		struct mailset *m = nr == 2 ? &ms[k] : &ms[0];
		struct rangediff_patch **rp = k ? &sd.pb : &sd.pa;
		size_t *nrp = k ? &sd.nb : &sd.na;

		r = mailset_version_patches(m, vi[k], &mp[k], &nmp[k]);
		if (!r)
			r = rangediff_patches_from_mail(mp[k], nmp[k], rp, nrp,
					mail_source_describe(nr == 2 ?
							     src[k] : src[0]));
		if (!r)
			trailerdiff_version_from_mailset(&tv[k], m, vi[k]);
	}
	if (!r)
		r = rangediff_compute(sd.pa, sd.na, sd.pb, sd.nb,
				      o->creation_factor, &sd.rd);
	if (!r) {
		pair_and_split(&sd, o);
		trailerdiff_compute(&sd.td, &tv[0], &tv[1]);
		r = seriesdiff_text(&sd, flags, out);
	}
	trailerdiff_version_release(&tv[0]);
	trailerdiff_version_release(&tv[1]);
	seriesdiff_release(&sd);
	for (k = 0; k < 2; k++) {
		mail_patches_free(mp[k], nmp[k]);
		if (ms[k].msgs || ms[k].src)
			mailset_release(&ms[k]);
		mail_source_free(src[k]);
	}
	return r;
}

int seriesdiff_pick_versions(struct series *s, struct series_version *latest,
			     const char *arg_a, const char *arg_b,
			     struct series_version **va,
			     struct series_version **vb)
{
	size_t i;
	int r;

	if (arg_a) {
		r = series_version_get(s, series_version_parse(arg_a), va);
		if (!r)
			r = series_version_get(s, series_version_parse(arg_b),
					       vb);
		return r;
	}
	*vb = latest;
	for (i = 0; i < s->nr_versions; i++)
		if (&s->versions[i] == latest)
			break;
	if (i == 0 || i == s->nr_versions)
		return error("%s has no version before v%d to compare with",
			     s->name, latest->number);
	*va = &s->versions[i - 1];
	return 0;
}

/* The tags vb's patches lost against va's. */
static int lost_trailers(git_repository *repo, struct seriesdiff *sd)
{
	struct trailerdiff_version a, b;
	int r;

	trailerdiff_version_init(&b, sd->vb->number);
	r = trailerdiff_version_from_store(&a, repo, sd->s, sd->va, sd->pa,
					   sd->na);
	if (!r)
		r = trailerdiff_version_from_store(&b, repo, sd->s, sd->vb,
						   sd->pb, sd->nb);
	if (!r)
		trailerdiff_compute(&sd->td, &a, &b);
	trailerdiff_version_release(&a);
	trailerdiff_version_release(&b);
	return r;
}

/* Loads both grids; dr->on says whether both versions have results. */
static int results_load(git_repository *repo, const struct series_version *va,
			const struct series_version *vb,
			struct seriesdiff_results *dr)
{
	int r = grid_store_open(repo, &dr->st);

	dr->version[0] = va->number;
	dr->version[1] = vb->number;
	if (!r)
		r = grid_load_stored(&dr->grid[0], repo, &dr->st, va);
	if (!r)
		r = grid_load_stored(&dr->grid[1], repo, &dr->st, vb);
	if (r < 0)
		return r;
	dr->on = dr->grid[0].any && dr->grid[1].any;
	return 0;
}

int seriesdiff_versions(git_repository *repo, const struct series *s,
			const struct series_version *va,
			const struct series_version *vb,
			const struct seriesdiff_options *o,
			struct seriesdiff *sd)
{
	git_mailmap *mailmap = NULL;
	int r;

	memset(sd, 0, sizeof(*sd));
	sd->s = s;
	sd->va = va;
	sd->vb = vb;
	sd->results = o->results;
	/* git log maps authors through .mailmap by default; so do we */
	if (git_mailmap_from_repository(&mailmap, repo) < 0)
		mailmap = NULL;
	r = series_rangediff_patches(repo, mailmap, s, va, &sd->pa, &sd->na);
	if (!r)
		r = series_rangediff_patches(repo, mailmap, s, vb, &sd->pb,
					     &sd->nb);
	if (!r)
		r = rangediff_compute(sd->pa, sd->na, sd->pb, sd->nb,
				      o->creation_factor, &sd->rd);
	if (!r)
		pair_and_split(sd, o);
	if (!r)
		r = lost_trailers(repo, sd);
	if (!r && o->results)
		r = results_load(repo, va, vb, &sd->dr);
	git_mailmap_free(mailmap);
	return r;
}

static void patch_json(struct json *j, const char *side,
		       const struct rangediff_patch *p, int index)
{
	char key[16];

	json_key(j, side);
	if (p)
		json_int(j, index + 1);
	else
		json_null(j);
	snprintf(key, sizeof(key), "%s_commit", side);
	json_key(j, key);
	if (p)
		json_string(j, oid_short(&p->oid, GIT_OID_HEXSZ));
	else
		json_null(j);
	snprintf(key, sizeof(key), "%s_subject", side);
	json_key(j, key);
	if (p)
		json_string(j, p->subject);
	else
		json_null(j);
}

/* "results": the pair's result changes, or null when it has none. */
static int pair_json(struct json *j, const struct seriesdiff_results *dr,
		     const struct rangediff_pair *p)
{
	struct resultdiff d = { 0 };
	int r = dr->on ? pair_results(dr, p, &d) : 0;

	json_key(j, "results");
	if (r < 0 || !d.nr)
		json_null(j);
	else
		resultdiff_to_json(&d, j);
	resultdiff_release(&d);
	return r;
}

/* One member of "pairs"; its results while *r is 0 (sets it). */
static void pair_to_json(struct seriesdiff *sd, const struct rangediff_pair *p,
			 struct json *j, int *r)
{
	const struct rangediff *rd = &sd->rd;
	const struct trailerdiff *td = &sd->td;
	char status[2] = { p->status, 0 };
	size_t i;

	json_object_begin(j);
	json_string_member(j, "status", status);
	json_key(j, "paired_by");
	if (p->a < 0 || p->b < 0)
		json_null(j);
	else
		json_string(j, p->by_title ? "title" : "range-diff");
	patch_json(j, "a", p->a >= 0 ? &rd->a[p->a] : NULL, p->a);
	patch_json(j, "b", p->b >= 0 ? &rd->b[p->b] : NULL, p->b);
	if (sd->results && !*r)
		*r = pair_json(j, &sd->dr, p);
	json_key(j, "lost_trailers");
	json_array_begin(j);
	for (i = 0; p->b >= 0 && i < td->nr; i++)
		if (td->items[i].b == (size_t)p->b)
			trailerdiff_lost_json(j, td, &td->items[i]);
	json_array_end(j);
	json_object_end(j);
}

int seriesdiff_json(struct seriesdiff *sd, struct strbuf *out)
{
	struct json j;
	size_t k;
	int r = 0;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", sd->s->name);
	json_int_member(&j, "from", sd->va->number);
	json_int_member(&j, "to", sd->vb->number);
	json_key(&j, "pairs");
	json_array_begin(&j);
	for (k = 0; k < sd->rd.nr_pairs; k++)
		pair_to_json(sd, &sd->rd.pairs[k], &j, &r);
	json_array_end(&j);
	json_key(&j, "splits");
	splits_to_json(&sd->sp, &j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
	return r;
}

void seriesdiff_release(struct seriesdiff *sd)
{
	rangediff_release(&sd->rd);
	rangediff_patches_free(sd->pa, sd->na);
	rangediff_patches_free(sd->pb, sd->nb);
	grid_release(&sd->dr.grid[0]);
	grid_release(&sd->dr.grid[1]);
	grid_store_close(&sd->dr.st);
	splits_release(&sd->sp);
	trailerdiff_release(&sd->td);
}
