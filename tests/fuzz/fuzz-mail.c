// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Headers and MIME: one raw message through the header scan (the
 * fast path every message of a mailbox takes), mail_header_get() and
 * the date parser, then the full GMime parse of its body and, as
 * series/mailset.c's load_part() goes on, the split of that body and
 * the patch-id of its diff.
 */
#include "patches/mail.h"
#include "patches/patchmail.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void mail_fuzz_headers(const char *msg, size_t len,
			      const struct mail_where *where)
{
	static const char *const names[] = {
		"subject", "from", "date", "message-id", "in-reply-to",
		"references", "content-type", "x-nonexistent",
	};
	struct strbuf sb = STRBUF_INIT;
	struct mail_header h;
	long long t;
	size_t i;

	mail_header_init(&h);
	if (!mail_header_scan(&h, msg, len, where)) {
		if (h.body_offset > len)
			abort();
		for (i = 0; i < h.nr_references; i++)
			if (!h.references[i])
				abort();
		strbuf_reset(&sb);
		mail_describe(&sb, h.message_id, where);
	}
	mail_header_release(&h);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_reset(&sb);
		if (mail_header_get(msg, len, names[i], &sb) &&
		    !strcmp(names[i], "date"))
			mail_date_parse(sb.buf, &t);
	}
	strbuf_release(&sb);
	error_clear();
}

static void mail_fuzz_body(const char *msg, size_t len,
			   const struct mail_where *where)
{
	struct mail_body b;
	struct patchmail pm;

	mail_body_init(&b);
	patchmail_init(&pm);
	if (!mail_body_parse(&b, msg, len, where)) {
		if (!b.text || b.text[b.len])
			abort();
		if (!patchmail_split(&pm, b.text, b.len, "fuzz") && pm.diff.p)
			fuzz_patch_id(pm.diff.p, pm.diff.len);
	}
	patchmail_release(&pm);
	mail_body_release(&b);
	error_clear();
}

FUZZ_TARGET(mail)
{
	const struct mail_where where = { "fuzz.mbox", 1 };
	/* the parsers get exactly the input's bytes, in their own buffer */
	char *msg = malloc(size ? size : 1);

	if (!msg)
		return 0;
	memcpy(msg, data, size);
	fuzz_git_init();
	mail_fuzz_headers(msg, size, &where);
	mail_fuzz_body(msg, size, &where);
	free(msg);
	return 0;
}
