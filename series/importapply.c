// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A version's patches from mail: applied onto a base and committed (as
 * git am would), or kept as mail beside a version recorded without a
 * base; and how the version was sent (base-commit, prerequisites,
 * subject prefix).  series/import.c records them.
 */
#include "series/import.h"
#include "patches/patch.h"
#include "patches/subject.h"
#include "tools/lib/error.h"
#include "tools/lib/limits.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hex digits at s ("bd517a84...") when there are at least 7: their end. */
static const char *hex_end(const char *s)
{
	const char *e = s;

	while (isxdigit((unsigned char)*e))
		e++;
	return e - s >= 7 && (!*e || isspace((unsigned char)*e)) ? e : NULL;
}

/*
 * Where X starts in the "base-commit: X" line at the start of a line
 * of v's cover letter or patches, or NULL.
 */
static const char *find_base_line(struct mailset *ms, long vi)
{
	struct ms_version *v = &ms->versions[vi];
	long k;

	for (k = -1; k < v->total; k++) {
		struct ms_patch *p = k < 0 ? &v->cover_part : &v->patches[k];
		const char *s;

		if (p->msg < 0 || !p->d || !p->d->body.len)
			continue;
		for (s = p->d->body.buf; (s = strstr(s, "\nbase-commit: ")); s++)
			if (hex_end(s + 14))
				return s + 14;
	}
	return NULL;
}

char *import_base_commit(struct mailset *ms, long vi)
{
	const char *s = find_base_line(ms, vi);

	return s ? xstrndup(s, (size_t)(hex_end(s) - s)) : NULL;
}

/* The "prerequisite-patch-id: X" lines right after the base-commit's. */
static char *prereqs_after(const char *s)
{
	static const char key[] = "prerequisite-patch-id: ";
	struct strbuf ids = STRBUF_INIT;

	for (;;) {
		const char *e;

		s += strcspn(s, "\n");
		if (*s++ != '\n' || strncmp(s, key, sizeof(key) - 1))
			break;
		s += sizeof(key) - 1;
		e = hex_end(s);
		if (!e)
			break;
		strbuf_add(&ids, s, (size_t)(e - s));
		strbuf_addch(&ids, '\n');
	}
	if (!ids.len) {
		strbuf_release(&ids);
		return NULL;
	}
	return strbuf_detach(&ids, NULL);
}

void import_sent_info(struct mailset *ms, long vi, struct series_version *sv)
{
	const struct ms_version *v = &ms->versions[vi];
	const char *base = find_base_line(ms, vi);
	long head = v->cover >= 0 ? v->cover : v->total ? v->patches[0].msg : -1;

	free(sv->subject_prefix);
	free(sv->sent_base);
	free(sv->sent_prereqs);
	sv->subject_prefix = sv->sent_base = sv->sent_prereqs = NULL;
	if (head >= 0 && ms->msgs[head].subject) {
		struct strbuf pfx = STRBUF_INIT;

		subject_sent_prefix(ms->msgs[head].subject, &pfx);
		if (pfx.len)
			sv->subject_prefix = strbuf_detach(&pfx, NULL);
		strbuf_release(&pfx);
	}
	if (base) {
		sv->sent_base = xstrndup(base, (size_t)(hex_end(base) - base));
		sv->sent_prereqs = prereqs_after(base);
	}
}

static int note_path(const git_diff_delta *delta, void *payload)
{
	char **path = payload;

	free(*path);
	*path = xstrdup(delta->new_file.path ? delta->new_file.path : "?");
	return 0;
}

/*
 * A name from mail fit for a commit header: every run of control
 * characters (an encoded newline, a tab, an escape) becomes one space,
 * '<' and '>' are dropped (they would end the name early), blanks at
 * either end go.  Returns a new string.
 */
static char *ident_name_clean(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	int blank = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f || c == ' ') {
			blank = 1;
			continue;
		}
		if (c == '<' || c == '>')
			continue;
		if (blank && sb.len)
			strbuf_addch(&sb, ' ');
		blank = 0;
		strbuf_addch(&sb, c);
	}
	return strbuf_detach(&sb, NULL);
}

/* An address fit for a commit header: nothing blank, no control or <>. */
static int ident_email_ok(const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= 0x20 || c == 0x7f || c == '<' || c == '>')
			return 0;
	}
	return 1;
}

