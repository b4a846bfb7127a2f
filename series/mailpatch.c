// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One patch as mail gives it: commit message, author, date and diff,
 * from a mailset's message or from the text respin stores beside a
 * version recorded from mail.
 */
#include "series/mailpatch.h"
#include "patches/email.h"
#include "patches/mail.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mail_patch_release(struct mail_patch *mp)
{
	free(mp->title);
	free(mp->message);
	free(mp->author_name);
	free(mp->author_email);
	free(mp->diff_buf);
	free(mp->message_id);
	memset(mp, 0, sizeof(*mp));
}

/* "Name <addr>" (or a bare address) into its parts. */
static void split_address(const char *s, size_t len, char **name, char **email)
{
	const char *lt = memchr(s, '<', len), *gt;

	if (lt && (gt = memchr(lt, '>', len - (size_t)(lt - s)))) {
		const char *ne = lt;

		while (ne > s && isspace((unsigned char)ne[-1]))
			ne--;
		if (ne > s && *s == '"' && ne[-1] == '"' && ne - s >= 2) {
			s++;
			ne--;
		}
		*name = xstrndup(s, (size_t)(ne - s));
		*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	} else {
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		*name = xstrdup("");
		*email = xstrndup(s, len);
	}
}

static void span_trim(const char **p, size_t *len)
{
	while (*len && isspace((unsigned char)**p)) {
		(*p)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*p)[*len - 1]))
		(*len)--;
}

static int from_mailset(struct mailset *ms, long vi, long i,
			struct mail_patch *mp, int borrow)
{
	struct ms_version *v = &ms->versions[vi];
	struct ms_patch *slot = &v->patches[i];
	struct ms_detail *p = slot->d;
	struct ms_msg *m;
	struct strbuf msg = STRBUF_INIT;
	const char *body;
	size_t blen;

	memset(mp, 0, sizeof(*mp));
	if (slot->msg < 0)
		return error("v%d of \"%s\" is missing patch %ld/%d", v->number,
			     v->title, i + 1, v->total);
	m = &ms->msgs[slot->msg];
	if (!p->pm.diff.p && p->unreadable)
		return error("patch %ld/%d <%s> (\"%s\") cannot be read: %s",
			     i + 1, v->total, m->msgid, m->tags.title,
			     p->unreadable);
	if (!p->pm.diff.p)
		return error("patch %ld/%d <%s> (\"%s\") has no diff", i + 1,
			     v->total, m->msgid, m->tags.title);
	mp->title = xstrdup(m->tags.title ? m->tags.title : "");
	mp->message_id = xstrdup(m->msgid);
	mp->date = m->date;
	mp->date_tz = m->tz;
	body = p->pm.message.p ? p->pm.message.p : "";
	blen = p->pm.message.p ? p->pm.message.len : 0;
	span_trim(&body, &blen);
	/* an in-body "From:" names the real author, as git am reads it */
	if (blen > 6 && !strncmp(body, "From: ", 6)) {
		const char *nl = memchr(body, '\n', blen);
		size_t ll = nl ? (size_t)(nl - body) : blen;

		split_address(body + 6, ll - 6, &mp->author_name,
			      &mp->author_email);
		body += ll;
		blen -= ll;
		span_trim(&body, &blen);
	} else {
		mp->author_name = xstrdup(m->from_name ? m->from_name : "");
		mp->author_email = xstrdup(m->from_addr ? m->from_addr : "");
	}
	strbuf_addstr(&msg, mp->title);
	strbuf_addch(&msg, '\n');
	if (blen) {
		strbuf_addch(&msg, '\n');
		strbuf_add(&msg, body, blen);
		strbuf_addch(&msg, '\n');
	}
	if (p->pm.trailer_block.p && p->pm.trailer_block.len) {
		const char *t = p->pm.trailer_block.p;
		size_t tl = p->pm.trailer_block.len;

		span_trim(&t, &tl);
		strbuf_addch(&msg, '\n');
		strbuf_add(&msg, t, tl);
		strbuf_addch(&msg, '\n');
	}
	mp->message = strbuf_detach(&msg, NULL);
	mp->diff_len = p->pm.diff.len;
	if (borrow) {
		mp->diff = p->pm.diff.p;
	} else {
		mp->diff_buf = xstrndup(p->pm.diff.p, p->pm.diff.len);
		mp->diff = mp->diff_buf;
	}
	return 0;
}

int mail_patch_from_mailset(struct mailset *ms, long vi, long i,
			    struct mail_patch *mp)
{
	return from_mailset(ms, vi, i, mp, 0);
}

int mail_patch_borrow_from_mailset(struct mailset *ms, long vi, long i,
				   struct mail_patch *mp)
{
	return from_mailset(ms, vi, i, mp, 1);
}

void mail_patch_to_text(const struct mail_patch *mp, struct strbuf *out)
{
	const char *body = strchr(mp->message, '\n');

	email_address_header(out, "From", mp->author_name, mp->author_email);
	strbuf_addstr(out, "Date: ");
	email_date(out, (git_time_t)mp->date, mp->date_tz);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "Subject: %s\n", mp->title);
	if (mp->message_id)
		strbuf_addf(out, "Message-Id: <%s>\n", mp->message_id);
	strbuf_addch(out, '\n');
	while (body && *body == '\n')
		body++;
	if (body && *body) {
		strbuf_addstr(out, body);
		if (out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "---\n");
	strbuf_add(out, mp->diff, mp->diff_len);
	if (out->len && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
}

int mail_patch_from_text(const char *text, size_t len, struct mail_patch *mp)
{
	struct mail_header h;
	const char *body, *end = text + len, *diff, *mend;
	struct strbuf msg = STRBUF_INIT;
	size_t off;

	memset(mp, 0, sizeof(*mp));
	mail_header_init(&h);
	if (mail_header_scan(&h, text, len, NULL) < 0) {
		mail_header_release(&h);
		return -1;
	}
	mp->title = xstrdup(h.subject ? h.subject : "");
	mp->message_id = h.message_id ? xstrdup(h.message_id) : NULL;
	mp->author_name = xstrdup(h.from.name ? h.from.name : "");
	mp->author_email = xstrdup(h.from.addr ? h.from.addr : "");
	mp->date = h.date_valid ? h.date : 0;
	mp->date_tz = h.date_valid ? h.date_tz : 0;
	body = text + (h.body_offset < len ? h.body_offset : len);
	mail_header_release(&h);
	off = patchmail_find_diff(body, (size_t)(end - body));
	diff = body + off;
	if (diff >= end) {
		mail_patch_release(mp);
		return error("stored patch mail has no diff");
	}
	mend = diff;
	if (mend - body >= 4 && !strncmp(mend - 4, "---\n", 4))
		mend -= 4;
	strbuf_addstr(&msg, mp->title);
	strbuf_addch(&msg, '\n');
	while (mend > body && mend[-1] == '\n')
		mend--;
	if (mend > body) {
		strbuf_addch(&msg, '\n');
		strbuf_add(&msg, body, (size_t)(mend - body));
		strbuf_addch(&msg, '\n');
	}
	mp->message = strbuf_detach(&msg, NULL);
	mp->diff_len = (size_t)(end - diff);
	mp->diff_buf = xstrndup(diff, mp->diff_len);
	mp->diff = mp->diff_buf;
	return 0;
}

void mail_patches_free(struct mail_patch *mps, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		mail_patch_release(&mps[i]);
	free(mps);
}
