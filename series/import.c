// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin import's work: versions from a mail source recorded into a
 * series (applied, or from the mail alone), the tags given in replies
 * kept beside them, a mail-only version applied later.
 */
#include "series/import.h"
#include "series/thread.h"
#include "series/trailerdiff.h"
#include "tools/lib/config.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The patches applied on the base (--base, else the mail's
 * base-commit) and committed, or kept as mail with --mail-only.
 */
static int build_version(git_repository *repo, int vnum,
			 struct mail_patch *mps, size_t nr,
			 const char *base_commit, const struct import_opts *o,
			 struct series_version *nv)
{
	const char *base_name = o->base ? o->base : base_commit;
	git_commit *base = NULL;
	int r;

	if (o->mail_only)
		return import_mail_only(mps, nr, nv);
	if (!base_name) {
		error("v%d names no base-commit and no --base was given", vnum);
		error_hint("give the tree it applies to with --base REF, or "
			   "record it from the mail alone with --mail-only");
		return RESPIN_ERR;
	}
	r = repo_commit_lookup(repo, base_name, &base);
	if (r < 0) {
		if (!o->base) {
			r = error("v%d is based on %s, which is not in this "
				  "repository", vnum, base_name);
			error_hint("fetch it, give another base with --base "
				   "REF, or use --mail-only");
		}
		return r;
	}
	r = import_apply(repo, base, mps, nr, nv);
	git_commit_free(base);
	if (!r)
		nv->base_ref = xstrdup(base_name);
	return r;
}

/*
 * Whether nv may be recorded as version vnum of s: 0 when it may (a
 * mail-only version there, which nv applies, is taken out, keeping how
 * it was sent), 1 when s has these patches already, <0 when s has
 * another v<vnum>.
 */
static int make_room(struct series *s, int vnum, struct series_version *nv,
		     const struct import_opts *o)
{
	struct series_version *old = series_version_find(s, vnum);
	int same;
	size_t i, k;

	if (!old)
		return 0;
	same = old->nr_patches == nv->nr_patches;
	for (i = 0; same && i < nv->nr_patches; i++)
		same = git_oid_equal(&old->patches[i].patch_id,
				     &nv->patches[i].patch_id);
	if (same && (o->mail_only || !git_oid_is_zero(&old->tip)))
		return 1;
	if (!git_oid_is_zero(&old->tip) || o->mail_only)
		return error_code(RESPIN_EUSAGE, "series '%s' has a v%d "
				  "already (with other patches)", s->name,
				  vnum);
	/* a mail-only version gets its commits: how it was sent stays */
	nv->subject_prefix = old->subject_prefix;
	nv->sent_base = old->sent_base;
	nv->sent_prereqs = old->sent_prereqs;
	old->subject_prefix = old->sent_base = NULL;
	old->sent_prereqs = NULL;
	k = (size_t)(old - s->versions);
	series_version_release(old);
	memmove(old, old + 1, (s->nr_versions - k - 1) * sizeof(*old));
	s->nr_versions--;
	return 0;
}

/* Applies (or keeps from mail only) the patches as version vnum of s. */
static int record_version(git_repository *repo, struct series *s,
			  int vnum, struct mail_patch *mps, size_t nr,
			  const char *base_commit, struct import_opts *o,
			  const char *source, const char *msgid,
			  git_oid *keep, struct strbuf *report)
{
	struct series_version nv, *v;
	int r;

	memset(&nv, 0, sizeof(nv));
	strbuf_init(&nv.extra, 0);
	r = build_version(repo, vnum, mps, nr, base_commit, o, &nv);
	if (!r)
		r = make_room(s, vnum, &nv, o);
	if (r == 1)
		strbuf_addf(report, "%s v%d already has these %zu patches; "
			    "nothing recorded\n", s->name, vnum,
			    nv.nr_patches);
	if (r) {
		series_version_release(&nv);
		return r < 0 ? r : 0;
	}
	o->recorded++;
	v = series_version_add(s, vnum);
	*v = nv;
	v->number = vnum;
	v->loaded = 1;
	v->recorded = repo_now();
	v->source = xstrdup(source);
	v->message_id = msgid ? xstrdup(msgid) : NULL;
	if (!git_oid_is_zero(&v->tip)) {
		git_oid_cpy(keep, &v->tip);
		strbuf_addf(report, "%s v%d: %zu patch%s from mail applied on "
			    "%s (%s)\n", s->name, vnum, v->nr_patches,
			    v->nr_patches == 1 ? "" : "es",
			    o->base ? o->base : "base-commit",
			    oid_short(&v->base, 12));
	} else {
		strbuf_addf(report, "%s v%d: %zu patch%s recorded from mail "
			    "only (no base)\n", s->name, vnum, v->nr_patches,
			    v->nr_patches == 1 ? "" : "es");
	}
	return 0;
}

