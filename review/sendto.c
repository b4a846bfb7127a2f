// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/sendto.h"
#include "review/changelog.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* get_maintainer.pl of the tree on the patch files, when it has one. */
static void add_maintainers(git_repository *repo, struct recipients *rc,
			    const char *dir, const struct format_result *res,
			    int *ran, int *absent)
{
	const char *top = git_repository_workdir(repo);
	struct strbuf script = STRBUF_INIT;
	const char **argv;
	struct run_opts o = { 0 };
	struct run_result rr;
	char **paths;
	size_t i, n = 0;

	*ran = *absent = 0;
	if (!top)
		return;
	strbuf_addf(&script, "%sscripts/get_maintainer.pl", top);
	if (access(script.buf, R_OK)) {
		*absent = 1;
		strbuf_release(&script);
		return;
	}
	argv = xcalloc(res->nr + 8, sizeof(*argv));
	paths = xcalloc(res->nr + 1, sizeof(*paths));
	argv[n++] = "perl";
	argv[n++] = script.buf;
	argv[n++] = "--rolestats";
	argv[n++] = "--no-git";
	argv[n++] = "--no-git-fallback";
	for (i = 0; i < res->nr; i++) {
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/%s", dir, res->mails[i].file_name);
		paths[i] = strbuf_detach(&p, NULL);
		/* the cover letter has no diff: get_maintainer skips it */
		argv[n++] = paths[i];
	}
	o.argv = argv;
	o.cwd = top;
	o.timeout = 120;
	run_result_init(&rr);
	if (!run_program(&o, &rr) && rr.exited && !rr.exit_code) {
		recipients_add_get_maintainer(rc, rr.output.buf);
		*ran = 1;
	} else {
		warning("%s failed; no maintainers added", script.buf);
		error_clear();
	}
	run_result_release(&rr);
	for (i = 0; i < res->nr; i++)
		free(paths[i]);
	free(paths);
	free(argv);
	strbuf_release(&script);
}

/* Config key respin.series.NAME.WHAT, when set, into rc. */
static void add_config(git_repository *repo, const struct series *s,
		       const char *what, struct recipients *rc)
{
	struct strbuf key = STRBUF_INIT;
	char *cfg;

	strbuf_addf(&key, "respin.series.%s.%s", s->name, what);
	if ((cfg = repo_config_string(repo, key.buf, NULL))) {
		if (recipients_add_list(rc, !strcmp(what, "to"), cfg) < 0)
			warning("%s: %s", key.buf, error_last());
		error_clear();
		free(cfg);
	}
	strbuf_release(&key);
}

/*
 * The newest record of what respin cover --edit offered, of v or, when
 * v has none, of the nearest version before it: its text into offered,
 * that version's own To:/Cc: lines into lines (v's are in cover).
 */
static void offer_record(git_repository *repo, const struct series *s,
			 const struct series_version *v,
			 const struct recipients *cover, struct strbuf *offered,
			 struct recipients *lines)
{
	size_t i = (size_t)(v - s->versions) + 1;
	struct strbuf text = STRBUF_INIT;

	while (i-- > 0) {
		const struct series_version *k = &s->versions[i];
		struct cover_text ct;

		strbuf_reset(offered);
		if (series_version_text(repo, s, k, SERIES_TEXT_OFFERED,
					      offered))
			continue;
		if (k == v) {
			size_t j;

			for (j = 0; j < cover->nr_to; j++)
				recipients_add(lines, 1, cover->to[j]);
			for (j = 0; j < cover->nr_cc; j++)
				recipients_add(lines, 0, cover->cc[j]);
			break;
		}
		strbuf_reset(&text);
		if (!series_version_text(repo, s, k, SERIES_TEXT_COVER, &text)) {
			cover_text_parse(text.buf, text.len, &ct);
			recipients_add_list(lines, 1, ct.to.buf);
			recipients_add_list(lines, 0, ct.cc.buf);
			cover_text_release(&ct);
		}
		break;
	}
	error_clear();
	strbuf_release(&text);
}

/*
 * Offered addresses the author deleted from the cover letter are left
 * out, unless v's own To:/Cc: lines name them again.
 */
static void drop_deleted(git_repository *repo, const struct series *s,
			 const struct series_version *v,
			 const struct recipients *cover, struct recipients *rc,
			 struct strbuf *offered)
{
	struct recipients off, lines;
	size_t i;

	recipients_init(&off);
	recipients_init(&lines);
	offer_record(repo, s, v, cover, offered, &lines);
	recipients_add_stored(&off, offered->buf);
	for (i = 0; i < off.nr_to + off.nr_cc; i++) {
		const char *who = i < off.nr_to ? off.to[i]
						: off.cc[i - off.nr_to];

		if (!recipients_has(&lines, who) && !recipients_has(cover, who))
			recipients_drop(rc, who);
	}
	recipients_release(&off);
	recipients_release(&lines);
}

/* Each patch's author but the user, as git send-email would Cc them. */
static void add_authors(git_repository *repo, const struct series_version *v,
			struct recipients *rc)
{
	struct strbuf who = STRBUF_INIT;
	char *me = NULL, *my_name = NULL;
	size_t i;

