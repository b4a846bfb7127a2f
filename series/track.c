// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin track's work: a branch's REF..TIP recorded as the next
 * version, or a b4 prep branch's versions (see series/track.h).
 */
#include "series/range.h"
#include "series/sent.h"
#include "series/track.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

struct series_version *track_version_record(struct series *s, int number,
					    struct series_version *nv,
					    const char *base_ref,
					    const char *source)
{
	struct series_version *v = series_version_add(s, number);

	v->base = nv->base;
	v->tip = nv->tip;
	v->patches = nv->patches;
	v->nr_patches = nv->nr_patches;
	v->alloc_patches = nv->alloc_patches;
	nv->patches = NULL;
	nv->nr_patches = nv->alloc_patches = 0;
	v->base_ref = base_ref ? xstrdup(base_ref) : NULL;
	v->recorded = repo_now();
	v->source = xstrdup(source);
	v->loaded = 1;
	return v;
}

/* Drops the lines of extra that start with key. */
static void extra_drop(struct strbuf *extra, const char *key)
{
	struct strbuf kept = STRBUF_INIT;
	const char *p = extra->buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl + 1 - p) : strlen(p);

		if (strncmp(p, key, strlen(key)))
			strbuf_add(&kept, p, len);
		p += len;
	}
	strbuf_release(extra);
	*extra = kept;
}

void track_version_revise(struct series_version *v, struct series_version *nv,
			  const char *source)
{
	size_t i;

	for (i = 0; i < v->nr_patches; i++) {
		free(v->patches[i].subject);
		free(v->patches[i].message_id);
		free(v->patches[i].author);
		strbuf_release(&v->patches[i].extra);
	}
	free(v->patches);
	/* a rebase recorded on another base says nothing of this one */
	if (!git_oid_equal(&v->base, &nv->base))
		extra_drop(&v->extra, "rebased-");
	v->base = nv->base;
	v->tip = nv->tip;
	v->patches = nv->patches;
	v->nr_patches = nv->nr_patches;
	v->alloc_patches = nv->alloc_patches;
	nv->patches = NULL;
	nv->nr_patches = nv->alloc_patches = 0;
	v->recorded = repo_now();
	free(v->source);
	v->source = xstrdup(source);
	v->loaded = 1;
}

int track_rewritten(git_repository *repo, struct series *s,
		    struct series_version *v, const git_oid *tip,
		    const char *why, struct series_version **out, int *revised)
{
	struct series_version nv, *latest = series_latest(s);
	struct strbuf msg = STRBUF_INIT, src = STRBUF_INIT;
	git_commit *base = NULL, *tipc = NULL;
	int number, r;

	*out = NULL;
	*revised = 0;
	memset(&nv, 0, sizeof(nv));
	strbuf_init(&nv.extra, 0);
	if (git_commit_lookup(&base, repo, &v->base) < 0 ||
	    git_commit_lookup(&tipc, repo, tip) < 0) {
		r = error_git("cannot read the commits of %s v%d", s->name,
			      v->number);
		goto out;
	}
	r = series_range_collect(repo, base, tipc, oid_short(&v->base, 12),
				 oid_short(tip, 12), &nv);
	if (r < 0)
		goto out;
	strbuf_addf(&src, "%s of v%d (%s)", why, v->number, oid_short(tip, 12));
	if (!series_version_sent(latest)) {
		track_version_revise(latest, &nv, src.buf);
		*out = latest;
		*revised = 1;
	} else {
		number = latest->number + 1;
		*out = track_version_record(s, number, &nv, v->base_ref,
					    src.buf);
	}
	number = (*out)->number;
	strbuf_addf(&msg, "respin: %s %s v%d (%zu patches)\n", why, s->name,
		    number, (*out)->nr_patches);
	r = series_save(repo, s, tip, msg.buf);
	*out = series_version_find(s, number);
out:
	series_version_release(&nv);
	git_commit_free(base);
	git_commit_free(tipc);
	strbuf_release(&msg);
	strbuf_release(&src);
	return r;
}

