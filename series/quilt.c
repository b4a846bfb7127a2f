// SPDX-License-Identifier: GPL-2.0-or-later
/* A quilt stack read as a chain of commits (series/quilt.h). */
#include "series/quilt.h"
#include "patches/diffnorm.h"
#include "patches/mail.h"
#include "tools/lib/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A series line's patch name (owned), or NULL for a comment or blank. */
static char *series_line_name(const char *line, size_t len)
{
	size_t n = 0;

	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (!len || *line == '#')
		return NULL;
	while (n < len && line[n] != ' ' && line[n] != '\t' && line[n] != '#')
		n++;
	return xstrndup(line, n);
}

static int name_is_safe(const char *name)
{
	const char *p = name;

	if (*name == '/')
		return 0;
	for (;;) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return 0;
		p = strchr(p, '/');
		if (!p)
			return 1;
		p++;
	}
}

/* The line's option other than -p1, or NULL. */
static const char *bad_option(const char *line, size_t len)
{
	const char *p = memchr(line, ' ', len), *end = line + len;

	while (p && p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p == '#')
			return NULL;
		if (!(end - p >= 3 && !strncmp(p, "-p1", 3) &&
		      (end - p == 3 || p[3] == ' ' || p[3] == '\t')))
			return p;
		p += 3;
	}
	return NULL;
}

struct patch_text {
	struct strbuf from, subject, date, body;
	const char *diff;
};

static void header_value(struct strbuf *to, const char *v, size_t len)
{
	strbuf_setlen(to, 0);
	while (len && (*v == ' ' || *v == '\t')) {
		v++;
		len--;
	}
	strbuf_add(to, v, len);
	strbuf_rtrim(to);
}

static int starts_diff(const char *p)
{
	if (!strncmp(p, "diff --git ", 11) || !strncmp(p, "Index: ", 7))
		return 1;
	if (!strncmp(p, "--- ", 4)) {
		const char *nl = strchr(p, '\n');

		return nl && !strncmp(nl + 1, "+++ ", 4);
	}
	return 0;
}

/* Splits a patch file: headers (if any), the message, the diff. */
static void split_patch(const char *text, struct patch_text *pt)
{
	const char *p = text, *nl;
	struct strbuf *last = NULL;

	if (!strncmp(p, "From ", 5) && (nl = strchr(p, '\n')))
		p = nl + 1;	/* an mbox separator */
	/* headers only when the file starts with one of akpm's */
	if (strncasecmp(p, "From:", 5) && strncasecmp(p, "Subject:", 8) &&
	    strncasecmp(p, "Date:", 5))
		goto message;
	while (*p && *p != '\n') {
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if ((*p == ' ' || *p == '\t') && last) {
			strbuf_addch(last, ' ');
			while (len && (*p == ' ' || *p == '\t')) {
				p++;
				len--;
			}
			strbuf_add(last, p, len);
			strbuf_rtrim(last);
		} else if (!strncasecmp(p, "From:", 5)) {
			header_value(last = &pt->from, p + 5, len - 5);
		} else if (!strncasecmp(p, "Subject:", 8)) {
			header_value(last = &pt->subject, p + 8, len - 8);
		} else if (!strncasecmp(p, "Date:", 5)) {
			header_value(last = &pt->date, p + 5, len - 5);
		} else if (memchr(p, ':', len) && !memchr(p, ' ',
				  (size_t)((char *)memchr(p, ':', len) - p))) {
			last = NULL;	/* another header */
		} else {
			break;		/* no headers: the message begins */
		}
		p = nl ? nl + 1 : p + len;
	}
message:
	while (*p) {
		nl = strchr(p, '\n');
		if (starts_diff(p))
			break;
		if (!strncmp(p, "---", 3) && (p[3] == '\n' || !p[3])) {
			while (*p && !starts_diff(p))
				p = (nl = strchr(p, '\n')) ? nl + 1 : p + strlen(p);
			break;
		}
		if (!nl) {
			strbuf_addstr(&pt->body, p);
			p += strlen(p);
			break;
		}
		strbuf_add(&pt->body, p, (size_t)(nl - p) + 1);
		p = nl + 1;
	}
	pt->diff = p;
}

