// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/reply.h"
#include "patches/email.h"
#include "tools/lib/error.h"
#include "tools/lib/strmap.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

void reply_original_release(struct reply_original *o)
{
	size_t i;

	free(o->message_id);
	free(o->subject);
	free(o->from_name);
	free(o->from_addr);
	free(o->date);
	for (i = 0; i < o->nr_references; i++)
		free(o->references[i]);
	free(o->references);
	free(o->body);
	memset(o, 0, sizeof(*o));
}

/* ---- the quote ---- */

static int is_quoted(const char *p, const char *e)
{
	return p < e && *p == '>';
}

static int is_blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

void reply_quote(struct strbuf *out, const char *body, size_t len)
{
	const char *end = body + len, *p, *cut = end, *tail = NULL;
	size_t tail_lines = 0;

	/* the signature: from a "-- " line on (a patch's "-- \n2.39.0") */
	for (p = body; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((le - p == 3 && !memcmp(p, "-- ", 3)) ||
		    (le - p == 4 && !memcmp(p, "-- \r", 4))) {
			cut = p;
			break;
		}
		p = nl ? nl + 1 : end;
	}
	/* blank lines before the cut */
	while (cut > body) {
		const char *ls = cut - 1;

		while (ls > body && ls[-1] != '\n')
			ls--;
		if (!is_blank(ls, cut))
			break;
		cut = ls;
	}
	/* the last run of lines that were quotes already (blanks inside) */
	for (p = body; p < cut;) {
		const char *nl = memchr(p, '\n', (size_t)(cut - p));
		const char *le = nl ? nl : cut;

		if (is_quoted(p, le)) {
			if (!tail)
				tail = p;
			tail_lines++;
		} else if (!is_blank(p, le)) {
			tail = NULL;
			tail_lines = 0;
		}
		p = nl ? nl + 1 : cut;
	}
	for (p = body; p < cut;) {
		const char *nl = memchr(p, '\n', (size_t)(cut - p));
		const char *le = nl ? nl : cut;
		size_t n = (size_t)(le - p);

		if (n && le[-1] == '\r')
			n--;
		if (tail && tail_lines > REPLY_TAIL_MAX && p == tail) {
			strbuf_addstr(out, "> [...]\n");
			break;
		}
		if (!n)
			strbuf_addstr(out, ">\n");
		else {
			strbuf_addstr(out, *p == '>' ? ">" : "> ");
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p = nl ? nl + 1 : cut;
	}
}

/* ---- recipients ---- */

struct rcpt {
	InternetAddressList *to, *cc;
	struct strmap seen;	/* lower-case addresses already put */
	char **keys;
	size_t nr_keys, alloc_keys;
};

static char *lower_dup(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return d;
}

/* Adds name <addr> to list; a name that is not ASCII goes out as UTF-8. */
static void mailbox_add(InternetAddressList *list, const char *name,
			const char *addr)
{
	InternetAddress *ia = internet_address_mailbox_new(name, addr);

	internet_address_set_charset(ia, "utf-8");
	internet_address_list_add(list, ia);
	g_object_unref(ia);
}

/* Puts name <addr> on list unless the address was seen. */
static void rcpt_put(struct rcpt *r, InternetAddressList *list,
		     const char *name, const char *addr)
{
	char *key;
	size_t dummy;

	if (!addr || !*addr)
		return;
	key = lower_dup(addr);
	if (strmap_get(&r->seen, key, &dummy)) {
		free(key);
		return;
	}
	ALLOC_GROW(r->keys, r->nr_keys, r->alloc_keys);
	r->keys[r->nr_keys++] = key;
	strmap_put(&r->seen, key, 0);
	mailbox_add(list, name, addr);
}

/* Every mailbox of l (groups opened) onto list. */
static void rcpt_put_list(struct rcpt *r, InternetAddressList *list,
			  InternetAddressList *l)
{
	int i, n = l ? internet_address_list_length(l) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);

		if (INTERNET_ADDRESS_IS_GROUP(ia))
			rcpt_put_list(r, list, internet_address_group_get_members(
					      INTERNET_ADDRESS_GROUP(ia)));
		else if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			rcpt_put(r, list, internet_address_get_name(ia),
				 internet_address_mailbox_get_addr(
					 INTERNET_ADDRESS_MAILBOX(ia)));
	}
}