static int has_line(const struct strbuf *sb, const char *line, size_t n)
{
	const char *at = sb->buf, *end = sb->buf + sb->len;

	while (at < end) {
		const char *e = memchr(at, '\n', (size_t)(end - at));
		size_t m = e ? (size_t)(e - at) + 1 : (size_t)(end - at);

		if (m == n && !memcmp(at, line, n))
			return 1;
		at += m;
	}
	return 0;
}

/* The lines of add that old lacks, appended to old. */
static void lines_union(struct strbuf *old, const struct strbuf *add)
{
	const char *p = add->buf, *end = add->buf + add->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (!has_line(old, p, n))
			strbuf_add(old, p, n);
		p += n;
	}
}

/*
 * Keeps the tags given in replies to version vi beside the recorded
 * version (cover and diff flag those a later version lost).  They are
 * only added to: a source without some replies forgets none.  A
 * version recorded before that gets new ones is saved again and said.
 */
static int record_given(git_repository *repo, struct series *s,
			const struct mailset *ms, long vi, int fresh,
			struct import_opts *o, struct strbuf *report)
{
	struct series_version *sv = series_version_find(s, ms->versions[vi].number);
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT;
	size_t was;
	int r;

	if (!sv || !sv->loaded)
		return 0;
	trailerdiff_given_text(ms, vi, &text);
	r = series_version_text(repo, s, sv, SERIES_TEXT_GIVEN, &old);
	if (r == RESPIN_ENOTFOUND)
		r = 0;
	was = old.len;
	if (!r)
		lines_union(&old, &text);
	if (!r && old.len != was) {
		series_version_set_text(sv, SERIES_TEXT_GIVEN, old.buf,
				      old.len);
		if (!fresh) {
			const char *c;
			size_t n = 0;

			for (c = old.buf; *c; c++)
				n += *c == '\n';
			o->recorded++;
			strbuf_addf(report, "%s v%d: tags given in replies "
				    "recorded (%zu)\n", s->name, sv->number, n);
		}
	}
	strbuf_release(&text);
	strbuf_release(&old);
	return r;
}

static int list_series(const struct mailset *ms, const char *what)
{
	size_t i;

	error_code(RESPIN_EUSAGE, "%s holds %zu series; say which with a "
		   "Message-ID", what, ms->nr_series);
	for (i = 0; i < ms->nr_series && i < 10; i++) {
		const struct ms_series *s = &ms->series[i];
		const struct ms_version *v = &ms->versions[s->versions[s->nr - 1]];
		long head = v->cover;
		long k;

		for (k = 0; head < 0 && k < v->total; k++)
			head = v->patches[k].msg;
		error_hint("\"%s\": %s", term_safe(s->title),
			   head >= 0 ? term_safe(ms->msgs[head].msgid) : "?");
	}
	return RESPIN_EUSAGE;
}

/*
 * A cover letter's text as its author wrote it, up to the signature: a
 * changelog under a "---" (as b4 writes it) or under a heading
 * underlined with "---" is part of it, not notes to drop.  The cover
 * letter parser cuts the shortlog and diffstat off.
 */
static void cover_letter_text(const struct patchmail *pm, struct strbuf *out)
{
	const struct patchmail_span *part[] = {
		&pm->message, &pm->trailer_block, &pm->notes
	};
	const char *start = NULL, *end = NULL;
	size_t k;

	for (k = 0; k < sizeof(part) / sizeof(part[0]); k++) {
		if (!part[k]->p)
			continue;
		if (!start || part[k]->p < start)
			start = part[k]->p;
		if (!end || part[k]->p + part[k]->len > end)
			end = part[k]->p + part[k]->len;
	}
	if (start)
		strbuf_add(out, start, (size_t)(end - start));
}

/*
 * A subject whose version or counter is out of range ("v4294967297")
 * was not read as a tag: its message would be recorded as some other
 * version.  Refused, naming it.
 */
static int check_numbers(const struct mailset *ms, const struct ms_version *v)
{
	long k;

	for (k = -1; k < v->total; k++) {
		long m = k < 0 ? v->cover : v->patches[k].msg;

		if (m < 0 || !ms->msgs[m].tags.out_of_range)
			continue;
		error("message <%s> (\"%s\"): a version above v%d or a counter "
		      "above %d/%d is not read as a tag; nothing recorded",
		      ms->msgs[m].msgid, ms->msgs[m].subject,
		      SUBJECT_MAX_VERSION, SUBJECT_MAX_TOTAL,
		      SUBJECT_MAX_TOTAL);
		error_hint("fix the [PATCH ...] tag of its Subject: line and "
			   "import again");
		return RESPIN_ERR;
	}
	return 0;
}

