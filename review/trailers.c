// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/trailers.h"
#include "patches/mail.h"
#include "patches/msgtrailers.h"
#include "patches/patchmail.h"
#include "patches/reply.h"
#include "series/mailset.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static int given_key(const char *k)
{
	static const char *const keys[] = {
		"Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
		"Suggested-by", "Fixes", "Closes", NULL,
	};
	size_t i;

	for (i = 0; keys[i]; i++)
		if (!strcasecmp(k, keys[i]))
			return 1;
	return 0;
}

int trailer_about_code(const char *key)
{
	return !strcasecmp(key, "Reviewed-by") || !strcasecmp(key, "Acked-by") ||
	       !strcasecmp(key, "Tested-by");
}

/*
 * A person's trailer names the mail's sender: the same address, or
 * the same name (as b4 matches them).
 */
static int sender_matches(const struct trailer *t, const struct ms_msg *m)
{
	struct strbuf addr = STRBUF_INIT;
	const char *v = t->value, *lt = strrchr(v, '<');
	size_t n = strlen(t->key), nl;
	int ok;

	if (n < 3 || strcasecmp(t->key + n - 3, "-by"))
		return 1;	/* Fixes:, Closes: name no one */
	trailer_value_key(v, &addr);
	ok = m->from_addr && !strcasecmp(addr.buf, m->from_addr);
	if (!ok && lt && m->from_name && *m->from_name) {
		nl = (size_t)(lt - v);
		while (nl && v[nl - 1] == ' ')
			nl--;
		ok = nl == strlen(m->from_name) &&
		     !strncasecmp(v, m->from_name, nl);
	}
	strbuf_release(&addr);
	return ok;
}

void trailers_accept_mismatch(struct trailers_report *r)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++)
		for (k = 0; k < r->patches[i].nr; k++)
			if (r->patches[i].items[k].state == GIVEN_MISMATCH)
				r->patches[i].items[k].state = GIVEN_NEW;
}

size_t trailers_count(const struct trailers_report *r, enum given_state st)
{
	size_t i, k, n = 0;

	for (i = 0; i < r->nr; i++)
		for (k = 0; k < r->patches[i].nr; k++)
			n += r->patches[i].items[k].state == st;
	return n;
}

void trailers_report_release(struct trailers_report *r)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		for (k = 0; k < r->patches[i].nr; k++) {
			struct given *g = &r->patches[i].items[k];

			free(g->key);
			free(g->value);
			free(g->msgid);
			free(g->from);
		}
		free(r->patches[i].items);
	}
	free(r->patches);
	strbuf_release(&r->notes);
	memset(r, 0, sizeof(*r));
}

/* The newest version before v with Message-IDs, or NULL. */
static const struct series_version *earlier_sent(const struct series *s,
						 const struct series_version *v)
{
	const struct series_version *e = NULL;
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number < v->number &&
		    s->versions[i].message_id)
			e = &s->versions[i];
	return e;
}

void trailers_default_source(const struct series *s,
			     const struct series_version *v,
			     struct strbuf *out)
{
	const char *src = v->source ? v->source : "";
	static const char *const kinds[] = { "mail mbox ", "mail maildir ",
					     NULL };
	struct stat st;
	size_t i;

	for (i = 0; kinds[i]; i++)
		if (!strncmp(src, kinds[i], strlen(kinds[i])) &&
		    !stat(src + strlen(kinds[i]), &st)) {
			strbuf_addstr(out, src + strlen(kinds[i]));
			return;
		}
	if (v->message_id)
		strbuf_addf(out, "lore:%s", v->message_id);
	else if (earlier_sent(s, v))
		trailers_default_source(s, earlier_sent(s, v), out);
}

static struct given *add_given_as(struct trailers_report *r, size_t i,
				   const struct trailer *t,
				   const struct ms_msg *m, int version,
				   size_t given_to, size_t total, int carried);

/* Adds a given trailer to patch i (0-based) of the report. */
static struct given *add_given(struct trailers_report *r, size_t i,
			       const struct trailer *t, const struct ms_msg *m,
			       int version, size_t given_to, size_t total)
{
	return add_given_as(r, i, t, m, version, given_to, total, 1);
}

/*
 * The same, as not carried (carried 0): it never takes the place of
 * one listed already.
 */