/*
 * The addresses of a header, or NULL.  GMime takes some 300 bytes an
 * address: a header naming more than REPLY_MAX_ADDRESSES (counted by
 * its '@'s before it is parsed) is refused, so that a hostile reply
 * cannot make a draft take gigabytes.
 */
#define REPLY_MAX_ADDRESSES 20000

static int header_addresses(const char *msg, size_t len, const char *name,
			    InternetAddressList **out)
{
	struct strbuf v = STRBUF_INIT;
	size_t ats = 0;
	const char *p;
	int r = 0;

	*out = NULL;
	if (mail_header_get(msg, len, name, &v)) {
		for (p = v.buf; (p = strchr(p, '@')); p++)
			ats++;
		if (ats > REPLY_MAX_ADDRESSES)
			r = error("its %c%s header names %zu addresses, more "
				  "than the %d a reply-all draft takes; nothing "
				  "was written", toupper((unsigned char)*name),
				  name + 1, ats, REPLY_MAX_ADDRESSES);
		else
			*out = internet_address_list_parse(NULL, v.buf);
	}
	strbuf_release(&v);
	return r;
}

static void rcpt_release(struct rcpt *r)
{
	size_t i;

	for (i = 0; i < r->nr_keys; i++)
		free(r->keys[i]);
	free(r->keys);
	strmap_release(&r->seen);
	if (r->to)
		g_object_unref(r->to);
	if (r->cc)
		g_object_unref(r->cc);
}

/* ---- the draft ---- */

static int has_re(const char *s)
{
	while (*s == ' ')
		s++;
	return !strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3);
}

void reply_make_message_id(struct strbuf *out, const char *addr,
			   int64_t date)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;
	unsigned char rnd[6];
	size_t i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		/* no entropy: the time and the pid still make it unique here */
		memset(rnd, 0, sizeof(rnd));
	}
	strbuf_addf(out, "%lld.%ld.", (long long)date, (long)getpid());
	for (i = 0; i < sizeof(rnd); i++)
		strbuf_addf(out, "%02x", rnd[i]);
	strbuf_addf(out, "@%s", at && at[1] ? at + 1 : "respin.localhost");
}

static void add_references(GMimeMessage *m, const struct reply_original *o,
			   const char *msgid)
{
	struct strbuf refs = STRBUF_INIT;
	size_t i;

	for (i = 0; i < o->nr_references; i++)
		strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "",
			    o->references[i]);
	strbuf_addf(&refs, "%s<%s>", refs.len ? " " : "", msgid);
	g_mime_object_set_header(GMIME_OBJECT(m), "References", refs.buf,
				 NULL);
	strbuf_release(&refs);
}

/* The first n lines of body (from its first text), then "> [...]". */
static void quote_head(struct strbuf *out, const char *body, size_t n)
{
	const char *p = body, *end = body + strlen(body), *e;
	size_t k = 0;

	while (p < end && (*p == '\n' || *p == '\r'))
		p++;
	for (e = p; e < end && k < n; k++) {
		const char *nl = memchr(e, '\n', (size_t)(end - e));

		e = nl ? nl + 1 : end;
	}
	reply_quote(out, p, (size_t)(e - p));
	while (e < end && isspace((unsigned char)*e))
		e++;
	if (e < end && (size_t)(end - e) >= 3 && strncmp(e, "-- ", 3))
		strbuf_addstr(out, "> [...]\n");
}

static void draft_body(struct strbuf *text, const struct reply_original *o,
		       const struct reply_options *opt)
{
	if (o->date)
		strbuf_addf(text, "On %s, ", o->date);
	if (o->from_name && *o->from_name)
		strbuf_addf(text, "%s wrote:\n", o->from_name);
	else
		strbuf_addf(text, "%s wrote:\n", o->from_addr ? o->from_addr
			    : "you");
	if (o->html_only)
		strbuf_addstr(text, "> [an HTML message: not quoted]\n");
	else if (opt->quote_max)
		quote_head(text, o->body, opt->quote_max);
	else
		reply_quote(text, o->body, strlen(o->body));
	if (opt->block && *opt->block) {
		strbuf_addch(text, '\n');
		strbuf_addstr(text, opt->block);
		if (text->buf[text->len - 1] != '\n')
			strbuf_addch(text, '\n');
	}
	if (opt->trailer) {
		strbuf_addch(text, '\n');
		if (opt->from_name && *opt->from_name)
			strbuf_addf(text, "%s: %s <%s>\n", opt->trailer,
				    opt->from_name, opt->from_addr);
		else
			strbuf_addf(text, "%s: %s\n", opt->trailer,
				    opt->from_addr);
	}
}

