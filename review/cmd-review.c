// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin review NAME[@vN] [--source SOURCE] [--json]
 * respin review NAME[@vN] --done MSGID[:N]
 *
 * Every reply to a version, per patch and for the cover letter: the
 * review comments (what the reviewer wrote, with the lines it answers)
 * and the trailers; each comment open, answered (the author replied
 * under it) or addressed (the next version changed that part, or the
 * author marked it done).
 */
#include "patches/mail.h"
#include "patches/patch.h"
#include "patches/patchmail.h"
#include "patches/reply.h"
#include "review/comments.h"
#include "review/trailers.h"
#include "series/mailset.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const usage[] = {
	"respin review <name>[@v<n>] [--source <source>] [--json]",
	"respin review <name>[@v<n>] --done <msgid>[:<n>] [--source <source>]",
	NULL
};

enum comment_state { C_OPEN, C_ANSWERED, C_ADDRESSED, C_DONE };

static const char *state_name(enum comment_state s)
{
	return s == C_OPEN ? "open" : s == C_ANSWERED ? "answered" :
	       s == C_ADDRESSED ? "addressed" : "done";
}

/* One reply with its comments, placed. */
struct review_reply {
	long msg;
	size_t target;		/* 0 the cover letter, else the patch */
	struct comment_list comments;
	enum comment_state *states;
	char **why;		/* per comment: the answer's Message-ID, ... */
	struct trailer_list trailers;
	struct bot_report_list bots;	/* a bot's report: no comments */
};

struct review {
	struct review_reply *items;
	size_t nr, alloc;
};

static void review_release(struct review *rv)
{
	size_t i, k;

	for (i = 0; i < rv->nr; i++) {
		struct review_reply *rr = &rv->items[i];

		for (k = 0; k < rr->comments.nr; k++)
			free(rr->why[k]);
		free(rr->why);
		free(rr->states);
		comment_list_release(&rr->comments);
		trailer_list_release(&rr->trailers);
		bot_report_list_release(&rr->bots);
	}
	free(rv->items);
}

/* The text of a message of ms, parsed. */
static int body_of(struct mailset *ms, long mi, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	struct mail_body b;
	struct mail_where w = { mail_source_name(ms->src), ms->msgs[mi].number };
	int r;

	mail_body_init(&b);
	r = mailset_raw(ms, mi, &raw);
	if (!r)
		r = mail_body_parse(&b, raw.buf, raw.len, &w);
	if (!r)
		strbuf_add(out, b.text, b.len);
	mail_body_release(&b);
	strbuf_release(&raw);
	return r;
}

/* The diff of patch i (1-based) of version w, as text; NULL when none. */
static char *next_diff(git_repository *repo, const struct series *s,
		       const struct series_version *w, size_t i)
{
	struct strbuf text = STRBUF_INIT;
	char *out = NULL;

	if (!git_oid_is_zero(&w->patches[i - 1].commit)) {
		git_commit *c = NULL;
		git_diff *d = NULL;
		git_buf buf = GIT_BUF_INIT;

		if (!git_commit_lookup(&c, repo, &w->patches[i - 1].commit) &&
		    !patch_commit_diff(repo, c, &d) &&
		    !git_diff_to_buf(&buf, d, GIT_DIFF_FORMAT_PATCH))
			out = xstrdup(buf.ptr ? buf.ptr : "");
		git_buf_dispose(&buf);
		git_diff_free(d);
		git_commit_free(c);
		git_error_clear();
		error_clear();
		return out;
	}
	if (!series_version_mail(repo, s, w, i, &text)) {
		struct patchmail pm;

		patchmail_init(&pm);
		if (!patchmail_split(&pm, text.buf, text.len, "the stored mail") &&
		    pm.diff.p)
			out = xstrndup(pm.diff.p, pm.diff.len);
		patchmail_release(&pm);
	}
	error_clear();
	strbuf_release(&text);
	return out;
}

