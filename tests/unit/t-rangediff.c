// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Range-diff without a repository: patches built from diff text (as a
 * patch read from mail will be), their texts, pairing and output.
 */
#include "tap.h"
#include "series/rangediff.h"

#include <stdlib.h>

static const char diff_a[] =
	"diff --git a/mm/x.c b/mm/x.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -1,3 +1,9 @@ int f(void)\n"
	" a\n"
	"+1\n"
	"+2\n"
	"+3\n"
	"+b\n"
	"+5\n"
	"+6\n"
	" c\n"
	" d\n";

static const char diff_b[] =
	"diff --git a/mm/x.c b/mm/x.c\n"
	"index 1111111..3333333 100644\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -1,3 +1,9 @@ int f(void)\n"
	" a\n"
	"+1\n"
	"+2\n"
	"+3\n"
	"+B\n"
	"+5\n"
	"+6\n"
	" c\n"
	" d\n";

static const char diff_new[] =
	"diff --git a/mm/y.c b/mm/y.c\n"
	"new file mode 100644\n"
	"index 0000000..4444444\n"
	"--- /dev/null\n"
	"+++ b/mm/y.c\n"
	"@@ -0,0 +1,2 @@\n"
	"+one\n"
	"+two\n";

static int build(struct rangediff_patch *p, const char *label,
		 const char *msg, const char *text)
{
	git_diff *diff;
	int r;

	if (git_diff_from_buffer(&diff, text, strlen(text)) < 0)
		return -1;
	r = rangediff_patch_build(p, label, "A U Thor <a@example.org>", msg,
				  diff);
	git_diff_free(diff);
	return r;
}

int main(void)
{
	struct rangediff_patch a[2], b[2];
	struct rangediff rd;
	struct strbuf out = STRBUF_INIT;
	const char *want_text =
		" ## Metadata ##\n"
		"Author: A U Thor <a@example.org>\n"
		"\n"
		" ## Commit message ##\n"
		"    mm: add b\n"
		"\n"
		"    Why:    because.\n"
		"\n"
		" ## mm/x.c ##\n"
		"@@ mm/x.c: int f(void)\n"
		" a\n"
		"+1\n"
		"+2\n"
		"+3\n"
		"+b\n"
		"+5\n"
		"+6\n"
		" c\n"
		" d\n";

	git_libgit2_init();
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ok(!build(&a[0], "aaaaaaa", "mm: add b\n\nWhy:\tbecause.  \n",
		  diff_a), "build a patch from diff text");
	is_str(a[0].text, want_text,
	       "the text is range-diff's (tabs expanded, trailing blanks cut)");
	is_int(a[0].diffsize, 11, "diffsize counts header, hunk and lines");
	is_str(a[0].subject, "mm: add b", "subject");
	ok(!build(&a[1], "ccccccc", "mm: new file\n", diff_new),
	   "a new file");
	ok(strstr(a[1].text, " ## mm/y.c (new) ##\n@@\n+one\n+two\n") != NULL,
	   "new file header and a hunk header without function");
	ok(!build(&b[0], "bbbbbbb", "mm: add b\n\nWhy:\tbecause.\n", diff_b),
	   "build the changed patch");
	ok(!build(&b[1], "ddddddd", "mm: new file\n", diff_new),
	   "build the same new file");

	ok(!rangediff_compute(a, 2, b, 2, RANGEDIFF_CREATION_FACTOR, &rd),
	   "compute");
	is_int(rd.nr_pairs, 2, "two pairs");
	ok(rd.pairs[0].a == 0 && rd.pairs[0].b == 0 &&
	   rd.pairs[0].status == '!', "changed patch pairs as !");
	ok(rd.pairs[1].a == 1 && rd.pairs[1].b == 1 &&
	   rd.pairs[1].status == '=', "identical patch pairs as =");
	ok(!rangediff_print(&rd, 0, &out), "print");
	is_str(out.buf,
	       "1:  aaaaaaa ! 1:  bbbbbbb mm: add b\n"
	       "    @@ mm/x.c: int f(void)\n"
	       "     +1\n"
	       "     +2\n"
	       "     +3\n"
	       "    -+b\n"
	       "    ++B\n"
	       "     +5\n"
	       "     +6\n"
	       "      c\n"
	       "2:  ccccccc = 2:  ddddddd mm: new file\n",
	       "output as git range-diff");
	rangediff_release(&rd);

	/* nothing in common: dropped and added */
	strbuf_reset(&out);
	ok(!rangediff_compute(a, 1, b + 1, 1, 60, &rd), "compute disjoint");
	rangediff_print(&rd, RANGEDIFF_NO_PATCH, &out);
	is_str(out.buf,
	       "1:  aaaaaaa < -:  ------- mm: add b\n"
	       "-:  ------- > 1:  ddddddd mm: new file\n",
	       "< before > when the dropped patch comes first");
	rangediff_release(&rd);

	/* empty sides */
	strbuf_reset(&out);
	ok(!rangediff_compute(a, 0, b, 2, 60, &rd) && rd.nr_pairs == 2 &&
	   rd.pairs[0].status == '>' && rd.pairs[1].status == '>',
	   "everything added");
	rangediff_release(&rd);
	ok(!rangediff_compute(a, 0, b, 0, 60, &rd) && rd.nr_pairs == 0,
	   "nothing at all");
	rangediff_release(&rd);

	is_int(rangediff_diffsize("a\nb\nc\n", 6, "a\nB\nc\n", 6), 5,
	       "diffsize: hunk header, 2 context, -, +");

	strbuf_release(&out);
	rangediff_patch_release(&a[0]);
	rangediff_patch_release(&a[1]);
	rangediff_patch_release(&b[0]);
	rangediff_patch_release(&b[1]);
	git_libgit2_shutdown();
	return done_testing();
}