static int read_original(struct reply_original *o, const char *msg,
			 size_t len, const struct mail_where *where)
{
	struct mail_header h;
	struct mail_body b;
	struct strbuf date = STRBUF_INIT, what = STRBUF_INIT;
	size_t i;
	int r;

	mail_header_init(&h);
	r = mail_header_scan(&h, msg, len, where);
	if (r < 0) {
		mail_header_release(&h);
		return r;
	}
	if (!h.message_id || !*h.message_id) {
		mail_describe(&what, NULL, where);
		error("%s has no Message-ID: a reply cannot be threaded under "
		      "it", what.buf);
		strbuf_release(&what);
		mail_header_release(&h);
		return -1;
	}
	o->message_id = xstrdup(h.message_id);
	o->subject = xstrdup(h.subject ? h.subject : "");
	o->from_name = h.from.name ? xstrdup(h.from.name) : NULL;
	o->from_addr = h.from.addr ? xstrdup(h.from.addr) : NULL;
	if (mail_header_get(msg, len, "date", &date))
		o->date = strbuf_detach(&date, NULL);
	strbuf_release(&date);
	if (h.nr_references) {
		o->references = xcalloc(h.nr_references, sizeof(char *));
		for (i = 0; i < h.nr_references; i++)
			o->references[i] = xstrdup(h.references[i]);
		o->nr_references = h.nr_references;
	} else if (h.in_reply_to) {
		o->references = xcalloc(1, sizeof(char *));
		o->references[0] = xstrdup(h.in_reply_to);
		o->nr_references = 1;
	}
	mail_header_release(&h);

	mail_body_init(&b);
	r = mail_body_parse(&b, msg, len, where);
	if (r < 0) {
		mail_body_release(&b);
		return r;
	}
	o->html_only = !b.has_text || !b.text;
	o->body = xstrdup(b.text ? b.text : "");
	mail_body_release(&b);
	return 0;
}

/*
 * Reply all: To the sender (or Reply-To), Cc the rest, never me.  <0
 * when a header names too many addresses (header_addresses()).
 */
static int reply_recipients(struct rcpt *r, const char *msg, size_t len,
			    const char *me_addr)
{
	static const char *const others[] = { "to", "cc" };
	char *me = lower_dup(me_addr);
	InternetAddressList *l;
	size_t k;

	r->to = internet_address_list_new();
	r->cc = internet_address_list_new();
	ALLOC_GROW(r->keys, r->nr_keys, r->alloc_keys);
	r->keys[r->nr_keys++] = me;
	strmap_put(&r->seen, me, 0);
	if (header_addresses(msg, len, "reply-to", &l) < 0)
		return -1;
	if (!l || !internet_address_list_length(l)) {
		if (l)
			g_object_unref(l);
		if (header_addresses(msg, len, "from", &l) < 0)
			return -1;
	}
	rcpt_put_list(r, r->to, l);
	if (l)
		g_object_unref(l);
	for (k = 0; k < 2; k++) {
		if (header_addresses(msg, len, others[k], &l) < 0)
			return -1;
		rcpt_put_list(r, r->cc, l);
		if (l)
			g_object_unref(l);
	}
	if (!internet_address_list_length(r->to) &&
	    internet_address_list_length(r->cc)) {
		/* my own message: answer those it went to */
		InternetAddressList *t = r->to;

		r->to = r->cc;
		r->cc = t;
	}
	return 0;
}

