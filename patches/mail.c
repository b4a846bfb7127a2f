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

/*
 * The next "<id>" between *pp and end; without angle brackets, the
 * first word when bare is set.  Returns NULL when there is none.
 */
static char *id_next(const char **pp, const char *end, int bare)
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
		return id_next(&q, hdr->vend, 1);
	strbuf_reset(scratch);
	unfold(scratch, hdr->val, hdr->vend);
	dec = text_decode(scratch->buf, 0);
	q = dec;
	id = id_next(&q, dec + strlen(dec), 1);
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

				h->in_reply_to = id_next(&q, hdr.vend, 1);
			}
			break;
		case 'r':
			if (!h->nr_references && name_is(&hdr, "references", 10)) {
				const char *q = hdr.val;
				char *id;

				while ((id = id_next(&q, hdr.vend, 0))) {
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

/* ---- dates ---- */

static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int digits(const char **pp, int min, int max, int *out)
{
	const char *p = *pp;
	int n = 0, v = 0;

	while (n < max && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		n++;
	}
	if (n < min)
		return -1;
	*pp = p;
	*out = v;
	return 0;
}

static void skip_blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}

/* "[Day,] DD Mon YYYY HH:MM[:SS] +ZZZZ|GMT|UT|UTC|Z" */
static int date_fast(const char *p, long long *out, int *tz)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	int day, mon, year, hh, mm, ss = 0, zone = 0, zh, zm, i;
	char m[3];

	skip_blanks(&p);
	if (isalpha((unsigned char)*p)) {
		while (isalpha((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		skip_blanks(&p);
	}
	if (digits(&p, 1, 2, &day) < 0)
		return -1;
	skip_blanks(&p);
	for (i = 0; i < 3; i++) {
		if (!isalpha((unsigned char)p[i]))
			return -1;
		m[i] = tolower((unsigned char)p[i]);
	}
	p += 3;
	while (isalpha((unsigned char)*p))
		p++;
	for (mon = 0; mon < 12; mon++)
		if (!memcmp(months + 3 * mon, m, 3))
			break;
	if (mon == 12)
		return -1;
	skip_blanks(&p);
	{
		const char *y0 = p;

		if (digits(&p, 2, 4, &year) < 0)
			return -1;
		if (p - y0 == 2)
			year += year < 50 ? 2000 : 1900;
		else if (p - y0 == 3)
			year += 1900;
	}
	skip_blanks(&p);
	if (digits(&p, 1, 2, &hh) < 0 || *p++ != ':' ||
	    digits(&p, 2, 2, &mm) < 0)
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, 2, &ss) < 0)
			return -1;
	}
	skip_blanks(&p);
	if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1;

		if (digits(&p, 2, 2, &zh) < 0 || digits(&p, 2, 2, &zm) < 0)
			return -1;
		zone = sign * (zh * 3600 + zm * 60);
	} else if (!strncasecmp(p, "GMT", 3) || !strncasecmp(p, "UTC", 3) ||
		   !strncasecmp(p, "UT", 2) || *p == 'Z' || *p == 'z') {
		zone = 0;
	} else {
		return -1;	/* other zone names: let GMime decide */
	}
	if (day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60)
		return -1;
	*out = days_from_civil(year, mon + 1, day) * 86400LL +
	       hh * 3600 + mm * 60 + ss - zone;
	*tz = zone / 60;
	return 0;
}

int mail_date_parse_tz(const char *s, long long *out, int *tz_minutes)
{
	GDateTime *dt;
	int tz = 0;

	if (!tz_minutes)
		tz_minutes = &tz;
	*tz_minutes = 0;
	if (!date_fast(s, out, tz_minutes))
		return 0;
	mail_gmime_init();
	dt = g_mime_utils_header_decode_date(s);
	if (!dt)
		return -1;
	*out = g_date_time_to_unix(dt);
	*tz_minutes = (int)(g_date_time_get_utc_offset(dt) /
			    G_TIME_SPAN_MINUTE);
	g_date_time_unref(dt);
	/* GMime answers the epoch for what it cannot read */
	return *out ? 0 : -1;
}

int mail_date_parse(const char *s, long long *out)
{
	return mail_date_parse_tz(s, out, NULL);
}

/* ---- the full parse ---- */

void mail_body_init(struct mail_body *b)
{
	memset(b, 0, sizeof(*b));
}

void mail_body_release(struct mail_body *b)
{
	size_t i;

	free(b->text);
	free(b->message_id);
	free(b->charset);
	for (i = 0; i < b->nr_warnings; i++)
		free(b->warnings[i]);
	free(b->warnings);
	mail_body_init(b);
}