	repo_user(repo, &my_name, &me);

	for (i = 0; i < v->nr_patches; i++) {
		git_commit *c = NULL;
		const git_signature *a;

		if (git_oid_is_zero(&v->patches[i].commit) ||
		    git_commit_lookup(&c, repo, &v->patches[i].commit) < 0) {
			error_clear();
			continue;
		}
		a = git_commit_author(c);
		if (me && !strcasecmp(a->email, me)) {
			git_commit_free(c);
			continue;
		}
		strbuf_reset(&who);
		if (a->name && *a->name) {
			const char *n;

			strbuf_addch(&who, '"');
			for (n = a->name; *n; n++) {
				if (*n == '"' || *n == '\\')
					strbuf_addch(&who, '\\');
				strbuf_addch(&who, *n);
			}
			strbuf_addstr(&who, "\" ");
		}
		strbuf_addf(&who, "<%s>", a->email);
		if (recipients_add(rc, 0, who.buf) < 0)
			error_clear();
		git_commit_free(c);
	}
	strbuf_release(&who);
	free(me);
	free(my_name);
}

/*
 * The recipients of every earlier version, newest first (an address
 * is credited to the newest that had it): what respin send sent, or
 * the To:/Cc: of a version imported from the list.
 */
static void add_earlier(git_repository *repo, const struct series *s,
			const struct series_version *v,
			struct sendto_options *o, struct recipients *rc)
{
	struct strbuf text = STRBUF_INIT;
	size_t i = s->nr_versions, n = 0;

	while (i-- > 0 && n < SENDTO_MAX_EARLIER) {
		const struct series_version *k = &s->versions[i];

		if (k->number >= v->number)
			continue;
		strbuf_reset(&text);
		if (series_version_text(repo, s, k, SERIES_TEXT_SENT, &text))
			continue;
		snprintf(o->sources[n], sizeof(o->sources[n]), "v%d sent",
			 k->number);
		rc->source = o->sources[n++];
		recipients_add_stored(rc, text.buf);
	}
	error_clear();
	strbuf_release(&text);
}

/*
 * Who replied to this version or an earlier one (recorded by import),
 * a tag given or not: they are in the conversation, so in Cc.
 */
static void add_replied(git_repository *repo, const struct series *s,
			const struct series_version *v,
			struct sendto_options *o, struct recipients *rc)
{
	struct strbuf text = STRBUF_INIT, who = STRBUF_INIT;
	char *me = NULL, *my_name = NULL;
	size_t i = s->nr_versions, n = 0;

	repo_user(repo, &my_name, &me);
	while (i-- > 0 && n < SENDTO_MAX_EARLIER) {
		const struct series_version *k = &s->versions[i];
		const char *p;

		if (k->number > v->number)
			continue;
		strbuf_reset(&text);
		if (series_version_text(repo, s, k, SERIES_TEXT_REPLIED, &text))
			continue;
		snprintf(o->replied[n], sizeof(o->replied[n]), "replied to v%d",
			 k->number);
		rc->source = o->replied[n++];
		for (p = text.buf; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			const char *lt = memchr(p, '<', len);

			strbuf_reset(&who);
			strbuf_add(&who, p, len);
			/* never the user: a reply of their own */
			if (!(me && lt && !strncasecmp(lt + 1, me, strlen(me)) &&
			      lt[1 + strlen(me)] == '>') &&
			    recipients_add(rc, 0, who.buf) < 0)
				error_clear();
			p += len + (nl ? 1 : 0);
		}
	}
	error_clear();
	free(me);
	free(my_name);
	strbuf_release(&text);
	strbuf_release(&who);
}

static int collect(git_repository *repo, const struct series *s,
		   const struct series_version *v,
		   const struct format_result *res, const char *dir,
		   struct sendto_options *o, const char *cover_text,
		   struct recipients *rc, struct strbuf *offered)
{
	struct strbuf text = STRBUF_INIT;
	struct recipients cover;
	struct cover_text ct;
	size_t i;
	int r = 0;

	rc->source = "option";
	if ((o->to && recipients_add(rc, 1, o->to) < 0) ||
	    (o->cc && recipients_add(rc, 0, o->cc) < 0)) {
		char *why = xstrdup(error_last());

		r = error_code(RESPIN_EUSAGE, "%s: give --to and --cc an "
			       "address", why);
		free(why);
		return r;
	}

	/* "To:"/"Cc:" lines above the cover letter's title */
	if (!cover_text &&
	    !series_version_text(repo, s, v, SERIES_TEXT_COVER, &text))
		cover_text = text.buf;
	error_clear();
	cover_text_parse(cover_text ? cover_text : "",
			 cover_text ? strlen(cover_text) : 0, &ct);
	recipients_init(&cover);
	if (recipients_add_list(&cover, 1, ct.to.buf) < 0 ||
	    recipients_add_list(&cover, 0, ct.cc.buf) < 0) {
		char *why = xstrdup(error_last());

		r = error("the cover letter of %s v%d: %s: fix its To:/Cc: "
			  "lines (respin cover %s --edit)", s->name,
			  v->number, why, s->name);
		free(why);
		goto out;
	}
	drop_deleted(repo, s, v, &cover, rc, offered);
	rc->source = "cover letter";
	for (i = 0; i < cover.nr_to; i++)
		recipients_add(rc, 1, cover.to[i]);
	for (i = 0; i < cover.nr_cc; i++)
		recipients_add(rc, 0, cover.cc[i]);