static struct given *add_given_as(struct trailers_report *r, size_t i,
				   const struct trailer *t,
				   const struct ms_msg *m, int version,
				   size_t given_to, size_t total, int carried)
{
	struct patch_given *pg = &r->patches[i];
	struct given *g;
	struct strbuf who = STRBUF_INIT;
	size_t k;

	/* the same trailer twice (two replies, two versions): keep the first */
	for (k = 0; k < pg->nr; k++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		int same;

		trailer_value_key(pg->items[k].value, &a);
		trailer_value_key(t->value, &b);
		same = !strcasecmp(pg->items[k].key, t->key) &&
		       !strcmp(a.buf, b.buf);
		strbuf_release(&a);
		strbuf_release(&b);
		if (!same)
			continue;
		if (pg->items[k].state != GIVEN_NOT_CARRIED || !carried)
			return NULL;
		/* not carried from one version, given again: this one */
		g = &pg->items[k];
		free(g->key);
		free(g->value);
		free(g->msgid);
		free(g->from);
		goto fill;
	}
	ALLOC_GROW(pg->items, pg->nr, pg->alloc);
	g = &pg->items[pg->nr++];
fill:
	memset(g, 0, sizeof(*g));
	g->key = xstrdup(t->key);
	g->value = xstrdup(t->value);
	g->msgid = xstrdup(m->msgid);
	if (m->from_name && *m->from_name)
		strbuf_addf(&who, "%s <%s>", m->from_name, m->from_addr);
	else
		strbuf_addstr(&who, m->from_addr ? m->from_addr : "");
	g->from = strbuf_detach(&who, NULL);
	g->version = version;
	g->given_to = given_to;
	g->given_total = total;
	if (!sender_matches(t, m))
		g->state = GIVEN_MISMATCH;
	return g;
}

/* Patch i of v (0-based) holding the same diff as pid, or -1. */
static long same_patch(const struct series_version *v, const git_oid *pid)
{
	size_t i;

	if (git_oid_is_zero(pid))
		return -1;
	for (i = 0; i < v->nr_patches; i++)
		if (git_oid_equal(&v->patches[i].patch_id, pid))
			return (long)i;
	return -1;
}

/* A person's trailer names one address: "Name <a@b.c>" or "a@b.c". */
static int valid_value(const struct trailer *t)
{
	const char *v = t->value, *lt, *gt, *at;
	size_t n = strlen(t->key);

	if (n < 3 || strcasecmp(t->key + n - 3, "-by"))
		return 1;	/* Fixes:, Closes: */
	lt = strrchr(v, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && !gt)
		return 0;
	at = strchr(lt ? lt : v, '@');
	if (!at || (gt && at > gt) || at == (lt ? lt + 1 : v))
		return 0;
	if (!strchr(at, '.'))
		return 0;
	for (; lt && *v && v < lt; v++)
		if (*v == '@')
			return 0;	/* two addresses */
	return 1;
}

/*
 * "Reviewed-by: Rita" at the margin names no one the tag could be
 * written for: the reply parser leaves it out; it is added to tl here
 * so that it is listed, as not carried, and never written.
 */
static void addressless(const char *body, size_t len, struct trailer_list *tl)
{
	const char *p = body, *end = body + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *colon;
		size_t klen;

		if (e - p > 5 && (colon = memchr(p, ':', (size_t)(e - p))) &&
		    colon + 1 < e && colon[1] == ' ' &&
		    !memchr(colon, '@', (size_t)(e - colon))) {
			char *key = xstrndup(p, (size_t)(colon - p));

			klen = (size_t)(colon - p);
			if (given_key(key) && klen > 3 &&
			    !strcasecmp(key + klen - 3, "-by")) {
				const char *v = colon + 2;
				const char *ve = e;

				while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r'))
					ve--;
				if (ve > v)
					trailer_list_add(tl, key, klen, v,
							 (size_t)(ve - v));
			}
			free(key);
		}
		if (p < end && *p == '-' && e - p == 3 && !strncmp(p, "-- ", 3))
			break;	/* the signature */
		p = nl ? nl + 1 : end;
	}
}

/* Patch i of v (0-based) with this subject, or -1. */
static long same_subject(const struct series_version *v, const char *subject)
{
	size_t i;

	for (i = 0; subject && i < v->nr_patches; i++)
		if (v->patches[i].subject &&
		    !strcmp(v->patches[i].subject, subject))
			return (long)i;
	return -1;
}

