// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/mail.h"
#include "patches/patchmail.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <errno.h>
#include <gmime/gmime.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
void mail_gmime_init(void)
{
	static int done;

	if (!done) {
		g_mime_init();
		done = 1;
	}
}

void mail_describe(struct strbuf *out, const char *msgid,
		   const struct mail_where *where)
{
	int has_where = where && (where->path || where->number);

	if (msgid)
		strbuf_addf(out, "message <%s>", msgid);
	else
		strbuf_addstr(out, "a message without a Message-ID");
	if (!has_where)
		return;
	strbuf_addstr(out, " (");
	if (where->number)
		strbuf_addf(out, "#%zu", where->number);
	if (where->number && where->path)
		strbuf_addstr(out, " in ");
	if (where->path)
		strbuf_addstr(out, where->path);
	strbuf_addch(out, ')');
}

/* Adds at most max bytes of p, with anything unprintable as '?'. */
static void add_excerpt(struct strbuf *out, const char *p, size_t n, size_t max)
{
	size_t i;

	for (i = 0; i < n && i < max && p[i] != '\n'; i++)
		strbuf_addch(out, isprint((unsigned char)p[i]) ? p[i] : '?');
	if (i == max && i < n)
		strbuf_addstr(out, "...");
}

/* ---- the header block ---- */

struct raw_header {
	const char *name;
	size_t nlen;
	const char *val;	/* after the colon and leading blanks */
	const char *vend;	/* the end of the last folded line */
};

enum { HDR_END = 0, HDR_ONE = 1, HDR_BAD = -1, HDR_EOF = 2 };

/*
 * Reads the header at *pp.  HDR_ONE: *hdr filled, *pp moved to the next
 * line.  HDR_END: a blank line; *pp moved past it.  HDR_EOF: the end
 * of the message.  HDR_BAD: the line is not a header (*pp stays).
 */
static int header_next(const char **pp, const char *end, struct raw_header *hdr)
{
	const char *p = *pp, *q, *eol;

	if (p >= end)
		return HDR_EOF;
	if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n')) {
		*pp = p + (*p == '\r' ? 2 : 1);
		return HDR_END;
	}
	for (q = p; q < end; q++) {
		unsigned char c = *q;

		if (c == ':' || c <= ' ' || c >= 127)
			break;
	}
	if (q == p)
		goto bad;
	hdr->name = p;
	hdr->nlen = q - p;
	while (q < end && (*q == ' ' || *q == '\t'))	/* "Name :" (obsolete) */
		q++;
	if (q >= end || *q != ':')
		goto bad;
	q++;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	hdr->val = q;
	eol = q;
	for (;;) {
		eol = memchr(eol, '\n', end - eol);
		if (!eol) {
			eol = end;
			break;
		}
		if (eol + 1 < end && (eol[1] == ' ' || eol[1] == '\t')) {
			eol++;
			continue;
		}
		break;
	}
	hdr->vend = eol;
	*pp = eol < end ? eol + 1 : end;
	return HDR_ONE;
bad:
	/* a last line cut in the middle of a header name: no body */
	if (!memchr(p, '\n', end - p)) {
		*pp = end;
		return HDR_EOF;
	}
	return HDR_BAD;
}

static int name_is(const struct raw_header *hdr, const char *name, size_t n)
{
	return hdr->nlen == n && !strncasecmp(hdr->name, name, n);
}

/* Unfolds a value: each line break and the blanks after it become one space. */
static void unfold(struct strbuf *out, const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *stop = nl ? nl : end;

		if (stop > p && stop[-1] == '\r')
			stop--;
		strbuf_add(out, p, stop - p);
		if (!nl)
			break;
		p = nl + 1;
		if (p < end && (*p == ' ' || *p == '\t')) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			strbuf_addch(out, ' ');
		}
	}
	strbuf_rtrim(out);
}

/* Copies an id found between p and end, dropping blanks (broken folding). */
static char *id_dup(const char *p, const char *end)
{
	char *r, *d;

	/* most ids have no blanks in them: one allocation, one copy */
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (p == end)
		return NULL;
	r = d = xmalloc((size_t)(end - p) + 1);
	for (; p < end; p++)
		if (!isspace((unsigned char)*p))
			*d++ = *p;
	*d = '\0';
	return r;
}

