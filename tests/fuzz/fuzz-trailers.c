// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trailers: those a reply gives on lines of its own ("Reviewed-by:
 * ...", "Fixes: ...", "Link: ..."), and the trailer block at the end
 * of a commit message (the input as a body without a diff, and with
 * "---" and a small diff after it).
 */
#include "patches/reply.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void trailers_fuzz_check(const struct trailer_list *tl)
{
	size_t i;

	for (i = 0; i < tl->nr; i++) {
		const struct trailer *t = &tl->items[i];

		if (!t->key || !t->value || !*t->key)
			abort();
		trailer_key_is_known(t->key, strlen(t->key));
	}
}

static void reports_fuzz_check(const struct bot_report_list *rl)
{
	size_t i;

	for (i = 0; i < rl->nr; i++)
		if (!rl->items[i].who || !*rl->items[i].who ||
		    rl->items[i].message_id)
			abort();
}

FUZZ_TARGET(trailers)
{
	static const char diff[] =
		"---\n"
		"diff --git a/mm/f.c b/mm/f.c\n"
		"--- a/mm/f.c\n"
		"+++ b/mm/f.c\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n";
	const char *body = (const char *)data;
	struct trailer_list tl;
	struct bot_report_list rl;
	struct patchmail pm;
	struct strbuf sb = STRBUF_INIT;
	int n, bot;

	trailer_list_init(&tl);
	n = patchmail_reply_trailers(&tl, body, size);
	if (n < 0 || (size_t)n != tl.nr)
		abort();
	trailers_fuzz_check(&tl);
	trailer_list_release(&tl);

	bot_report_list_init(&rl);
	bot = size && (data[0] & 1);
	n = reply_parse(&tl, &rl, body, size, bot ? "kernel test robot" :
			"A Person", bot ? "lkp@intel.com" : "a@example.org");
	if (n < 0 || (size_t)n != tl.nr)
		abort();
	trailers_fuzz_check(&tl);
	reports_fuzz_check(&rl);
	trailer_list_release(&tl);
	bot_report_list_release(&rl);

	patchmail_init(&pm);
	if (!patchmail_split(&pm, body, size, "fuzz"))
		trailers_fuzz_check(&pm.trailers);
	patchmail_release(&pm);

	strbuf_add(&sb, body, size);
	if (sb.len && sb.buf[sb.len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	strbuf_addstr(&sb, diff);
	if (!patchmail_split(&pm, sb.buf, sb.len, "fuzz"))
		trailers_fuzz_check(&pm.trailers);
	patchmail_release(&pm);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
