// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Header scan and full parse: folding, RFC 2047, dates, MIME, charsets,
 * and bad input (no body, broken base64, unknown charset, a 1 MB
 * header line, bytes that are not UTF-8, something that is no mail).
 */
#include "patches/mail.h"
#include "tests/unit/tap.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <glib.h>
#include <stdlib.h>

static int scan(struct mail_header *h, const char *msg)
{
	mail_header_init(h);
	return mail_header_scan(h, msg, strlen(msg), NULL);
}

static int parse(struct mail_body *b, const char *msg, size_t number)
{
	struct mail_where where = { "test.mbox", number };

	mail_body_init(b);
	return mail_body_parse(b, msg, strlen(msg), &where);
}

static void test_headers(void)
{
	struct mail_header h;
	const char *m =
		"Return-Path: <x@y>\n"
		"Received: from a\n\tby b\n"
		"Subject: [PATCH v2 1/3] mm: a subject that is long\n"
		" enough to be folded\n\ttwice\n"
		"From: \"Doe, Jane\" <jane@example.org>\n"
		"Date: Fri, 22 Dec 2023 18:22:52 +0800\n"
		"Message-Id: <20231222102255.56993-2-x@example.org>\n"
		"In-Reply-To: <20231222102255.56993-1-x@example.org> (Jane's message)\n"
		"References: <a@x>\n <b@x>\n\t<c@x>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"\n"
		"body\n";

	is_int(scan(&h, m), 0, "a real-looking header block scans");
	is_str(h.subject, "[PATCH v2 1/3] mm: a subject that is long enough to be folded twice",
	       "folded Subject unfolded");
	is_str(h.from.name, "Doe, Jane", "quoted From name");
	is_str(h.from.addr, "jane@example.org", "From address");
	is_str(h.message_id, "20231222102255.56993-2-x@example.org",
	       "Message-Id (any case), no brackets");
	is_str(h.in_reply_to, "20231222102255.56993-1-x@example.org",
	       "In-Reply-To without its comment");
	is_int(h.nr_references, 3, "three folded References");
	if (h.nr_references == 3)
		is_str(h.references[2], "c@x", "the last reference");
	ok(h.date_valid && h.date == 1703240572, "Date to epoch (%lld)", h.date);
	ok(h.has_content_type, "Content-Type seen");
	ok(h.has_body && !strcmp(m + h.body_offset, "body\n"), "body offset");
	mail_header_release(&h);

	/* encoded words */
	is_int(scan(&h, "Subject: =?utf-8?B?W1BBVENIXSBtbTogZml4IMOgIGJ1Zw==?=\n"
			"From: =?iso-8859-1?Q?J=F6rg_R=F6del?= <joro@example.org>\n"
			"\nx\n"), 0, "encoded words scan");
	is_str(h.subject, "[PATCH] mm: fix \xc3\xa0 bug", "base64 encoded Subject");
	is_str(h.from.name, "J\xc3\xb6rg R\xc3\xb6" "del", "Q encoded From name");
	ok(!h.has_content_type, "no Content-Type");
	mail_header_release(&h);

	is_int(scan(&h, "Subject: =?us-ascii?Q?Re=3A_=5BPATCH_v2_1/3=5D_powerpc=3A_x?=\n"
			" =?us-ascii?Q?_y?=\n\nz\n"), 0, "folded encoded words");
	is_str(h.subject, "Re: [PATCH v2 1/3] powerpc: x y", "encoded words across a fold");
	mail_header_release(&h);

	/* From forms */
	scan(&h, "From: jane@example.org (Jane Doe)\n\n");
	ok(h.from.name && !strcmp(h.from.name, "Jane Doe") &&
	   !strcmp(h.from.addr, "jane@example.org"), "addr (Name) form");
	mail_header_release(&h);
	scan(&h, "From: bare@example.org\n\n");
	ok(!h.from.name && !strcmp(h.from.addr, "bare@example.org"), "bare address");
	mail_header_release(&h);

	/* missing everything */
	is_int(scan(&h, "X-Nothing: here\n\nbody\n"), 0, "no known header: fine");
	ok(!h.message_id && !h.subject && !h.from.addr && !h.date_valid &&
	   !h.nr_references && !h.in_reply_to, "missing headers stay empty");
	mail_header_release(&h);

	/* no body */
	is_int(scan(&h, "Message-ID: <nobody@x>\nSubject: s\n"), 0, "no body: scans");
	ok(!h.has_body, "no body: has_body is 0");
	mail_header_release(&h);
	is_int(scan(&h, "Message-ID: <nobody@x>\nSubject: s"), 0,
	       "no body, no final newline: scans");
	is_str(h.subject, "s", "its Subject");
	mail_header_release(&h);

	/* bytes that are not UTF-8 */
	is_int(scan(&h, "Subject: caf\xe9 cr\xe8me\nFrom: J\xf6rg <j@x>\n\n"), 0,
	       "8-bit Latin-1 headers scan");
	ok(h.subject && g_utf8_validate(h.subject, -1, NULL) &&
	   strstr(h.subject, "caf"), "8-bit Subject comes out as UTF-8: %s",
	   h.subject ? h.subject : "(null)");
	ok(h.from.name && g_utf8_validate(h.from.name, -1, NULL), "8-bit From name as UTF-8");
	mail_header_release(&h);
	is_int(scan(&h, "Subject: =?utf-8?B?/w==?= \xff\xfe\n\n"), 0,
	       "invalid UTF-8 inside an encoded word");
	ok(h.subject && g_utf8_validate(h.subject, -1, NULL), "still valid UTF-8 out");
	mail_header_release(&h);

	/* CRLF headers */
	is_int(scan(&h, "Subject: a\r\n b\r\nMessage-ID: <crlf@x>\r\n\r\nbody\r\n"), 0,
	       "CRLF headers");
	is_str(h.subject, "a b", "CRLF folded Subject");
	is_str(h.message_id, "crlf@x", "CRLF Message-ID");
	ok(h.has_body, "CRLF blank line ends the headers");
	mail_header_release(&h);

	/* not a message */
	error_clear();
	{
		struct mail_where where = { "junk.mbox", 7 };
		const char junk[] = "\x01\x02 not a header at all\nmore\n";

		mail_header_init(&h);
		ok(mail_header_scan(&h, junk, sizeof(junk) - 1, &where) < 0,
		   "junk is not a message");
		ok(strstr(error_last(), "#7 in junk.mbox") != NULL,
		   "the error says where: %s", error_last());
		mail_header_release(&h);
	}

	/* mail_header_get */
	{
		struct strbuf sb = STRBUF_INIT;

		ok(mail_header_get(m, strlen(m), "received", &sb) == 1 &&
		   !strcmp(sb.buf, "from a by b"), "mail_header_get unfolds: %s", sb.buf);
		strbuf_reset(&sb);
		ok(mail_header_get(m, strlen(m), "x-missing", &sb) == 0, "a missing header");
		strbuf_release(&sb);
	}
}