char *mail_id_next(const char **pp, const char *end, int bare)
{
	const char *p = *pp, *lt, *gt;

	lt = memchr(p, '<', end - p);
	if (lt) {
		gt = memchr(lt, '>', end - lt);
		if (!gt)
			gt = end;
		*pp = gt < end ? gt + 1 : end;
		return id_dup(lt + 1, gt);
	}
	*pp = end;
	if (!bare)
		return NULL;
	while (p < end && isspace((unsigned char)*p))
		p++;
	lt = p;
	while (p < end && !isspace((unsigned char)*p))
		p++;
	return p > lt ? id_dup(lt, p) : NULL;
}

static char *text_decode(const char *s, int phrase);

/*
 * The Message-ID of a Message-Id header.  Some senders (B4 Relay, 2023)
 * wrote it as encoded words ("=?utf-8?q?=3C2023...=40host=3E?="): an id
 * is ASCII, so such a header is decoded first.
 */
static char *id_header(const struct raw_header *hdr, struct strbuf *scratch)
{
	const char *q = hdr->val;
	char *dec, *id;

	if (memchr(hdr->val, '<', (size_t)(hdr->vend - hdr->val)) ||
	    !memmem(hdr->val, (size_t)(hdr->vend - hdr->val), "=?", 2))
		return mail_id_next(&q, hdr->vend, 1);
	strbuf_reset(scratch);
	unfold(scratch, hdr->val, hdr->vend);
	dec = text_decode(scratch->buf, 0);
	q = dec;
	id = mail_id_next(&q, dec + strlen(dec), 1);
	free(dec);
	return id;
}

/* Text of a header turned into UTF-8: encoded words, 8-bit bytes. */
static char *text_decode(const char *s, int phrase)
{
	char *d, *r;

	if (strstr(s, "=?")) {
		mail_gmime_init();
		d = phrase ? g_mime_utils_header_decode_phrase(NULL, s) :
			     g_mime_utils_header_decode_text(NULL, s);
	} else if (!g_utf8_validate(s, -1, NULL)) {
		mail_gmime_init();
		d = g_mime_utils_decode_8bit(NULL, s, strlen(s));
	} else {
		return xstrdup(s);
	}
	if (!d)
		return xstrdup(s);
	r = xstrdup(d);
	g_free(d);
	/* a decoded word can hold a line break: never a header's line */
	for (d = r; *d; d++)
		if (*d == '\n' || *d == '\r')
			*d = ' ';
	return r;
}

static char *trim_dup(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return p < end ? xstrndup(p, end - p) : NULL;
}

/* Drops quotes and backslash escapes of a display name. */
static char *unquote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			strbuf_addch(&sb, *++s);
		else if (*s != '"')
			strbuf_addch(&sb, *s);
	}
	strbuf_rtrim(&sb);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static void from_parse(struct mail_addr *a, const char *v)
{
	const char *end = v + strlen(v), *lt, *gt, *paren;
	char *name = NULL;

	lt = strrchr(v, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt) {
		a->addr = trim_dup(lt + 1, gt);
		name = trim_dup(v, lt);
	} else if ((paren = strchr(v, '('))) {
		const char *close = strrchr(paren, ')');

		a->addr = trim_dup(v, paren);
		name = trim_dup(paren + 1, close ? close : end);
	} else {
		a->addr = trim_dup(v, end);
	}
	if (name) {
		char *u = unquote(name);

		free(name);
		if (u) {
			a->name = text_decode(u, 0);
			free(u);
		}
	}
	if (a->addr && !g_utf8_validate(a->addr, -1, NULL)) {
		char *d = text_decode(a->addr, 0);

		free(a->addr);
		a->addr = d;
	}
}

void mail_header_init(struct mail_header *h)
{
	memset(h, 0, sizeof(*h));
}

void mail_header_release(struct mail_header *h)
{
	size_t i;

	free(h->message_id);
	free(h->in_reply_to);
	for (i = 0; i < h->nr_references; i++)
		free(h->references[i]);
	free(h->references);
	free(h->subject);
	free(h->from.name);
	free(h->from.addr);
	mail_header_init(h);
}

