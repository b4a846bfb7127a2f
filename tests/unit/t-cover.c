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
		/* forms seen in real cover letters (linuxppc-dev 2023) */
		{ "Notes for v3:", 3 },
		{ "Patch set v4:", 4 },
		{ "Patchset v4:", 4 },
		{ "-v8:", 8 },
		{ "changes from -v1:", 2 },
		{ "Change log v4:", 4 },
		{ "Change overview in v5:", 5 },
		{ "Changes against v1:", 2 },
		{ "Changes compared to v1[2]:", 2 },
		{ "Changes since v2 [2]", 3 },
		{ "Changes since v2 [20190717012719.5524-1-palmer@sifive.com]:", 3 },
		{ "Changes since v3 <https://lore.kernel.org/all/20230214074925.228106-1-alexghiti@rivosinc.com/>:", 4 },
		{ "v1 (https://lore.kernel.org/all/20230830105244.62477-1-srikar@linux.vnet.ibm.com) -> v2:", 2 },
		{ "v1 --> v2:", 2 },
		{ "v13->v14:", 14 },
		{ "Changes since initial version:", 2 },
		{ "Changes in v2 vs initial RFC:", 2 },
		{ "v2 changelog", 2 },
		{ "v2 changes:", 2 },
		{ "Changes vs v2:", 3 },
		/* not headers */
		{ "v3", 0 },
		{ "- Changes in v3:", 0 },
		{ "  v2:", 0 },
		{ "This is v3 of the series:", 0 },
		{ "Changes:", 0 },
		{ "The v2 changes are below", 0 },
		{ "", 0 },
		{ "- v2:", 0 },
		{ "v1: https://lore.kernel.org/all/x@y/", 0 },
		{ "Previous revisions:", 0 },
		{ "This v2 series mainly:", 0 },
		{ "v2 is here:", 0 },
		{ "Changes since then:", 0 },
		{ "Changelog:", 0 },
		{ "v3: Restrict support to PPC64", 0 },
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

static void test_header_kinds(void)
{
	struct changelog_header h;
	const char *l;

	l = "v3: Restrict support to PPC64";
	is_int(changelog_header_parse(l, strlen(l), &h), 3,
	       "\"v3: text\" heads v3's section");
	is_str(l + h.text, "Restrict support to PPC64",
	       "with its first item on the same line");
	l = "v2:\t* Add ptrace/coredump support";
	changelog_header_parse(l, strlen(l), &h);
	is_str(h.text ? l + h.text : "", "* Add ptrace/coredump support",
	       "an inline item after a tab");
	l = "v3. Rebase and incorporate review comments";
	is_int(changelog_header_parse(l, strlen(l), &h), 3, "\"v3. text\" too");
	is_str(h.text ? l + h.text : "",
	       "Rebase and incorporate review comments", "its text");
	l = "v1->v2:  Add Reviewed-by and Acked-by tags";
	is_int(changelog_header_parse(l, strlen(l), &h), 2, "\"v1->v2: text\"");
	l = "v1: https://lore.kernel.org/all/x@y/";
	is_int(changelog_header_parse(l, strlen(l), &h), 0,
	       "\"v1: URL\" is a link, not a header");
	l = "v2";
	ok(changelog_header_parse(l, strlen(l), &h) == 2 && h.bare,
	   "a bare \"v2\" is a header only where the context says so");
	l = "Changelog:";
	is_int(changelog_header_parse(l, strlen(l), &h), CHANGELOG_CONTAINER,
	       "\"Changelog:\" heads the changelog, not one version");
	l = "Revisions";
	ok(changelog_header_parse(l, strlen(l), &h) == CHANGELOG_CONTAINER &&
	   !h.colon, "\"Revisions\" (underlined in the letter) too");
	l = "Version history:";
	is_int(changelog_header_parse(l, strlen(l), &h), CHANGELOG_CONTAINER,
	       "\"Version history:\" too");
	l = "Background";
	is_int(changelog_header_parse(l, strlen(l), &h), 0,
	       "another heading is not");
}

/* parse_case(TEXT, BODY, "v:items|v:items", DESC) */
static void parse_case(const char *text, const char *body, int v1,
		       const char *s1, int v2, const char *s2,
		       const char *desc)
{
	struct cover_text ct;
	const struct changelog_section *sec;

	cover_text_parse(text, strlen(text), &ct);
	is_str(ct.body.buf, body, "%s: the body", desc);
	is_int((long long)ct.nr, (v1 > 0) + (v2 > 0), "%s: sections", desc);
	if (v1 > 0) {
		sec = cover_text_section(&ct, v1);
		is_str(sec ? sec->text.buf : "(none)", s1, "%s: v%d's section",
		       desc, v1);
	}
	if (v2 > 0) {
		sec = cover_text_section(&ct, v2);
		is_str(sec ? sec->text.buf : "(none)", s2, "%s: v%d's section",
		       desc, v2);
	}
	cover_text_release(&ct);
}

