// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin reply's work: the message found in its source, the stored
 * results of the patch it is (with --results), and the draft.
 */
#include "review/replydraft.h"
#include "patches/email.h"
#include "patches/patchmail.h"
#include "patches/patch.h"
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
	    !patch_diff_id(diff, out))
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

/* How far up an In-Reply-To chain a reply is followed. */
#define CHAIN_MAX 64

/* The Message-IDs tried: the chain, then the References that leave it. */
struct chain_ids {
	const char *v[CHAIN_MAX + 8];
	size_t nr;
};

/* Adds id (a string that outlives ids) to the Message-IDs, once. */
static void add_id(struct chain_ids *ids, const char *id)
{
	size_t i;

	if (!id || !*id || ids->nr == sizeof(ids->v) / sizeof(ids->v[0]))
		return;
	for (i = 0; i < ids->nr; i++)
		if (!strcmp(ids->v[i], id))
			return;
	ids->v[ids->nr++] = id;
}

/*
 * The results block of the patch (or the version) the message is, or
 * answers: up its In-Reply-To chain in the source to the first patch
 * mail or cover letter, every Message-ID on the way (and those its
 * References name, nearest first, where the chain leaves the source)
 * tried against what send recorded; the patch's diff gives its patch-id
 * and its subject the version it was sent as.
 */
static int results_block(git_repository *repo, struct mailset *ms,
			 const char *msgid, struct strbuf *block)
{
	struct reply_target t = { 0 };
	struct chain_ids ids = { { 0 }, 0 };
	struct strbuf raw = STRBUF_INIT;
	git_oid pid;
	long m = mailset_find(ms, msgid), up;
	int depth, have = 0, r;

	add_id(&ids, msgid);
	for (depth = 0; m >= 0 && depth < CHAIN_MAX; depth++) {
		const struct ms_msg *mm = &ms->msgs[m];
		struct mail_where w = { mail_source_name(ms->src), mm->number };
		size_t k;

		add_id(&ids, mm->msgid);
		if (mm->tags.is_patch && !mm->tags.is_reply) {
			strbuf_reset(&raw);
			if (!mailset_raw(ms, m, &raw))
				have = mail_patch_id(raw.buf, raw.len, &w, &pid);
			error_clear();
			if (!have)
				have = t.whole = cover_patch_id(ms, m, &pid);
			if (have || mm->tags.is_cover) {
				t.version = mm->tags.version;
				break;
			}
		}
		up = mm->irt ? mailset_find(ms, mm->irt) : -1;
		if (up < 0) {
			/* the chain leaves the source: what it names */
			add_id(&ids, mm->irt);
			for (k = mm->nr_refs; k-- > 0;)
				add_id(&ids, mm->refs[k]);
		}
		m = up;
	}
	t.ids = ids.v;
	t.nr_ids = ids.nr;
	t.pid = have ? &pid : NULL;
	r = reply_results(repo, &t, block);
	strbuf_release(&raw);
	return r;
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
		r = results_block(repo, &ms, rq->msgid, &block);
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
