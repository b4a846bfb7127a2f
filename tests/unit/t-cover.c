// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cover letter's parts: changelog headers and sections in the forms
 * people write them, the tail git leaves under a cover letter, the
 * template, and what changed between two versions.
 */
#include "review/changelog.h"
#include "review/changes.h"
#include "review/template.h"
#include "tools/lib/error.h"
#include "tests/unit/tap.h"

#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_headers(void)
{
	static const struct {
		const char *line;
		int version;
	} t[] = {
		{ "Changes in v3:", 3 },
		{ "Changes in V3", 3 },
		{ "Changes since v2:", 3 },
		{ "Changes from v1:", 2 },
		{ "Updates from V2:", 3 },
		{ "Update from V1:", 2 },
		{ "v2 -> v3:", 3 },
		{ "v1->v2:", 2 },
		{ "Changes v4..v5:", 5 },
		{ "Changes from v2 to v3:", 3 },
		{ "v3:", 3 },
		{ "Changelog (v6):", 6 },
		{ "Changes in version 4:", 4 },
		/* not headers */
		{ "v3", 0 },
		{ "- Changes in v3:", 0 },
		{ "  v2:", 0 },
		{ "This is v3 of the series:", 0 },
		{ "Changes:", 0 },
		{ "The v2 changes are below", 0 },
		{ "", 0 },
	};
	size_t i;

	for (i = 0; i < N(t); i++)
		is_int(changelog_header_version(t[i].line, strlen(t[i].line)),
		       t[i].version, "header \"%s\" -> %d", t[i].line,
		       t[i].version);
}

static const char lru_like[] =
	"mm, lru_gen: batch update pages when aging\n"
	"\n"
	"From: Kairui Song <kasong@tencent.com>\n"
	"\n"
	"Currently when MGLRU ages, it moves the pages one by one.\n"
	"\n"
	"Updates from V2:\n"
	"- Add more tests and simplify patch 2/3 to contain only one gen\n"
	"  info for batch.\n"
	"- Fix typo as pointed out by Andrew Morton.\n"
	"\n"
	"Update from V1:\n"
	"- Fix function argument type as suggested by Chris Li.\n"
	"- Link to v1: https://lore.kernel.org/r/x@y/\n"
	"\n"
	"Kairui Song (3):\n"
	"  mm, lru_gen: try to prefetch next page when scanning LRU\n"
	"  mm, lru_gen: batch update counters on aging\n"
	"\n"
	" mm/vmscan.c | 145 ++++++++++++++++++++++++++++++++++++++++++++--------\n"
	" 1 file changed, 125 insertions(+), 20 deletions(-)\n"
	"\n"
	"-- \n"
	"2.43.0\n";

static void test_parse(void)
{
	struct cover_text ct;
	const struct changelog_section *sec;

	cover_text_parse(lru_like, strlen(lru_like), &ct);
	is_str(ct.title, "mm, lru_gen: batch update pages when aging",
	       "the title is the first line");
	is_str(ct.body.buf,
	       "Currently when MGLRU ages, it moves the pages one by one.\n",
	       "the body loses the in-body From, the sections and the tail");
	is_int((long long)ct.nr, 2, "two sections");
	sec = cover_text_section(&ct, 3);
	ok(sec != NULL, "\"Updates from V2\" is v3's section");
	if (sec)
		is_str(sec->text.buf,
		       "- Add more tests and simplify patch 2/3 to contain only one gen\n"
		       "  info for batch.\n"
		       "- Fix typo as pointed out by Andrew Morton.\n",
		       "v3's items, continuation lines kept");
	sec = cover_text_section(&ct, 2);
	if (ok(sec != NULL, "\"Update from V1\" is v2's section"))
		is_str(sec->text.buf,
		       "- Fix function argument type as suggested by Chris Li.\n",
		       "the \"Link to v1\" item is dropped");
	is_str(ct.diffstat.buf,
	       " mm/vmscan.c | 145 ++++++++++++++++++++++++++++++++++++++++++++--------\n"
	       " 1 file changed, 125 insertions(+), 20 deletions(-)\n",
	       "the sender's diffstat is kept apart");
	ok(cover_text_section(&ct, 4) == NULL, "no section for v4");
	cover_text_release(&ct);

	cover_text_parse("Title only", 10, &ct);
	is_str(ct.title, "Title only", "a text of one line: its title");
	is_str(ct.body.buf, "", "and no body");
	cover_text_release(&ct);

	{
		static const char t[] =
			"T\n\nText.\n\nChanges in v2:\n- a\n\nMore text after.\n";

		cover_text_parse(t, strlen(t), &ct);
		is_str(ct.body.buf, "Text.\n\nMore text after.\n",
		       "a paragraph after a section is body again");
		cover_text_release(&ct);
	}
	{
		static const char t[] =
			"T\n\nText.\n\n---\nNot a tail: a real line.\n";

		cover_text_parse(t, strlen(t), &ct);
		is_str(ct.body.buf, "Text.\n\n---\nNot a tail: a real line.\n",
		       "a --- followed by text stays");
		cover_text_release(&ct);
	}
}

