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

static int build_by(struct rangediff_patch *p, const char *label,
		    const char *author, const char *msg, const char *text)
{
	git_diff *diff;
	int r;

	if (git_diff_from_buffer(&diff, text, strlen(text)) < 0)
		return -1;
	r = rangediff_patch_build(p, label, author, msg, diff);
	git_diff_free(diff);
	return r;
}

/* A diff adding lines "<tag> 1".."<tag> n" to file. */
static char *diff_adding(const char *file, const char *tag, int n)
{
	struct strbuf d = STRBUF_INIT;
	int i;

	strbuf_addf(&d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n"
		    "@@ -1,2 +1,%d @@\n ctx\n", file, file, file, file, n + 2);
	for (i = 1; i <= n; i++)
		strbuf_addf(&d, "+%s %d\n", tag, i);
	strbuf_addstr(&d, " ctx2\n");
	return strbuf_detach(&d, NULL);
}

#define AUTHOR "A U Thor <a@example.org>"

/* The leftovers of git's pairing, paired by subject and author. */
static void test_title_pairs(void)
{
	struct rangediff_patch a[3], b[3];
	struct rangediff rd;
	struct strbuf out = STRBUF_INIT;
	char *d1 = diff_adding("mm/x.c", "one", 6);
	char *d2 = diff_adding("mm/y.c", "two", 6);
	char *d3 = diff_adding("mm/z.c", "three", 6);
	char *d4 = diff_adding("mm/w.c", "four", 6);
	char *d5 = diff_adding("mm/z.c", "other", 6);
	size_t i;
	int n;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ok(rangediff_subject_similarity("mm: fix againg", "mm: fix aging") > 0.9,
	   "a typo fix keeps subjects alike");
	ok(rangediff_subject_similarity("mm: fix x", "net: rework y") < 0.5,
	   "different subjects are not alike");
	/* v1: same, rework (x.c), typo (z.c); v2: same, rework (w.c: all
	 * new code), typo fixed (z.c, other code) */
	build_by(&a[0], "aaaaaa1", AUTHOR, "mm: same\n", d2);
	build_by(&a[1], "aaaaaa2", AUTHOR, "sched: rework the balancer\n", d1);
	build_by(&a[2], "aaaaaa3", AUTHOR, "mm: prefetch when canning\n", d3);
	build_by(&b[0], "bbbbbb1", AUTHOR, "mm: same\n", d2);
	build_by(&b[1], "bbbbbb2", AUTHOR, "sched: rework the balancer\n", d4);
	build_by(&b[2], "bbbbbb3", AUTHOR, "mm: prefetch when scanning\n", d5);
	ok(!rangediff_compute(a, 3, b, 3, 60, &rd), "compute");
	rangediff_print(&rd, RANGEDIFF_NO_PATCH, &out);
	is_str(out.buf,
	       "1:  aaaaaa1 = 1:  bbbbbb1 mm: same\n"
	       "2:  aaaaaa2 < -:  ------- sched: rework the balancer\n"
	       "3:  aaaaaa3 < -:  ------- mm: prefetch when canning\n"
	       "-:  ------- > 2:  bbbbbb2 sched: rework the balancer\n"
	       "-:  ------- > 3:  bbbbbb3 mm: prefetch when scanning\n",
	       "git pairs the rewritten patches with nothing");
	n = rangediff_pair_by_title(&rd);
	is_int(n, 2, "two leftovers pair by title");
	strbuf_reset(&out);
	rangediff_print(&rd, RANGEDIFF_NO_PATCH, &out);
	is_str(out.buf,
	       "1:  aaaaaa1 = 1:  bbbbbb1 mm: same\n"
	       "2:  aaaaaa2 ! 2:  bbbbbb2 sched: rework the balancer (paired by title)\n"
	       "3:  aaaaaa3 ! 3:  bbbbbb3 mm: prefetch when canning (paired by title)\n",
	       "shown as pairs, in the newer order, marked");
	ok(!rd.pairs[0].by_title && rd.pairs[1].by_title && rd.pairs[2].by_title,
	   "the pairs say how they were found");
	strbuf_reset(&out);
	rangediff_print(&rd, 0, &out);
	ok(strstr(out.buf, "(paired by title)\n    @@ Metadata\n") != NULL,
	   "the diff of the two texts follows a pair by title");
	rangediff_release(&rd);

	/* a similar subject and no file in common: not the same patch */
	ok(!rangediff_compute(a + 2, 1, b + 1, 1, 60, &rd), "compute");
	rangediff_patch_release(&b[1]);
	build_by(&b[1], "bbbbbb2", AUTHOR, "mm: prefetch when scanning\n", d4);
	rangediff_release(&rd);
	ok(!rangediff_compute(a + 2, 1, b + 1, 1, 60, &rd), "compute");
	is_int(rangediff_pair_by_title(&rd), 0,
	       "a similar subject alone, on other files, does not pair");
	rangediff_release(&rd);

	/* the same subject by another author: not the same patch */
	rangediff_patch_release(&b[1]);
	build_by(&b[1], "bbbbbb2", "O Ther <o@example.org>",
		 "sched: rework the balancer\n", d4);
	ok(!rangediff_compute(a + 1, 1, b + 1, 1, 60, &rd), "compute");
	is_int(rangediff_pair_by_title(&rd), 0,
	       "the same subject by another author does not pair");
	rangediff_release(&rd);

	/* a dropped patch between: still in git's place */
	ok(!rangediff_compute(a, 3, b + 2, 1, 60, &rd), "compute");
	is_int(rangediff_pair_by_title(&rd), 1, "one pairs by title");
	strbuf_reset(&out);
	rangediff_print(&rd, RANGEDIFF_NO_PATCH, &out);
	is_str(out.buf,
	       "1:  aaaaaa1 < -:  ------- mm: same\n"
	       "2:  aaaaaa2 < -:  ------- sched: rework the balancer\n"
	       "3:  aaaaaa3 ! 1:  bbbbbb3 mm: prefetch when canning (paired by title)\n",
	       "the dropped ones before it stay before it");
	rangediff_release(&rd);

	for (i = 0; i < 3; i++) {
		rangediff_patch_release(&a[i]);
		rangediff_patch_release(&b[i]);
	}
	free(d1);
	free(d2);
	free(d3);
	free(d4);
	free(d5);
	strbuf_release(&out);
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

	test_title_pairs();
	strbuf_release(&out);
	rangediff_patch_release(&a[0]);
	rangediff_patch_release(&a[1]);
	rangediff_patch_release(&b[0]);
	rangediff_patch_release(&b[1]);
	git_libgit2_shutdown();
	return done_testing();
}
