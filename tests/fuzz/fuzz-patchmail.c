// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Patch splitting: a patch mail's body (as mail_body_parse() gives it)
 * split into message, trailers, notes, diff, tail and signature, then
 * the diff read by libgit2 and its patch-id taken, as
 * series/mailset.c's load_part() does.
 */
#include "patches/patchmail.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

static void patchmail_span_check(const struct patchmail_span *s,
				 const char *body, size_t len)
{
	/* every span lies inside the body */
	if (s->p && (s->p < body || s->len > len ||
		     (size_t)(s->p - body) > len - s->len))
		abort();
}

FUZZ_TARGET(patchmail)
{
	const char *body = (const char *)data;
	struct patchmail pm;
	size_t i;

	fuzz_git_init();
	patchmail_init(&pm);
	if (patchmail_find_diff(body, size) > size)
		abort();
	if (!patchmail_split(&pm, body, size, "<fuzz@example.org>")) {
		patchmail_span_check(&pm.message, body, size);
		patchmail_span_check(&pm.trailer_block, body, size);
		patchmail_span_check(&pm.notes, body, size);
		patchmail_span_check(&pm.raw_diff, body, size);
		/* the diff read: the body's, or its rewrite as git's */
		if (pm.diff_buf)
			patchmail_span_check(&pm.diff, pm.diff_buf,
					     strlen(pm.diff_buf));
		else
			patchmail_span_check(&pm.diff, body, size);
		patchmail_span_check(&pm.tail, body, size);
		patchmail_span_check(&pm.signature, body, size);
		for (i = 0; i < pm.trailers.nr; i++)
			if (!pm.trailers.items[i].key ||
			    !pm.trailers.items[i].value)
				abort();
		if (pm.diff.p)
			fuzz_patch_id(pm.diff.p, pm.diff.len);
	}
	patchmail_release(&pm);
	error_clear();
	return 0;
}