static char *trim_dup(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return xstrdup(s);
}

/* "Name <email>" (or "email"), else the fallback. */
static int make_author(git_signature **out, const char *from,
		       const char *date)
{
	long long when = 0;
	int tz = 0;
	const char *lt = strchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;
	int r;

	if (*date && mail_date_parse_tz(date, &when, &tz) < 0)
		when = tz = 0;
	if (lt && gt) {
		strbuf_add(&name, from, (size_t)(lt - from));
		strbuf_rtrim(&name);
		if (name.len >= 2 && name.buf[0] == '"' &&
		    name.buf[name.len - 1] == '"') {
			memmove(name.buf, name.buf + 1, name.len - 2);
			strbuf_setlen(&name, name.len - 2);
		}
		strbuf_add(&email, lt + 1, (size_t)(gt - lt - 1));
	} else {
		strbuf_addstr(&email, *from ? from : "unknown");
	}
	if (!name.len)
		strbuf_addstr(&name, email.buf);
	r = git_signature_new(out, name.buf, email.buf, (git_time_t)when, tz);
	strbuf_release(&name);
	strbuf_release(&email);
	return r;
}

/* The committer: the last Signed-off-by of msg (the maintainer's). */
static int make_committer(git_signature **out, const char *msg,
			  const git_signature *author)
{
	git_message_trailer_array a = { 0 };
	const char *last = NULL;
	size_t i;
	int r;

	if (!git_message_trailers(&a, msg))
		for (i = 0; i < a.count; i++)
			if (!strcasecmp(a.trailers[i].key, "Signed-off-by"))
				last = a.trailers[i].value;
	if (last) {
		git_signature *s = NULL;

		if (!make_author(&s, last, "")) {
			r = git_signature_new(out, s->name, s->email,
					      author->when.time,
					      author->when.offset);
			git_signature_free(s);
			git_message_trailer_array_free(&a);
			return r;
		}
	}
	git_message_trailer_array_free(&a);
	return git_signature_dup(out, author);
}

static int apply_one(git_repository *repo, const char *path, const char *name,
		     const char *text, git_oid *parent)
{
	struct patch_text pt = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				 STRBUF_INIT, NULL };
	struct strbuf msg = STRBUF_INIT, gd = STRBUF_INIT;
	git_diff *diff = NULL;
	git_commit *pc = NULL;
	git_tree *tree = NULL, *newtree = NULL;
	git_index *index = NULL;
	git_signature *author = NULL, *committer = NULL;
	git_oid tree_oid, commit;
	char *body;
	int r = 0;

	split_patch(text, &pt);
	body = trim_dup(pt.body.buf);
	if (pt.subject.len)
		strbuf_addstr(&msg, pt.subject.buf);
	if (*body)
		strbuf_addf(&msg, "%s%s", msg.len ? "\n\n" : "", body);
	if (!msg.len)
		strbuf_addstr(&msg, name);
	strbuf_rtrim(&msg);
	strbuf_addch(&msg, '\n');
	if (!*pt.diff) {
		r = error_code(RESPIN_EUSAGE, "%s holds no diff: a patch file "
			       "of the series must have one (or leave it out "
			       "of %s/series)", path, name);
		goto out;
	}
	/* akpm's and quilt's diff forms as git's (as mail's are read) */
	if (!diff_normalize(pt.diff, strlen(pt.diff), &gd))
		strbuf_addstr(&gd, pt.diff);
	if (git_diff_from_buffer(&diff, gd.buf, gd.len) < 0) {
		r = error_git("%s: the diff cannot be read", path);
		goto out;
	}
	if (git_commit_lookup(&pc, repo, parent) < 0 ||
	    git_commit_tree(&tree, pc) < 0) {
		r = error_git("cannot read %s", git_oid_tostr_s(parent));
		goto out;
	}
	if (git_apply_to_tree(&index, repo, tree, diff, NULL) < 0) {
		r = error_git("%s does not apply on the patches before it "
			      "(quilt push would stop there); refresh it or "
			      "give the --base it applies on", path);
		goto out;
	}
	if (git_index_write_tree_to(&tree_oid, index, repo) < 0 ||
	    git_tree_lookup(&newtree, repo, &tree_oid) < 0) {
		r = error_git("cannot write the tree of %s", path);
		goto out;
	}
	if (make_author(&author, pt.from.buf, pt.date.buf) < 0 ||
	    make_committer(&committer, msg.buf, author) < 0) {
		r = error_git("%s: the author cannot be read", path);
		goto out;
	}
	if (git_commit_create(&commit, repo, NULL, author, committer, NULL,
			      msg.buf, newtree, 1,
			      (const git_commit **)&pc) < 0) {
		r = error_git("cannot write the commit of %s", path);
		goto out;
	}
	git_oid_cpy(parent, &commit);