/* B4 Relay (2023) wrote Message-Ids as encoded words; they are ids all the same. */
static void test_encoded_message_id(void)
{
	struct mail_header h;
	const char *m =
		"From: Nathan Lynch via B4 Submission Endpoint <devnull+nathanl.linux.ibm.com@kernel.org>\n"
		"Message-Id: =?utf-8?q?=3C20230210-warn-on-machine-is-before-probe-machine-v1?=\n"
		" =?utf-8?q?-1-f0cba57125fb=40linux=2Eibm=2Ecom=3E?=\n"
		"Subject: x\n\nbody\n";
	const char *plain = "Message-Id: <a=?b@example.org>\nSubject: x\n\n";

	is_int(scan(&h, m), 0, "an encoded Message-Id scans");
	is_str(h.message_id, "20230210-warn-on-machine-is-before-probe-machine-v1-1-f0cba57125fb@linux.ibm.com",
	       "an encoded Message-Id is decoded");
	mail_header_release(&h);
	is_int(scan(&h, plain), 0, "an id with =? in it scans");
	is_str(h.message_id, "a=?b@example.org", "an id in <> is taken as it is");
	mail_header_release(&h);
}

static void test_long_header(void)
{
	struct strbuf m = STRBUF_INIT;
	struct mail_header h;
	struct mail_body b;

	strbuf_addstr(&m, "Message-ID: <long@x>\nX-Long: ");
	strbuf_addchars(&m, 'a', 1 << 20);
	strbuf_addstr(&m, "\nSubject: =?utf-8?Q?");
	strbuf_addchars(&m, 'b', 1 << 20);
	strbuf_addstr(&m, "?=\n\nbody\n");
	mail_header_init(&h);
	is_int(mail_header_scan(&h, m.buf, m.len, NULL), 0, "a 1 MB header line scans");
	is_str(h.message_id, "long@x", "the Message-ID before it");
	ok(h.subject && strlen(h.subject) >= (1 << 20), "a 1 MB encoded Subject decodes");
	ok(h.has_body && !strcmp(m.buf + h.body_offset, "body\n"), "the body after it");
	mail_header_release(&h);
	mail_body_init(&b);
	is_int(mail_body_parse(&b, m.buf, m.len, NULL), 0, "GMime parses it too");
	is_str(b.text, "body\n", "its body");
	mail_body_release(&b);
	strbuf_release(&m);
}

