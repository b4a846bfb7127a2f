// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What import keeps of how a version went out: to whom (its "sent"
 * text, as respin send writes it) and who answered it (its "replied"
 * text), for respin send's recipients and its refusal to send a
 * version twice.
 */
#include "series/import.h"
#include "patches/email.h"
#include "patches/mail.h"
#include "patches/reply.h"
#include "tools/lib/error.h"

#include <string.h>
#include <strings.h>

/* Each line of lines, with prefix before it, into out. */
static void prefix_lines(struct strbuf *out, const char *prefix,
			 const char *lines)
{
	while (*lines) {
		const char *nl = strchr(lines, '\n');
		size_t n = nl ? (size_t)(nl - lines) : strlen(lines);

		strbuf_addf(out, "%s%.*s\n", prefix, (int)n, lines);
		lines += n + (nl ? 1 : 0);
	}
}

/*
 * A version whose cover letter (else 1/N) was addressed to someone was
 * sent: "Date:", "To:", "Cc:" and "Message-Id:" lines into sent.  A
 * mailbox git format-patch wrote and nobody sent has no To:/Cc:.
 */
static int sent_text(struct mailset *ms, long vi, struct strbuf *sent)
{
	const struct ms_version *v = &ms->versions[vi];
	long head = v->cover >= 0 ? v->cover : v->total ? v->patches[0].msg : -1;
	struct strbuf raw = STRBUF_INIT, to = STRBUF_INIT, cc = STRBUF_INIT;
	long k;
	int n;

	/* the header alone: a giant patch is not read again for To: */
	if (head < 0 || mailset_raw_head(ms, head, &raw) < 0) {
		error_clear();
		strbuf_release(&raw);
		return 0;
	}
	n = mail_header_mailboxes(raw.buf, raw.len, "to", &to);
	n += mail_header_mailboxes(raw.buf, raw.len, "cc", &cc);
	if (n) {
		strbuf_addstr(sent, "Date: ");
		email_date(sent, (git_time_t)ms->msgs[head].date,
			   ms->msgs[head].tz);
		strbuf_addstr(sent, "\n");
		prefix_lines(sent, "To: ", to.buf);
		prefix_lines(sent, "Cc: ", cc.buf);
		for (k = -1; k < v->total; k++) {
			long m = k < 0 ? v->cover : v->patches[k].msg;

			if (m >= 0)
				strbuf_addf(sent, "Message-Id: <%s>\n",
					    ms->msgs[m].msgid);
		}
	}
	strbuf_release(&raw);
	strbuf_release(&to);
	strbuf_release(&cc);
	return n;
}

/* Whether line (n bytes, its newline included) is in text. */
static int has_line(const char *text, const char *line, size_t n)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (l == n && !strncasecmp(p, line, n))
			return 1;
		p += l;
	}
	return 0;
}

/*
 * Everyone who replied to the version's cover letter or patches, but
 * its author and bots: "Name <a@b>" lines, each once.
 */
static void replied_text(const struct mailset *ms, long vi, struct strbuf *out)
{
	const struct ms_version *v = &ms->versions[vi];
	struct strbuf line = STRBUF_INIT;
	long k;

	for (k = -1; k < v->total; k++) {
		const struct ms_detail *d = k < 0 ? v->cover_part.d :
					    v->patches[k].d;
		size_t i;

		if (!d)
			continue;
		for (i = 0; i < d->nr_replies; i++) {
			const struct ms_msg *m = &ms->msgs[d->replies[i]];
			const char *c;

			if (!m->from_addr || !strchr(m->from_addr, '@') ||
			    strpbrk(m->from_addr, " \t\r\n,<>\"") ||
			    (v->from_addr &&
			     !strcasecmp(m->from_addr, v->from_addr)) ||
			    reply_from_bot(m->from_name, m->from_addr))
				continue;
			strbuf_reset(&line);
			if (m->from_name && *m->from_name) {
				strbuf_addch(&line, '"');
				for (c = m->from_name; *c; c++) {
					if (*c == '"' || *c == '\\')
						strbuf_addch(&line, '\\');
					strbuf_addch(&line, (unsigned char)*c <
						     0x20 ? ' ' : *c);
				}
				strbuf_addstr(&line, "\" ");
			}
			strbuf_addf(&line, "<%s>\n", m->from_addr);
			if (!has_line(out->buf, line.buf, line.len))
				strbuf_add(out, line.buf, line.len);
		}
	}
	strbuf_release(&line);
}

int import_sent_record(git_repository *repo, struct series *s,
		       struct mailset *ms, long vi, struct series_version *sv)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT;
	int r = 0;

	/* what send (or an earlier import) wrote stays */
	if (series_version_text(repo, s, sv, SERIES_TEXT_SENT, &old) ==
	    RESPIN_ENOTFOUND && sent_text(ms, vi, &text))
		series_version_set_text(sv, SERIES_TEXT_SENT, text.buf,
					text.len);
	error_clear();
	/* replies only add: a source without some forgets none */
	strbuf_reset(&old);
	strbuf_reset(&text);
	r = series_version_text(repo, s, sv, SERIES_TEXT_REPLIED, &old);
	if (r == RESPIN_ENOTFOUND)
		r = 0;
	error_clear();
	if (!r) {
		size_t was = old.len;
		const char *p;

		replied_text(ms, vi, &text);
		for (p = text.buf; *p;) {
			const char *nl = strchr(p, '\n');
			size_t n = (size_t)(nl - p) + 1;

			if (!has_line(old.buf, p, n))
				strbuf_add(&old, p, n);
			p += n;
		}
		if (old.len != was)
			series_version_set_text(sv, SERIES_TEXT_REPLIED,
						old.buf, old.len);
	}
	strbuf_release(&text);
	strbuf_release(&old);
	return r;
}