/* Patch of w that continues patch i of v: same subject, else same place. */
static size_t next_patch(const struct series_version *v,
			 const struct series_version *w, size_t i)
{
	size_t k;

	for (k = 0; k < w->nr_patches; k++)
		if (v->patches[i - 1].subject && w->patches[k].subject &&
		    !strcmp(v->patches[i - 1].subject, w->patches[k].subject))
			return k + 1;
	return 0;
}

/* Whether "MSGID:N" or "MSGID:*" is marked done. */
static int marked(const char *done, const char *msgid, size_t n)
{
	const char *p = done;
	size_t l = strlen(msgid);

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > l && !strncmp(p, msgid, l) && p[l] == ':') {
			if (p[l + 1] == '*' ||
			    (size_t)strtoul(p + l + 1, NULL, 10) == n)
				return 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static void reply_states(git_repository *repo, const struct series *s,
			 const struct series_version *v,
			 const struct series_version *w, struct mailset *ms,
			 const char *author, const char *done,
			 const char *old_diff, struct review_reply *rr)
{
	const struct ms_msg *m = &ms->msgs[rr->msg];
	char *nd = NULL;
	size_t k, j, np = 0;

	rr->states = xcalloc(rr->comments.nr + 1, sizeof(*rr->states));
	rr->why = xcalloc(rr->comments.nr + 1, sizeof(*rr->why));
	if (w && rr->target) {
		np = next_patch(v, w, rr->target);
		if (np)
			nd = next_diff(repo, s, w, np);
	}
	for (k = 0; k < rr->comments.nr; k++) {
		const struct comment *c = &rr->comments.items[k];
		struct strbuf why = STRBUF_INIT;

		if (marked(done, m->msgid, k + 1)) {
			rr->states[k] = C_DONE;
		} else if (w && rr->target && old_diff &&
			   (!np || comment_addressed(c, old_diff, nd))) {
			rr->states[k] = C_ADDRESSED;
			if (np)
				strbuf_addf(&why, "changed in v%d %zu/%zu",
					    w->number, np, w->nr_patches);
			else
				strbuf_addf(&why, "the patch is gone in v%d",
					    w->number);
		} else {
			/* the author's replies to it, quoting the comment */
			for (j = 0; j < ms->nr_msgs && !why.len; j++) {
				struct strbuf body = STRBUF_INIT;
				struct comment_list ans;

				if (!ms->msgs[j].irt ||
				    strcmp(ms->msgs[j].irt, m->msgid) ||
				    strcasecmp(ms->msgs[j].from_addr, author))
					continue;
				comment_list_init(&ans);
				if (!body_of(ms, (long)j, &body)) {
					comments_parse(&ans, body.buf, body.len,
						       NULL, 0);
					if (comment_answered_by(c, &ans)) {
						rr->states[k] = C_ANSWERED;
						strbuf_addf(&why, "<%s>",
							    ms->msgs[j].msgid);
					}
				}
				error_clear();
				comment_list_release(&ans);
				strbuf_release(&body);
			}
		}
		rr->why[k] = why.len ? strbuf_detach(&why, NULL) : NULL;
		strbuf_release(&why);
	}
	free(nd);
}

static int collect(git_repository *repo, struct series *s,
		   struct series_version *v, struct mailset *ms,
		   const char *done, struct review *rv)
{
	long m = mailset_find(ms, v->message_id), vi;
	struct ms_version *mv;
	const struct series_version *w = NULL;
	size_t i, t, total;

	if (m < 0 || (vi = ms->msgs[m].version) < 0)
		return error_code(RESPIN_ENOTFOUND, "the mail of %s v%d <%s> is "
				  "not in %s: give --source", s->name, v->number,
				  v->message_id, mail_source_describe(ms->src));
	if (mailset_load(ms, vi) < 0)
		return -1;
	mv = &ms->versions[vi];
	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number > v->number &&
		    (!w || s->versions[i].number < w->number))
			w = &s->versions[i];
	if (w && series_version_ensure(repo, s, (struct series_version *)w) < 0)
		return -1;
	total = (size_t)mv->total;
	for (t = 0; t <= total; t++) {
		struct ms_patch *p = t ? &mv->patches[t - 1] : &mv->cover_part;
		const char *diff = t && p->d && p->d->pm.diff.p ?
				   p->d->pm.diff.p : NULL;
		size_t dlen = diff ? p->d->pm.diff.len : 0;
		char *old = diff ? xstrndup(diff, dlen) : NULL;

		if (!p->d) {
			free(old);
			continue;
		}
		for (i = 0; i < p->d->nr_replies; i++) {
			long r = p->d->replies[i];
			struct review_reply *rr;
			struct strbuf body = STRBUF_INIT;

			/* the author's own mails answer; they are not review */
			if (!strcasecmp(ms->msgs[r].from_addr, mv->from_addr))
				continue;
			if (body_of(ms, r, &body) < 0) {
				error_clear();
				strbuf_release(&body);
				continue;
			}
			ALLOC_GROW(rv->items, rv->nr, rv->alloc);
			rr = &rv->items[rv->nr++];
			memset(rr, 0, sizeof(*rr));
			rr->msg = r;
			rr->target = t;
			comment_list_init(&rr->comments);
			trailer_list_init(&rr->trailers);
			bot_report_list_init(&rr->bots);
			reply_parse(&rr->trailers, &rr->bots, body.buf, body.len,
				    ms->msgs[r].from_name, ms->msgs[r].from_addr);
			/* a bot's report is listed as one, not as comments */
			if (!rr->bots.nr && !reply_from_bot(ms->msgs[r].from_name,
							    ms->msgs[r].from_addr))
				comments_parse(&rr->comments, body.buf, body.len,
					       diff, dlen);
			reply_states(repo, s, v, w, ms, mv->from_addr, done,
				     old, rr);
			strbuf_release(&body);
		}
		free(old);
	}
	return 0;
}