/* The full name of the ref REF means (refs/heads/x), else REF itself. */
static char *base_ref_name(git_repository *repo, const char *rev)
{
	git_reference *ref = NULL;
	char *r;

	if (git_reference_dwim(&ref, repo, rev) < 0) {
		git_error_clear();
		return xstrdup(rev);
	}
	r = xstrdup(git_reference_name(ref));
	git_reference_free(ref);
	return r;
}

/* Whether a is b or an ancestor of it. */
static int ancestor_or_same(git_repository *repo, const git_oid *a,
			    const git_oid *b)
{
	int r;

	if (git_oid_equal(a, b))
		return 1;
	r = git_graph_descendant_of(repo, b, a);
	git_error_clear();
	return r > 0;
}

/*
 * The commit the version sits on when the ref it tracks (at ref) is not
 * an ancestor of tip: after 'rebase --onto' a commit of the ref, the
 * commit where tip leaves it, when that is not behind the latest
 * version's base (or the ref still holds that base); else the latest
 * version's base, when tip still sits on it (the ref rewritten).
 * Zero when neither.
 */
static void base_off_ref(git_repository *repo, const struct series_version *latest,
			 const git_oid *ref, const git_oid *tip, git_oid *out)
{
	git_oid mb;

	memset(out, 0, sizeof(*out));
	if (!latest || git_oid_is_zero(&latest->base))
		return;
	if (!git_merge_base(&mb, repo, ref, tip) &&
	    (ancestor_or_same(repo, &latest->base, &mb) ||
	     ancestor_or_same(repo, &latest->base, ref))) {
		git_oid_cpy(out, &mb);
		return;
	}
	git_error_clear();
	if (ancestor_or_same(repo, &latest->base, tip))
		git_oid_cpy(out, &latest->base);
}

/*
 * The patches of base..tip into nv.  base_ref is the ref tracked;
 * base_rev, when not NULL, the commit of it the version sits on
 * (--base SHA of the tracked ref).
 */
static int collect(git_repository *repo, const struct series *s,
		   const char *base_ref, const char *base_rev, int base_given,
		   const char *tip, struct series_version *nv)
{
	git_commit *base = NULL, *tipc = NULL, *off = NULL;
	git_oid at;
	int r;

	r = repo_commit_lookup(repo, base_rev ? base_rev : base_ref, &base);
	if (r < 0) {
		if (!base_given)
			error_hint("series '%s' tracks %s; give --base REF if "
				   "it moved", s->name, base_ref);
		return r;
	}
	r = repo_commit_lookup(repo, tip, &tipc);
	if (r < 0)
		goto out;
	if (!base_given && !ancestor_or_same(repo, git_commit_id(base),
					     git_commit_id(tipc))) {
		base_off_ref(repo, series_latest((struct series *)s),
			     git_commit_id(base), git_commit_id(tipc), &at);
		if (!git_oid_is_zero(&at) &&
		    !git_commit_lookup(&off, repo, &at)) {
			git_commit_free(base);
			base = off;
		}
		git_error_clear();
	}
	r = series_range_collect(repo, base, tipc, repo_ref_short(base_ref),
				 tip, nv);
out:
	git_commit_free(base);
	git_commit_free(tipc);
	return r;
}

/*
 * --base REV that names no ref but a commit of the ref the series
 * tracks: the series keeps tracking that ref.
 */
static int commit_of_tracked(git_repository *repo, const struct series *s,
			     const char *rev)
{
	git_commit *c = NULL, *ref = NULL;
	int of;

	if (!s->base_ref || !strncmp(rev, "refs/", 5) ||
	    repo_commit_lookup(repo, rev, &c) < 0) {
		error_clear();
		return 0;
	}
	if (repo_commit_lookup(repo, s->base_ref, &ref) < 0) {
		error_clear();
		git_commit_free(c);
		return 0;
	}
	of = ancestor_or_same(repo, git_commit_id(c), git_commit_id(ref));
	git_commit_free(c);
	git_commit_free(ref);
	return of;
}

/* Whether nv's commits are latest's own (not only the same patches). */
static int same_commits(const struct series_version *latest,
			const struct series_version *nv)
{
	size_t i;

	if (!git_oid_equal(&latest->tip, &nv->tip))
		return 0;
	for (i = 0; i < latest->nr_patches; i++)
		if (!git_oid_equal(&latest->patches[i].commit,
				   &nv->patches[i].commit))
			return 0;
	return 1;
}

