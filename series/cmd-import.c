// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin import NAME SOURCE [MSGID] [--base REF] [--mail-only] [--all]
 * respin import NAME[@vN] --base REF
 *
 * Records a version from mail as version N of series NAME.
 */
#include "series/import.h"
#include "series/lorefind.h"
#include "series/trailerdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin import <name> <source> [<msgid>] [--base <ref>] [--mail-only] [--all [--no-search]]",
	"respin import <name>[@v<n>] --base <ref>   (apply a mail-only version)",
	NULL
};

struct import_opts {
	const char *base;
	int mail_only;
	int all;
	int refresh;
	int no_search;
	int progress;	/* stderr is a terminal */
	int recorded;	/* versions recorded so far (out) */
};

/* Applies (or keeps from mail only) the patches as version vnum of s. */
static int record_version(git_repository *repo, struct series *s,
			  int vnum, struct mail_patch *mps, size_t nr,
			  const char *base_commit, struct import_opts *o,
			  const char *source, const char *msgid,
			  git_oid *keep, struct strbuf *report)
{
	struct series_version nv, *v, *old;
	git_commit *base = NULL;
	const char *base_name = NULL;
	int r;

	memset(&nv, 0, sizeof(nv));
	strbuf_init(&nv.extra, 0);
	if (!o->mail_only) {
		if (o->base) {
			base_name = o->base;
		} else if (base_commit) {
			base_name = base_commit;
		} else {
			error("v%d names no base-commit and no --base was given",
			      vnum);
			error_hint("give the tree it applies to with --base "
				   "REF, or record it from the mail alone "
				   "with --mail-only");
			return RESPIN_ERR;
		}
		r = repo_commit_lookup(repo, base_name, &base);
		if (r < 0) {
			if (!o->base) {
				error("v%d is based on %s, which is not in this "
				      "repository", vnum, base_name);
				error_hint("fetch it, give another base with "
					   "--base REF, or use --mail-only");
			}
			return RESPIN_ERR;
		}
		r = import_apply(repo, base, mps, nr, &nv);
		git_commit_free(base);
	} else {
		r = import_mail_only(mps, nr, &nv);
	}
	if (r < 0) {
		series_version_release(&nv);
		return r;
	}
	old = series_version_find(s, vnum);
	if (old) {
		int same = old->nr_patches == nv.nr_patches;
		size_t i;

		for (i = 0; same && i < nv.nr_patches; i++)
			same = git_oid_equal(&old->patches[i].patch_id,
					     &nv.patches[i].patch_id);
		if (same && (o->mail_only || !git_oid_is_zero(&old->tip))) {
			strbuf_addf(report, "%s v%d already has these %zu "
				    "patches; nothing recorded\n", s->name,
				    vnum, nv.nr_patches);
			series_version_release(&nv);
			return 0;
		}
		if (!git_oid_is_zero(&old->tip) || o->mail_only) {
			series_version_release(&nv);
			return error_code(RESPIN_EUSAGE, "series '%s' has a v%d "
					  "already (with other patches)",
					  s->name, vnum);
		}
		/* a mail-only version gets its commits: replace it */
		{
			size_t k = (size_t)(old - s->versions);

			/* how it was sent stays (nv's are NULL) */
			nv.subject_prefix = old->subject_prefix;
			nv.sent_base = old->sent_base;
			nv.sent_prereqs = old->sent_prereqs;
			old->subject_prefix = old->sent_base = NULL;
			old->sent_prereqs = NULL;

			series_version_release(old);
			memmove(old, old + 1, (s->nr_versions - k - 1) *
				sizeof(*old));
			s->nr_versions--;
		}
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
		v->base_ref = xstrdup(o->base ? o->base : base_name);
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

/* The notes about series si (a resend, a gap, a series kept apart). */
static void notes_to_stderr(const struct mailset *ms, long si)
{
	size_t i;

	for (i = 0; i < ms->nr_notes; i++)
		if (mailset_note_about(ms, i, si))
			fprintf(stderr, "note: %s\n",
				term_safe(ms->notes[i].text));
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
 * lore:MSGID with --all: the thread and what the lore search finds of
 * the series' other versions (series/lorefind.h).
 */
static int open_searched(struct command_context *ctx, const char *spec,
			 const char *want, struct import_opts *o,
			 struct lore_find *lf, struct mail_source **src)
{
	struct lore_find_options fo = { 0 };
	int r;

	fo.refresh = o->refresh;
	fo.focus = want;
	if (o->progress)
		fo.progress = command_progress;
	r = lore_find_open(ctx->repo, spec + 5, &fo, lf);
	*src = lf->src;
	lf->src = NULL;
	return r;
}

static int import_from_source(struct command_context *ctx, struct series *s,
			      const char *spec, const char *want,
			      struct import_opts *o, struct strbuf *report,
			      git_oid **keep, size_t *nkeep)
{
	struct mail_source *src = NULL;
	struct mailset ms;
	struct lore_find lf;
	struct strbuf source = STRBUF_INIT;
	const int search = o->all && !o->no_search &&
			   !strncmp(spec, "lore:", 5);
	long si, chosen = -1;
	size_t i;
	int r, fresh;

	mailset_init(&ms, NULL);
	memset(&lf, 0, sizeof(lf));
	strbuf_init(&lf.notes, 0);
	if (search)
		r = open_searched(ctx, spec, want, o, &lf, &src);
	else
		r = mailset_source_open(ctx->repo, spec, o->refresh, &src);
	if (r < 0)
		goto out;
	ms.src = src;
	r = mailset_scan(&ms);
	if (!want && !strncmp(spec, "lore:", 5))
		want = spec + 5;
	if (!r)
		r = mailset_group(&ms, 0, want);
	if (r < 0)
		goto out;
	if (want) {
		long m = mailset_find(&ms, want);

		si = mailset_series_of(&ms, m);
		if (m < 0 || si < 0) {
			r = error_code(RESPIN_ENOTFOUND, m < 0 ?
				       "no message <%s> in %s" :
				       "message <%s> in %s is not part of a "
				       "patch series", want,
				       mail_source_describe(src));
			goto out;
		}
		if (ms.msgs[m].kind == MS_REPLY)
			m = ms.msgs[m].patch_of;
		chosen = ms.msgs[m].version;
		while (ms.versions[chosen].superseded_by >= 0)
			chosen = ms.versions[chosen].superseded_by;
	} else if (ms.nr_series == 1) {
		si = 0;
		chosen = ms.series[0].versions[ms.series[0].nr - 1];
	} else if (!ms.nr_series) {
		r = error_code(RESPIN_ENOTFOUND, "no patch series in %s",
			       mail_source_describe(src));
		goto out;
	} else {
		r = list_series(&ms, mail_source_describe(src));
		goto out;
	}
	notes_to_stderr(&ms, si);
	if (search) {
		struct strbuf notes = STRBUF_INIT;

		lore_find_describe(&lf, &ms, si, &notes);
		command_notes(notes.buf);
		strbuf_release(&notes);
	}
	*keep = xcalloc(ms.series[si].nr + 1, sizeof(**keep));
	for (i = 0; i < ms.series[si].nr; i++) {
		long vi = ms.series[si].versions[i];
		struct ms_version *v = &ms.versions[vi];
		struct mail_patch *mps;
		char *base_commit;
		long k, head = v->cover;

		if (!o->all && vi != chosen)
			continue;
		if (head < 0 && v->patches[0].msg >= 0)
			head = v->patches[0].msg;
		strbuf_reset(&source);
		if (search && head >= 0)
			/* each version as from its own thread */
			strbuf_addf(&source, "mail lore %s/%s", lf.url,
				    ms.msgs[head].msgid);
		else
			strbuf_addf(&source, "mail %s",
				    mail_source_describe(src));
		r = check_numbers(&ms, v);
		if (r < 0)
			goto out;
		r = mailset_load(&ms, vi);
		if (r < 0)
			goto out;
		mps = xcalloc((size_t)v->total, sizeof(*mps));
		for (k = 0; k < v->total && !r; k++)
			r = mail_patch_from_mailset(&ms, vi, k, &mps[k]);
		if (r < 0) {
			char *why = xstrdup(error_last());
			int missing = v->patches[k - 1].msg < 0;

			r = error("%s; nothing recorded", why);
			free(why);
			if (missing)
				error_hint("find the missing mail (lore, your "
					   "archive) and import from a source "
					   "that has it");
		}
		base_commit = import_base_commit(&ms, vi);
		fresh = o->recorded;
		if (!r)
			r = record_version(ctx->repo, s, v->number, mps,
					   (size_t)v->total, base_commit, o,
					   source.buf, head >= 0 ?
					   ms.msgs[head].msgid : NULL,
					   &(*keep)[*nkeep], report);
		if (!r)
			r = record_given(ctx->repo, s, &ms, vi,
					 o->recorded != fresh, o, report);
		if (!r && !s->change_id && v->change_id)
			s->change_id = xstrdup(v->change_id);
		if (!r) {
			struct series_version *sv = series_version_find(s, v->number);

			if (sv && sv->loaded)
				import_sent_info(&ms, vi, sv);
		}
		if (!r && v->cover >= 0) {
			/* the cover letter: its title, then its text */
			struct ms_detail *c = v->cover_part.d;
			struct series_version *sv = series_version_find(s, v->number);
			struct strbuf cover = STRBUF_INIT;

			strbuf_addf(&cover, "%s\n\n", ms.msgs[v->cover].tags.title);
			cover_letter_text(&c->pm, &cover);
			strbuf_rtrim(&cover);
			strbuf_addch(&cover, '\n');
			if (sv && sv->loaded)
				series_version_set_text(sv, SERIES_TEXT_COVER,
							cover.buf, cover.len);
			strbuf_release(&cover);
		}
		(*nkeep)++;
		free(base_commit);
		for (k = 0; k < v->total; k++)
			mail_patch_release(&mps[k]);
		free(mps);
		if (r < 0)
			goto out;
	}
out:
	strbuf_release(&source);
	mailset_release(&ms);
	mail_source_free(src);
	lore_find_release(&lf);
	return r;
}

static int import_stored(struct command_context *ctx, struct series *s,
			 int number, struct import_opts *o,
			 struct strbuf *report, git_oid *keep)
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
	r = import_stored_patches(ctx->repo, s, v, &mps, &nr);
	if (r < 0)
		return r;
	strbuf_addstr(&source, v->source ? v->source : "mail");
	msgid = v->message_id ? xstrdup(v->message_id) : NULL;
	r = record_version(ctx->repo, s, v->number, mps, nr, NULL, o,
			   source.buf, msgid, keep, report);
	for (i = 0; i < nr; i++)
		mail_patch_release(&mps[i]);
	free(mps);
	free(msgid);
	strbuf_release(&source);
	return r;
}

int cmd_import(int argc, const char **argv, struct command_context *ctx)
{
	struct import_opts o = { 0 };
	struct option opts[] = {
		OPT_STRING(0, "base", &o.base, "ref",
			   "apply onto REF (else the mail's base-commit)"),
		OPT_BOOL(0, "mail-only", &o.mail_only,
			 "record from the mail alone, without applying"),
		OPT_BOOL(0, "all", &o.all,
			 "import every version of the series in the source"),
		OPT_BOOL(0, "no-search", &o.no_search,
			 "with lore: and --all, only the versions in the thread"),
		OPT_BOOL(0, "refresh", &o.refresh,
			 "fetch lore: threads and searches again, ignoring "
			 "the cache"),
		OPT_END()
	};
	struct strbuf report = STRBUF_INIT, msg = STRBUF_INIT;
	git_oid *keep = NULL, one;
	size_t nkeep = 0;
	struct series s;
	char *name = NULL;
	int number = 0, exit_code, n, r;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	o.progress = ctx->stderr_is_tty;
	if (n < 1 || n > 3)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give its name and a "
					   "mail source");
	if (o.mail_only && o.base)
		return command_usage_error(opts, usage, "--mail-only and --base "
					   "contradict each other");
	r = series_spec_parse(argv[0], &name, &number);
	if (r < 0) {
		free(name);
		return error_report(r);
	}
	if (number && n > 1) {
		free(name);
		return command_usage_error(opts, usage, "NAME@vN is for applying "
					   "a stored version; the mail says "
					   "which version it is");
	}
	r = series_load(ctx->repo, name, &s, SERIES_LOAD_ALL);
	if (r == RESPIN_ENOTFOUND && n > 1) {
		error_clear();
		series_release(&s);
		series_init(&s, name);
		r = 0;
	}
	if (r < 0)
		goto out;
	if (n == 1) {
		memset(&one, 0, sizeof(one));
		r = import_stored(ctx, &s, number, &o, &report, &one);
		keep = xcalloc(1, sizeof(*keep));
		keep[0] = one;
		nkeep = 1;
	} else {
		r = import_from_source(ctx, &s, argv[1], n > 2 ? argv[2] : NULL,
				       &o, &report, &keep, &nkeep);
	}
	if (r < 0)
		goto out;
	if (!o.recorded) {
		fputs(report.buf, stdout);
		goto out;
	}
	if (!s.created)
		s.created = repo_now();
	if (!s.change_id) {
		struct strbuf cid = STRBUF_INIT;

		series_change_id_make(&cid, s.name, repo_now());
		s.change_id = strbuf_detach(&cid, NULL);
	}
	if (o.base && (!s.base_ref || n == 1)) {
		free(s.base_ref);
		s.base_ref = xstrdup(o.base);
	}
	strbuf_addf(&msg, "respin: import %s from %s\n", s.name,
		    n > 1 ? argv[1] : "stored mail");
	r = series_save_many(ctx->repo, &s, keep, nkeep, msg.buf);
	if (r < 0)
		goto out;
	fputs(report.buf, stdout);
out:
	if (r < 0)
		r = error_report(r);
	free(keep);
	free(name);
	series_release(&s);
	strbuf_release(&report);
	strbuf_release(&msg);
	return r;
}
