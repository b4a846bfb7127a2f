// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * email_display_name: whatever a name from mail holds, a mail reader
 * (GMime, as notmuch uses it) parses the written header back as one
 * mailbox with that name (line breaks as blanks) and that address; a
 * name holding an address is encoded, so no parser can take it for one.
 */
#include "patches/email.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <gmime/gmime.h>

static const char *const names[][2] = {
	/* name given, name read back */
	{ "A U Thor", "A U Thor" },
	{ "Naveen N. Rao", "Naveen N. Rao" },
	{ "Doe, Jo", "Doe, Jo" },
	{ "Odd: Name", "Odd: Name" },
	{ "Evil\nBcc: from-bcc@evil.example", "Evil Bcc: from-bcc@evil.example" },
	{ "x@y.example", "x@y.example" },
	{ "J\xc3\xbcrgen Gro\xc3\x9f", "J\xc3\xbcrgen Gro\xc3\x9f" },
	{ "say \"hi\" \\ there", "say \"hi\" \\ there" },
	{ "<a@b> (c) [d]; e", "<a@b> (c) [d]; e" },
	{ "Very Long Name With \xc3\xa9 And Many Words To Need More Than "
	  "One Encoded Word Here", "Very Long Name With \xc3\xa9 And Many "
	  "Words To Need More Than One Encoded Word Here" },
};

/* RFC 2047: an encoded word is at most 75 characters long. */
static int words_fit(const char *v)
{
	const char *p = v, *e;

	while ((p = strstr(p, "=?"))) {
		e = strstr(p + 2, "?=");
		if (!e)
			return 0;
		/* the charset's and encoding's '?' come first */
		e = strstr(strchr(strchr(p + 2, '?') + 1, '?') + 1, "?=");
		if (!e || e + 2 - p > 75)
			return 0;
		p = e + 2;
	}
	return 1;
}

int main(void)
{
	size_t i;

	g_mime_init();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct strbuf h = STRBUF_INIT;
		InternetAddressList *l;
		InternetAddress *a;
		const char *v;

		email_address_header(&h, "Cc", names[i][0], "who@example.org");
		v = h.buf + 4;
		ok(strchr(h.buf, '\n') == h.buf + h.len - 1, "one line: %s", v);
		h.buf[h.len - 1] = '\0';
		ok(words_fit(v), "encoded words of at most 75 characters: %s", v);
		l = internet_address_list_parse(NULL, v);
		is_int(l ? internet_address_list_length(l) : 0, 1,
		       "one address in %s", v);
		if (!l || internet_address_list_length(l) != 1) {
			if (l)
				g_object_unref(l);
			strbuf_release(&h);
			continue;
		}
		a = internet_address_list_get_address(l, 0);
		is_str(internet_address_get_name(a), names[i][1],
		       "the name read back from %s", v);
		is_str(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)),
		       "who@example.org", "the address read back from %s", v);
		ok(!strchr(v, '@') || strchr(v, '@') == strrchr(v, '@'),
		   "one '@' in %s", v);
		g_object_unref(l);
		strbuf_release(&h);
	}
	g_mime_shutdown();
	return done_testing();
}
