// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin send's work around git send-email: what refuses a send (sent
 * already, failed checks, the cover letter still the template), the
 * mails and their recipients, the command line for git send-email, and
 * the Message-IDs recorded once it went out.
 */
#include "review/send.h"
#include "ci/grid.h"
#include "review/cover.h"
#include "series/trailerdiff.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

/* Failed checks of v, one "2/3 checkpatch FAIL" a line; how many. */
static int failed_checks(git_repository *repo, const struct series_version *v,
			 struct strbuf *out)
{
	struct grid_store st;
	struct grid g = { 0 };
	size_t i, k;
	int n = 0, r = grid_store_open(repo, &st);

	if (!r)
		r = grid_load_stored(&g, repo, &st, v);
	if (r < 0)
		goto out;
	for (i = 1; i <= v->nr_patches; i++)
		for (k = 0; k < g.ncols; k++) {
			const struct grid_cell *c = grid_cell(&g, i, k);

			if (!c->have || c->res.status == RESULT_PASS ||
			    c->res.status == RESULT_SKIP)
				continue;
			strbuf_addf(out, "  %zu/%zu %s %s\n", i, v->nr_patches,
				    st.checks.items[k].name,
				    result_status_name(c->res.status));
			n++;
		}
	r = n;
out:
	grid_release(&g);
	grid_store_close(&st);
	return r;
}

/* Every occurrence of from in the mails' texts becomes to. */
static void replace_id(struct format_result *res, const char *from,
		       const char *to)
{
	size_t i, fl = strlen(from);

	for (i = 0; i < res->nr; i++) {
		struct strbuf *t = &res->mails[i].text, nb = STRBUF_INIT;
		const char *p = t->buf, *q;

		while ((q = strstr(p, from))) {
			strbuf_add(&nb, p, (size_t)(q - p));
			strbuf_addstr(&nb, to);
			p = q + fl;
		}
		strbuf_addstr(&nb, p);
		strbuf_release(t);
		*t = nb;
	}
}

/* New Message-IDs for a resend: "-rTIME" before the '@'. */
static void fresh_ids(struct format_result *res, int64_t when)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		char *old = res->mails[i].message_id, *at = strrchr(old, '@');
		struct strbuf nid = STRBUF_INIT;

		strbuf_add(&nid, old, at ? (size_t)(at - old) : strlen(old));
		strbuf_addf(&nid, "-r%lld%s", (long long)when, at ? at : "");
		replace_id(res, old, nid.buf);
		free(old);
		res->mails[i].message_id = strbuf_detach(&nid, NULL);
	}
}

void send_job_init(struct send_job *j)
{
	memset(j, 0, sizeof(*j));
	recipients_init(&j->rc);
	strbuf_init(&j->dir, 0);
	strbuf_init(&j->lost, 0);
}

void send_job_release(struct send_job *j)
{
	if (j->dir.len)
		sendto_remove_mails(j->dir.buf, &j->res);
	format_result_release(&j->res);
	recipients_release(&j->rc);
	strbuf_release(&j->dir);
	strbuf_release(&j->lost);
}

/* Refuses a version sent already, or with failed checks, unless forced. */
static int send_allowed(git_repository *repo, const struct series *s,
			const struct series_version *v,
			const struct send_opts *o)
{
	struct strbuf text = STRBUF_INIT, fails = STRBUF_INIT;
	int nfail, r = 0;

	/* sent by respin send, or found on the list by import */
	if (series_version_text(repo, s, v, SERIES_TEXT_SENT, &text) == 0 &&
	    !o->force) {
		if (!o->dry_run)
			r = error("%s v%d was sent already (%.*s): --force "
				  "sends it again, with new Message-IDs",
				  s->name, v->number,
				  (int)strcspn(text.buf, "\n"), text.buf);
		else
			warning("%s v%d was sent already (%.*s): respin send "
				"without --dry-run refuses it; --force sends it "
				"again, with new Message-IDs", s->name,
				v->number, (int)strcspn(text.buf, "\n"),
				text.buf);
	}
	if (r < 0)
		goto out;
	error_clear();
	nfail = failed_checks(repo, v, &fails);
	if (nfail < 0)
		r = nfail;
	else if (nfail && !o->force)
		r = error("%s v%d has %d failed check%s: fix them, or --force "
			  "to send it anyway:\n%s", s->name, v->number, nfail,
			  nfail == 1 ? "" : "s", fails.buf);
out:
	strbuf_release(&text);
	strbuf_release(&fails);
	return r;
}

/* The mails of v, as format writes them; refused while a template. */
static int send_format(git_repository *repo, struct series *s,
		       struct series_version *v, const struct send_opts *o,
		       struct format_result *res)
{
	struct format_options fo = { 0 };
	struct strbuf pfx = STRBUF_INIT;
	char *lore = repo_lore_url(repo);
	int r;

