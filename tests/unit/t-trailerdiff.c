// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tags lost between two versions (series/trailerdiff.c): which patches
 * are the same (patch-id; else title and the lines the diff changes),
 * which tags count and when two are the same, and what is said.
 */
#include "series/trailerdiff.h"
#include "tests/unit/tap.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>

static void tag(struct trailer_list *tl, const char *key, const char *value)
{
	trailer_list_add(tl, key, strlen(key), value, strlen(value));
}

static struct trailerdiff_patch *patch(struct trailerdiff_version *v,
				       const char *title, int id,
				       const char *diff)
{
	struct trailerdiff_patch *p = trailerdiff_version_add(v, title);

	if (id) {
		memset(&p->patch_id, id, sizeof(p->patch_id));
		p->has_patch_id = 1;
	}
	if (diff)
		trailerdiff_patch_set_diff(p, diff, strlen(diff));
	return p;
}

/* Every lost tag, "b: text" a line. */
static void lost_text(const struct trailerdiff_version *a,
		      const struct trailerdiff_version *b, struct strbuf *out)
{
	struct trailerdiff td;
	size_t i;

	trailerdiff_compute(&td, a, b);
	strbuf_reset(out);
	for (i = 0; i < td.nr; i++) {
		strbuf_addf(out, "%zu: ", td.items[i].b + 1);
		trailerdiff_describe(&td, &td.items[i], out);
		strbuf_addch(out, '\n');
	}
	trailerdiff_release(&td);
}

static const char diff_a[] =
	"diff --git a/mm/f.c b/mm/f.c\n--- a/mm/f.c\n+++ b/mm/f.c\n"
	"@@ -10,3 +10,3 @@ int f(void)\n a\n-b\n+c\n d\n";
static const char diff_a_moved[] =	/* other context and lines: rebased */
	"diff --git a/mm/f.c b/mm/f.c\n--- a/mm/f.c\n+++ b/mm/f.c\n"
	"@@ -20,3 +20,3 @@ int g(void)\n x\n-b\n+c\n y\n";
static const char diff_a_changed[] =
	"diff --git a/mm/f.c b/mm/f.c\n--- a/mm/f.c\n+++ b/mm/f.c\n"
	"@@ -10,3 +10,3 @@ int f(void)\n a\n-b\n+e\n d\n";

int main(void)
{
	struct trailerdiff_version a, b;
	struct strbuf got = STRBUF_INIT;
	struct trailerdiff_patch *p;

	trailerdiff_version_init(&a, 2);
	p = patch(&a, "mm: one", 1, NULL);
	tag(&p->own, "Signed-off-by", "A U Thor <author@example.org>");
	tag(&p->own, "Reviewed-by", "R Eviewer <r@example.org>");
	tag(&p->own, "Cc", "stable@vger.kernel.org");
	tag(&p->given, "Acked-by", "A Cker <ack@example.org>");
	tag(&p->given, "Link", "https://lore.kernel.org/r/x@y");
	p = patch(&a, "mm: two", 2, diff_a);
	tag(&p->own, "Tested-by", "T Ester <t@example.org>");
	tag(&p->own, "Fixes", "0123456789ab (\"mm: x\")");
	p = patch(&a, "mm: three", 3, diff_a);
	tag(&p->own, "Reviewed-by", "R Eviewer <r@example.org>");
	tag(&a.series_given, "Reviewed-by", "S Eries <s@example.org>");

	trailerdiff_version_init(&b, 3);
	/* 1: v2's 3/3 moved first, its diff changed: not the same patch */
	p = patch(&b, "mm: three", 4, diff_a_changed);
	/* 2: v2's 1/3 (same patch-id), some tags kept, one given again */
	p = patch(&b, "mm: one", 1, NULL);
	tag(&p->own, "Signed-off-by", "A U Thor <AUTHOR@example.org>");
	tag(&p->given, "Acked-by", "A. Cker <ack@example.org>");
	/* 3: v2's 2/3 rebased: other patch-id, same title and change */
	p = patch(&b, "mm: two", 5, diff_a_moved);
	tag(&p->own, "Fixes", "0123456789abcdef (\"mm: x\")");
	tag(&p->own, "Reviewed-by", "S Eries <s@example.org>");

	lost_text(&a, &b, &got);
	is_str(got.buf,
	       "2: lost Reviewed-by: R Eviewer <r@example.org> (on v2 1/3, "
	       "unchanged since)\n"
	       "2: lost Reviewed-by: S Eries <s@example.org> (given to the "
	       "v2 series in a reply, unchanged since)\n"
	       "3: lost Tested-by: T Ester <t@example.org> (on v2 2/3, "
	       "unchanged since)\n",
	       "by patch-id, by title and change; addresses and Fixes ids "
	       "compared; Cc and Link not watched; a changed patch keeps "
	       "nothing");

	tag(&b.series_given, "Reviewed-by", "S Eries <s@example.org>");
	tag(&b.patches[1].given, "Reviewed-by", "R Eviewer <r@example.org>");
	tag(&b.patches[2].own, "Tested-by", "T Ester <t@example.org>");
	lost_text(&a, &b, &got);
	is_str(got.buf, "", "tags given to vB since (to the patch, to the "
	       "series) are not lost");

	trailerdiff_version_release(&b);
	trailerdiff_version_init(&b, 3);
	patch(&b, "mm: two, reworded", 5, diff_a_moved);
	lost_text(&a, &b, &got);
	is_str(got.buf, "", "a new title and a new patch-id: not the same "
	       "patch");

	trailerdiff_version_release(&b);
	trailerdiff_version_init(&b, 3);
	patch(&b, "mm: two", 0, diff_a);
	p = patch(&b, "mm: three", 0, diff_a);
	lost_text(&a, &b, &got);
	is_str(got.buf,
	       "1: lost Tested-by: T Ester <t@example.org> (on v2 2/3, "
	       "unchanged since)\n"
	       "1: lost Fixes: 0123456789ab (\"mm: x\") (on v2 2/3, unchanged "
	       "since)\n"
	       "1: lost Reviewed-by: S Eries <s@example.org> (given to the "
	       "v2 series in a reply, unchanged since)\n"
	       "2: lost Reviewed-by: R Eviewer <r@example.org> (on v2 3/3, "
	       "unchanged since)\n"
	       "2: lost Reviewed-by: S Eries <s@example.org> (given to the "
	       "v2 series in a reply, unchanged since)\n",
	       "the same change under two titles pairs by title");

	{
		struct trailerdiff_patch x = { 0 }, y = { 0 };
		static const char rd_text[] =
			" ## mm/f.c ##\n@@ mm/f.c: int f(void)\n a\n-b\n+c\n d\n";

		trailerdiff_patch_set_diff(&x, diff_a, strlen(diff_a));
		trailerdiff_patch_set_diff(&y, rd_text, strlen(rd_text));
		ok(x.has_change && y.has_change &&
		   !git_oid_equal(&x.change, &y.change),
		   "a mail's diff and a range-diff text each have a change "
		   "(not comparable with each other: a version is one or the "
		   "other)");
		trailerdiff_patch_set_diff(&y, diff_a_moved,
					   strlen(diff_a_moved));
		ok(git_oid_equal(&x.change, &y.change),
		   "context and line numbers are no part of the change");
	}
	trailerdiff_version_release(&a);
	trailerdiff_version_release(&b);
	strbuf_release(&got);
	return done_testing();
}