static void not_carried(struct trailers_report *r, size_t i,
			const struct trailer *t, const struct ms_msg *m,
			int version, size_t given_to, size_t total,
			const char *why)
{
	struct given *g = add_given_as(r, i, t, m, version, given_to, total,
				       0);

	if (g) {
		g->state = GIVEN_NOT_CARRIED;
		g->why = why;
	}
}

/* The trailers of one reply into the report, for the patches they go to. */
static int reply_given(struct mailset *ms, long mi, struct trailers_report *r,
		       const struct series_version *v,
		       const struct series_version *u, size_t given_to)
{
	struct strbuf raw = STRBUF_INIT;
	struct mail_body b;
	struct mail_where w = { mail_source_name(ms->src), ms->msgs[mi].number };
	struct trailer_list tl;
	size_t t, i;
	int rc;

	trailer_list_init(&tl);
	mail_body_init(&b);
	rc = mailset_raw(ms, mi, &raw);
	if (!rc)
		rc = mail_body_parse(&b, raw.buf, raw.len, &w);
	if (rc < 0)
		goto out;
	/* a bot's tags are its report, not given */
	reply_parse(&tl, NULL, b.text, b.len, ms->msgs[mi].from_name,
		    ms->msgs[mi].from_addr);
	if (!reply_from_bot(ms->msgs[mi].from_name, ms->msgs[mi].from_addr))
		addressless(b.text, b.len, &tl);
	for (t = 0; t < tl.nr; t++) {
		const struct trailer *tr = &tl.items[t];
		const struct ms_msg *m = &ms->msgs[mi];

		if (!given_key(tr->key))
			continue;
		if (!valid_value(tr)) {
			/* "Reviewed-by: Rita": listed, never written */
			for (i = 0; i < v->nr_patches; i++)
				if (given_to ? (u == v && given_to == i + 1) :
				    u == v)
					not_carried(r, i, tr, m, u->number,
						    given_to, u->nr_patches,
						    "it names no address");
			continue;
		}
		if (u == v) {
			/* to this version: the patch, or every one (cover) */
			for (i = 0; i < v->nr_patches; i++)
				if (!given_to || given_to == i + 1)
					add_given(r, i, tr, m, u->number, given_to,
						  u->nr_patches);
		} else if (given_to) {
			/* to a patch of an earlier one: where its diff is now */
			const struct series_patch *up;
			long same;

			if (given_to > u->nr_patches)
				continue;
			up = &u->patches[given_to - 1];
			same = same_patch(v, &up->patch_id);
			if (same >= 0) {
				add_given(r, (size_t)same, tr, m, u->number,
					  given_to, u->nr_patches);
				continue;
			}
			same = same_subject(v, up->subject);
			if (same >= 0 && !trailer_about_code(tr->key))
				/* a report, a suggestion: whatever the code */
				add_given(r, (size_t)same, tr, m, u->number,
					  given_to, u->nr_patches);
			else if (same >= 0)
				not_carried(r, (size_t)same, tr, m, u->number,
					    given_to, u->nr_patches,
					    "its diff changed since");
			else
				strbuf_addf(&r->notes, "v%d %zu/%zu \"%s\" is "
					    "not in v%d: %s: %s (<%s>) not "
					    "carried\n", u->number, given_to,
					    u->nr_patches, up->subject,
					    v->number, tr->key, tr->value,
					    m->msgid);
		} else {
			/* to an earlier cover letter: the patches unchanged */
			for (i = 0; i < v->nr_patches; i++) {
				if (same_patch(u, &v->patches[i].patch_id) >= 0 ||
				    !trailer_about_code(tr->key))
					add_given(r, i, tr, m, u->number, 0,
						  u->nr_patches);
				else
					not_carried(r, i, tr, m, u->number, 0,
						    u->nr_patches,
						    "this patch changed since");
			}
		}
	}
out:
	if (rc < 0) {
		strbuf_addf(&r->notes, "skipped reply <%s>: %s\n",
			    ms->msgs[mi].msgid, error_last());
		error_clear();
	}
	trailer_list_release(&tl);
	mail_body_release(&b);
	strbuf_release(&raw);
	return 0;
}

