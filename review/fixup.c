// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/fixup.h"
#include "series/sent.h"
#include "patches/email.h"
#include "review/changelog.h"
#include "review/changes.h"
#include "review/cover.h"
#include "series/patchtexts.h"
#include "series/rangediff.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

/* the body's lines at most this wide, as git's own mail */
#define FIXUP_WIDTH 75

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef RESPIN_VERSION
#define RESPIN_VERSION "0.1"
#endif

void fixup_init(struct fixup *f)
{
	memset(f, 0, sizeof(*f));
	strbuf_init(&f->mail, 0);
	strbuf_init(&f->subject, 0);
}

void fixup_release(struct fixup *f)
{
	strbuf_release(&f->mail);
	strbuf_release(&f->subject);
	fixup_init(f);
}

static int tip_tree(git_repository *repo, const struct series_version *v,
		    git_tree **out)
{
	git_commit *c = NULL;
	int r = 0;

	if (git_oid_is_zero(&v->tip) || series_version_mail_only(v))
		return error("v%d was recorded from mail without commits: "
			     "there is no tree to diff", v->number);
	if (git_commit_lookup(&c, repo, &v->tip) < 0 ||
	    git_commit_tree(out, c) < 0)
		r = error_git("cannot read the tip of v%d (%s)", v->number,
			      oid_short(&v->tip, 12));
	git_commit_free(c);
	return r;
}

/* Whether a and b stand on the same base: one commit, or one tree. */
static int same_base(git_repository *repo, const struct series_version *a,
		     const struct series_version *b, int *same)
{
	git_commit *ca = NULL, *cb = NULL;
	int r = 0;

	*same = git_oid_equal(&a->base, &b->base);
	if (*same)
		return 0;
	if (git_oid_is_zero(&a->base) || git_oid_is_zero(&b->base))
		return 0;
	if (git_commit_lookup(&ca, repo, &a->base) < 0 ||
	    git_commit_lookup(&cb, repo, &b->base) < 0)
		r = error_git("cannot read the bases of v%d and v%d",
			      a->number, b->number);
	else
		*same = git_oid_equal(git_commit_tree_id(ca),
				      git_commit_tree_id(cb));
	git_commit_free(ca);
	git_commit_free(cb);
	return r;
}

/*
 * The diff of the two trees as git format-patch --binary writes it:
 * binary files as "GIT binary patch" (libgit2 gives those the full
 * index line git am wants), so that git am can apply them.
 */
static int tree_diff(git_repository *repo, git_tree *ta, git_tree *tb,
		     git_diff **out)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;

	opts.flags |= GIT_DIFF_INDENT_HEURISTIC | GIT_DIFF_SHOW_BINARY;
	find.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_tree_to_tree(out, repo, ta, tb, &opts) < 0 ||
	    git_diff_find_similar(*out, &find) < 0)
		return error_git("cannot diff the two tips");
	return 0;
}

/* Appends the diffstat and the patch of a to b's trees. */
static int add_diff(git_repository *repo, git_tree *ta, git_tree *tb,
		    struct strbuf *out)
{
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_buf stat = GIT_BUF_INIT, patch = GIT_BUF_INIT;
	int r;

	r = tree_diff(repo, ta, tb, &diff);
	if (!r && git_diff_to_buf(&patch, diff, GIT_DIFF_FORMAT_PATCH) < 0)
		r = error_git("cannot write the diff");
	if (!r && (git_diff_get_stats(&stats, diff) < 0 ||
		   git_diff_stats_to_buf(&stat, stats, GIT_DIFF_STATS_FULL |
					 GIT_DIFF_STATS_INCLUDE_SUMMARY,
					 72) < 0))
		r = error_git("cannot write the diffstat");
	if (!r) {
		strbuf_add(out, stat.ptr, stat.size);
		strbuf_addch(out, '\n');
		strbuf_add(out, patch.ptr, patch.size);
	}
	git_buf_dispose(&stat);
	git_buf_dispose(&patch);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	return r;
}

static int same_diff(const struct rangediff_patch *x,
		     const struct rangediff_patch *y)
{
	size_t lx = x->len - x->diff_offset, ly = y->len - y->diff_offset;

	return lx == ly && !memcmp(x->text + x->diff_offset,
				   y->text + y->diff_offset, lx);
}

