// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/format.h"
#include "ci/grid.h"
#include "review/cover.h"
#include "patches/email.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void format_result_release(struct format_result *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		free(res->mails[i].file_name);
		free(res->mails[i].message_id);
		strbuf_release(&res->mails[i].text);
	}
	free(res->mails);
	memset(res, 0, sizeof(*res));
}

static struct format_mail *add_mail(struct format_result *res)
{
	struct format_mail *m;

	res->mails = xrealloc(res->mails, (res->nr + 1) * sizeof(*m));
	m = &res->mails[res->nr++];
	memset(m, 0, sizeof(*m));
	strbuf_init(&m->text, 0);
	return m;
}

/* The domain of the user's address, for Message-IDs. */
static char *id_domain(git_repository *repo)
{
	git_signature *sig = NULL;
	const char *at;
	char *r;

	if (repo_signature(repo, &sig) < 0) {
		error_clear();
		return xstrdup("respin.invalid");
	}
	at = strrchr(sig->email, '@');
	r = xstrdup(at && at[1] ? at + 1 : "respin.invalid");
	git_signature_free(sig);
	return r;
}

/* "<change-id>-vN-i-<8 hex>@domain": stable for the same version. */
static char *make_message_id(const struct series *s,
			     const struct series_version *v, size_t i,
			     const char *domain)
{
	struct strbuf sb = STRBUF_INIT, seed = STRBUF_INIT;
	git_oid h;

	strbuf_addf(&seed, "%s %d %s %lld", s->change_id ? s->change_id : s->name,
		    v->number, oid_short(&v->tip, GIT_OID_HEXSZ),
		    (long long)v->recorded);
	git_odb_hash(&h, seed.buf, seed.len, GIT_OBJECT_BLOB);
	strbuf_addf(&sb, "%s-v%d-%zu-%s@%s", s->change_id ? s->change_id :
		    s->name, v->number, i, oid_short(&h, 8), domain);
	strbuf_release(&seed);
	return strbuf_detach(&sb, NULL);
}

static int make_cover(git_repository *repo, struct series *s,
		      struct series_version *v, const struct format_options *o,
		      const char *msgid, struct strbuf *out)
{
	struct cover_options co = { 0 };
	struct cover_letter c;
	git_signature *sig = NULL;
	int r;

	co.prefix = o->prefix;
	co.lore_url = o->lore_url;
	co.no_results = o->no_results;
	r = cover_build(repo, s, v, &co, &c);
	if (r < 0)
		return r;
	r = repo_signature(repo, &sig);
	if (r < 0) {
		cover_letter_release(&c);
		return r;
	}
	strbuf_addstr(out, "From 0000000000000000000000000000000000000000 "
		      "Mon Sep 17 00:00:00 2001\n");
	email_address_header(out, "From", sig->name, sig->email);
	strbuf_addstr(out, "Date: ");
	email_date(out, sig->when.time, sig->when.offset);
	strbuf_addch(out, '\n');
	email_header(out, "Subject", c.subject.buf);
	strbuf_addf(out, "Message-Id: <%s>\n", msgid);
	email_mime_headers(out);
	strbuf_add(out, c.body.buf, c.body.len);
	strbuf_addch(out, '\n');
	git_signature_free(sig);
	cover_letter_release(&c);
	return 0;
}

/*
 * Each patch's results in one line ("respin: checkpatch 0E 0W; build
 * ok, ..."), when respin check stored any: notes[i] for patch i+1.
 */
static int results_notes(git_repository *repo, struct series_version *v,
			 char ***notes)
{
	struct strbuf line = STRBUF_INIT;
	struct grid_store st;
	struct grid g = { 0 };
	size_t i;
	int r;

	*notes = xcalloc(v->nr_patches + 1, sizeof(**notes));
	r = grid_store_open(repo, &st);
	if (!r)
		r = grid_load_stored(&g, repo, &st, v);
	if (r < 0 || !g.any)
		goto out;
	for (i = 1; i <= v->nr_patches; i++) {
		strbuf_reset(&line);
		strbuf_addstr(&line, "respin: ");
		if (grid_patch_line(&line, &st.checks, &g, i))
			(*notes)[i - 1] = xstrdup(line.buf);
	}
out:
	grid_release(&g);
	grid_store_close(&st);
	strbuf_release(&line);
	return r;
}

static void notes_free(char **notes, size_t n)
{
	size_t i;

	if (!notes)
		return;
	for (i = 0; i < n; i++)
		free(notes[i]);
	free(notes);
}

