// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin reply's work: the message found in its source, the stored
 * results of the patch it is (with --results), and the draft.
 */
#include "review/replydraft.h"
#include "patches/email.h"
#include "patches/patchmail.h"
#include "review/replyresults.h"
#include "series/mailset.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The local zone now, in minutes east of UTC. */
static int local_tz(int64_t when)
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return (int)(tm.tm_gmtoff / 60);
}

/* The patch-id of the diff in the message, when it has one. */
static int mail_patch_id(const char *raw, size_t len,
			 const struct mail_where *where, git_oid *out)
{
	struct mail_body b;
	struct patchmail pm;
	git_diff *diff = NULL;
	int got = 0;

	mail_body_init(&b);
	patchmail_init(&pm);
	if (mail_body_parse(&b, raw, len, where) < 0 ||
	    patchmail_split(&pm, b.text, b.len, "the message") < 0) {
		error_clear();
		goto out;
	}
	if (pm.diff.p && !git_diff_from_buffer(&diff, pm.diff.p, pm.diff.len) &&
	    !git_diff_patchid(out, diff, NULL))
		got = 1;
	git_error_clear();
	git_diff_free(diff);
out:
	patchmail_release(&pm);
	mail_body_release(&b);
	return got;
}

/*
 * A cover letter has no diff: the patch-id of the first of its patches
 * in the source names its version.
 */
static int cover_patch_id(struct mailset *ms, long m, git_oid *out)
{
	struct ms_version *v;
	long vi, k;

	if (mailset_group(ms, 0, ms->msgs[m].msgid) < 0) {
		error_clear();
		return 0;
	}
	if (ms->msgs[m].kind != MS_COVER || (vi = ms->msgs[m].version) < 0)
		return 0;
	if (mailset_load(ms, vi) < 0) {
		error_clear();
		return 0;
	}
	v = &ms->versions[vi];
	for (k = 0; k < v->total; k++)
		if (v->patches[k].d && v->patches[k].d->has_patch_id) {
			*out = v->patches[k].d->patch_id;
			return 1;
		}
	return 0;
}

/* Finds msgid in the source; its raw text, where it is. */
static int find_message(struct mailset *ms, const char *msgid,
			struct strbuf *raw, struct mail_where *w)
{
	long m;
	int r = mailset_scan(ms);

	if (r < 0)
		return r;
	m = mailset_find(ms, msgid);
	if (m < 0)
		return error_code(RESPIN_ENOTFOUND, "no message <%s> in %s",
				  msgid, mail_source_describe(ms->src));
	w->path = mail_source_name(ms->src);
	w->number = ms->msgs[m].number;
	return mailset_raw(ms, m, raw);
}

/* The results block of the patch (or the version) the message is. */
static int results_block(git_repository *repo, struct mailset *ms,
			 const char *msgid, const struct strbuf *raw,
			 const struct mail_where *w, struct strbuf *block)
{
	git_oid pid;
	int whole = 0;
	int have = mail_patch_id(raw->buf, raw->len, w, &pid);

	if (!have)
		have = whole = cover_patch_id(ms, mailset_find(ms, msgid),
					      &pid);
	return reply_results(repo, msgid, have ? &pid : NULL, whole, block);
}

int reply_make(git_repository *repo, const struct reply_request *rq,
	       struct strbuf *draft, struct strbuf *id)
{
	struct reply_options ro = { 0 };
	struct mail_source *src = NULL;
	struct mailset ms;
	struct mail_where w = { NULL, 0 };
	struct strbuf raw = STRBUF_INIT, block = STRBUF_INIT;
	int r;

	mailset_init(&ms, NULL);
	r = mailset_source_open(repo, rq->source, rq->refresh, &src);
	ms.src = src;
	if (!r)
		r = find_message(&ms, rq->msgid, &raw, &w);
	if (!r && rq->results)
		r = results_block(repo, &ms, rq->msgid, &raw, &w, &block);
	if (r < 0)
		goto out;
	ro.from_name = rq->name;
	ro.from_addr = rq->addr;
	ro.date = rq->date;
	/* GIT_COMMITTER_DATE's own offset, else the local one */
	if (repo_env_date(&ro.date, &ro.date_tz) < 0) {
		ro.date = rq->date;
		ro.date_tz = local_tz(ro.date);
	}
	ro.block = block.len ? block.buf : NULL;
	ro.trailer = rq->trailer;
	reply_make_message_id(id, rq->addr, ro.date);
	ro.message_id = id->buf;
	r = reply_draft(draft, raw.buf, raw.len, &w, &ro, NULL);
out:
	strbuf_release(&raw);
	strbuf_release(&block);
	mailset_release(&ms);
	mail_source_free(src);
	return r;
}