/*
 * "path new-blob" of each binary file a commit changes, one a line: a
 * range-diff (as git's) sees "Binary files differ" only.
 */
static int binary_changes(git_repository *repo, const git_oid *oid,
			  struct strbuf *out)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *t = NULL, *pt = NULL;
	git_diff *diff = NULL;
	size_t i, n;
	int r = -1;

	if (git_commit_lookup(&c, repo, oid) < 0 ||
	    git_commit_tree(&t, c) < 0 ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) < 0 ||
	      git_commit_tree(&pt, parent) < 0)) ||
	    git_diff_tree_to_tree(&diff, repo, pt, t, NULL) < 0) {
		error_git("cannot diff commit %s", oid_short(oid, 12));
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		git_patch *patch = NULL;
		const git_diff_delta *d;

		if (git_patch_from_diff(&patch, diff, i) < 0) {
			error_git("cannot diff commit %s", oid_short(oid, 12));
			goto out;
		}
		d = git_patch_get_delta(patch);
		if (d->flags & GIT_DIFF_FLAG_BINARY)
			strbuf_addf(out, "%s %s\n", d->new_file.path,
				    oid_short(&d->new_file.id, GIT_OID_HEXSZ));
		git_patch_free(patch);
	}
	r = 0;
out:
	git_diff_free(diff);
	git_tree_free(pt);
	git_tree_free(t);
	git_commit_free(parent);
	git_commit_free(c);
	return r;
}

/*
 * Whether a pair's binary files differ; if they do, one "- i/N" item
 * a file into changes.
 */
static int binary_pair(git_repository *repo, const struct series_version *b,
		       const struct rangediff_patch *pa,
		       const struct rangediff_patch *pb, int bi,
		       struct strbuf *changes, int *differ)
{
	struct strbuf xa = STRBUF_INIT, xb = STRBUF_INIT;
	const char *p, *sp;
	int r;

	*differ = 0;
	r = binary_changes(repo, &pa->oid, &xa);
	if (!r)
		r = binary_changes(repo, &pb->oid, &xb);
	if (!r && strcmp(xa.buf, xb.buf)) {
		*differ = 1;
		for (p = xb.buf; *p; p = strchr(p, '\n') + 1) {
			sp = strchr(p, ' ');
			strbuf_addf(changes, "- %d/%zu \"%s\": binary file %.*s "
				    "changed\n", bi + 1, b->nr_patches,
				    b->patches[bi].subject, (int)(sp - p), p);
		}
	}
	strbuf_release(&xa);
	strbuf_release(&xb);
	return r;
}

/*
 * The one patch of b whose code changed (1-based), when no other did
 * and none was added or dropped; else 0.  changes: what changed, per
 * patch.
 */
static int changed_patches(git_repository *repo, const struct series *s,
			   const struct series_version *a,
			   const struct series_version *b, int *one,
			   struct strbuf *changes)
{
	struct rangediff_patch *pa = NULL, *pb = NULL;
	struct rangediff rd = { 0 };
	git_mailmap *mailmap = NULL;
	size_t na = 0, nb = 0, k, changed = 0;
	int r;

	*one = 0;
	if (git_mailmap_from_repository(&mailmap, repo) < 0) {
		git_error_clear();
		mailmap = NULL;
	}
	r = series_rangediff_patches(repo, mailmap, s, a, &pa, &na);
	if (!r)
		r = series_rangediff_patches(repo, mailmap, s, b, &pb, &nb);
	if (!r)
		r = rangediff_compute(pa, na, pb, nb, RANGEDIFF_CREATION_FACTOR,
				      &rd);
	if (!r) {
		rangediff_pair_by_title(&rd);
		changes_describe(pa, na, pb, nb, changes);
	}
	for (k = 0; !r && k < rd.nr_pairs; k++) {
		const struct rangediff_pair *p = &rd.pairs[k];
		int differ = 0;

		if (p->a >= 0 && p->b >= 0 && same_diff(&pa[p->a], &pb[p->b]) &&
		    !git_oid_is_zero(&pa[p->a].oid) &&
		    !git_oid_is_zero(&pb[p->b].oid))
			r = binary_pair(repo, b, &pa[p->a], &pb[p->b], p->b,
					changes, &differ);
		if (p->a < 0 || p->b < 0 || differ ||
		    !same_diff(&pa[p->a], &pb[p->b])) {
			changed++;
			if (p->a >= 0 && p->b >= 0)
				*one = p->b + 1;
		}
	}
	if (changed != 1 || nb != na)
		*one = 0;
	rangediff_release(&rd);
	rangediff_patches_free(pa, na);
	rangediff_patches_free(pb, nb);
	git_mailmap_free(mailmap);
	return r;
}