/*
 * The branch holds latest's patches as other commits (git am of a
 * version imported from mail, onto its base): latest is those commits.
 */
static void link_commits(struct series_version *latest,
			 const struct series_version *nv, const char *base_ref)
{
	size_t i;

	for (i = 0; i < latest->nr_patches; i++)
		latest->patches[i].commit = nv->patches[i].commit;
	latest->base = nv->base;
	latest->tip = nv->tip;
	if (!latest->base_ref && base_ref)
		latest->base_ref = xstrdup(base_ref);
}

int track_range(git_repository *repo, struct series *s,
		const struct track_request *rq, struct series_version **v,
		enum track_outcome *outcome)
{
	struct series_version nv, *latest;
	struct strbuf msg = STRBUF_INIT, src = STRBUF_INIT;
	const char *base_rev = NULL;
	char *base_ref;
	int number = rq->number, same, r;

	*v = NULL;
	*outcome = TRACK_NOTHING;
	memset(&nv, 0, sizeof(nv));
	strbuf_init(&nv.extra, 0);
	if (rq->base && commit_of_tracked(repo, s, rq->base)) {
		/* a commit of the tracked ref: on it, still tracking the ref */
		base_ref = xstrdup(s->base_ref);
		base_rev = rq->base;
	} else {
		base_ref = rq->base ? base_ref_name(repo, rq->base) :
			   xstrdup(s->base_ref);
	}
	r = collect(repo, s, base_ref, base_rev, rq->base != NULL, rq->tip,
		    &nv);
	if (r < 0)
		goto out;
	latest = series_latest(s);
	if (latest) {
		r = series_version_same_patches(repo, latest, &nv, &same);
		if (r < 0)
			goto out;
		if (same && (!number || number == latest->number) &&
		    (same_commits(latest, &nv) ||
		     series_version_mail_only(latest) ||
		     git_oid_equal(&latest->base, &nv.base) ||
		     series_version_sent(latest) ||
		     !series_numbering_by_sent(repo))) {
			/* else: unsent, on another base now: revised below */
			*v = latest;
			if (same_commits(latest, &nv) ||
			    !(series_version_mail_only(latest) ||
			      git_oid_equal(&latest->base, &nv.base)))
				goto out;
			link_commits(latest, &nv, base_ref);
			if (!s->base_ref)
				s->base_ref = xstrdup(base_ref);
			strbuf_addf(&msg, "respin: track %s v%d: its patches "
				    "are %s\n", s->name, latest->number,
				    oid_short(&nv.tip, 12));
			r = series_save(repo, s, &nv.tip, msg.buf);
			if (r >= 0)
				*outcome = TRACK_LINKED;
			*v = series_latest(s);
			goto out;
		}
		if (number && number <= latest->number) {
			r = error_code(RESPIN_EUSAGE, "series '%s' is at v%d "
				       "already; --version must be above it",
				       s->name, latest->number);
			goto out;
		}
	}
	if (!s->change_id) {
		struct strbuf cid = STRBUF_INIT;

		series_change_id_make(&cid, s->name, repo_now());
		s->change_id = strbuf_detach(&cid, NULL);
		s->created = repo_now();
	}
	free(s->base_ref);
	s->base_ref = xstrdup(base_ref);

	strbuf_addf(&src, "git %s..%s", base_rev ? base_rev :
		    repo_ref_short(base_ref), rq->tip);
	if (strcmp(rq->tip, oid_short(&nv.tip, GIT_OID_HEXSZ)))
		strbuf_addf(&src, " (%s)", oid_short(&nv.tip, 12));
	if (!number && latest && !series_version_sent(latest) &&
	    series_numbering_by_sent(repo)) {
		/* not sent yet: the same version, revised */
		number = latest->number;
		track_version_revise(latest, &nv, src.buf);
		free(latest->base_ref);
		latest->base_ref = xstrdup(base_ref);
		*v = latest;
		*outcome = TRACK_REVISED;
		strbuf_addf(&msg, "respin: track %s v%d, revised (%zu "
			    "patches)\n", s->name, number, (*v)->nr_patches);
	} else {
		if (!number)
			number = latest ? latest->number + 1 : 1;
		*v = track_version_record(s, number, &nv, base_ref, src.buf);
		*outcome = TRACK_RECORDED;
		strbuf_addf(&msg, "respin: track %s v%d (%zu patches)\n",
			    s->name, number, (*v)->nr_patches);
	}
	r = series_save(repo, s, &(*v)->tip, msg.buf);
	if (r < 0)
		*outcome = TRACK_NOTHING;
	*v = series_version_find(s, number);
out:
	series_version_release(&nv);
	free(base_ref);
	strbuf_release(&msg);
	strbuf_release(&src);
	return r;
}