/*
 * The version to import of series si (t's focus, or the source's one
 * series): the one want (a patch or a reply to one) belongs to, or the
 * latest; a version superseded by a resend gives way to it.
 */
static int choose_version(const struct mail_thread *t, const char *want,
			  long *si, long *vi)
{
	const struct mailset *ms = &t->ms;
	const char *what = mail_source_describe(t->src);

	if (want) {
		long m = mailset_find(ms, want);

		*si = t->only;
		if (ms->msgs[m].kind == MS_REPLY)
			m = ms->msgs[m].patch_of;
		*vi = ms->msgs[m].version;
		while (ms->versions[*vi].superseded_by >= 0)
			*vi = ms->versions[*vi].superseded_by;
		return 0;
	}
	if (ms->nr_series == 1) {
		*si = 0;
		*vi = ms->series[0].versions[ms->series[0].nr - 1];
		return 0;
	}
	if (!ms->nr_series)
		return error_code(RESPIN_ENOTFOUND, "no patch series in %s",
				  what);
	return list_series(ms, what);
}

/* Stores the cover letter of version vi as the recorded version's. */
static void record_cover(struct series *s, struct mailset *ms, long vi)
{
	struct ms_version *v = &ms->versions[vi];
	struct ms_detail *c = v->cover_part.d;
	struct series_version *sv = series_version_find(s, v->number);
	struct strbuf cover = STRBUF_INIT;

	if (!sv || !sv->loaded)
		return;
	/* its title, then its text */
	strbuf_addf(&cover, "%s\n\n", ms->msgs[v->cover].tags.title);
	cover_letter_text(&c->pm, &cover);
	strbuf_rtrim(&cover);
	strbuf_addch(&cover, '\n');
	series_version_set_text(sv, SERIES_TEXT_COVER, cover.buf, cover.len);
	strbuf_release(&cover);
}

/* The patches of loaded version vi as mail_patch; the error names one. */
static int version_patches(struct mailset *ms, long vi,
			   struct mail_patch **out)
{
	struct ms_version *v = &ms->versions[vi];
	struct mail_patch *mps = xcalloc((size_t)v->total + 1, sizeof(*mps));
	long k;
	int r = 0;

	*out = mps;
	for (k = 0; k < v->total && !r; k++)
		r = mail_patch_borrow_from_mailset(ms, vi, k, &mps[k]);
	if (r < 0) {
		char *why = xstrdup(error_last());
		int missing = v->patches[k - 1].msg < 0;

		r = error("%s; nothing recorded", why);
		free(why);
		if (missing)
			error_hint("find the missing mail (lore, your archive) "
				   "and import from a source that has it");
	}
	return r;
}

/*
 * Records version vi of ms into s: its patches, the tags given in
 * replies, how it was sent, its cover letter; source says where it
 * came from.
 */
static int import_version(git_repository *repo, struct series *s,
			  struct mailset *ms, long vi, const char *source,
			  struct import_opts *o, struct strbuf *report,
			  git_oid *keep)
{
	struct ms_version *v = &ms->versions[vi];
	struct mail_patch *mps = NULL;
	struct series_version *sv;
	char *base_commit = NULL;
	long head = v->cover >= 0 ? v->cover : v->patches[0].msg;
	int r, fresh = o->recorded;

	r = check_numbers(ms, v);
	if (!r)
		r = mailset_load(ms, vi);
	if (r < 0)
		return r;
	r = version_patches(ms, vi, &mps);
	base_commit = import_base_commit(ms, vi);
	if (!r)
		r = record_version(repo, s, v->number, mps, (size_t)v->total,
				   base_commit, o, source, head >= 0 ?
				   ms->msgs[head].msgid : NULL, keep, report);
	if (!r)
		r = record_given(repo, s, ms, vi, o->recorded != fresh, o,
				 report);
	if (!r && !s->change_id && v->change_id)
		s->change_id = xstrdup(v->change_id);
	sv = series_version_find(s, v->number);
	if (!r && sv && sv->loaded)
		import_sent_info(ms, vi, sv);
	if (!r && sv && sv->loaded)
		r = import_sent_record(repo, s, ms, vi, sv);
	if (!r && v->cover >= 0)
		record_cover(s, ms, vi);
	free(base_commit);
	mail_patches_free(mps, (size_t)v->total);
	return r;
}

