/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_THANKS_H
#define RESPIN_REVIEW_THANKS_H

#include <git2.h>
#include "series/store.h"
#include "tools/lib/strbuf.h"

/*
 * What a maintainer's "applied, thanks" says: each patch of a version
 * with the commit it became in a branch.  Commits are found by patch-id
 * (git patch-id --stable), so a patch applied with its trailers added,
 * its message reworded or on another base is found too.
 *
 * thanks_find() walks the branch from its tip back to where it meets
 * the version's base (their merge base), and at most max_commits
 * commits (0: no bound) when the base is not in it.  commits[i] gets
 * the commit of patch i+1, or stays zero; *walked how many commits
 * were read.  Returns how many patches were found, or an error.
 */
int thanks_find(git_repository *repo, const char *branch,
		const struct series_version *v, size_t max_commits,
		git_oid *commits, size_t *walked);

/*
 * The text under the quote: "Applied to BRANCH, thanks!", then a line
 * a patch ("[2/3] mm: subject") with "      commit: SHA" under it (or
 * "      (not in BRANCH)"), then "Best regards," and the signature.
 * only is 0 for every patch, else the one patch (1-based) a reply to
 * that patch covers.
 */
void thanks_text(struct strbuf *out, const struct series_version *v,
		 const git_oid *commits, size_t only, const char *branch,
		 const char *name, const char *addr);

#endif
