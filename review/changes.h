/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_CHANGES_H
#define RESPIN_REVIEW_CHANGES_H

#include "series/rangediff.h"
#include "series/store.h"

/*
 * What respin knows changed between two versions of a series, as
 * changelog items for a cover letter:
 *
 *	- New patch 2/4: "mm: add the thing"
 *	- Dropped "mm: old thing" (was 3/3)
 *	- 1/3 "mm: prefetch next page when scanning": moved (was 3/3);
 *	  reworded (was "mm: prefetch next page when canning"); code changed
 *	- 2/3 "mm: batch": picked up Reviewed-by: A Reviewer <r@example.org>
 *
 * Patches pair as in the range-diff (git's creation factor); what is
 * left unpaired then pairs by subject and author as respin diff pairs
 * it (rangediff_pair_by_title()), since a respin often rewrites both a
 * patch's message and its code (a pair found that way is always "code
 * changed" or "commit message changed").  A patch moved
 * is one outside the longest run of pairs that kept their order.
 * Appends one "- " item a line (continuations indented by two); returns
 * how many items.
 */
size_t changes_describe(const struct rangediff_patch *a, size_t na,
			const struct rangediff_patch *b, size_t nb,
			struct strbuf *out);

/* The same for two recorded versions (from commits or stored mail). */
int changes_between(git_repository *repo, const struct series *s,
		    const struct series_version *prev,
		    const struct series_version *cur, struct strbuf *out);

#endif
