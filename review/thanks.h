/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_THANKS_H
#define RESPIN_REVIEW_THANKS_H

#include <git2.h>
#include <stdint.h>
#include "series/store.h"
#include "tools/lib/strbuf.h"

/*
 * What a maintainer's "applied, thanks" says: each patch of a version
 * with the commit it became in a branch.  Commits are found as respin
 * tree finds them (tree_scan_version()): by patch-id (git patch-id
 * --stable), so a patch applied with its trailers added, its message
 * reworded or on another base is found too; by a Link: or Message-Id:
 * naming its mail, so one the maintainer edited is; by title and author.
 *
 * thanks_find() walks the branch's first parents from its tip back to
 * where it meets the version's base (their merge base), and at most
 * max_commits commits (0: no bound, down to the first merge) when the
 * base is not in it.  commits[i] gets
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

/* ---- respin thanks ---- */

struct thanks_opts {
	const char *branch;	/* where the patches were applied */
	const char *source;	/* the version's mail; NULL: lore:MSGID */
	size_t max_commits;	/* as thanks_find() takes it */
	const char *name, *addr;	/* who thanks */
	int64_t date;
};

struct thanks {
	git_oid *commits;	/* per patch: the commit it became, or zero */
	size_t walked;		/* commits of the branch read */
	size_t found;		/* patches found in the branch */
	struct strbuf drafts;	/* the drafts, a NUL after each */
	size_t nr_drafts;
	int to_cover;		/* one draft, to the cover letter */
};

void thanks_init(struct thanks *t);
void thanks_release(struct thanks *t);

/*
 * The drafts for version v of s: one reply to the cover letter when it
 * has one, else one to each patch applied.  t->commits is filled first
 * (the command names the patches not applied), also when the mail
 * cannot be read.
 */
int thanks_make(git_repository *repo, struct series *s,
		struct series_version *v, const struct thanks_opts *o,
		struct thanks *t);

/*
 * The drafts to where the user asked (drafts_write(): an mbox, a
 * maildir, else out as mboxrd); out gets what to print.
 */
int thanks_write(const struct thanks *t, const char *mbox,
		 const char *maildir, int64_t when, struct strbuf *out);

#endif
