// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the names respin tree reads: the quilt-style name of a
 * title as akpm's mm tree makes it, and the patch a "-fix" commit or
 * patch file fixes.  The pairs of title and name are real ones, from
 * the "added to mm-unstable branch" mails of mm-commits (the title and
 * "Its filename is").
 */
#include "series/treetext.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static void slug_is(const char *title, const char *want)
{
	char *got = tree_slug(title);

	is_str(got, want, "slug of \"%s\"", title);
	free(got);
}

static void target_is(const char *subject, const char *want)
{
	char *got = tree_fixup_target(subject);

	if (!want)
		ok(!got, "\"%s\" fixes nothing (got %s)", subject,
		   got ? got : "NULL");
	else
		is_str(got ? got : "(null)", want, "\"%s\" fixes \"%s\"",
		       subject, want);
	free(got);
}

static void test_slugs(void)
{
	/* mm-commits, "Its filename is" */
	slug_is("mm/userfaultfd: fix kmap_local LIFO ordering for CONFIG_HIGHPTE",
		"mm-userfaultfd-fix-kmap_local-lifo-ordering-for-config_highpte");
	slug_is("mm/damon/ops-common: call folio_test_lru() after folio_get()",
		"mm-damon-ops-common-call-folio_test_lru-after-folio_get");
	slug_is("mm/damon/core: disallow overlapping input ranges for damon_set_regions()",
		"mm-damon-core-disallow-overlapping-input-ranges-for-damon_set_regions");
	slug_is("mm/sparsemem: pfn_to_page is not valid yet on SPARSEMEM",
		"mm-sparsemem-pfn_to_page-is-not-valid-yet-on-sparsemem");
	slug_is("mm: swap: correctly use maxpages in swapon syscall to avoid potensial deadloop",
		"mm-swap-correctly-use-maxpages-in-swapon-syscall-to-avoid-potensial-deadloop");
	/* issue 25's examples (tests/data lru_gen-batch v3's patch 1) */
	slug_is("mm/lru_gen: batch update counters on aging",
		"mm-lru_gen-batch-update-counters-on-aging");
	slug_is("mm, lru_gen: batch update counters on aging",
		"mm-lru_gen-batch-update-counters-on-aging");
	slug_is("mm/page_alloc: protect PCP lists with a spinlock",
		"mm-page_alloc-protect-pcp-lists-with-a-spinlock");
	/* runs become one '-', none at either end */
	slug_is("  --mm:  don't  (foo)  ", "mm-don-t-foo");
	slug_is("___", "___");
	slug_is("", "");
}

static void test_targets(void)
{
	target_is("mm-lru_gen-batch-update-counters-on-aging-fix",
		  "mm-lru_gen-batch-update-counters-on-aging");
	target_is("mm-page_alloc-protect-pcp-lists-with-a-spinlock-fix",
		  "mm-page_alloc-protect-pcp-lists-with-a-spinlock");
	target_is("mm-page_alloc-protect-pcp-lists-with-a-spinlock-fix-2",
		  "mm-page_alloc-protect-pcp-lists-with-a-spinlock");
	target_is("mm-swap-correctly-use-maxpages-in-swapon-syscall-to-avoid-potensial-deadloop-fix.patch",
		  "mm-swap-correctly-use-maxpages-in-swapon-syscall-to-avoid-potensial-deadloop");
	target_is("maple_tree-reload-mas-before-the-second-call-for-mas_empty_area-fix-fix",
		  "maple_tree-reload-mas-before-the-second-call-for-mas_empty_area");
	target_is("mm-foo-fix-3.patch", "mm-foo");
	target_is("mm: fix the thing", NULL);
	target_is("mm-foo.patch", NULL);
	target_is("-fix", NULL);
}

int main(void)
{
	test_slugs();
	test_targets();
	return done_testing();
}