/* ---- --from-b4 ---- */

/* Whether version v's stored cover letter is text. */
static int cover_is(git_repository *repo, const struct series *s,
		    const struct series_version *v, const char *text,
		    int *same)
{
	struct strbuf old = STRBUF_INIT;
	int r = series_version_text(repo, s, v, SERIES_TEXT_COVER, &old);

	*same = 0;
	if (r == RESPIN_ENOTFOUND)
		r = 0;
	else if (!r)
		*same = !strcmp(old.buf, text);
	strbuf_release(&old);
	return r;
}

static int from_b4_branch(const struct series_version *v)
{
	return v->source && !strncmp(v->source, "b4 branch ", 10);
}

/* Adds what b4 knows and v lacks (or has otherwise); *changed says if. */
static int b4_update(git_repository *repo, const struct series *s,
		     struct series_version *v, struct b4_version *bv,
		     int *changed)
{
	size_t i;
	int same, r;

	*changed = 0;
	if (bv->message_id && (!v->message_id ||
			       strcmp(v->message_id, bv->message_id))) {
		free(v->message_id);
		v->message_id = xstrdup(bv->message_id);
		*changed = 1;
	}
	for (i = 0; i < v->nr_patches && i < bv->v.nr_patches; i++) {
		const char *id = bv->v.patches[i].message_id;

		if (id && (!v->patches[i].message_id ||
			   strcmp(v->patches[i].message_id, id))) {
			free(v->patches[i].message_id);
			v->patches[i].message_id = xstrdup(id);
			*changed = 1;
		}
	}
	if (bv->cover) {
		r = cover_is(repo, s, v, bv->cover, &same);
		if (r < 0)
			return r;
		if (!same) {
			series_version_set_text(v, SERIES_TEXT_COVER, bv->cover,
						strlen(bv->cover));
			*changed = 1;
		}
	}
	/* a version seen on the branch that went out: say it was sent */
	if (*changed && bv->sent && from_b4_branch(v)) {
		free(v->source);
		v->source = xstrdup(bv->v.source);
	}
	return 0;
}

/* Records b4 version bv in t->s (what was there replaced); *o says how. */
static void b4_record(struct track_b4 *t, struct series_version *old,
		      struct b4_version *bv, struct track_b4_outcome *o,
		      git_oid *keep)
{
	struct series *s = &t->s;
	struct series_version *v;

	o->action = TRACK_B4_RECORDED;
	if (old) {
		/* work in progress seen before, changed since */
		size_t at = (size_t)(old - s->versions);

		series_version_release(old);
		memmove(old, old + 1, (s->nr_versions - at - 1) *
			sizeof(*old));
		s->nr_versions--;
		o->action = TRACK_B4_REPLACED;
	}
	v = track_version_record(s, bv->number, &bv->v, t->branch.base_ref,
				 bv->v.source);
	v->message_id = bv->message_id ? xstrdup(bv->message_id) : NULL;
	if (bv->cover)
		series_version_set_text(v, SERIES_TEXT_COVER, bv->cover,
					strlen(bv->cover));
	git_oid_cpy(keep, &v->tip);
}

/*
 * What to do with b4 version bv: the outcome in *o, the tip to keep
 * reachable in *keep (zero when none), what changed added to list.
 */
