// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/format.h"
#include "patches/email.h"
#include "tools/lib/error.h"
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

struct shortlog_entry {
	char *author;
	struct strbuf subjects;
	int count;
};

static void add_shortlog(struct strbuf *out, git_repository *repo,
			 const struct series_version *v)
{
	struct shortlog_entry *e = NULL;
	size_t nr = 0, i, k;

	for (i = 0; i < v->nr_patches; i++) {
		git_commit *c = NULL;
		const char *name;

		if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0) {
			git_error_clear();
			continue;
		}
		name = git_commit_author(c)->name;
		for (k = 0; k < nr; k++)
			if (!strcmp(e[k].author, name))
				break;
		if (k == nr) {
			e = xrealloc(e, (nr + 1) * sizeof(*e));
			e[nr].author = xstrdup(name);
			strbuf_init(&e[nr].subjects, 0);
			e[nr].count = 0;
			nr++;
		}
		e[k].count++;
		strbuf_addf(&e[k].subjects, "      %s\n", v->patches[i].subject);
		git_commit_free(c);
	}
	for (k = 0; k < nr; k++) {
		strbuf_addf(out, "%s (%d):\n%s\n", e[k].author, e[k].count,
			    e[k].subjects.buf);
		free(e[k].author);
		strbuf_release(&e[k].subjects);
	}
	free(e);
}

static int add_diffstat(struct strbuf *out, git_repository *repo,
			const struct series_version *v)
{
	git_commit *b = NULL, *t = NULL;
	git_tree *bt = NULL, *tt = NULL;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
	git_buf buf = GIT_BUF_INIT;
	int r = -1;

	if (git_commit_lookup(&b, repo, &v->base) < 0 ||
	    git_commit_lookup(&t, repo, &v->tip) < 0 ||
	    git_commit_tree(&bt, b) < 0 || git_commit_tree(&tt, t) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, bt, tt, NULL) < 0 ||
	    git_diff_find_similar(diff, &find) < 0 ||
	    git_diff_get_stats(&stats, diff) < 0 ||
	    git_diff_stats_to_buf(&buf, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY, 72) < 0) {
		error_git("cannot compute the diffstat of v%d", v->number);
		goto out;
	}
	strbuf_add(out, buf.ptr, buf.size);
	r = 0;
out:
	git_buf_dispose(&buf);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	git_tree_free(bt);
	git_tree_free(tt);
	git_commit_free(b);
	git_commit_free(t);
	return r;
}

static int make_cover(git_repository *repo, struct series *s,
		      struct series_version *v, const struct format_options *o,
		      const char *msgid, struct strbuf *out)
{
	struct email_options eo = { 0 };
	struct strbuf cover = STRBUF_INIT, subject = STRBUF_INIT;
	git_signature *sig = NULL;
	const char *title = "*** SUBJECT HERE ***", *body = "*** BLURB HERE ***\n";
	char *nl;
	size_t i;
	int r, links = 0;

	r = series_version_attachment(repo, s, v, "cover", &cover);
	if (r < 0 && r != RESPIN_ENOTFOUND)
		return r;
	if (!r && cover.len) {
		title = cover.buf;
		nl = strchr(cover.buf, '\n');
		body = "";
		if (nl) {
			*nl = '\0';
			body = nl + 1;
			while (*body == '\n')
				body++;
		}
	}
	if (repo_signature(repo, &sig) < 0) {
		strbuf_release(&cover);
		return -1;
	}
	eo.prefix = o->prefix;
	eo.version = v->number;
	eo.index = 0;
	eo.total = v->nr_patches;

	strbuf_addstr(out, "From 0000000000000000000000000000000000000000 "
		      "Mon Sep 17 00:00:00 2001\n");
	email_address_header(out, "From", sig->name, sig->email);
	strbuf_addstr(out, "Date: ");
	email_date(out, sig->when.time, sig->when.offset);
	strbuf_addch(out, '\n');
	email_subject_tag(&subject, &eo);
	strbuf_addf(&subject, " %s", title);
	email_header(out, "Subject", subject.buf);
	strbuf_addf(out, "Message-Id: <%s>\n", msgid);
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");
	strbuf_addstr(out, body);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i < s->nr_versions; i++) {
		struct series_version *old = &s->versions[i];

		if (old->number >= v->number || !old->message_id)
			continue;
		strbuf_addf(out, "%sLink to v%d: %s/%s/\n",
			    links++ ? "" : "\n", old->number, o->lore_url,
			    old->message_id);
	}
	strbuf_addstr(out, "\n---\n");
	add_shortlog(out, repo, v);
	r = add_diffstat(out, repo, v);
	if (!r) {
		strbuf_addf(out, "---\nbase-commit: %s\n",
			    oid_short(&v->base, GIT_OID_HEXSZ));
		if (s->change_id)
			strbuf_addf(out, "change-id: %s\n", s->change_id);
		strbuf_addf(out, "\nBest regards,\n-- \n%s <%s>\n\n", sig->name,
			    sig->email);
	}
	git_signature_free(sig);
	strbuf_release(&cover);
	strbuf_release(&subject);
	return r;
}