static void test_b4_cover(void)
{
	static const char t[] =
		"mm: batch things\n\nThe text.\n\nTo: linux-mm@kvack.org\n"
		"Cc: A Person <a@example.org>\n\n---\nChanges in v2:\n"
		"- rework change 2\n"
		"- Link to v1: https://lore.kernel.org/r/20240101-x-v1-0-0123@example.org\n";
	struct cover_text ct;
	const struct changelog_section *sec;

	cover_text_parse(t, strlen(t), &ct);
	is_str(ct.body.buf, "The text.\n",
	       "b4's cover: its To/Cc lines and the --- before its changelog go");
	sec = cover_text_section(&ct, 2);
	if (ok(sec != NULL, "b4's Changes in v2"))
		is_str(sec->text.buf, "- rework change 2\n",
		       "its Link item is dropped (the letter makes its own)");
	cover_text_release(&ct);
}

static void test_comments(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "Title\n# help\n\nbody\n#more\n");
	cover_strip_comments(&sb);
	is_str(sb.buf, "Title\n\nbody\n", "lines starting with # go");
	strbuf_release(&sb);
}

static void test_template(void)
{
	struct template_var vars[] = {
		{ "title", "The title" },
		{ "body", "Line one.\nLine two.\n" },
		{ "changes", "" },
		{ "base_commit", NULL },
		{ "change_id", "20240101-x-0123456789ab" },
	};
	struct strbuf out = STRBUF_INIT;
	int r;

	r = template_expand("${title}\n\n${body}\n\n${changes}\n\n---\n"
			    "base-commit: ${base_commit}\n"
			    "change-id: ${change_id}\ncost: $${x}\n",
			    vars, N(vars), "test", &out);
	is_int(r, 0, "expands");
	is_str(out.buf,
	       "The title\n\nLine one.\nLine two.\n\n---\n"
	       "change-id: 20240101-x-0123456789ab\ncost: ${x}\n",
	       "empty parts leave no lines and no double blank lines");
	strbuf_reset(&out);
	r = template_expand("a\n${nope}\n", vars, N(vars), "my.tmpl", &out);
	ok(r < 0, "an unknown variable is an error");
	ok(strstr(error_last(), "my.tmpl, line 2: unknown variable ${nope}") !=
	   NULL, "naming the template, the line and the variable");
	error_clear();
	r = template_expand("a ${title\n", vars, N(vars), "t", &out);
	ok(r < 0 && strstr(error_last(), "without its") != NULL,
	   "an unclosed ${ is an error");
	error_clear();
	strbuf_release(&out);
}