static __attribute__((format(printf, 2, 3)))
void body_warn(struct mail_body *b, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(b->warnings, b->nr_warnings, b->alloc_warnings);
	b->warnings[b->nr_warnings++] = strbuf_detach(&sb, NULL);
}

static int is_utf8_name(const char *cs)
{
	return !strcasecmp(cs, "utf-8") || !strcasecmp(cs, "utf8") ||
	       !strcasecmp(cs, "us-ascii") || !strcasecmp(cs, "ascii");
}

/* Converts in[0..len) from charset into UTF-8; invalid bytes become U+FFFD. */
static int convert_utf8(struct strbuf *out, const char *in, size_t len,
			const char *charset, size_t *bad)
{
	iconv_t cd = g_mime_iconv_open("UTF-8", charset);
	char *ip = (char *)in;
	size_t ileft = len;

	*bad = 0;
	if (cd == (iconv_t)-1)
		return -1;
	strbuf_grow(out, len + len / 2 + 16);
	while (ileft) {
		char *op;
		size_t oleft, r;

		strbuf_grow(out, ileft * 2 + 16);
		op = out->buf + out->len;
		oleft = out->alloc - out->len - 1;
		r = iconv(cd, &ip, &ileft, &op, &oleft);
		strbuf_setlen(out, op - out->buf);
		if (r != (size_t)-1)
			break;
		if (errno == E2BIG)
			continue;
		/* EILSEQ, or EINVAL (cut at the end): skip one byte */
		strbuf_addstr(out, "\xef\xbf\xbd");
		(*bad)++;
		ip++;
		ileft--;
	}
	g_mime_iconv_close(cd);
	return 0;
}

/* Reads a whole GMime stream into sb. */
static void stream_slurp(GMimeStream *s, struct strbuf *sb)
{
	char buf[8192];
	ssize_t n;

	g_mime_stream_reset(s);
	while ((n = g_mime_stream_read(s, buf, sizeof(buf))) > 0)
		strbuf_add(sb, buf, n);
}

/*
 * Checks base64 text: the alphabet, blanks, and '=' only at the end.
 * Returns -1 and the offset of the first bad byte, or 0.
 */
static int base64_check(const char *p, size_t len, size_t *bad)
{
	size_t i, n = 0, pad = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=') {
			pad++;
			if (pad > 2) {
				*bad = i;
				return -1;
			}
			continue;
		}
		if (!(isalnum(c) || c == '+' || c == '/') || pad) {
			*bad = i;
			return -1;
		}
		n++;
	}
	if (n % 4 == 1) {
		*bad = len;
		return -1;
	}
	return 0;
}

struct body_ctx {
	struct mail_body *b;
	const char *msg;
	size_t len;
	const struct mail_where *where;
	GMimePart **parts;
	size_t nr_parts, alloc_parts;
};

static int body_error(struct body_ctx *c, const char *what, const char *hint)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	mail_describe(&sb, c->b->message_id, c->where);
	r = error("%s: %s", sb.buf, what);
	if (hint)
		error_hint("%s", hint);
	strbuf_release(&sb);
	return r;
}

static int is_text_part(GMimeContentType *ct)
{
	return g_mime_content_type_is_type(ct, "text", "plain") ||
	       g_mime_content_type_is_type(ct, "text", "x-patch") ||
	       g_mime_content_type_is_type(ct, "text", "x-diff") ||
	       g_mime_content_type_is_type(ct, "text", "diff") ||
	       g_mime_content_type_is_type(ct, "application", "x-patch") ||
	       g_mime_content_type_is_type(ct, "application", "x-diff");
}

static void parts_collect(struct body_ctx *c, GMimeObject *obj, int depth)
{
	if (!obj || depth > 32)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++)
			parts_collect(c, g_mime_multipart_get_part(mp, i),
				      depth + 1);
	} else if (GMIME_IS_PART(obj)) {
		GMimeContentType *ct = g_mime_object_get_content_type(obj);

		if (ct && is_text_part(ct)) {
			ALLOC_GROW(c->parts, c->nr_parts, c->alloc_parts);
			c->parts[c->nr_parts++] = GMIME_PART(obj);
		}
	}
	/* message/rfc822 parts are someone else's message: skipped */
}

static void part_name(struct strbuf *sb, GMimePart *part)
{
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
	char *mt = ct ? g_mime_content_type_get_mime_type(ct) : NULL;

	strbuf_addstr(sb, mt ? mt : "text/plain");
	g_free(mt);
}