/* The series' title: the nearest cover text's, else its name. */
static void series_title(git_repository *repo, const struct series *s,
			 const struct series_version *b, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	size_t i;

	for (i = s->nr_versions; i > 0; i--) {
		const struct series_version *v = &s->versions[i - 1];
		struct cover_text ct;

		if (v->number > b->number)
			continue;
		strbuf_reset(&text);
		if (series_version_text(repo, s, v, SERIES_TEXT_COVER,
					&text) < 0) {
			error_clear();
			continue;
		}
		memset(&ct, 0, sizeof(ct));
		cover_text_parse(text.buf, text.len, &ct);
		if (ct.title && *ct.title)
			strbuf_addstr(out, ct.title);
		cover_text_release(&ct);
		if (out->len)
			break;
	}
	if (!out->len && b->nr_patches == 1 && b->patches[0].subject)
		strbuf_addstr(out, b->patches[0].subject);
	if (!out->len)
		strbuf_addstr(out, s->name);
	strbuf_release(&text);
}

static int local_offset(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	return (int)(tm.tm_gmtoff / 60);
}

static void add_headers(struct fixup *f, const char *name, const char *email,
			const char *prefix, const char *reply_to)
{
	struct strbuf subject = STRBUF_INIT;
	int64_t now = repo_now();

	strbuf_addstr(&f->mail, "From 0000000000000000000000000000000000000000"
		      " Mon Sep 17 00:00:00 2001\n");
	email_address_header(&f->mail, "From", name, email);
	strbuf_addstr(&f->mail, "Date: ");
	email_date(&f->mail, (git_time_t)now, local_offset((time_t)now));
	strbuf_addch(&f->mail, '\n');
	strbuf_addf(&subject, "[%s] %s", prefix, f->subject.buf);
	email_header(&f->mail, "Subject", subject.buf);
	if (reply_to)
		strbuf_addf(&f->mail, "In-Reply-To: <%s>\nReferences: <%s>\n",
			    reply_to, reply_to);
	email_mime_headers(&f->mail);
	strbuf_release(&subject);
}

/*
 * text into out, each line longer than 75 columns broken at spaces
 * (a list item's rest indented under it); trailers stay whole.
 */
static void add_wrapped(struct strbuf *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p), col = 0;
		const char *indent = !strncmp(p, "- ", 2) ? "  " : "";
		int trailer = !strncmp(p, "Link:", 5) ||
			      !strncmp(p, "Signed-off-by:", 14);

		while (!trailer && n - col > FIXUP_WIDTH - (col ? strlen(indent) : 0)) {
			size_t max = FIXUP_WIDTH - (col ? strlen(indent) : 0);
			size_t cut = col + max;

			while (cut > col && p[cut] != ' ')
				cut--;
			if (cut == col)
				break;	/* one word longer than a line */
			strbuf_addf(out, "%s%.*s\n", col ? indent : "",
				    (int)(cut - col), p + col);
			col = cut + 1;
		}
		strbuf_addf(out, "%s%.*s\n", col ? indent : "",
			    (int)(n - col), p + col);
		p += n + (nl ? 1 : 0);
	}
}