/* What ms noticed about series si (a resend, a gap), a line each. */
static void series_notes(const struct mailset *ms, long si,
			 struct strbuf *notes)
{
	size_t i;

	for (i = 0; i < ms->nr_notes; i++)
		if (mailset_note_about(ms, i, si))
			strbuf_addf(notes, "%s\n", ms->notes[i].text);
}

int import_from_source(git_repository *repo, struct series *s,
		       const char *spec, const char *want,
		       struct import_opts *o, struct strbuf *report,
		       struct strbuf *notes, git_oid **keep, size_t *nkeep)
{
	struct mail_thread_opts to = { 0 };
	struct mail_thread t;
	struct strbuf source = STRBUF_INIT;
	long si = -1, chosen = -1;
	size_t i;
	int r;

	to.refresh = o->refresh;
	to.search = o->all && !o->no_search && !strncmp(spec, "lore:", 5);
	to.progress = o->progress;
	if (!want && !strncmp(spec, "lore:", 5))
		want = spec + 5;
	r = mail_thread_open(repo, spec, want, &to, &t);
	if (!r)
		r = choose_version(&t, want, &si, &chosen);
	if (r < 0)
		goto out;
	series_notes(&t.ms, si, notes);
	if (t.searched)
		lore_find_describe(&t.lf, &t.ms, si, notes);
	*keep = xcalloc(t.ms.series[si].nr + 1, sizeof(**keep));
	for (i = 0; i < t.ms.series[si].nr && !r; i++) {
		long vi = t.ms.series[si].versions[i];
		struct ms_version *v = &t.ms.versions[vi];
		long head = v->cover >= 0 ? v->cover : v->patches[0].msg;

		if (!o->all && vi != chosen)
			continue;
		strbuf_reset(&source);
		if (t.searched && head >= 0)
			/* each version as from its own thread */
			strbuf_addf(&source, "mail lore %s/%s", t.lf.url,
				    t.ms.msgs[head].msgid);
		else
			strbuf_addf(&source, "mail %s",
				    mail_source_describe(t.src));
		r = import_version(repo, s, &t.ms, vi, source.buf, o, report,
				   &(*keep)[(*nkeep)++]);
	}
out:
	strbuf_release(&source);
	mail_thread_release(&t);
	return r;
}

int import_stored(git_repository *repo, struct series *s, int number,
		  struct import_opts *o, struct strbuf *report, git_oid *keep)
{
	struct series_version *v;
	struct mail_patch *mps = NULL;
	struct strbuf source = STRBUF_INIT;
	char *msgid = NULL;
	size_t nr = 0, i;
	int r;

	r = series_version_get(s, number, &v);
	if (r < 0)
		return r;
	if (!git_oid_is_zero(&v->tip))
		return error_code(RESPIN_EUSAGE, "%s v%d has commits already; "
				  "give a mail source to import another "
				  "version", s->name, v->number);
	if (!o->base)
		return error_code(RESPIN_EUSAGE, "applying %s v%d needs "
				  "--base REF", s->name, v->number);
	/* the stored mails are mail: respin.maxMailSize bounds them */
	r = config_mail_limits(repo);
	if (!r)
		r = import_stored_patches(repo, s, v, &mps, &nr);
	if (r < 0)
		return r;
	strbuf_addstr(&source, v->source ? v->source : "mail");
	msgid = v->message_id ? xstrdup(v->message_id) : NULL;
	r = record_version(repo, s, v->number, mps, nr, NULL, o,
			   source.buf, msgid, keep, report);
	for (i = 0; i < nr; i++)
		mail_patch_release(&mps[i]);
	free(mps);
	free(msgid);
	strbuf_release(&source);
	return r;
}

int import_save(git_repository *repo, struct series *s,
		const struct import_opts *o, const char *from,
		const git_oid *keep, size_t nkeep)
{
	struct strbuf msg = STRBUF_INIT;
	int r;

	if (!s->created)
		s->created = repo_now();
	if (!s->change_id) {
		struct strbuf cid = STRBUF_INIT;

		series_change_id_make(&cid, s->name, repo_now());
		s->change_id = strbuf_detach(&cid, NULL);
	}
	/* a stored version applied sets the base; mail sets a first one */
	if (o->base && (!s->base_ref || !from)) {
		free(s->base_ref);
		s->base_ref = xstrdup(o->base);
	}
	strbuf_addf(&msg, "respin: import %s from %s\n", s->name,
		    from ? from : "stored mail");
	r = series_save_many(repo, s, keep, nkeep, msg.buf);
	strbuf_release(&msg);
	return r;
}