/* The author of mp's commit; the message names the mail when it cannot. */
static int mail_author(const struct mail_patch *mp, size_t i, size_t nr,
		       git_signature **out)
{
	char *name = ident_name_clean(mp->author_name ? mp->author_name : "");
	const char *email = mp->author_email && *mp->author_email ?
			    mp->author_email : "unknown";
	int r = 0;

	if (!ident_email_ok(email)) {
		r = error("patch %zu/%zu <%s>: the author's address in From: "
			  "has a control character, a blank or <>: not "
			  "written into a commit", i + 1, nr,
			  mp->message_id ? mp->message_id : "");
		error_hint("fix the From: line of that message (or import "
			   "with --mail-only, which writes no commit)");
	} else if (git_signature_new(out, *name ? name : email, email,
				     (git_time_t)mp->date, mp->date_tz) < 0) {
		r = error_git("patch %zu/%zu <%s>: a bad author", i + 1, nr,
			      mp->message_id ? mp->message_id : "");
	}
	free(name);
	return r;
}

/*
 * The tree of patch i/nr applied onto tree, into tree_oid: by libgit2
 * (opts; its delta_cb notes the path), or by git itself from git_size
 * bytes of diff on.  The message names the patch and why.
 */
static int apply_one(git_repository *repo, git_tree *tree, git_commit *base,
		     const struct mail_patch *mp, size_t i, size_t nr,
		     size_t git_size, git_apply_options *opts, char **path,
		     git_oid *tree_oid)
{
	git_diff *diff = NULL;
	git_index *index = NULL;
	int r;

	if (mp->diff_len > mail_max_size()) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "the diff of patch %zu/%zu <%s> (\"%s\")",
			    i + 1, nr, mp->message_id, mp->title);
		r = error_too_large(what.buf, mp->diff_len, mail_max_size());
		strbuf_release(&what);
		return r;
	}
	if (git_size && mp->diff_len >= git_size) {
		struct strbuf why = STRBUF_INIT;

		r = import_git_apply(repo, git_tree_id(tree), mp->diff,
				     mp->diff_len, tree_oid, &why);
		if (r == 1) {
			strbuf_rtrim(&why);
			r = error("patch %zu/%zu <%s> (\"%s\") does not apply "
				  "on %s: %s", i + 1, nr, mp->message_id,
				  mp->title, oid_short(git_commit_id(base), 12),
				  why.buf);
		}
		strbuf_release(&why);
		return r;
	}
	if (git_diff_from_buffer(&diff, mp->diff, mp->diff_len) < 0)
		return error_git("patch %zu/%zu <%s> (\"%s\"): cannot read its "
				 "diff", i + 1, nr, mp->message_id, mp->title);
	r = git_apply_to_tree(&index, repo, tree, diff, opts);
	git_diff_free(diff);
	if (r < 0) {
		const git_error *e = git_error_last();

		return error("patch %zu/%zu <%s> (\"%s\") does not apply on "
			     "%s: %s%s%s", i + 1, nr, mp->message_id, mp->title,
			     oid_short(git_commit_id(base), 12),
			     *path ? *path : "", *path ? ": " : "",
			     e && e->message ? e->message : "conflict");
	}
	r = 0;
	if (git_index_write_tree_to(tree_oid, index, repo) < 0)
		r = error_git("cannot write the tree of patch %zu", i + 1);
	git_index_free(index);
	return r;
}

int import_apply(git_repository *repo, git_commit *base,
		 struct mail_patch *patches, size_t nr,
		 struct series_version *v)
{
	git_apply_options opts = GIT_APPLY_OPTIONS_INIT;
	git_signature *committer = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	char *path = NULL;
	size_t i, git_size = 0;
	int r = repo_signature(repo, &committer);