/* Decodes one part into out as UTF-8. */
static int part_decode(struct body_ctx *c, GMimePart *part, struct strbuf *out,
		       int first)
{
	GMimeDataWrapper *dw = g_mime_part_get_content(part);
	const char *cs;
	struct strbuf raw = STRBUF_INIT, name = STRBUF_INIT;
	GMimeStream *mem;
	GByteArray *arr;
	int r = 0;

	if (!dw)
		return 0;
	part_name(&name, part);
	if (g_mime_data_wrapper_get_encoding(dw) == GMIME_CONTENT_ENCODING_BASE64) {
		GMimeStream *s = g_mime_data_wrapper_get_stream(dw);
		size_t bad;

		if (s)
			stream_slurp(s, &raw);
		if (base64_check(raw.buf, raw.len, &bad) < 0) {
			struct strbuf what = STRBUF_INIT;

			if (bad < raw.len)
				strbuf_addf(&what, "the base64 of its %s part is broken (byte 0x%02x at offset %zu of the encoded text)",
					    name.buf, (unsigned char)raw.buf[bad], bad);
			else
				strbuf_addf(&what, "the base64 of its %s part is broken (it ends in the middle of a group)",
					    name.buf);
			r = body_error(c, what.buf,
				       "the message was damaged on its way: fetch it again (lore's /raw) or ask the sender to resend it");
			strbuf_release(&what);
			goto out;
		}
		strbuf_reset(&raw);
	}
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(dw, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	if (arr && arr->len)
		strbuf_add(&raw, arr->data, arr->len);
	g_object_unref(mem);

	cs = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "charset");
	if (first && cs) {
		free(c->b->charset);
		c->b->charset = xstrdup(cs);
	}
	if (!cs || is_utf8_name(cs)) {
		if (!g_utf8_validate(raw.buf, raw.len, NULL))
			body_warn(c->b, "its %s part%s%s%s is not valid UTF-8: bytes kept as they are",
				  name.buf, cs ? " (charset " : "",
				  cs ? cs : "", cs ? ")" : "");
		strbuf_add(out, raw.buf, raw.len);
	} else {
		size_t bad;
		size_t mark = out->len;

		if (convert_utf8(out, raw.buf, raw.len, cs, &bad) < 0) {
			strbuf_setlen(out, mark);
			body_warn(c->b, "its %s part has an unknown charset \"%s\": bytes kept as they are",
				  name.buf, cs);
			strbuf_add(out, raw.buf, raw.len);
		} else if (bad) {
			body_warn(c->b, "its %s part has %zu bytes that are not %s: replaced by U+FFFD",
				  name.buf, bad, cs);
		}
	}
out:
	strbuf_release(&raw);
	strbuf_release(&name);
	return r;
}

static int has_diff(const char *p, size_t len)
{
	return patchmail_find_diff(p, len) < len;
}

/* Valid UTF-8 (or plain ASCII) throughout? */
static int utf8_valid(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t k, len;

		if (c < 0x80) {
			i++;
			continue;
		}
		len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
		      (c & 0xf8) == 0xf0 ? 4 : 0;
		if (!len || i + len > n || (len == 2 && c < 0xc2))
			return 0;
		for (k = 1; k < len; k++)
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
		i += len;
	}
	return 1;
}

/* Does the value start with word (case-insensitive, blanks skipped)? */
static int value_is(const char *v, const char *word)
{
	size_t n = strlen(word);

	while (*v == ' ' || *v == '\t')
		v++;
	return !strncasecmp(v, word, n) &&
	       (!v[n] || v[n] == ';' || v[n] == ' ' || v[n] == '\t' ||
		v[n] == '\r' || v[n] == '\n');
}

/*
 * The common case without GMime: a single text/plain part in UTF-8 or
 * ASCII, 7bit or 8bit.  Returns 1 when it filled b, 0 to say "use the
 * full parser".
 */