static int not_a_message(const char *msg, size_t len,
			 const struct mail_where *where)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	mail_describe(&sb, NULL, where);
	strbuf_addstr(&sb, " does not start with a mail header (it starts \"");
	add_excerpt(&sb, msg, len, 60);
	strbuf_addstr(&sb, "\")");
	r = error("%s", sb.buf);
	error_hint("is the input an mbox or a raw mail message? a body needs a blank line before it");
	strbuf_release(&sb);
	return r;
}

int mail_header_scan(struct mail_header *h, const char *msg, size_t len,
		     const struct mail_where *where)
{
	const char *p = msg, *end = msg + len;
	struct strbuf v = STRBUF_INIT;
	struct raw_header hdr;
	int r, first = 1;

	mail_header_release(h);
	/* a stray mbox separator */
	if (len >= 5 && !memcmp(p, "From ", 5)) {
		const char *eol = memchr(p, '\n', len);

		p = eol ? eol + 1 : end;
	}
	for (;;) {
		/*
		 * Past the first header, lines of headers nobody here reads
		 * (Received, DKIM-Signature, X-..., and folded continuations)
		 * are skipped whole: most of a list message's header block.
		 */
		if (!first && p < end) {
			unsigned char c = (unsigned char)*p | 0x20;

			int fold = *p == ' ' || *p == '\t';

			int wanted = c == 'm' || c == 'i' || c == 'r' ||
				     c == 's' || c == 'f' || c == 'd' || c == 'c';

			if (fold || (c >= 'a' && c <= 'z' && !wanted)) {
				const char *eol = memchr(p, '\n', (size_t)(end - p));

				if (eol && (fold || memchr(p, ':', (size_t)(eol - p)))) {
					p = eol + 1;
					continue;
				}
			}
		}
		r = header_next(&p, end, &hdr);
		if (r != HDR_ONE)
			break;
		first = 0;
		switch (hdr.name[0] | 0x20) {
		case 'm':
			if (!h->message_id && name_is(&hdr, "message-id", 10))
				h->message_id = id_header(&hdr, &v);
			break;
		case 'i':
			if (!h->in_reply_to && name_is(&hdr, "in-reply-to", 11)) {
				const char *q = hdr.val;

				h->in_reply_to = mail_id_next(&q, hdr.vend, 1);
			}
			break;
		case 'r':
			if (!h->nr_references && name_is(&hdr, "references", 10)) {
				const char *q = hdr.val;
				char *id;

				while ((id = mail_id_next(&q, hdr.vend, 0))) {
					ALLOC_GROW(h->references, h->nr_references,
						   h->alloc_references);
					h->references[h->nr_references++] = id;
				}
			}
			break;
		case 's':
			if (!h->subject && name_is(&hdr, "subject", 7)) {
				strbuf_reset(&v);
				unfold(&v, hdr.val, hdr.vend);
				h->subject = text_decode(v.buf, 0);
			}
			break;
		case 'f':
			if (!h->from.addr && !h->from.name &&
			    name_is(&hdr, "from", 4)) {
				strbuf_reset(&v);
				unfold(&v, hdr.val, hdr.vend);
				from_parse(&h->from, v.buf);
			}
			break;
		case 'd':
			if (!h->date_valid && name_is(&hdr, "date", 4)) {
				strbuf_reset(&v);
				unfold(&v, hdr.val, hdr.vend);
				h->date_valid = !mail_date_parse_tz(v.buf, &h->date,
							    &h->date_tz);
			}
			break;
		case 'c':
			if (name_is(&hdr, "content-type", 12))
				h->has_content_type = 1;
			break;
		}
	}
	strbuf_release(&v);
	if (r == HDR_BAD && first) {
		mail_header_release(h);
		return not_a_message(msg, len, where);
	}
	/* past a blank line, or at a line that is no header: the body */
	h->has_body = r != HDR_EOF;
	h->body_offset = h->has_body ? (size_t)(p - msg) : len;
	return 0;
}

int mail_header_get(const char *msg, size_t len, const char *name,
		    struct strbuf *out)
{
	const char *p = msg, *end = msg + len;
	size_t n = strlen(name);
	struct raw_header hdr;

	if (len >= 5 && !memcmp(p, "From ", 5)) {
		const char *eol = memchr(p, '\n', len);

		p = eol ? eol + 1 : end;
	}
	while (header_next(&p, end, &hdr) == HDR_ONE) {
		if (name_is(&hdr, name, n)) {
			unfold(out, hdr.val, hdr.vend);
			return 1;
		}
	}
	return 0;
}
