// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Splits and squashes between two versions, found from the patches'
 * changed lines: crafted diffs, paired as respin diff pairs them.
 */
#include "tap.h"
#include "series/splits.h"

#include <stdarg.h>
#include <stdlib.h>

/*
 * A patch "subject" adding the lines of the functions named in fns
 * ("a b c": fn_a(), fn_b(), fn_c(), five lines each) to file, each
 * with tag in its body, so that the same function in two patches
 * gives the same lines.
 */
static void mk(struct rangediff_patch *p, const char *subject,
	       const char *file, const char *fns, const char *tag)
{
	struct strbuf d = STRBUF_INIT, body = STRBUF_INIT;
	git_diff *diff = NULL;
	const char *f;
	int n = 0;

	for (f = fns; *f; f++) {
		if (*f == ' ')
			continue;
		strbuf_addf(&body, "+static int fn_%c(struct ctx *c)\n+{\n"
			    "+\tint ret = helper_%c(c, %s);\n"
			    "+\tc->count_%c += ret;\n+\treturn ret;\n+}\n+\n",
			    *f, *f, tag, *f);
		n += 7;
	}
	strbuf_addf(&d, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n"
		    "@@ -1,2 +1,%d @@\n ctx\n%s ctx2\n", file, file, file,
		    file, n + 2, body.buf);
	if (git_diff_from_buffer(&diff, d.buf, d.len) < 0)
		abort();
	if (rangediff_patch_build(p, NULL, "A U Thor <a@example.org>",
				  subject, diff) < 0)
		abort();
	git_diff_free(diff);
	strbuf_release(&d);
	strbuf_release(&body);
}

/* "split 0 -> 1 2 3" / "squash 1 2 -> 0" for each item, 1-based */
static void describe(const struct splits *s, struct strbuf *out)
{
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		const struct splits_item *it = &s->items[i];

		if (it->kind == SPLITS_SPLIT) {
			strbuf_addf(out, "split %d ->", it->one + 1);
			for (k = 0; k < it->nr; k++)
				strbuf_addf(out, " %d", it->many[k] + 1);
		} else {
			strbuf_addstr(out, "squash");
			for (k = 0; k < it->nr; k++)
				strbuf_addf(out, " %d", it->many[k] + 1);
			strbuf_addf(out, " -> %d", it->one + 1);
		}
		strbuf_addch(out, ';');
	}
}

/* Pairs a and b as respin diff does and describes what splits finds. */
static void check(const struct rangediff_patch *a, size_t na,
		  const struct rangediff_patch *b, size_t nb,
		  const char *want, const char *desc)
{
	struct rangediff rd;
	struct splits s;
	struct strbuf got = STRBUF_INIT;

	if (rangediff_compute(a, na, b, nb, RANGEDIFF_CREATION_FACTOR, &rd))
		abort();
	rangediff_pair_by_title(&rd);
	splits_find(&rd, &s);
	describe(&s, &got);
	is_str(got.buf, want, "%s", desc);
	splits_release(&s);
	rangediff_release(&rd);
	strbuf_release(&got);
}

static void release(struct rangediff_patch *p, size_t n)
{
	while (n--)
		rangediff_patch_release(&p[n]);
}

