// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The review loop's parsers of mail text: review comments out of a
 * reply (placed in a patch's diff, answered, addressed), the quote of a
 * reply draft, recipient lists (To:/Cc: lines, get_maintainer.pl
 * output, trailer lines) and trailers put into a commit message.
 */
#include "patches/msgtrailers.h"
#include "review/comments.h"
#include "review/recipients.h"
#include "review/reply.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void comments_fuzz_check(const struct comment_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct comment *c = &l->items[i];

		/* a comment has text of its own (a hunk may come without
		 * its file: a quote of "@@" lines only) */
		if (!c->text.len ||
		    strlen(c->text.buf) != c->text.len ||
		    strlen(c->quote.buf) != c->quote.len)
			abort();
	}
}

FUZZ_TARGET(review)
{
	static const char diff[] =
		"diff --git a/mm/f.c b/mm/f.c\n"
		"--- a/mm/f.c\n"
		"+++ b/mm/f.c\n"
		"@@ -1,2 +1,3 @@ int f(void)\n"
		" a\n"
		"+\tint batch = 0;\n"
		"-b\n";
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	struct comment_list l, again;
	struct recipients rc;
	struct trailer_list add;
	size_t i, n;

	/* the input as text up to a NUL, as mail bodies are */
	strbuf_add(&text, data, strnlen((const char *)data, size));
	comment_list_init(&l);
	n = comments_parse(&l, text.buf, text.len, diff, sizeof(diff) - 1);
	if (n != l.nr)
		abort();
	comments_fuzz_check(&l);
	comment_list_init(&again);
	comments_parse(&again, text.buf, text.len, NULL, 0);
	comments_fuzz_check(&again);
	for (i = 0; i < l.nr; i++) {
		comment_answered_by(&l.items[i], &again);
		/* the same diff twice: nothing can have changed */
		if (l.items[i].file &&
		    comment_addressed(&l.items[i], text.buf, diff,
				      text.buf, diff))
			abort();
		comment_addressed(&l.items[i], NULL, diff, NULL, text.buf);
	}
	comment_list_release(&l);
	comment_list_release(&again);

	reply_quote(&out, text.buf, text.len);
	if (strlen(out.buf) != out.len)
		abort();

	recipients_init(&rc);
	recipients_add_list(&rc, 1, text.buf);
	error_clear();
	recipients_add_get_maintainer(&rc, text.buf);
	recipients_add_trailers(&rc, text.buf);
	recipients_add_stored(&rc, text.buf);
	strbuf_setlen(&out, 0);
	recipients_format(&rc, &out);
	recipients_release(&rc);

	trailer_list_init(&add);
	trailer_list_add(&add, "Reviewed-by", 11, "R Ev <r@example.org>", 20);
	trailer_list_add(&add, "Acked-by", 8, "R Ev <R@EXAMPLE.org>", 20);
	n = message_add_trailers(text.buf, &add, "a@example.org", &out);
	if (n > add.nr || strlen(out.buf) != out.len)
		abort();
	/* once written, never twice */
	{
		struct strbuf twice = STRBUF_INIT, copy = STRBUF_INIT;

		strbuf_add(&copy, out.buf, out.len);
		if (n && message_add_trailers(copy.buf, &add, "a@example.org",
					      &twice) > add.nr)
			abort();
		strbuf_release(&twice);
		strbuf_release(&copy);
	}
	trailer_list_release(&add);
	strbuf_release(&out);
	strbuf_release(&text);
	return 0;
}