static void indent_lines(struct strbuf *out, const char *pfx, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);

		strbuf_addf(out, "%s%s\n", pfx, term_safe(line));
		free(line);
		p += n + (nl ? 1 : 0);
	}
}

/* The last n lines of a quote (what a comment answers most nearly). */
#define QUOTE_SHOWN 6
static void quote_tail(struct strbuf *out, const char *quote, size_t n)
{
	const char *p = quote + strlen(quote);
	size_t k = 0;

	while (p > quote && p[-1] == '\n')
		p--;
	while (p > quote && k < n) {
		p--;
		while (p > quote && p[-1] != '\n')
			p--;
		k++;
	}
	if (p > quote)
		strbuf_addstr(out, "      > [...]\n");
	indent_lines(out, "      > ", p);
}

static void print_text(const struct series *s, const struct series_version *v,
		       struct mailset *ms, const struct review *rv,
		       struct strbuf *out)
{
	size_t i, k, t, n[4] = { 0 }, ntr = 0, nbot = 0, last = (size_t)-1;

	for (i = 0; i < rv->nr; i++) {
		for (k = 0; k < rv->items[i].comments.nr; k++)
			n[rv->items[i].states[k]]++;
		ntr += rv->items[i].trailers.nr;
		nbot += rv->items[i].bots.nr;
	}
	strbuf_addf(out, "%s v%d: %zu comment%s (%zu open, %zu answered, %zu "
		    "addressed, %zu done), %zu trailer%s\n", s->name, v->number,
		    n[0] + n[1] + n[2] + n[3], n[0] + n[1] + n[2] + n[3] == 1 ?
		    "" : "s", n[C_OPEN], n[C_ANSWERED], n[C_ADDRESSED],
		    n[C_DONE], ntr, ntr == 1 ? "" : "s");
	if (nbot) {
		strbuf_setlen(out, out->len - 1);
		strbuf_addf(out, ", %zu bot report%s\n", nbot,
			    nbot == 1 ? "" : "s");
	}
	for (i = 0; i < rv->nr; i++) {
		const struct review_reply *rr = &rv->items[i];
		const struct ms_msg *m = &ms->msgs[rr->msg];

		if (!rr->comments.nr && !rr->trailers.nr && !rr->bots.nr)
			continue;
		t = rr->target;
		if (t != last) {
			if (t)
				strbuf_addf(out, "%zu/%zu %s\n", t, v->nr_patches,
					    t <= v->nr_patches ?
					    term_safe(v->patches[t - 1].subject) : "");
			else
				strbuf_addstr(out, "0 (cover letter)\n");
			last = t;
		}
		for (k = 0; k < rr->comments.nr; k++) {
			const struct comment *c = &rr->comments.items[k];

			strbuf_addf(out, "  [%s:%zu] %s", term_safe(m->msgid),
				    k + 1, state_name(rr->states[k]));
			if (rr->why[k])
				strbuf_addf(out, " (%s)", term_safe(rr->why[k]));
			strbuf_addf(out, "  %s <%s> %s\n", term_safe(m->from_name),
				    term_safe(m->from_addr), repo_date(m->date));
			if (c->file)
				strbuf_addf(out, "      %s%s%s\n", term_safe(c->file),
					    c->hunk ? " " : "",
					    c->hunk ? term_safe(c->hunk) : "");
			quote_tail(out, c->quote.buf, QUOTE_SHOWN);
			indent_lines(out, "      ", c->text.buf);
		}
		for (k = 0; k < rr->bots.nr; k++) {
			const struct bot_report *b = &rr->bots.items[k];

			strbuf_addf(out, "  ! report by %s", term_safe(b->who));
			if (b->what)
				strbuf_addf(out, ": %s", term_safe(b->what));
			if (b->link)
				strbuf_addf(out, ", %s", term_safe(b->link));
			strbuf_addf(out, "  (<%s>)\n", term_safe(m->msgid));
		}
		for (k = 0; k < rr->trailers.nr; k++)
			strbuf_addf(out, "  %s: %s  (<%s>)\n",
				    term_safe(rr->trailers.items[k].key),
				    term_safe(rr->trailers.items[k].value),
				    term_safe(m->msgid));
	}
}