static void test_dates(void)
{
	long long t;
	int tz = 1;

	ok(!mail_date_parse("Thu, 28 Dec 2023 10:22:55 +0800", &t) && t == 1703730175,
	   "RFC 5322 date");
	ok(!mail_date_parse("28 Dec 2023 02:22:55 GMT", &t) && t == 1703730175,
	   "no weekday, GMT");
	ok(!mail_date_parse("Thu,  1 Aug 2019 13:20:41 +1000 (AEST)", &t) &&
	   t == 1564629641, "a comment after the zone");
	ok(!mail_date_parse("Mon, 2 Jan 2023 10:00:00 EST", &t) && t == 1672671600,
	   "a zone name (GMime): %lld", t);
	ok(!mail_date_parse("2 Jan 23 10:00 -0000", &t) && t == 1672653600,
	   "two-digit year, no seconds");
	ok(!mail_date_parse_tz("Thu,  1 Aug 2019 13:20:41 +1000 (AEST)", &t,
			       &tz) && t == 1564629641 && tz == 600,
	   "the zone: +1000 is 600 minutes (%d)", tz);
	ok(!mail_date_parse_tz("Mon, 2 Jan 2023 10:00:00 -0530", &t, &tz) &&
	   tz == -330, "a negative zone with minutes (%d)", tz);
	ok(!mail_date_parse_tz("Mon, 2 Jan 2023 10:00:00 EST", &t, &tz) &&
	   tz == -300, "a zone name read by GMime (%d)", tz);
	ok(!mail_date_parse_tz("28 Dec 2023 02:22:55 GMT", &t, &tz) && tz == 0,
	   "GMT is 0");
	ok(mail_date_parse("yesterday", &t) < 0, "not a date");
	ok(mail_date_parse("", &t) < 0, "empty");
}

