// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mailboxes of an address header, decoded: what respin keeps of
 * who a version went to when it came from mail.
 */
#include "patches/mail.h"
#include "tools/lib/error.h"

#include <gmime/gmime.h>
#include <string.h>

/* As many as a reply-all draft takes (review/reply.c): no more. */
#define MAILADDR_MAX 20000

/* name as a phrase no address parser splits or misreads. */
static void add_name(struct strbuf *out, const char *name)
{
	const char *p;

	if (!strpbrk(name, "\",<>@:;()[]\\.")) {
		strbuf_addstr(out, name);
		return;
	}
	strbuf_addch(out, '"');
	for (p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, (unsigned char)*p < 0x20 ? ' ' : *p);
	}
	strbuf_addch(out, '"');
}

static size_t add_list(struct strbuf *out, InternetAddressList *l, size_t n)
{
	int i, len = l ? internet_address_list_length(l) : 0;

	for (i = 0; i < len && n < MAILADDR_MAX; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		const char *name, *addr;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			n = add_list(out, internet_address_group_get_members(
					     INTERNET_ADDRESS_GROUP(ia)), n);
			continue;
		}
		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		addr = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(ia));
		if (!addr || !strchr(addr, '@') || strpbrk(addr, " \t\r\n,<>\""))
			continue;
		name = internet_address_get_name(ia);
		n++;
		if (name && *name) {
			add_name(out, name);
			strbuf_addch(out, ' ');
		}
		strbuf_addf(out, "<%s>\n", addr);
	}
	return n;
}

int mail_header_mailboxes(const char *msg, size_t len, const char *name,
			  struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT;
	InternetAddressList *l;
	size_t n = 0;

	if (!mail_header_get(msg, len, name, &v)) {
		strbuf_release(&v);
		return 0;
	}
	mail_gmime_init();
	l = internet_address_list_parse(NULL, v.buf);
	if (l) {
		n = add_list(out, l, 0);
		g_object_unref(l);
	}
	strbuf_release(&v);
	return (int)n;
}