/* Every reply to the version of the mail holding u's Message-ID. */
static int version_given(struct mailset *ms, struct trailers_report *r,
			 const struct series_version *v,
			 const struct series_version *u)
{
	long m = mailset_find(ms, u->message_id), vi, k;
	struct ms_version *mv;
	size_t i;
	int ret;

	if (m < 0 || (vi = ms->msgs[m].version) < 0) {
		if (u == v)
			return error_code(RESPIN_ENOTFOUND, "the mail of v%d "
					  "<%s> is not in %s", v->number,
					  u->message_id,
					  mail_source_describe(ms->src));
		strbuf_addf(&r->notes, "v%d <%s> is not in %s: its trailers "
			    "are not looked at\n", u->number, u->message_id,
			    mail_source_describe(ms->src));
		return 0;
	}
	ret = mailset_load(ms, vi);
	if (ret < 0)
		return ret;
	mv = &ms->versions[vi];
	for (i = 0; i < mv->cover_part.d->nr_replies; i++)
		reply_given(ms, mv->cover_part.d->replies[i], r, v, u, 0);
	for (k = 0; k < mv->total; k++) {
		struct ms_detail *d = mv->patches[k].d;

		if (!d)
			continue;
		for (i = 0; i < d->nr_replies; i++)
			reply_given(ms, d->replies[i], r, v, u, (size_t)k + 1);
	}
	return 0;
}

/* GIVEN_HAVE for what the commits of v have already. */
static void mark_have(git_repository *repo, const struct series *s,
		      const struct series_version *v, struct trailers_report *r)
{
	size_t i, k;

	for (i = 0; i < v->nr_patches; i++) {
		git_commit *c = NULL;
		struct strbuf out = STRBUF_INIT;

		struct strbuf text = STRBUF_INIT;
		const char *msg = NULL;

		/* the commit's message, or the mail's for a mail-only one */
		if (!git_oid_is_zero(&v->patches[i].commit) &&
		    !git_commit_lookup(&c, repo, &v->patches[i].commit)) {
			msg = git_commit_message(c);
		} else {
			if (!series_version_mail(repo, s, v, i + 1, &text)) {
				struct patchmail pm;

				patchmail_init(&pm);
				if (!patchmail_split(&pm, text.buf, text.len,
						     "the stored mail") &&
				    pm.raw_diff.p) {
					/* the message and its trailers only */
					strbuf_setlen(&text,
						      (size_t)(pm.raw_diff.p - text.buf));
					msg = text.buf;
				}
				patchmail_release(&pm);
			}
		}
		git_error_clear();
		error_clear();
		for (k = 0; msg && k < r->patches[i].nr; k++) {
			struct given *g = &r->patches[i].items[k];
			struct trailer_list one;

			if (g->state == GIVEN_HAVE)
				continue;
			trailer_list_init(&one);
			trailer_list_add(&one, g->key, strlen(g->key), g->value,
					 strlen(g->value));
			/* in the commit, given on other code: stale */
			if (message_has_trailer(msg, &one.items[0]))
				g->state = g->state == GIVEN_NOT_CARRIED &&
					   g->why && strstr(g->why, "since") ?
					   GIVEN_STALE : GIVEN_HAVE;
			trailer_list_release(&one);
		}
		strbuf_release(&out);
		strbuf_release(&text);
		git_commit_free(c);
	}
}

int trailers_collect(git_repository *repo, struct series *s,
		     struct series_version *v, const char *source, int refresh,
		     struct trailers_report *out)
{
	struct mail_source *src = NULL;
	struct mailset ms;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->notes, 0);
	out->nr = v->nr_patches;
	out->patches = xcalloc(v->nr_patches + 1, sizeof(*out->patches));
	mailset_init(&ms, NULL);
	if (!v->message_id && !earlier_sent(s, v)) {
		r = error("neither %s v%d nor an earlier version has "
			  "Message-IDs (imported from mail or sent): there are "
			  "no replies to read", s->name, v->number);
		goto out;
	}
	r = mailset_source_open(repo, source, refresh, &src);
	if (r < 0)
		goto out;
	ms.src = src;
	r = mailset_scan(&ms);
	if (!r)
		r = mailset_group(&ms, 0, v->message_id ? v->message_id :
				  earlier_sent(s, v)->message_id);
	if (r < 0)
		goto out;
	/* not sent yet: only what carries from the versions before it */
	if (v->message_id)
		r = version_given(&ms, out, v, v);
	for (i = 0; !r && i < s->nr_versions; i++) {
		struct series_version *u = &s->versions[i];

		if (u->number >= v->number || !u->message_id)
			continue;
		r = series_version_ensure(repo, s, u);
		if (r < 0)
			break;
		r = version_given(&ms, out, v, u);
	}
	if (!r)
		mark_have(repo, s, v, out);
out:
	mailset_release(&ms);
	mail_source_free(src);
	return r;
}
