// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A version's details, parsed only once it is asked for: each message's
 * full text, the patch mail split, its trailers, the replies' trailers
 * and the bots' reports.
 */
#include "series/mailsetpriv.h"
#include "patches/mail.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>


static int load_part(struct mailset *ms, struct ms_patch *p, int want_diff)
{
	struct strbuf raw = STRBUF_INIT, what = STRBUF_INIT;
	struct mail_body b;
	struct mail_where where;
	struct ms_msg *m = &ms->msgs[p->msg];
	struct ms_detail *d = p->d;
	int r;

	where.path = mail_source_name(ms->src);
	where.number = m->number;
	mail_body_init(&b);
	r = mailset_raw(ms, p->msg, &raw);
	if (!r)
		r = mail_body_parse(&b, raw.buf, raw.len, &where);
	/* one copy of a big patch at a time: the raw mail goes first */
	strbuf_release(&raw);
	if (r < 0)
		goto out;
	strbuf_attach(&d->body, b.text, b.len, b.len + 1);
	b.text = NULL;
	b.len = 0;
	mail_describe(&what, m->msgid, &where);
	/* what was kept as it was (an unknown charset, bad UTF-8) */
	{
		size_t w;

		for (w = 0; w < b.nr_warnings; w++)
			ms_note_add(ms, p->msg, m->version, -1, "%s: %s", what.buf,
				    b.warnings[w]);
	}
	patchmail_release(&d->pm);
	patchmail_init(&d->pm);
	r = patchmail_split(&d->pm, d->body.buf, d->body.len, what.buf);
	if (r < 0)
		goto out;
	if (want_diff && d->pm.diff.p) {
		git_diff *diff = NULL;

		if (git_diff_from_buffer(&diff, d->pm.diff.p,
					 d->pm.diff.len) < 0 ||
		    patch_diff_id(diff, &d->patch_id) < 0) {
			r = error_git("cannot read the diff in %s", what.buf);
			git_diff_free(diff);
			goto out;
		}
		git_diff_free(diff);
		d->has_patch_id = 1;
	}
out:
	mail_body_release(&b);
	strbuf_release(&raw);
	strbuf_release(&what);
	return r;
}

static int load_reply(struct mailset *ms, long mi, struct ms_detail *into)
{
	struct strbuf raw = STRBUF_INIT;
	struct mail_body b;
	struct mail_where where = { mail_source_name(ms->src),
				    ms->msgs[mi].number };
	int r;

	ALLOC_GROW(into->replies, into->nr_replies, into->alloc_replies);
	into->replies[into->nr_replies++] = mi;
	mail_body_init(&b);
	r = mailset_raw(ms, mi, &raw);
	if (!r)
		r = mail_body_parse(&b, raw.buf, raw.len, &where);
	if (!r) {
		const struct ms_msg *m = &ms->msgs[mi];
		size_t k = into->bot_reports.nr;

		reply_parse(&into->reply_trailers, &into->bot_reports, b.text,
			    b.len, m->from_name, m->from_addr);
		for (; k < into->bot_reports.nr; k++)
			into->bot_reports.items[k].message_id = m->msgid;
	}
	mail_body_release(&b);
	strbuf_release(&raw);
	return r;
}

static struct ms_detail *detail_new(void)
{
	struct ms_detail *d = xcalloc(1, sizeof(*d));

	strbuf_init(&d->body, 0);
	patchmail_init(&d->pm);
	trailer_list_init(&d->reply_trailers);
	bot_report_list_init(&d->bot_reports);
	return d;
}

int mailset_load(struct mailset *ms, long vi)
{
	struct ms_version *v = &ms->versions[vi];
	size_t i;
	long k;
	int r;

	if (v->loaded)
		return 0;
	v->loaded = 1;
	for (k = 0; k < v->total; k++) {
		struct ms_patch *p = &v->patches[k];

		p->d = detail_new();
		if (p->msg >= 0 && load_part(ms, p, 1) < 0) {
			/* keep going: the listing notes it, import refuses */
			ms_note_add(ms, p->msg, vi, -1, "unreadable: %s",
				    error_last());
			p->d->unreadable = xstrdup(error_last());
			error_clear();
			p->d->pm.diff.p = NULL;
			p->d->has_patch_id = 0;
		}
	}
	v->cover_part.d = detail_new();
	v->cover_part.msg = v->cover;
	if (v->cover >= 0 && load_part(ms, &v->cover_part, 0) < 0) {
		ms_note_add(ms, v->cover, vi, -1, "unreadable: %s", error_last());
		error_clear();
	}
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		struct ms_msg *target;

		if (m->kind != MS_REPLY || m->patch_of < 0)
			continue;
		target = &ms->msgs[m->patch_of];
		if (target->version != vi)
			continue;
		if (target->kind == MS_COVER)
			r = load_reply(ms, (long)i, v->cover_part.d);
		else
			r = load_reply(ms, (long)i,
				       v->patches[target->tags.index - 1].d);
		if (r < 0) {
			ms_note_add(ms, (long)i, vi, -1, "skipped reply: %s",
				    error_last());
			error_clear();
		}
	}
	return 0;
}