int main(void)
{
	struct rangediff_patch a[4], b[5];

	git_libgit2_init();

	/* v1: 1 keep, 2 adds a, b, c; v2: 1 keep, then a, b, c apart */
	mk(&a[0], "mm: keep", "mm/k.c", "k", "0");
	mk(&a[1], "mm: add three helpers", "mm/x.c", "abc", "1");
	mk(&b[0], "mm: keep", "mm/k.c", "k", "0");
	mk(&b[1], "mm: add three helpers", "mm/x.c", "a", "1");
	mk(&b[2], "mm: add helper b", "mm/x.c", "b", "1");
	mk(&b[3], "mm: add helper c", "mm/x.c", "c", "1");
	check(a, 2, b, 4, "split 2 -> 2 3 4;",
	      "one patch in three, the first keeping its title");
	check(b, 4, a, 2, "squash 2 3 4 -> 2;", "and back: squashed");
	release(b + 1, 3);

	/* pieces with new titles and a bit of new code each */
	mk(&b[1], "mm: helper a", "mm/x.c", "ad", "1");
	mk(&b[2], "mm: helper b", "mm/x.c", "b", "1");
	mk(&b[3], "mm: helper c", "mm/x.c", "c", "1");
	check(a, 2, b, 4, "split 2 -> 2 3 4;",
	      "titles are not needed; pieces may add a little");
	release(b + 1, 3);

	/* one part kept, one split out, one dropped */
	mk(&b[1], "mm: add two helpers", "mm/x.c", "ab", "1");
	mk(&b[2], "mm: add helper c", "mm/x.c", "c", "1");
	check(a, 2, b, 3, "split 2 -> 2 3;", "a part split out");
	release(b + 1, 2);

	/* a patch mostly new that reuses one function is no piece */
	mk(&b[1], "mm: add helper a", "mm/x.c", "a", "1");
	mk(&b[2], "mm: rework everything", "mm/x.c", "befghij", "1");
	check(a, 2, b, 3, "", "a piece is mostly from the old patch");
	release(b + 1, 2);

	/* the same titles, other code: nothing */
	mk(&b[1], "mm: add three helpers", "mm/x.c", "d", "1");
	mk(&b[2], "mm: add helper b", "mm/x.c", "e", "1");
	mk(&b[3], "mm: add helper c", "mm/x.c", "f", "1");
	check(a, 2, b, 4, "", "titles alone say nothing");
	release(b + 1, 3);

	/* the same functions in another file are other lines */
	mk(&b[1], "mm: add helper a", "mm/y.c", "a", "1");
	mk(&b[2], "mm: add helper b", "mm/y.c", "b", "1");
	mk(&b[3], "mm: add helper c", "mm/y.c", "c", "1");
	check(a, 2, b, 4, "", "lines count with their file");
	release(b + 1, 3);

	/* a copy of the old patch's lines in two new ones is no split */
	mk(&b[1], "mm: add three helpers", "mm/x.c", "abcd", "1");
	mk(&b[2], "mm: add helper a", "mm/x.c", "a", "1");
	check(a, 2, b, 3, "", "two copies are not two parts");
	release(b + 1, 2);

	/* reordered, unchanged: nothing */
	check(a, 2, (struct rangediff_patch[]){ a[1], a[0] }, 2, "",
	      "a reordered series has no split");

	/* two old patches, each in its own new one, rewritten: pairs */
	mk(&a[2], "mm: add helper e", "mm/x.c", "e", "1");
	mk(&b[1], "mm: add three helpers", "mm/x.c", "abc", "2");
	mk(&b[2], "mm: add helper e", "mm/x.c", "e", "2");
	check(a, 3, b, 3, "", "rewritten patches are neither");
	release(b + 1, 2);

	/* a piece paired with another old patch is that patch's */
	mk(&a[3], "mm: add helper c", "mm/x.c", "c", "1");
	mk(&b[1], "mm: add helper a", "mm/x.c", "a", "1");
	mk(&b[2], "mm: add helper c", "mm/x.c", "c", "1");
	check(a + 1, 1, b + 1, 2, "split 1 -> 1 2;", "a split of two");
	check((struct rangediff_patch[]){ a[1], a[3] }, 2, b + 1, 2, "",
	      "not when the second piece is an old patch unchanged");
	release(b + 1, 2);

	/* lines of "}" and blanks are not evidence */
	release(a, 4);
	release(b, 1);
	{
		struct rangediff_patch x[1], y[2];
		const char *dx =
			"diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n"
			"@@ -1,2 +1,8 @@\n ctx\n+}\n+\n+{\n+}\n+};\n+\n ctx2\n";
		const char *dy =
			"diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n"
			"@@ -1,2 +1,5 @@\n ctx\n+}\n+\n+{\n ctx2\n";
		git_diff *d;

		git_diff_from_buffer(&d, dx, strlen(dx));
		rangediff_patch_build(&x[0], NULL, "A <a@x>", "m: x\n", d);
		git_diff_free(d);
		git_diff_from_buffer(&d, dy, strlen(dy));
		rangediff_patch_build(&y[0], NULL, "A <a@x>", "m: y\n", d);
		rangediff_patch_build(&y[1], NULL, "A <a@x>", "m: z\n", d);
		git_diff_free(d);
		check(x, 1, y, 2, "", "braces and blank lines are no evidence");
		release(x, 1);
		release(y, 2);
	}
	git_libgit2_shutdown();
	return done_testing();
}