static void test_bodies(void)
{
	struct mail_body b;
	size_t i;

	is_int(parse(&b, "Message-ID: <qp@x>\nContent-Type: text/plain; charset=utf-8\n"
			 "Content-Transfer-Encoding: quoted-printable\n\n"
			 "caf=C3=A9 soft=\nbreak\n", 1), 0, "quoted-printable");
	is_str(b.text, "caf\xc3\xa9 softbreak\n", "QP decoded");
	is_str(b.message_id, "qp@x", "the Message-ID from GMime");
	mail_body_release(&b);

	is_int(parse(&b, "Message-ID: <b64@x>\nContent-Type: text/plain; charset=utf-8\n"
			 "Content-Transfer-Encoding: base64\n\n"
			 "aGVsbG8gd8O2cmxkCg==\n", 1), 0, "base64");
	is_str(b.text, "hello w\xc3\xb6rld\n", "base64 decoded");
	mail_body_release(&b);

	is_int(parse(&b, "Message-ID: <latin@x>\nContent-Type: text/plain; charset=iso-8859-1\n"
			 "Content-Transfer-Encoding: 8bit\n\nJ\xf6rg\n", 1), 0, "Latin-1 body");
	is_str(b.text, "J\xc3\xb6rg\n", "Latin-1 converted to UTF-8");
	is_str(b.charset, "iso-8859-1", "its charset recorded");
	is_int(b.nr_warnings, 0, "no warning");
	mail_body_release(&b);

	/* unknown charset */
	is_int(parse(&b, "Message-ID: <cs@x>\nContent-Type: text/plain; charset=x-no-such-charset-42\n\n"
			 "bytes \xf0\xf1 kept\n", 2), 0, "an unknown charset is no error");
	is_str(b.text, "bytes \xf0\xf1 kept\n", "the bytes are kept");
	ok(b.nr_warnings == 1 && strstr(b.warnings[0], "unknown charset"),
	   "a warning: %s", b.nr_warnings ? b.warnings[0] : "(none)");
	mail_body_release(&b);

	/* invalid bytes in a known charset */
	is_int(parse(&b, "Message-ID: <bad8@x>\nContent-Type: text/plain; charset=utf-8\n\n"
			 "bad \xff here\n", 2), 0, "invalid UTF-8 is no error");
	ok(b.nr_warnings == 1 && strstr(b.warnings[0], "not valid UTF-8"),
	   "a warning: %s", b.nr_warnings ? b.warnings[0] : "(none)");
	mail_body_release(&b);
	is_int(parse(&b, "Message-ID: <sj@x>\nContent-Type: text/plain; charset=shift_jis\n\n"
			 "ok \x82\xa0 \x82\n", 2), 0, "a cut Shift-JIS sequence");
	ok(b.text && g_utf8_validate(b.text, b.len, NULL), "comes out as UTF-8");
	mail_body_release(&b);

	/* broken base64 */
	error_clear();
	is_int(parse(&b, "Message-ID: <broken64@x>\nContent-Type: text/plain\n"
			 "Content-Transfer-Encoding: base64\n\n"
			 "aGVsbG8*gd2\x01rbGQK\n", 3), -1, "broken base64 is an error");
	ok(strstr(error_last(), "<broken64@x>") && strstr(error_last(), "#3 in test.mbox") &&
	   strstr(error_last(), "base64"), "it names the message: %s", error_last());
	ok(strstr(error_last_hint(), "resend") != NULL, "and says what to do: %s",
	   error_last_hint());
	mail_body_release(&b);
	is_int(parse(&b, "Message-ID: <short64@x>\nContent-Transfer-Encoding: base64\n\n"
			 "aGVsb\n", 3), -1, "base64 cut in a group is an error");
	mail_body_release(&b);

	/* no body */
	is_int(parse(&b, "Message-ID: <nobody@x>\nSubject: x\n", 4), 0,
	       "a message with no body parses");
	is_str(b.text, "", "its text is empty");
	ok(b.nr_warnings >= 1, "with a warning: %s", b.nr_warnings ? b.warnings[0] : "(none)");
	mail_body_release(&b);

	/* multipart: the text and an attached patch */
	is_int(parse(&b, "Message-ID: <mp@x>\nMIME-Version: 1.0\n"
			 "Content-Type: multipart/mixed; boundary=\"XX\"\n\n"
			 "preamble\n--XX\nContent-Type: text/plain; charset=utf-8\n\n"
			 "Please apply.\n\n--XX\n"
			 "Content-Type: text/x-patch; name=\"0001-x.patch\"\n"
			 "Content-Disposition: attachment; filename=\"0001-x.patch\"\n"
			 "Content-Transfer-Encoding: base64\n\n"
			 "ZGlmZiAtLWdpdCBhL3ggYi94Ci0tLSBhL3gKKysrIGIveApAQCAtMSArMSBAQAotYQorYgo=\n"
			 "--XX--\n", 5), 0, "multipart with an attached patch");
	ok(b.from_attachment && strstr(b.text, "Please apply.") &&
	   strstr(b.text, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
	   "the text and the attached diff: %s", b.text);
	mail_body_release(&b);

	is_int(parse(&b, "Message-ID: <alt@x>\nMIME-Version: 1.0\n"
			 "Content-Type: multipart/alternative; boundary=YY\n\n"
			 "--YY\nContent-Type: text/html\n\n<p>html</p>\n"
			 "--YY\nContent-Type: text/plain; charset=us-ascii\n\nplain text\n"
			 "--YY--\n", 6), 0, "multipart/alternative");
	is_str(b.text, "plain text\n", "the text/plain alternative");
	mail_body_release(&b);

	is_int(parse(&b, "Message-ID: <html@x>\nContent-Type: text/html\n\n<p>x</p>\n", 7), 0,
	       "HTML only is no error");
	ok(!b.has_text && b.nr_warnings && strstr(b.warnings[0], "text/html"),
	   "a warning names what is there: %s", b.nr_warnings ? b.warnings[0] : "(none)");
	mail_body_release(&b);

	/* garbage */
	error_clear();
	is_int(parse(&b, "\x01\x02\x03", 8), -1, "three bytes of junk: an error");
	ok(strstr(error_last(), "#8 in test.mbox") && strstr(error_last(), "cannot be parsed"),
	   "it says which and what: %s", error_last());
	mail_body_release(&b);
	for (i = 0; i < 3; i++) {
		is_int(parse(&b, "Content-Type: multipart/mixed; boundary=Z\n\n--Z\n--Z\n--Z--", 9), 0,
		       "empty multipart parts (%zu)", i);
		mail_body_release(&b);
	}
}

static void test_describe(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct mail_where w = { "a.mbox", 3 };
	struct mail_where only_path = { "a.mbox", 0 };

	mail_describe(&sb, "id@x", &w);
	is_str(sb.buf, "message <id@x> (#3 in a.mbox)", "describe with everything");
	strbuf_reset(&sb);
	mail_describe(&sb, NULL, &only_path);
	is_str(sb.buf, "a message without a Message-ID (a.mbox)", "describe without an id");
	strbuf_reset(&sb);
	mail_describe(&sb, "id@x", NULL);
	is_str(sb.buf, "message <id@x>", "describe without a place");
	strbuf_release(&sb);
}

/*
 * format=flowed (RFC 3676), as Roundcube sends patches: a long line
 * broken after a space, each line that starts with a space stuffed with
 * one more.  git mailinfo joins and unstuffs them; so must respin, on
 * both of its paths (the plain one and GMime's).
 */
static void test_flowed(void)
{
	static const char flowed_body[] =
		"A change.\n"
		"\n"
		"---\n"
		"diff --git a/mm/x.c \n"
		"b/mm/x.c\n"
		"--- a/mm/x.c\n"
		"+++ b/mm/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		"  int f(int a, \n"
		"int b);\n"
		"-old\n"
		"+new\n"
		"  \n"
		"> quoted and \n"
		"> flowed\n"
		"-- \n"
		"sig\n";
	static const char want[] =
		"A change.\n"
		"\n"
		"---\n"
		"diff --git a/mm/x.c b/mm/x.c\n"
		"--- a/mm/x.c\n"
		"+++ b/mm/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		" int f(int a, int b);\n"
		"-old\n"
		"+new\n"
		" \n"
		"> quoted and flowed\n"
		"-- \n"
		"sig\n";
	struct strbuf m = STRBUF_INIT, sb = STRBUF_INIT;
	struct mail_body b;

	mail_unflow(flowed_body, strlen(flowed_body), 0, &sb);
	is_str(sb.buf, want, "flowed lines joined, stuffed spaces gone, \"-- \" kept");
	strbuf_reset(&sb);
	mail_unflow("one \ntwo\n", 9, 1, &sb);
	is_str(sb.buf, "onetwo\n", "delsp=yes: the soft break's space goes too");
	strbuf_reset(&sb);
	mail_unflow("> a \n>> b\n", 10, 0, &sb);
	is_str(sb.buf, "> a \n>> b\n", "no joining across quote depths");
	strbuf_release(&sb);

	strbuf_addf(&m, "Message-ID: <fl@x>\nContent-Type: text/plain; charset=US-ASCII;\n"
		    " format=flowed\nContent-Transfer-Encoding: 7bit\n\n%s", flowed_body);
	is_int(parse(&b, m.buf, 1), 0, "a flowed 7bit mail (the plain path)");
	is_str(b.text, want, "its text as the sender wrote it");
	mail_body_release(&b);
	strbuf_reset(&m);
	strbuf_addf(&m, "Message-ID: <fl2@x>\nContent-Type: text/plain; charset=iso-8859-1; format=\"flowed\"\n"
		    "Content-Transfer-Encoding: 8bit\n\n%s", flowed_body);
	is_int(parse(&b, m.buf, 1), 0, "a flowed Latin-1 mail (GMime's path)");
	is_str(b.text, want, "its text as the sender wrote it, there too");
	mail_body_release(&b);
	strbuf_reset(&m);
	strbuf_addf(&m, "Message-ID: <nf@x>\nContent-Type: text/plain; charset=utf-8\n\n%s",
		    "line \nnext\n");
	is_int(parse(&b, m.buf, 1), 0, "a mail not flowed");
	is_str(b.text, "line \nnext\n", "its trailing blanks kept, lines not joined");
	mail_body_release(&b);
	strbuf_release(&m);
	ok(mail_ct_param_is("text/plain; charset=x; FORMAT = Flowed", "format", "flowed") &&
	   !mail_ct_param_is("text/plain; xformat=flowed", "format", "flowed") &&
	   !mail_ct_param_is("text/plain; format=flowedx", "format", "flowed"),
	   "the format parameter found, not its look-alikes");
}

int main(void)
{
	test_headers();
	test_encoded_message_id();
	test_long_header();
	test_dates();
	test_bodies();
	test_flowed();
	test_describe();
	return done_testing();
}