out:
	git_signature_free(author);
	git_signature_free(committer);
	git_index_free(index);
	git_tree_free(newtree);
	git_tree_free(tree);
	git_commit_free(pc);
	git_diff_free(diff);
	free(body);
	strbuf_release(&msg);
	strbuf_release(&gd);
	strbuf_release(&pt.from);
	strbuf_release(&pt.subject);
	strbuf_release(&pt.date);
	strbuf_release(&pt.body);
	return r;
}

int quilt_load(git_repository *repo, const char *dir, const git_oid *base,
	       struct quilt_stack *q)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p, *nl;
	git_oid at;
	int r = 0;

	memset(q, 0, sizeof(*q));
	strbuf_init(&q->series, 0);
	q->dir = xstrdup(dir);
	git_oid_cpy(&q->base, base);
	git_oid_cpy(&at, base);
	strbuf_addf(&path, "%s/series", dir);
	if (strbuf_read_file(&q->series, path.buf) < 0) {
		r = error_code(errno == ENOENT ? RESPIN_ENOTFOUND : RESPIN_ERR,
			       "cannot read %s: %s (a quilt directory holds "
			       "a series file)", path.buf, strerror(errno));
		goto out;
	}
	for (p = q->series.buf; *p && !r; p = nl ? nl + 1 : p + strlen(p)) {
		size_t len;
		char *name;
		const char *opt;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		name = series_line_name(p, len);
		if (!name)
			continue;
		if (!name_is_safe(name)) {
			r = error_code(RESPIN_EUSAGE, "%s/series names %s, "
				       "outside the directory", dir, name);
			free(name);
			break;
		}
		if ((opt = bad_option(p, len))) {
			r = error_code(RESPIN_EUSAGE, "%s/series: %s has an "
				       "option other than -p1; respin reads "
				       "-p1 patches only", dir, name);
			free(name);
			break;
		}
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/%s", dir, name);
		strbuf_setlen(&text, 0);
		if (strbuf_read_file(&text, path.buf) < 0)
			r = error_code(RESPIN_ENOTFOUND, "cannot read %s: %s "
				       "(named in %s/series)", path.buf,
				       strerror(errno), dir);
		else
			r = apply_one(repo, path.buf, name, text.buf, &at);
		ALLOC_GROW(q->patches, q->nr + 1, q->alloc);
		q->patches[q->nr].name = name;
		git_oid_cpy(&q->patches[q->nr].commit, &at);
		q->nr++;
	}
	git_oid_cpy(&q->tip, &at);
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return r;
}

void quilt_stack_release(struct quilt_stack *q)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		free(q->patches[i].name);
	free(q->patches);
	free(q->dir);
	strbuf_release(&q->series);
	memset(q, 0, sizeof(*q));
}

const struct quilt_patch *quilt_find(const struct quilt_stack *q,
				     const git_oid *oid)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		if (git_oid_equal(&q->patches[i].commit, oid))
			return &q->patches[i];
	return NULL;
}