int format_version(git_repository *repo, struct series *s,
		   struct series_version *v, const struct format_options *o,
		   struct format_result *res)
{
	char *domain = id_domain(repo), *cover_id = NULL;
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
	if (cover) {
		struct format_mail *m = add_mail(res);

		m->file_name = xstrdup("0000-cover-letter.patch");
		m->message_id = make_message_id(s, v, 0, domain);
		cover_id = m->message_id;
		if (make_cover(repo, s, v, o, m->message_id, &m->text) < 0)
			goto out;
		strbuf_addf(&refs, "<%s>", cover_id);
	}
	for (i = 0; i < v->nr_patches; i++) {
		struct email_options eo = { 0 };
		struct format_mail *m = add_mail(res);
		struct strbuf name = STRBUF_INIT;
		git_commit *c = NULL;

		email_file_name(&name, i + 1, v->patches[i].subject);
		m->file_name = strbuf_detach(&name, NULL);
		m->message_id = make_message_id(s, v, i + 1, domain);
		eo.prefix = o->prefix;
		eo.version = v->number;
		eo.index = i + 1;
		eo.total = cover || v->nr_patches > 1 ? v->nr_patches : 0;
		eo.message_id = m->message_id;
		if (cover_id) {
			eo.in_reply_to = cover_id;
			eo.references = refs.buf;
		} else if (i > 0) {
			eo.in_reply_to = res->mails[0].message_id;
			eo.references = refs.buf;
		}
		if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0) {
			error_git("cannot read patch %zu/%zu of %s v%d", i + 1,
				  v->nr_patches, s->name, v->number);
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
	strbuf_release(&refs);
	return r;
}

static int write_file(const char *dir, const struct format_mail *m)
{
	struct strbuf tmp = STRBUF_INIT, path = STRBUF_INIT;
	int fd, r = -1;
	size_t off = 0;

	strbuf_addf(&path, "%s/%s", dir, m->file_name);
	strbuf_addf(&tmp, "%s/.%s.tmp", dir, m->file_name);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		error_errno("cannot write %s", tmp.buf);
		goto out;
	}
	while (off < m->text.len) {
		ssize_t n = write(fd, m->text.buf + off, m->text.len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error_errno("cannot write %s", tmp.buf);
			close(fd);
			unlink(tmp.buf);
			goto out;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 || rename(tmp.buf, path.buf) < 0) {
		error_errno("cannot write %s", path.buf);
		unlink(tmp.buf);
		goto out;
	}
	r = 0;
out:
	strbuf_release(&tmp);
	strbuf_release(&path);
	return r;
}

int format_write(const struct format_result *res, const char *dir)
{
	struct stat st;
	size_t i;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return error_errno("cannot make the output directory %s", dir);
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