/* The draft's headers, in the order they are set; no empty Cc. */
static void reply_headers(GMimeMessage *m, const struct rcpt *r,
			  const struct reply_original *o,
			  const struct reply_options *opt)
{
	struct strbuf d = STRBUF_INIT, subj = STRBUF_INIT, irt = STRBUF_INIT;

	email_date(&d, (git_time_t)opt->date, opt->date_tz);
	g_mime_object_set_header(GMIME_OBJECT(m), "Date", d.buf, NULL);
	mailbox_add(g_mime_message_get_addresses(m, GMIME_ADDRESS_TYPE_FROM),
		    opt->from_name ? opt->from_name : "", opt->from_addr);
	if (internet_address_list_length(r->to))
		internet_address_list_append(g_mime_message_get_addresses(
			m, GMIME_ADDRESS_TYPE_TO), r->to);
	if (internet_address_list_length(r->cc))
		internet_address_list_append(g_mime_message_get_addresses(
			m, GMIME_ADDRESS_TYPE_CC), r->cc);
	if (!has_re(o->subject))
		strbuf_addstr(&subj, "Re: ");
	strbuf_addstr(&subj, o->subject);
	g_mime_message_set_subject(m, subj.buf, "utf-8");
	g_mime_message_set_message_id(m, opt->message_id);
	strbuf_addf(&irt, "<%s>", o->message_id);
	g_mime_object_set_header(GMIME_OBJECT(m), "In-Reply-To", irt.buf,
				 NULL);
	add_references(m, o, o->message_id);
	strbuf_release(&d);
	strbuf_release(&subj);
	strbuf_release(&irt);
}

/* text as the message's one part: plain, UTF-8, 7bit when it is ASCII. */
static void reply_text_part(GMimeMessage *m, const struct strbuf *text)
{
	GMimeTextPart *part = g_mime_text_part_new_with_subtype("plain");
	/* the text as it is (set_text would pick a charset of its own) */
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(text->buf,
							    text->len);
	GMimeDataWrapper *dw = g_mime_data_wrapper_new_with_stream(
		st, GMIME_CONTENT_ENCODING_DEFAULT);
	const unsigned char *p = (const unsigned char *)text->buf;
	int ascii = 1;

	g_mime_part_set_content(GMIME_PART(part), dw);
	g_object_unref(dw);
	g_object_unref(st);
	g_mime_text_part_set_charset(part, "utf-8");
	for (; *p; p++)
		if (*p >= 0x80)
			ascii = 0;
	g_mime_part_set_content_encoding(GMIME_PART(part), ascii ?
		GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_8BIT);
	g_mime_message_set_mime_part(m, GMIME_OBJECT(part));
	g_object_unref(part);
}

int reply_draft(struct strbuf *out, const char *msg, size_t len,
		const struct mail_where *where, const struct reply_options *opt,
		struct reply_original *orig)
{
	struct reply_original o = { 0 };
	struct rcpt r = { 0 };
	struct strbuf text = STRBUF_INIT;
	GMimeMessage *m;
	GMimeStream *mem;
	GByteArray *arr;
	int ret = 0;

	if (!opt->from_addr || !*opt->from_addr || !strchr(opt->from_addr, '@'))
		return error_code(RESPIN_EUSAGE, "who is replying? set "
				  "user.email (git config user.email "
				  "you@example.org)");
	mail_gmime_init();
	ret = read_original(&o, msg, len, where);
	if (ret < 0)
		return ret;
	if (reply_recipients(&r, msg, len, opt->from_addr) < 0)
		goto too_many;
	o.nr_to = (size_t)internet_address_list_length(r.to);
	o.nr_cc = (size_t)internet_address_list_length(r.cc);
	m = g_mime_message_new(FALSE);
	reply_headers(m, &r, &o, opt);
	draft_body(&text, &o, opt);
	reply_text_part(m, &text);
	mem = g_mime_stream_mem_new();
	if (g_mime_object_write_to_stream(GMIME_OBJECT(m), NULL, mem) < 0)
		ret = error("cannot write the reply to <%s>", o.message_id);
	else {
		arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		if (arr && arr->len)
			strbuf_add(out, (const char *)arr->data, arr->len);
	}
	g_object_unref(mem);
	g_object_unref(m);
	rcpt_release(&r);
	strbuf_release(&text);
	if (orig)
		*orig = o;
	else
		reply_original_release(&o);
	return ret;
too_many:
	ret = error("<%s>: %s", o.message_id, error_last());
	rcpt_release(&r);
	strbuf_release(&text);
	reply_original_release(&o);
	return ret;
}