static int plain_body(struct mail_body *b, const char *msg, size_t len)
{
	struct strbuf ct = STRBUF_INIT, cte = STRBUF_INIT, idb = STRBUF_INIT;
	const char *body, *cs, *q;
	int ok = 0;

	if (memchr(msg, '\r', len) || !len || !isalpha((unsigned char)msg[0]))
		return 0;
	/* a header first, and a body after a blank line: else GMime says */
	q = memchr(msg, ':', len);
	if (!q || memchr(msg, ' ', (size_t)(q - msg)) ||
	    memchr(msg, '\n', (size_t)(q - msg)) || !memmem(msg, len, "\n\n", 2))
		return 0;
	if (mail_header_get(msg, len, "content-type", &ct)) {
		if (!value_is(ct.buf, "text/plain"))
			goto out;
		cs = strcasestr(ct.buf, "charset");
		if (cs) {
			cs += 7;
			while (*cs == ' ' || *cs == '=' || *cs == '"')
				cs++;
			if (strncasecmp(cs, "utf-8", 5) &&
			    strncasecmp(cs, "us-ascii", 8) &&
			    strncasecmp(cs, "utf8", 4))
				goto out;
		}
	}
	if (mail_header_get(msg, len, "content-transfer-encoding", &cte) &&
	    !value_is(cte.buf, "7bit") && !value_is(cte.buf, "8bit"))
		goto out;
	if (len >= 1 && msg[0] == '\n') {
		body = msg + 1;
	} else {
		body = memmem(msg, len, "\n\n", 2);
		body = body ? body + 2 : msg + len;
	}
	if (!utf8_valid((const unsigned char *)body, (size_t)(msg + len - body)))
		goto out;
	b->len = (size_t)(msg + len - body);
	b->text = xstrndup(body, b->len);
	b->has_text = 1;
	if (mail_header_get(msg, len, "message-id", &idb)) {
		q = idb.buf;
		b->message_id = id_next(&q, idb.buf + idb.len, 1);
	}
	ok = 1;
out:
	strbuf_release(&ct);
	strbuf_release(&cte);
	strbuf_release(&idb);
	return ok;
}

int mail_body_parse(struct mail_body *b, const char *msg, size_t len,
		    const struct mail_where *where)
{
	struct body_ctx c = { b, msg, len, where, NULL, 0, 0 };
	struct strbuf text = STRBUF_INIT, extra = STRBUF_INIT;
	GMimeMessage *m;
	GMimeParser *parser;
	GMimeStream *s;
	GMimePart *main_part = NULL;
	const char *id;
	size_t i;
	int r = 0;

	mail_body_release(b);
	if (plain_body(b, msg, len))
		return 0;
	mail_gmime_init();
	s = g_mime_stream_mem_new_with_buffer(msg, len);
	parser = g_mime_parser_new_with_stream(s);
	g_object_unref(s);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	m = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	if (!m) {
		struct strbuf idb = STRBUF_INIT;
		const char *q;

		if (mail_header_get(msg, len, "message-id", &idb)) {
			q = idb.buf;
			b->message_id = id_next(&q, idb.buf + idb.len, 1);
		}
		strbuf_release(&idb);
		return body_error(&c, "it cannot be parsed as a mail message",
				  "check that the input is an mbox or a raw message");
	}
	id = g_mime_message_get_message_id(m);
	if (id)
		b->message_id = xstrdup(id);

	parts_collect(&c, g_mime_message_get_mime_part(m), 0);
	for (i = 0; i < c.nr_parts; i++) {
		GMimeContentType *ct =
			g_mime_object_get_content_type(GMIME_OBJECT(c.parts[i]));

		if (g_mime_content_type_is_type(ct, "text", "plain") &&
		    !g_mime_part_is_attachment(c.parts[i])) {
			main_part = c.parts[i];
			break;
		}
	}
	if (!main_part && c.nr_parts)
		main_part = c.parts[0];
	if (main_part) {
		b->has_text = 1;
		r = part_decode(&c, main_part, &text, 1);
		if (r < 0)
			goto out;
		if (!has_diff(text.buf, text.len)) {
			for (i = 0; i < c.nr_parts; i++) {
				if (c.parts[i] == main_part)
					continue;
				strbuf_reset(&extra);
				r = part_decode(&c, c.parts[i], &extra, 0);
				if (r < 0)
					goto out;
				if (has_diff(extra.buf, extra.len)) {
					if (text.len && text.buf[text.len - 1] != '\n')
						strbuf_addch(&text, '\n');
					strbuf_add(&text, extra.buf, extra.len);
					b->from_attachment = 1;
					break;
				}
			}
		}
	} else if (g_mime_message_get_mime_part(m)) {
		GMimeObject *root = g_mime_message_get_mime_part(m);
		GMimeContentType *ct = g_mime_object_get_content_type(root);
		char *mt = ct ? g_mime_content_type_get_mime_type(ct) : NULL;

		body_warn(b, "it has no text/plain part (only %s)",
			  mt ? mt : "unknown parts");
		g_free(mt);
	}
	if (!text.len && main_part)
		body_warn(b, "its body is empty");
	/* the line break before a MIME boundary belongs to the boundary */
	if (text.len && text.buf[text.len - 1] != '\n')
		strbuf_addch(&text, '\n');
	b->text = strbuf_detach(&text, &b->len);
	if (!b->text) {
		b->text = xstrdup("");
		b->len = 0;
	}
out:
	strbuf_release(&text);
	strbuf_release(&extra);
	free(c.parts);
	g_object_unref(m);
	return r;
}