static void print_json(const struct series *s, const struct series_version *v,
		       struct mailset *ms, const struct review *rv,
		       struct strbuf *out)
{
	struct json j;
	size_t i, k;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_key(&j, "replies");
	json_array_begin(&j);
	for (i = 0; i < rv->nr; i++) {
		const struct review_reply *rr = &rv->items[i];
		const struct ms_msg *m = &ms->msgs[rr->msg];

		json_object_begin(&j);
		json_string_member(&j, "message_id", m->msgid);
		json_string_member(&j, "from", m->from_addr);
		json_string_member(&j, "name", m->from_name);
		json_int_member(&j, "date", m->date);
		json_int_member(&j, "patch", (int64_t)rr->target);
		json_key(&j, "comments");
		json_array_begin(&j);
		for (k = 0; k < rr->comments.nr; k++) {
			const struct comment *c = &rr->comments.items[k];

			json_object_begin(&j);
			json_int_member(&j, "index", (int64_t)k + 1);
			json_string_member(&j, "state", state_name(rr->states[k]));
			json_string_member(&j, "why", rr->why[k]);
			json_string_member(&j, "file", c->file);
			json_string_member(&j, "hunk", c->hunk);
			json_string_member(&j, "quote", c->quote.buf);
			json_string_member(&j, "text", c->text.buf);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "bot_reports");
		json_array_begin(&j);
		for (k = 0; k < rr->bots.nr; k++) {
			json_object_begin(&j);
			json_string_member(&j, "who", rr->bots.items[k].who);
			json_string_member(&j, "what", rr->bots.items[k].what);
			json_string_member(&j, "link", rr->bots.items[k].link);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "trailers");
		json_array_begin(&j);
		for (k = 0; k < rr->trailers.nr; k++) {
			json_object_begin(&j);
			json_string_member(&j, "key", rr->trailers.items[k].key);
			json_string_member(&j, "value", rr->trailers.items[k].value);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/* --done MSGID[:N]: checked against what the review found, then stored. */
static int mark_done(git_repository *repo, struct series *s,
		     struct series_version *v, const struct review *rv,
		     const char *spec, struct mailset *ms, struct strbuf *done)
{
	const char *colon = strrchr(spec, ':');
	char *id = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	size_t n = 0, i;
	const struct review_reply *rr = NULL;
	struct strbuf msg = STRBUF_INIT;
	int r;

	if (colon) {
		char *e;

		n = strtoul(colon + 1, &e, 10);
		if (!n || *e) {
			free(id);
			return error_code(RESPIN_EUSAGE, "--done %s: give "
					  "MSGID or MSGID:N, N a comment's "
					  "number", spec);
		}
	}
	if (*id == '<') {
		memmove(id, id + 1, strlen(id));
		if (*id && id[strlen(id) - 1] == '>')
			id[strlen(id) - 1] = '\0';
	}
	for (i = 0; i < rv->nr && !rr; i++)
		if (!strcmp(ms->msgs[rv->items[i].msg].msgid, id))
			rr = &rv->items[i];
	if (!rr || !rr->comments.nr || n > rr->comments.nr) {
		r = error_code(RESPIN_ENOTFOUND, "<%s>%s is not a review comment "
			       "on %s v%d (respin review %s@v%d lists them)", id,
			       colon ? colon : "", s->name, v->number, s->name,
			       v->number);
		free(id);
		return r;
	}
	if (done->len && done->buf[done->len - 1] != '\n')
		strbuf_addch(done, '\n');
	if (n)
		strbuf_addf(done, "%s:%zu\n", id, n);
	else
		strbuf_addf(done, "%s:*\n", id);
	series_version_set_text(v, SERIES_TEXT_DONE, done->buf, done->len);
	strbuf_addf(&msg, "respin review %s v%d: %s done", s->name, v->number,
		    spec);
	r = series_save(repo, s, NULL, msg.buf);
	if (!r)
		printf("%s v%d: <%s>%s%s marked done\n", s->name, v->number, id,
		       n ? ":" : "", n ? colon + 1 : "");
	strbuf_release(&msg);
	free(id);
	return r;
}

int cmd_review(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, refresh = 0, exit_code, n, r;
	const char *source = NULL, *done_spec = NULL;
	struct option opts[] = {
		OPT_STRING(0, "source", &source, "source",
			   "where the replies are (default: where the version "
			   "came from, else lore)"),
		OPT_STRING(0, "done", &done_spec, "msgid[:n]",
			   "mark a comment (or all of a reply's) done"),
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads again, ignoring the cache"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct mail_source *src = NULL;
	struct mailset ms;
	struct review rv = { 0 };
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT, done = STRBUF_INIT;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	mailset_init(&ms, NULL);
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	if (!v->message_id) {
		r = error("%s v%d has no Message-IDs (it was not imported from "
			  "mail or sent): there are no replies to it", s.name,
			  v->number);
		goto fail;
	}
	if (source)
		strbuf_addstr(&spec, source);
	else
		trailers_default_source(&s, v, &spec);
	if (series_version_text(ctx->repo, &s, v, SERIES_TEXT_DONE, &done) < 0)
		error_clear();
	r = mailset_source_open(ctx->repo, spec.buf, refresh, &src);
	if (r < 0)
		goto fail;
	ms.src = src;
	r = mailset_scan(&ms);
	if (!r)
		r = mailset_group(&ms, 0, v->message_id);
	if (!r)
		r = collect(ctx->repo, &s, v, &ms, done.buf, &rv);
	if (r < 0)
		goto fail;
	if (done_spec) {
		r = mark_done(ctx->repo, &s, v, &rv, done_spec, &ms, &done);
		if (r < 0)
			goto fail;
		goto ok;
	}
	if (json)
		print_json(&s, v, &ms, &rv, &out);
	else
		print_text(&s, v, &ms, &rv, &out);
	fwrite(out.buf, 1, out.len, stdout);
ok:
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	review_release(&rv);
	mailset_release(&ms);
	mail_source_free(src);
	series_release(&s);
	strbuf_release(&spec);
	strbuf_release(&out);
	strbuf_release(&done);
	return r;
}
