// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A mail's full parse: its text as UTF-8 from every text part, by
 * GMime, or read directly when it is plain UTF-8 text/plain.
 */
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

/* out from mark on was sent format=flowed: as its sender wrote it. */
static void unflow_tail(struct strbuf *out, size_t mark, int delsp)
{
	struct strbuf sb = STRBUF_INIT;

	mail_unflow(out->buf + mark, out->len - mark, delsp, &sb);
	strbuf_setlen(out, mark);
	strbuf_add(out, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* Decodes one part into out as UTF-8. */
static int part_decode(struct body_ctx *c, GMimePart *part, struct strbuf *out,
		       int first)
{
	GMimeDataWrapper *dw = g_mime_part_get_content(part);
	const char *cs, *fmt;
	size_t mark;
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

	mark = out->len;
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
	fmt = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "format");
	if (fmt && !strcasecmp(fmt, "flowed")) {
		const char *delsp = g_mime_object_get_content_type_parameter(
			GMIME_OBJECT(part), "delsp");

		unflow_tail(out, mark, delsp && !strcasecmp(delsp, "yes"));
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
	if (ct.len && mail_ct_param_is(ct.buf, "format", "flowed")) {
		struct strbuf sb = STRBUF_INIT;

		mail_unflow(body, (size_t)(msg + len - body),
			    mail_ct_param_is(ct.buf, "delsp", "yes"), &sb);
		b->text = strbuf_detach(&sb, &b->len);
	} else {
		b->len = (size_t)(msg + len - body);
		b->text = xstrndup(body, b->len);
	}
	b->has_text = 1;
	if (mail_header_get(msg, len, "message-id", &idb)) {
		q = idb.buf;
		b->message_id = mail_id_next(&q, idb.buf + idb.len, 1);
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
			b->message_id = mail_id_next(&q, idb.buf + idb.len, 1);
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