	cover_subject_prefix(repo, s, v, NULL, 0, &pfx);
	fo.prefix = pfx.buf;
	fo.cover_letter = -1;
	fo.lore_url = lore;
	r = format_version(repo, s, v, &fo, res);
	if (!r && res->nr > v->nr_patches && !o->force &&
	    (strstr(res->mails[0].text.buf, "*** SUBJECT HERE ***") ||
	     strstr(res->mails[0].text.buf, "*** BLURB HERE ***")))
		r = error("the cover letter of %s v%d is still the template "
			  "(*** SUBJECT HERE ***): write it with 'respin cover "
			  "%s --edit'", s->name, v->number, s->name);
	if (!r && o->force && !o->dry_run)
		fresh_ids(res, o->now);
	free(lore);
	strbuf_release(&pfx);
	return r;
}

int send_prepare(git_repository *repo, struct series *s,
		 struct series_version *v, const struct send_opts *o,
		 struct send_job *j)
{
	int r = send_allowed(repo, s, v, o);

	if (!r)
		r = send_format(repo, s, v, o, &j->res);
	/* the mails into a folder of our own, for get_maintainer and git */
	if (!r)
		r = sendto_write_mails(repo, &j->res, &j->dir);
	if (r < 0)
		return r;
	j->so.to = o->to;
	j->so.cc = o->cc;
	r = sendto_collect(repo, s, v, &j->res, j->dir.buf, &j->so, &j->rc);
	if (r < 0)
		return r;
	if (!j->rc.nr_to && !j->rc.nr_cc)
		return error("%s v%d: sent to whom? no get_maintainer.pl in "
			     "the tree, no earlier version sent, no trailers: "
			     "give --to ADDR or set respin.series.%s.to",
			     s->name, v->number, s->name);
	if (!j->rc.nr_to)
		recipients_cc_to_to(&j->rc);	/* the first Cc becomes the To */
	/* the tags lost since the last version: for the author */
	trailerdiff_lines(&j->lost, repo, s, v);
	return 0;
}

void send_argv(const struct send_job *j, int dry_run, struct send_argv *a)
{
	const struct recipients *rc = &j->rc;
	size_t i, n = rc->nr_to + rc->nr_cc + j->res.nr;

	a->argv = xcalloc(n + 12, sizeof(*a->argv));
	a->owned = xcalloc(n + 1, sizeof(*a->owned));
	a->nr_owned = 0;
	n = 0;
	a->argv[n++] = "git";
	a->argv[n++] = "send-email";
	a->argv[n++] = "--no-format-patch";
	a->argv[n++] = "--no-thread";	/* the mails are threaded */
	a->argv[n++] = "--8bit-encoding=UTF-8";
	/*
	 * No Cc of git's own from the mails (authors, tags, Cc: lines):
	 * respin added them, so the list is exactly what --dry-run --json
	 * shows, and git's address parser never reads a name from mail.
	 */
	a->argv[n++] = "--suppress-cc=all";
	if (dry_run)
		a->argv[n++] = "--dry-run";
	for (i = 0; i < rc->nr_to + rc->nr_cc + j->res.nr; i++) {
		struct strbuf arg = STRBUF_INIT;

		if (i < rc->nr_to)
			strbuf_addf(&arg, "--to=%s", rc->to[i]);
		else if (i < rc->nr_to + rc->nr_cc)
			strbuf_addf(&arg, "--cc=%s", rc->cc[i - rc->nr_to]);
		else
			strbuf_addf(&arg, "%s/%s", j->dir.buf, j->res.mails[
				    i - rc->nr_to - rc->nr_cc].file_name);
		a->owned[a->nr_owned] = strbuf_detach(&arg, NULL);
		a->argv[n++] = a->owned[a->nr_owned++];
	}
}

void send_argv_release(struct send_argv *a)
{
	size_t i;

	for (i = 0; i < a->nr_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->argv);
	memset(a, 0, sizeof(*a));
}

int send_record(git_repository *repo, struct series *s,
		struct series_version *v, const struct send_job *j, int64_t when)
{
	struct strbuf sent = STRBUF_INIT, msg = STRBUF_INIT;
	const struct format_result *res = &j->res;
	size_t i, first = res->nr > v->nr_patches ? 1 : 0;
	int r;

	free(v->message_id);
	v->message_id = xstrdup(res->mails[0].message_id);
	for (i = 0; i < v->nr_patches; i++) {
		free(v->patches[i].message_id);
		v->patches[i].message_id =
			xstrdup(res->mails[first + i].message_id);
	}
	strbuf_addf(&sent, "Date: %s\n", repo_date(when));
	recipients_format(&j->rc, &sent);
	for (i = 0; i < res->nr; i++)
		strbuf_addf(&sent, "Message-Id: <%s>\n",
			    res->mails[i].message_id);
	series_version_set_text(v, SERIES_TEXT_SENT, sent.buf, sent.len);
	strbuf_addf(&msg, "respin send %s v%d", s->name, v->number);
	r = series_save(repo, s, NULL, msg.buf);
	strbuf_release(&sent);
	strbuf_release(&msg);
	return r;
}

