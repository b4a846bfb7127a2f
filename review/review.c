// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A version's review: every reply to it, per patch and for the cover
 * letter, with the review comments in it and the state of each (open,
 * answered, addressed by the next version, marked done), the trailers
 * and the bots' reports.
 */
#include "review/review.h"
#include "patches/mail.h"
#include "patches/patch.h"
#include "patches/patchmail.h"
#include "review/nextpair.h"
#include "review/trailers.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/*
 * The patch of w comment c is followed into: of the patches holding
 * the lines of its patch (its pair, the parts it was split into), the
 * one that holds most of what c quotes, the pair on a tie.  Its index
 * in parts, and in *score how much it holds.
 */
static size_t follow(const struct comment *c, const struct next_parts *parts,
		     char **diffs, size_t *score)
{
	size_t i, best = 0;

	*score = 0;
	for (i = 0; i < parts->nr; i++) {
		size_t sc = comment_holds(c, diffs[i]);

		if (sc > *score) {
			*score = sc;
			best = i;
		}
	}
	return best;
}

static void reply_states(git_repository *repo, const struct series *s,
			 const struct series_version *w,
			 const struct next_pairs *pairs, struct mailset *ms,
			 const char *author, const char *done,
			 const char *old_diff, struct review_reply *rr)
{
	const struct ms_msg *m = &ms->msgs[rr->msg];
	const struct next_parts *parts = NULL;
	char **nds = NULL;
	size_t k, j, i;

	rr->states = xcalloc(rr->comments.nr + 1, sizeof(*rr->states));
	rr->why = xcalloc(rr->comments.nr + 1, sizeof(*rr->why));
	if (w && rr->target && rr->target <= pairs->nv) {
		parts = &pairs->parts[rr->target - 1];
		nds = xcalloc(parts->nr + 1, sizeof(*nds));
		for (i = 0; i < parts->nr; i++)
			nds[i] = next_diff(repo, s, w, (size_t)parts->w[i]);
	}
	for (k = 0; k < rr->comments.nr; k++) {
		const struct comment *c = &rr->comments.items[k];
		struct strbuf why = STRBUF_INIT;
		size_t np = 0, held = 0;
		const char *nd = NULL;

		if (parts && parts->nr) {
			i = follow(c, parts, nds, &held);
			np = (size_t)parts->w[i];
			nd = nds[i];
		}
		if (marked(done, m->msgid, k + 1)) {
			rr->states[k] = REVIEW_DONE;
		} else if (w && rr->target && old_diff &&
			   (!np || comment_addressed(c,
				rr->target <= pairs->nv ?
				pairs->msg_v[rr->target - 1] : NULL, old_diff,
				pairs->msg_w[np - 1], nd))) {
			rr->states[k] = REVIEW_ADDRESSED;
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
						rr->states[k] = REVIEW_ANSWERED;
						strbuf_addf(&why, "<%s>",
							    ms->msgs[j].msgid);
					}
				}
				error_clear();
				comment_list_release(&ans);
				strbuf_release(&body);
			}
			/* split in w: say which part its lines went to */
			if (rr->states[k] == REVIEW_OPEN && parts &&
			    parts->nr > 1 && held)
				strbuf_addf(&why, "in v%d %zu/%zu", w->number,
					    np, w->nr_patches);
		}
		rr->why[k] = why.len ? strbuf_detach(&why, NULL) : NULL;
		strbuf_release(&why);
	}
	for (i = 0; parts && i < parts->nr; i++)
		free(nds[i]);
	free(nds);
}

static int collect(git_repository *repo, struct series *s,
		   struct series_version *v, struct mailset *ms,
		   const char *done, struct review *rv)
{
	long m = mailset_find(ms, v->message_id), vi;
	struct ms_version *mv;
	const struct series_version *w = NULL;
	struct next_pairs pairs = { 0 };
	size_t i, t, total;
	int r;

	if (m < 0 || (vi = ms->msgs[m].version) < 0)
		return error_code(RESPIN_ENOTFOUND, "the mail of %s v%d <%s> is "
				  "not in %s: give --source", s->name, v->number,
				  v->message_id, mail_source_describe(ms->src));
	r = mailset_load(ms, vi);
	if (r < 0)
		return r;
	mv = &ms->versions[vi];
	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number > v->number &&
		    (!w || s->versions[i].number < w->number))
			w = &s->versions[i];
	if (w)
		r = series_version_ensure(repo, s, (struct series_version *)w);
	/* the next version's patches, paired as respin diff pairs them */
	if (w && !r)
		r = next_pairs_load(repo, s, v, w, &pairs);
	if (r < 0)
		return r;
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
			reply_states(repo, s, w, &pairs, ms, mv->from_addr,
				     done, old, rr);
			strbuf_release(&body);
		}
		free(old);
	}
	next_pairs_release(&pairs);
	return 0;
}

void review_init(struct review *rv)
{
	memset(rv, 0, sizeof(*rv));
	mailset_init(&rv->ms, NULL);
	strbuf_init(&rv->done, 0);
}

void review_release(struct review *rv)
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
	mailset_release(&rv->ms);
	mail_source_free(rv->src);
	strbuf_release(&rv->done);
}

const char *review_state_name(enum review_state s)
{
	return s == REVIEW_OPEN ? "open" : s == REVIEW_ANSWERED ? "answered" :
	       s == REVIEW_ADDRESSED ? "addressed" : "done";
}

int review_load(git_repository *repo, struct series *s,
		struct series_version *v, const char *source, int refresh,
		struct review *rv)
{
	struct strbuf spec = STRBUF_INIT;
	int r;

	if (!v->message_id)
		return error("%s v%d has no Message-IDs (it was not imported "
			     "from mail or sent): there are no replies to it",
			     s->name, v->number);
	if (source)
		strbuf_addstr(&spec, source);
	else
		trailers_default_source(s, v, &spec);
	if (series_version_text(repo, s, v, SERIES_TEXT_DONE, &rv->done) < 0)
		error_clear();
	r = mailset_source_open(repo, spec.buf, refresh, &rv->src);
	strbuf_release(&spec);
	if (r < 0)
		return r;
	rv->ms.src = rv->src;
	r = mailset_scan(&rv->ms);
	if (!r)
		r = mailset_group(&rv->ms, 0, v->message_id);
	if (!r)
		r = collect(repo, s, v, &rv->ms, rv->done.buf, rv);
	return r;
}

int review_mark_done(git_repository *repo, struct series *s,
		     struct series_version *v, struct review *rv,
		     const char *spec, char **marked_id)
{
	const char *colon = strrchr(spec, ':');
	char *id = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	size_t n = 0, i;
	const struct review_reply *rr = NULL;
	struct strbuf msg = STRBUF_INIT, *done = &rv->done;
	int r;

	*marked_id = NULL;
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
		if (!strcmp(rv->ms.msgs[rv->items[i].msg].msgid, id))
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
	strbuf_release(&msg);
	if (r < 0)
		free(id);
	else
		*marked_id = id;
	return r;
}