static void test_real_forms(void)
{
	parse_case("T\n\nText.\n\nChanges since v1\n----------------\n"
		   "- a\n- b\n\nMore.\n", "Text.\n\nMore.\n",
		   2, "- a\n- b\n", 0, NULL, "an underlined heading");
	parse_case("T\n\nText.\n\nv2\n==\n- x\n", "Text.\n", 2, "- x\n",
		   0, NULL, "a bare version, underlined");
	parse_case("T\n\nText.\n\nNotes for v2:\n- a\n\nPatch set v3:\n"
		   "- b\n", "Text.\n", 2, "- a\n", 3, "- b\n",
		   "Notes for vN, Patch set vN");
	parse_case("T\n\nText.\n\n---\nChangelog:\n==========\n\n"
		   "v2 -> v3\n- c\n\nv1 -> v2\n- b\n", "Text.\n",
		   3, "- c\n", 2, "- b\n",
		   "\"Changelog:\" over the sections goes with them");
	parse_case("T\n\nText.\n\nHistory:\n********\n=========\n"
		   "v1->v2:\n- Take the new format\n", "Text.\n",
		   2, "- Take the new format\n", 0, NULL,
		   "a heading underlined twice");
	parse_case("T\n\nText.\n\nChangelog\nv4\n1. Updated patch 1\n",
		   "Text.\n", 4, "1. Updated patch 1\n", 0, NULL,
		   "a bare version under \"Changelog\"");
	parse_case("T\n\nText.\n\nChanges:\nv2: squashed all (Arnd)\n"
		   "v3: fixed alpha\n  and more\n", "Text.\n",
		   2, "- squashed all (Arnd)\n", 3, "- fixed alpha\n  and more\n",
		   "one line a version");
	parse_case("T\n\nText.\n\nv2: Implement x to avoid\nkcsan_mb().\n"
		   "\nv1: https://lore.kernel.org/x/\n",
		   "Text.\n\nv1: https://lore.kernel.org/x/\n",
		   2, "- Implement x to avoid\n  kcsan_mb().\n", 0, NULL,
		   "an item on the header's line, continued; a link stays");
	parse_case("T\n\nText.\n\n-v8:\n1. Rebase on 6.3-rc4\n2. Tested\n"
		   "Link: https://x/\n\n-v7:\n1. rename\n", "Text.\n",
		   8, "1. Rebase on 6.3-rc4\n2. Tested\nLink: https://x/\n",
		   7, "1. rename\n", "\"-vN:\" sections");
	parse_case("T\n\nText.\n\nv3 -> v4\n++++++++\n\n"
		   "o Rebased against 6.2-rc4\n  Re-ran scripts\n\no Fixed x\n"
		   "\nBody again.\n", "Text.\n\nBody again.\n",
		   4, "o Rebased against 6.2-rc4\n  Re-ran scripts\no Fixed x\n",
		   0, NULL, "a blank line under the heading, \"o\" items");
	parse_case("T\n\nText.\n\nChanges since v2 [2]\n- y\n\n"
		   "[2] https://lore.kernel.org/r/x/\n",
		   "Text.\n\n[2] https://lore.kernel.org/r/x/\n", 3, "- y\n",
		   0, NULL, "a heading with a footnote");
	parse_case("T\n\nText.\n\nchange log:\n        - rebase to 6.x\n",
		   "Text.\n\nchange log:\n        - rebase to 6.x\n",
		   0, NULL, 0, NULL,
		   "\"change log:\" over items of no version stays text");
	parse_case("T\n\nBackground\n==========\nText.\n",
		   "Background\n==========\nText.\n", 0, NULL, 0, NULL,
		   "another underlined heading stays");
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

/* A patch adding the lines "<tag> from..to" to mm/x.c. */
static void mk_lines(struct rangediff_patch *p, const char *message,
		     const char *tag, int from, int to)
{
	struct strbuf d = STRBUF_INIT;
	git_diff *diff = NULL;
	int i;

	strbuf_addf(&d, "diff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n"
		    "+++ b/mm/x.c\n@@ -1,2 +1,%d @@\n ctx\n", to - from + 3);
	for (i = from; i <= to; i++)
		strbuf_addf(&d, "+\t%s_line(%d);\n", tag, i);
	strbuf_addstr(&d, " ctx2\n");
	if (git_diff_from_buffer(&diff, d.buf, d.len) < 0 ||
	    rangediff_patch_build(p, NULL, "A U Thor <a@example.org>", message,
				  diff) < 0)
		abort();
	git_diff_free(diff);
	strbuf_release(&d);
}

static void test_splits(void)
{
	struct rangediff_patch one, two[2];
	struct strbuf out = STRBUF_INIT;

	mk_lines(&one, "mm: add all the lines\n", "x", 1, 6);
	mk_lines(&two[0], "mm: add the first lines\n", "x", 1, 3);
	mk_lines(&two[1], "mm: add the last lines\n", "x", 4, 6);
	is_int((long long)changes_describe(&one, 1, two, 2, &out), 1,
	       "a split is one item");
	is_str(out.buf, "- Split \"mm: add all the lines\" (was 1/1) into 1/2, "
	       "2/2\n", "split into its pieces, not reworded, new, dropped");
	strbuf_reset(&out);
	changes_describe(two, 2, &one, 1, &out);
	is_str(out.buf, "- 1/1 \"mm: add all the lines\": squashed from 1/2, "
	       "2/2\n", "and squashed the other way");
	strbuf_release(&out);
	rangediff_patch_release(&one);
	rangediff_patch_release(&two[0]);
	rangediff_patch_release(&two[1]);
}

int main(void)
{
	git_libgit2_init();
	test_headers();
	test_parse();
	test_header_kinds();
	test_real_forms();
	test_b4_cover();
	test_comments();
	test_template();
	test_changes();
	test_splits();
	git_libgit2_shutdown();
	return done_testing();
}