static void add_message(git_repository *repo, struct fixup *f,
			const struct series_version *a,
			const struct series_version *b, const char *title,
			const struct strbuf *changes, const char *name,
			const char *email, int forced)
{
	struct strbuf body = STRBUF_INIT;
	char *lore = NULL;

	/* a version not sent is no "vN" a reader could look up */
	if (series_version_sent(b) || !series_version_sent(a))
		strbuf_addf(&body, "The changes from v%d to v%d of \"%s\", as "
			    "one patch on top of v%d: with it applied, the tree "
			    "is v%d's.\n\n", a->number, b->number, title,
			    a->number, b->number);
	else
		strbuf_addf(&body, "The changes since v%d of \"%s\", as one "
			    "patch on top of v%d: with it applied, the tree is "
			    "the series' as it is now (not sent as a version of "
			    "its own).\n\n", a->number, title, a->number);
	if (forced && (series_version_sent(b) || !series_version_sent(a)))
		strbuf_addf(&body, "v%d and v%d stand on different bases: "
			    "this carries the change between the bases "
			    "too.\n\n", a->number, b->number);
	else if (forced)
		strbuf_addf(&body, "v%d and the series now stand on different "
			    "bases: this carries the change between the bases "
			    "too.\n\n", a->number);
	if (changes->len)
		strbuf_addf(&body, "%s\n", changes->buf);
	if (b->message_id) {
		lore = repo_lore_url(repo);
		strbuf_addf(&body, "Link: %s/%s/\n", lore, b->message_id);
	}
	strbuf_addf(&body, "Signed-off-by: %s <%s>\n", name, email);
	add_wrapped(&f->mail, body.buf);
	strbuf_release(&body);
	free(lore);
}

int fixup_build(git_repository *repo, struct series *s,
		const struct series_version *a, const struct series_version *b,
		int force, struct fixup *f)
{
	git_tree *ta = NULL, *tb = NULL;
	struct strbuf changes = STRBUF_INIT, title = STRBUF_INIT;
	struct strbuf prefix = STRBUF_INIT;
	char *name = NULL, *email = NULL;
	const char *reply_to = NULL;
	int same, r;

	r = tip_tree(repo, a, &ta);
	if (!r)
		r = tip_tree(repo, b, &tb);
	if (!r)
		r = same_base(repo, a, b, &same);
	if (r < 0)
		goto out;
	if (!same && !force) {
		r = error("v%d is on %s and v%d on %s: a diff of the two would "
			  "carry every change between the bases", a->number,
			  oid_short(&a->base, 12), b->number,
			  oid_short(&b->base, 12));
		error_hint("give --force to send it all the same, or compare "
			   "versions on one base ('respin rebase' records v%d "
			   "on a new base as a version of its own)", a->number);
		goto out;
	}
	if (git_oid_equal(git_tree_id(ta), git_tree_id(tb))) {
		r = 1;
		goto out;
	}
	repo_user(repo, &name, &email);
	if (!name || !email) {
		r = error("who are you? the fixup is sent from your git "
			  "identity");
		error_hint("set it with 'git config user.name \"Your Name\"' "
			   "and 'git config user.email you@example.org'");
		goto out;
	}
	r = changed_patches(repo, s, a, b, &f->one_patch, &changes);
	if (r < 0)
		goto out;
	series_title(repo, s, b, &title);
	if (f->one_patch) {
		const struct series_patch *p = &b->patches[f->one_patch - 1];

		strbuf_addf(&f->subject, "%s-fix", p->subject);
		reply_to = p->message_id;
	} else {
		strbuf_addf(&f->subject, "%s-fixes", title.buf);
	}
	if (!reply_to)
		reply_to = b->message_id;
	cover_subject_prefix(repo, s, b, NULL, 0, &prefix);
	add_headers(f, name, email, prefix.buf, reply_to);
	add_message(repo, f, a, b, title.buf, &changes, name, email, !same);
	strbuf_addstr(&f->mail, "---\n");
	r = add_diff(repo, ta, tb, &f->mail);
	if (!r)
		strbuf_addstr(&f->mail, "-- \nrespin " RESPIN_VERSION "\n\n");
out:
	free(name);
	free(email);
	strbuf_release(&changes);
	strbuf_release(&title);
	strbuf_release(&prefix);
	git_tree_free(ta);
	git_tree_free(tb);
	return r;
}

int fixup_write(const struct fixup *f, const char *path)
{
	return write_file_atomic(path, NULL, f->mail.buf, f->mail.len, 0666);
}