	rc->source = "config";
	add_config(repo, s, "to", rc);
	add_config(repo, s, "cc", rc);
	rc->source = "get_maintainer.pl";
	add_maintainers(repo, rc, dir, res, &o->ran_get_maintainer,
			&o->no_get_maintainer);
	add_earlier(repo, s, v, o, rc);
	rc->source = "trailer";
	for (i = 0; i < res->nr; i++)
		recipients_add_trailers(rc, res->mails[i].text.buf);
	add_replied(repo, s, v, o, rc);
	/* git send-email is told to add no one: its Cc of the authors */
	rc->source = "author";
	add_authors(repo, v, rc);
out:
	rc->source = NULL;
	recipients_release(&cover);
	cover_text_release(&ct);
	strbuf_release(&text);
	return r;
}

int sendto_collect(git_repository *repo, const struct series *s,
		   const struct series_version *v,
		   const struct format_result *res, const char *dir,
		   struct sendto_options *o, struct recipients *rc)
{
	struct strbuf offered = STRBUF_INIT;
	int r = collect(repo, s, v, res, dir, o, NULL, rc, &offered);

	strbuf_release(&offered);
	return r;
}

static void strbuf_rtrim_char(struct strbuf *sb, char c)
{
	while (sb->len > 1 && sb->buf[sb->len - 1] == c)
		strbuf_setlen(sb, sb->len - 1);
}

int sendto_write_mails(git_repository *repo, const struct format_result *res,
		       struct strbuf *dir)
{
	int r;

	strbuf_reset(dir);
	strbuf_addstr(dir, git_repository_path(repo));
	strbuf_rtrim_char(dir, '/');
	strbuf_addstr(dir, "/respin/send-XXXXXX");
	if (mkdir_leading(dir->buf) < 0 || !mkdtemp(dir->buf))
		return error_errno("cannot make a folder for the mails in %s",
				   git_repository_path(repo));
	r = format_write(res, dir->buf);
	if (r < 0)
		rmdir(dir->buf);
	return r;
}

void sendto_remove_mails(const char *dir, const struct format_result *res)
{
	struct strbuf p = STRBUF_INIT;
	size_t i;

	for (i = 0; i < res->nr; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, res->mails[i].file_name);
		unlink(p.buf);
	}
	rmdir(dir);
	strbuf_release(&p);
}

/* text without the blank, To: and Cc: lines above its title. */
static size_t header_end(const char *text)
{
	const char *p = text;

	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		size_t k = 0;

		while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
			k++;
		if (!(k == n && nl) && strncmp(p, "To: ", 4) &&
		    strncmp(p, "Cc: ", 4))
			break;
		if (!nl)
			return strlen(text);
		p = nl + 1;
	}
	return (size_t)(p - text);
}

int sendto_offer(git_repository *repo, struct series *s,
		 struct series_version *v, struct strbuf *text,
		 struct strbuf *offered)
{
	struct format_options fo = { 0 };
	struct format_result res = { 0 };
	struct sendto_options o = { 0 };
	struct recipients rc, all;
	struct strbuf dir = STRBUF_INIT, old = STRBUF_INIT, nt = STRBUF_INIT;
	size_t i;
	int r;

	recipients_init(&rc);
	recipients_init(&all);
	fo.cover_letter = -1;
	fo.no_results = 1;
	r = format_version(repo, s, v, &fo, &res);
	if (r < 0)
		goto out;
	r = sendto_write_mails(repo, &res, &dir);
	if (r < 0)
		goto out;
	r = collect(repo, s, v, &res, dir.buf, &o, text->buf, &rc, &old);
	sendto_remove_mails(dir.buf, &res);
	if (r < 0)
		goto out;
	recipients_format(&rc, &nt);
	if (nt.len)
		strbuf_addch(&nt, '\n');
	strbuf_addstr(&nt, text->buf + header_end(text->buf));
	{
		struct strbuf t = *text;

		*text = nt;
		nt = t;
	}

	/* what was offered before, what is now, what was turned down */
	recipients_add_stored(&all, old.buf);
	strbuf_reset(&nt);
	recipients_format(&rc, &nt);
	recipients_add_stored(&all, nt.buf);
	for (i = 0; i < rc.nr_dropped; i++)
		recipients_add(&all, 0, rc.dropped[i]);
	strbuf_reset(offered);
	recipients_format(&all, offered);
out:
	format_result_release(&res);
	recipients_release(&rc);
	recipients_release(&all);
	strbuf_release(&dir);
	strbuf_release(&old);
	strbuf_release(&nt);
	return r;
}