	if (r < 0)
		return r;
	r = import_git_apply_size(repo, &git_size);
	if (r < 0)
		goto out;
	r = RESPIN_ERR;
	opts.delta_cb = note_path;
	opts.payload = &path;
	git_commit_dup(&parent, base);
	if (git_commit_tree(&tree, base) < 0) {
		error_git("cannot read the base tree");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		struct mail_patch *mp = &patches[i];
		git_signature *author = NULL;
		git_oid tree_oid, commit_oid;
		git_tree *next = NULL;
		git_commit *c = NULL;
		struct series_patch *sp;

		r = apply_one(repo, tree, base, mp, i, nr, git_size, &opts,
			      &path, &tree_oid);
		if (r < 0)
			goto out;
		r = -1;
		if (mail_author(mp, i, nr, &author) < 0)
			goto out;
		if (git_tree_lookup(&next, repo, &tree_oid) < 0 ||
		    git_commit_create(&commit_oid, repo, NULL, author,
				      committer, NULL, mp->message, next, 1,
				      (const git_commit **)&parent) < 0) {
			git_signature_free(author);
			git_tree_free(next);
			error_git("cannot commit patch %zu/%zu", i + 1, nr);
			goto out;
		}
		git_signature_free(author);
		git_tree_free(tree);
		tree = next;
		if (git_commit_lookup(&c, repo, &commit_oid) < 0) {
			error_git("cannot read back patch %zu", i + 1);
			goto out;
		}
		git_commit_free(parent);
		parent = c;
		sp = series_version_add_patch(v);
		git_oid_cpy(&sp->commit, &commit_oid);
		sp->subject = xstrdup(mp->title);
		sp->message_id = mp->message_id ? xstrdup(mp->message_id) : NULL;
		if (patch_commit_id(repo, c, &sp->patch_id) < 0)
			goto out;
	}
	git_oid_cpy(&v->base, git_commit_id(base));
	git_oid_cpy(&v->tip, git_commit_id(parent));
	r = 0;
out:
	if (r < 0) {
		for (i = 0; i < v->nr_patches; i++) {
			free(v->patches[i].subject);
			free(v->patches[i].message_id);
			strbuf_release(&v->patches[i].extra);
		}
		v->nr_patches = 0;
	}
	free(path);
	git_tree_free(tree);
	git_commit_free(parent);
	git_signature_free(committer);
	return r;
}

int import_mail_only(struct mail_patch *patches, size_t nr,
		     struct series_version *v)
{
	struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++) {
		struct mail_patch *mp = &patches[i];
		struct series_patch *sp;
		git_diff *diff = NULL;
		git_oid pid;

		if (git_diff_from_buffer(&diff, mp->diff, mp->diff_len) < 0 ||
		    patch_diff_id(diff, &pid) < 0) {
			git_diff_free(diff);
			strbuf_release(&text);
			strbuf_release(&name);
			return error_git("patch %zu/%zu <%s> (\"%s\"): cannot "
					 "read its diff", i + 1, nr,
					 mp->message_id, mp->title);
		}
		git_diff_free(diff);
		sp = series_version_add_patch(v);
		git_oid_cpy(&sp->patch_id, &pid);
		sp->subject = xstrdup(mp->title);
		sp->message_id = mp->message_id ? xstrdup(mp->message_id) : NULL;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s <%s>", mp->author_name, mp->author_email);
		sp->author = strbuf_detach(&name, NULL);
		strbuf_init(&text, 0);
		mail_patch_to_text(mp, &text);
		/* the version takes the text: one copy of a big patch */
		series_version_take_mail(v, i + 1, &text);
	}
	strbuf_release(&text);
	strbuf_release(&name);
	return 0;
}

int import_stored_patches(git_repository *repo, const struct series *s,
			  const struct series_version *v,
			  struct mail_patch **out, size_t *nr)
{
	struct mail_patch *mp = xcalloc(v->nr_patches + 1, sizeof(*mp));
	struct strbuf text = STRBUF_INIT;
	size_t i;
	int r = 0;

	for (i = 0; i < v->nr_patches && !r; i++) {
		size_t size = 0;

		strbuf_reset(&text);
		/* a stored mail is mail: bounded as mail is, before reading */
		r = series_version_mail_size(repo, s, v, i + 1, &size);
		if (!r && size > mail_max_size()) {
			struct strbuf what = STRBUF_INIT;

			strbuf_addf(&what, "the stored mail of patch %zu/%zu "
				    "of %s v%d", i + 1, v->nr_patches, s->name,
				    v->number);
			r = error_too_large(what.buf, size, mail_max_size());
			strbuf_release(&what);
			break;
		}
		if (!r)
			r = series_version_mail(repo, s, v, i + 1, &text);
		if (r == RESPIN_ENOTFOUND)
			r = error("%s v%d has no stored mail for patch %zu",
				  s->name, v->number, i + 1);
		if (!r)
			r = mail_patch_from_text(text.buf, text.len, &mp[i]);
	}
	strbuf_release(&text);
	if (r < 0) {
		for (i = 0; i < v->nr_patches; i++)
			mail_patch_release(&mp[i]);
		free(mp);
		return r;
	}
	*out = mp;
	*nr = v->nr_patches;
	return 0;
}
