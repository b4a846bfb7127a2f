// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for reading b4's texts: sent tags and cover letters. */
#include "series/b4.h"
#include "tap.h"

#include <string.h>

/* A tag message as b4 0.12 writes it for v2 (after the tag headers). */
static const char tag_v2[] =
	"mm: batch the LRU\n"
	"\n"
	"This series batches things.\n"
	"\n"
	"To: linux-mm@kvack.org\n"
	"Signed-off-by: C O Mitter <committer@example.org>\n"
	"\n"
	"---\n"
	"Changes in v2:\n"
	"- reworked change 3\n"
	"- Link to v1: https://lore.kernel.org/r/x-v1-0-abc@example.org\n"
	"\n"
	"---\n"
	"C O Mitter (2):\n"
	"      mm: change 1\n"
	"      mm: change 2\n"
	"A U Thor (1):\n"
	"      mm: change 3, reworked\n"
	"\n"
	" mm/a.c | 4 ++++\n"
	" 1 file changed, 4 insertions(+)\n"
	"---\n"
	"base-commit: 19033ccdb505bd23dde63d678dd554da4ab1dd77\n"
	"change-id: 20261130-lru-batch-6ed239b3fd62\n"
	"\n"
	"Best regards,\n";

static void test_tag(void)
{
	struct strbuf sb = STRBUF_INIT;

	b4_cover_from_tag(tag_v2, &sb);
	is_str(sb.buf,
	       "mm: batch the LRU\n\nThis series batches things.\n\n"
	       "To: linux-mm@kvack.org\n"
	       "Signed-off-by: C O Mitter <committer@example.org>\n\n"
	       "---\nChanges in v2:\n- reworked change 3\n"
	       "- Link to v1: https://lore.kernel.org/r/x-v1-0-abc@example.org\n",
	       "the cover letter of a tag keeps the changes, drops the tail");
	is_int(b4_tag_patch_count(tag_v2), 3, "the shortlog counts 3 patches");
	strbuf_reset(&sb);
	b4_cover_from_tag("t\n\nbody\n---\nbase-commit: abc\n", &sb);
	is_str(sb.buf, "t\n\nbody\n", "no shortlog: the base-commit section "
	       "ends the cover letter");
	is_int(b4_tag_patch_count("t\n\nbody\n---\nbase-commit: abc\n"), 0,
	       "no shortlog, no count");
	is_int(b4_tag_patch_count("t\n\nX (9):\n---\n 1 file changed\n"), 0,
	       "an '(N):' line in the cover text is not the shortlog");
	strbuf_reset(&sb);
	b4_cover_from_tag("\n---\n 2 files changed, 3 deletions(-)\n", &sb);
	is_str(sb.buf, "", "nothing before the tail: no cover letter");
	strbuf_release(&sb);
}

static void test_clean(void)
{
	const char *in = "# a note\ntitle\n\nbody\n# another\n\n\n\nmore\n\n";
	struct strbuf sb = STRBUF_INIT;

	b4_cover_clean(in, strlen(in), &sb);
	is_str(sb.buf, "title\n\nbody\n\nmore\n",
	       "comments dropped, blank runs squeezed, trimmed");
	strbuf_reset(&sb);
	b4_cover_clean("  \n\n", 4, &sb);
	is_str(sb.buf, "", "only blanks: nothing");
	strbuf_release(&sb);
}

int main(void)
{
	test_tag();
	test_clean();
	return done_testing();
}
