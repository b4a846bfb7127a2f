// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What respin tree reads out of an integration branch's commits, text
 * that came from mail: the Message-IDs of Link: and Message-Id: lines,
 * the patch a "-fix" commit is titled after, a title's slug.
 */
#include "series/treetext.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void tree_fuzz_id(const char *id, void *d)
{
	size_t *n = d;

	/* one id: text of its own, on one line */
	if (!*id || strchr(id, '\n'))
		abort();
	(*n)++;
}

FUZZ_TARGET(tree)
{
	struct strbuf text = STRBUF_INIT;
	char *slug, *target, *p;
	size_t n = 0;

	strbuf_add(&text, data, strnlen((const char *)data, size));
	tree_message_ids(text.buf, tree_fuzz_id, &n);
	slug = tree_slug(text.buf);
	/* lower-case letters, digits, '_' and single inner dashes */
	for (p = slug; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' ||
		      (*p == '-' && p > slug && p[1] && p[1] != '-')))
			abort();
	target = tree_fixup_target(text.buf);
	/* what it fixes is a shorter beginning of the subject */
	if (target && (!*target || strlen(target) >= text.len ||
		       strncmp(target, text.buf, strlen(target))))
		abort();
	free(target);
	free(slug);
	strbuf_release(&text);
	return 0;
}