/* The commit the sent base-commit names here, when it is one. */
static int sent_base_commit(git_repository *repo, const char *hex,
			    git_oid *out)
{
	git_object *obj = NULL;
	size_t n = strlen(hex);
	git_oid id;

	if (n < 7 || n > GIT_OID_HEXSZ || strspn(hex, "0123456789abcdefABCDEF") != n ||
	    git_oid_fromstrn(&id, hex, n) < 0 ||
	    git_object_lookup_prefix(&obj, repo, &id, n, GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		return 0;
	}
	git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	return 1;
}

int format_base_info(git_repository *repo, const struct series_version *v,
		     struct strbuf *base, struct strbuf *prereqs)
{
	git_oid sent;
	const char *p;

	if (v->sent_base && *v->sent_base) {
		int here = sent_base_commit(repo, v->sent_base, &sent);

		if (git_oid_is_zero(&v->base) || !here ||
		    git_oid_equal(&sent, &v->base)) {
			if (here)
				strbuf_addstr(base, oid_short(&sent,
							      GIT_OID_HEXSZ));
			else
				strbuf_addstr(base, v->sent_base);
			for (p = v->sent_prereqs; p && *p; ) {
				int n = (int)strcspn(p, "\n");

				if (n)
					strbuf_addf(prereqs, "prerequisite-"
						    "patch-id: %.*s\n", n, p);
				p += n + (p[n] == '\n');
			}
			return 0;
		}
	}
	if (!git_oid_is_zero(&v->base))
		strbuf_addstr(base, oid_short(&v->base, GIT_OID_HEXSZ));
	return 0;
}

/* "v3-": git format-patch -v 3's file-name prefix; none for v1. */
static void add_version_prefix(struct strbuf *name, int number)
{
	if (number > 1)
		strbuf_addf(name, "v%d-", number);
}

int format_version(git_repository *repo, struct series *s,
		   struct series_version *v, const struct format_options *o,
		   struct format_result *res)
{
	struct strbuf base = STRBUF_INIT, base_info = STRBUF_INIT;
	char *domain = id_domain(repo), *cover_id = NULL, **notes = NULL;
	struct strbuf refs = STRBUF_INIT;
	int cover = o->cover_letter < 0 ? v->nr_patches > 1 : o->cover_letter;
	size_t i;
	int r = -1;

	memset(res, 0, sizeof(*res));
	if (series_version_mail_only(v)) {
		error("%s v%d was recorded from mail only; import it onto a "
		      "base first ('respin import %s ... --base REF')",
		      s->name, v->number, s->name);
		goto out;
	}
	if (!o->no_results && (r = results_notes(repo, v, &notes)) < 0)
		goto out;
	if (!cover) {
		struct strbuf prereqs = STRBUF_INIT;

		format_base_info(repo, v, &base, &prereqs);
		if (base.len)
			strbuf_addf(&base_info, "base-commit: %s\n%s",
				    base.buf, prereqs.buf);
		strbuf_release(&prereqs);
	}
	if (cover) {
		struct format_mail *m = add_mail(res);
		struct strbuf name = STRBUF_INIT;

		add_version_prefix(&name, v->number);
		strbuf_addstr(&name, "0000-cover-letter.patch");
		m->file_name = strbuf_detach(&name, NULL);
		m->message_id = make_message_id(s, v, 0, domain);
		cover_id = m->message_id;
		r = make_cover(repo, s, v, o, m->message_id, &m->text);
		if (r < 0)
			goto out;
		strbuf_addf(&refs, "<%s>", cover_id);
	}
	for (i = 0; i < v->nr_patches; i++) {
		struct email_options eo = { 0 };
		struct format_mail *m = add_mail(res);
		struct strbuf name = STRBUF_INIT;
		git_commit *c = NULL;

		email_file_name(&name, v->number, i + 1, v->patches[i].subject);
		m->file_name = strbuf_detach(&name, NULL);
		m->message_id = make_message_id(s, v, i + 1, domain);
		eo.prefix = o->prefix;
		eo.version = v->number;
		eo.index = i + 1;
		eo.total = cover || v->nr_patches > 1 ? v->nr_patches : 0;
		eo.message_id = m->message_id;
		eo.notes = notes ? notes[i] : NULL;
		/* no cover letter: the first patch names the base, as git's */
		if (!cover && i == 0)
			eo.base_info = base_info.buf;
		if (cover_id) {
			eo.in_reply_to = cover_id;
			eo.references = refs.buf;
		} else if (i > 0) {
			eo.in_reply_to = res->mails[0].message_id;
			eo.references = refs.buf;
		}
		if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0) {
			r = error_git("cannot read patch %zu/%zu of %s v%d",
				      i + 1, v->nr_patches, s->name,
				      v->number);
			goto out;
		}
		r = email_from_commit(repo, c, &eo, &m->text);
		git_commit_free(c);
		if (r < 0)
			goto out;
		if (!cover_id && i == 0)
			strbuf_addf(&refs, "<%s>", m->message_id);
		r = -1;
	}
	r = 0;
out:
	if (r < 0)
		format_result_release(res);
	free(domain);
	notes_free(notes, v->nr_patches);
	strbuf_release(&refs);
	strbuf_release(&base);
	strbuf_release(&base_info);
	return r;
}

static int write_file(const char *dir, const struct format_mail *m)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%s/%s", dir, m->file_name);
	r = write_file_atomic(path.buf, NULL, m->text.buf, m->text.len, 0644);
	strbuf_release(&path);
	return r;
}

int format_write(const struct format_result *res, const char *dir)
{
	struct stat st;
	size_t i;
	int r = mkdir_parents(dir);

	if (r < 0)
		return r;	/* it names the directory it could not make */
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("%s is not a directory", dir);
	for (i = 0; i < res->nr; i++) {
		if (strchr(res->mails[i].file_name, '/') ||
		    res->mails[i].file_name[0] == '.')
			return error("refusing the file name '%s'",
				     res->mails[i].file_name);
		if (write_file(dir, &res->mails[i]) < 0) {
			struct strbuf p = STRBUF_INIT;

			while (i-- > 0) {
				strbuf_reset(&p);
				strbuf_addf(&p, "%s/%s", dir,
					    res->mails[i].file_name);
				unlink(p.buf);
			}
			strbuf_release(&p);
			return -1;
		}
	}
	return 0;
}