static int b4_version_track(git_repository *repo, struct track_b4 *t,
			    struct b4_version *bv, struct track_b4_outcome *o,
			    git_oid *keep, struct strbuf *list)
{
	struct series *s = &t->s;
	struct series_version *old;
	int same = 0, changed, r;

	o->bv = bv;
	if (bv->same_as) {
		o->action = TRACK_B4_SKIPPED;
		o->same_as = bv->same_as;
		return 0;
	}
	old = series_version_find(s, bv->number);
	if (old) {
		r = series_version_ensure(repo, s, old);
		if (!r)
			r = series_version_same_patches(repo, old, &bv->v,
							&same);
		if (r < 0)
			return r;
	}
	if (old && same) {
		r = b4_update(repo, s, old, bv, &changed);
		if (r < 0)
			return r;
		o->action = changed ? TRACK_B4_UPDATED : TRACK_B4_UNCHANGED;
		if (changed)
			strbuf_addf(list, "%sv%d updated", list->len ? ", " : "",
				    bv->number);
		t->recorded += changed;
		return 0;
	}
	if (old && !from_b4_branch(old)) {
		r = error("series '%s' has a v%d already, with other patches "
			  "than %s", s->name, bv->number, bv->where);
		error_hint("'respin show %s@v%d' shows it; record the b4 "
			   "branch under another name: 'respin track NEWNAME "
			   "--from-b4 %s'", s->name, bv->number,
			   t->branch.branch);
		return r;
	}
	b4_record(t, old, bv, o, keep);
	strbuf_addf(list, "%sv%d", list->len ? ", " : "", bv->number);
	t->recorded++;
	return 0;
}

/* Loads series name, or starts it; refuses another change-id. */
static int b4_series_load(git_repository *repo, const char *name,
			  struct track_b4 *t)
{
	int r = series_load(repo, name, &t->s, SERIES_LOAD_ALL);

	if (r == RESPIN_ENOTFOUND) {
		error_clear();
		series_release(&t->s);
		series_init(&t->s, name);
		r = 0;
	}
	if (r < 0 || !t->s.change_id ||
	    !strcmp(t->s.change_id, t->branch.change_id))
		return r;
	r = error("series '%s' has change-id %s, but branch '%s' has %s: "
		  "they are different series", t->s.name, t->s.change_id,
		  t->branch.branch, t->branch.change_id);
	error_hint("record the branch under a name of its own: 'respin track "
		   "NEWNAME --from-b4 %s'", t->branch.branch);
	return r;
}

int track_from_b4(git_repository *repo, const char *name, const char *branch,
		  struct track_b4 *t)
{
	struct b4_branch *b = &t->branch;
	struct strbuf msg = STRBUF_INIT, list = STRBUF_INIT;
	git_oid *keep = NULL;
	size_t i;
	int r;

	memset(t, 0, sizeof(*t));
	r = series_name_check(name);
	if (r < 0)
		return r;
	series_init(&t->s, name);
	r = b4_branch_read(repo, branch, b);
	if (!r) {
		series_release(&t->s);
		r = b4_series_load(repo, name, t);
	}
	if (r < 0)
		return r;
	t->out = xcalloc(b->nr_versions + 1, sizeof(*t->out));
	keep = xcalloc(b->nr_versions + 1, sizeof(*keep));
	for (i = 0; i < b->nr_versions && !r; i++, t->nr++)
		r = b4_version_track(repo, t, &b->versions[i], &t->out[i],
				     &keep[i], &list);
	if (!r && t->recorded) {
		if (!t->s.created)
			t->s.created = repo_now();
		if (!t->s.change_id)
			t->s.change_id = xstrdup(b->change_id);
		if (b->base_ref) {
			free(t->s.base_ref);
			t->s.base_ref = xstrdup(b->base_ref);
		}
		strbuf_addf(&msg, "respin: track %s from b4 branch %s (%s)\n",
			    t->s.name, b->branch, list.buf);
		r = series_save_many(repo, &t->s, keep, b->nr_versions,
				     msg.buf);
	}
	free(keep);
	strbuf_release(&msg);
	strbuf_release(&list);
	return r;
}

void track_b4_release(struct track_b4 *t)
{
	free(t->out);
	b4_branch_release(&t->branch);
	series_release(&t->s);
	memset(t, 0, sizeof(*t));
}
