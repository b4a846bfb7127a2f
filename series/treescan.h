/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TREESCAN_H
#define RESPIN_SERIES_TREESCAN_H

#include <git2.h>
#include "series/store.h"

/*
 * What is inside an integration branch (mm-unstable): its commits above
 * a base, oldest first, each matched against every stored version of
 * every tracked series.  Evidence, strongest first: the same patch-id;
 * a Link:/Message-ID naming the patch's mail; the same title and author
 * (a patch the maintainer edited on the way in).  A series is found in
 * the version most of its patches match (the newest on a tie).  A
 * commit titled after one of a found series' patches plus "-fix" (or
 * "-fix-2", or the patch's slug "mm-foo-bar-fix", as akpm names them) is
 * a fixup of that patch.
 */
enum tree_evidence {
	TREE_BY_PATCH_ID = 1 << 0,
	TREE_BY_LINK = 1 << 1,
	TREE_BY_SUBJECT = 1 << 2,
};

struct tree_commit {
	git_oid oid;
	char *subject;
	int found;		/* index in scan->found, -1: none */
	size_t patch;		/* of the found version (0-based) */
	unsigned evidence;	/* what matched (the strongest bit counts) */
	int fixup;		/* 1: a fixup of patch `patch` of `found` */
};

struct tree_found {
	struct series s;
	struct series_version *v;	/* the version found */
	size_t first, last;	/* commit indices spanned (fixups too) */
	size_t *at;		/* per patch of v: commit index + 1, 0 missing */
	unsigned *evidence;	/* per patch: the strongest evidence */
	size_t nr_matched, nr_changed, nr_fixups;
	int newest;		/* the newest version number stored */
};

struct tree_scan {
	char *branch;
	git_oid tip, base;
	int have_base;		/* 0: the walk stopped at a merge or the root */
	struct tree_commit *commits;	/* oldest first */
	size_t nr, alloc;
	struct tree_found *found;	/* by first commit */
	size_t nr_found, alloc_found;
	size_t nr_unmatched;
};

/*
 * Scans branch (a ref or any revision) above base (NULL: down to the
 * first merge commit or the root, at most max commits).  Errors name
 * the revision.
 */
int tree_scan(git_repository *repo, const char *branch, const char *base,
	      size_t max, struct tree_scan *out);
void tree_scan_release(struct tree_scan *t);

/* The found entry of series name, or NULL. */
const struct tree_found *tree_scan_find(const struct tree_scan *t,
					const char *name);

/*
 * Version v alone in branch, matched as tree_scan() matches (patch-id,
 * a Link:/Message-Id naming the patch's mail, title and author):
 * commits[i] gets the commit of patch i+1 (the newest with it, by its
 * strongest evidence), evidence[i] what matched, or both stay zero;
 * *walked how many commits were read.  Returns how many patches were
 * found, or an error.
 */
int tree_scan_version(git_repository *repo, const char *branch,
		      const char *base, size_t max,
		      const struct series_version *v, git_oid *commits,
		      unsigned *evidence, size_t *walked);

/* "patch-id", "link", "subject and author". */
const char *tree_evidence_name(unsigned evidence);

#endif