/* A patch for changes_describe, built from text like a mail's. */
static void mk(struct rangediff_patch *p, const char *message,
	       const char *file, const char *line)
{
	struct strbuf d = STRBUF_INIT;
	git_diff *diff = NULL;

	strbuf_addf(&d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n"
		    "@@ -1,2 +1,3 @@\n ctx\n+%s\n ctx2\n", file, file, file,
		    file, line);
	if (git_diff_from_buffer(&diff, d.buf, d.len) < 0)
		abort();
	if (rangediff_patch_build(p, NULL, "A U Thor <a@example.org>",
				  message, diff) < 0)
		abort();
	git_diff_free(diff);
	strbuf_release(&d);
}

static void test_changes(void)
{
	struct rangediff_patch a[3], b[3];
	struct strbuf out = STRBUF_INIT;
	size_t i, n;

	ok(changes_subject_similarity("mm: fix againg", "mm: fix aging") > 0.9,
	   "a typo fix keeps subjects alike");
	ok(changes_subject_similarity("mm: fix x", "net: rework y") < 0.5,
	   "different subjects are not alike");

	mk(&a[0], "mm: batch update counters on againg\n\nBody one.\n",
	   "mm/vmscan.c", "one();");
	mk(&a[1], "mm: move pages in bulk\n\nBody two.\n", "mm/swap.c",
	   "two();");
	mk(&a[2], "mm: prefetch when canning\n\nBody three.\n",
	   "mm/page.c", "three();");
	/* v2: 3 moved first and reworded with new code; 1 reworded with new
	 * code; 2 the same code with a review tag */
	mk(&b[0], "mm: prefetch when scanning\n\nBody three, rewritten.\n",
	   "mm/page.c", "three_rewritten();");
	mk(&b[1], "mm: batch update counters on aging\n\nNew body.\n",
	   "mm/vmscan.c", "one_rewritten();");
	mk(&b[2], "mm: move pages in bulk\n\nBody two.\n\n"
	   "Reviewed-by: R Eviewer <r@example.org>\n", "mm/swap.c", "two();");
	n = changes_describe(a, 3, b, 3, &out);
	is_int((long long)n, 3, "three items");
	is_str(out.buf,
	       "- 1/3 \"mm: prefetch when scanning\": moved (was 3/3); reworded (was \"mm:\n"
	       "  prefetch when canning\"); code changed\n"
	       "- 2/3 \"mm: batch update counters on aging\": reworded (was \"mm: batch\n"
	       "  update counters on againg\"); code changed\n"
	       "- 3/3 \"mm: move pages in bulk\": picked up Reviewed-by: R Eviewer\n"
	       "  <r@example.org>\n",
	       "moved, reworded, code changes, trailers (not a message change)");
	strbuf_reset(&out);
	n = changes_describe(a, 2, b + 2, 1, &out);
	is_str(out.buf,
	       "- 1/1 \"mm: move pages in bulk\": picked up Reviewed-by: R Eviewer\n"
	       "  <r@example.org>\n"
	       "- Dropped \"mm: batch update counters on againg\" (was 1/2)\n",
	       "a dropped patch; the one after it did not move");
	strbuf_reset(&out);
	n = changes_describe(a, 1, a, 2, &out);
	is_str(out.buf, "- New patch 2/2: \"mm: move pages in bulk\"\n",
	       "a new patch; the same patch says nothing");
	strbuf_reset(&out);
	{
		struct rangediff_patch c;

		mk(&c, "mm: move pages in bulk\n\nBody two, said better.\n",
		   "mm/swap.c", "two();");
		changes_describe(a + 1, 1, &c, 1, &out);
		is_str(out.buf, "- 1/1 \"mm: move pages in bulk\": commit message "
		       "changed\n", "the same code, a new message");
		rangediff_patch_release(&c);
	}
	strbuf_release(&out);
	for (i = 0; i < 3; i++) {
		rangediff_patch_release(&a[i]);
		rangediff_patch_release(&b[i]);
	}
}

int main(void)
{
	git_libgit2_init();
	test_headers();
	test_parse();
	test_b4_cover();
	test_comments();
	test_template();
	test_changes();
	git_libgit2_shutdown();
	return done_testing();
}
