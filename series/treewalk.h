/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TREEWALK_H
#define RESPIN_SERIES_TREEWALK_H

#include <git2.h>
#include "series/treescan.h"

/*
 * What tree_scan() and tree_scan_version() share: the commits of a
 * branch read in order, and the author addresses they compare.
 */

/*
 * t (cleared first) gets branch (a ref or any revision) and the
 * commits above base, oldest first, none matched yet (NULL base: down
 * to the first merge commit or the root, at most max commits; 0: no
 * limit).  Errors name the revision; release t with
 * tree_scan_release() either way.
 */
int tree_walk(git_repository *repo, const char *branch, const char *base,
	      size_t max, struct tree_scan *t);

/* The author's address of commit c, lower-cased, or "" (owned). */
char *tree_commit_author(git_commit *c);

/*
 * A stored patch's author address, lower-cased (owned): from its
 * "Name <a@b>", else its commit's; NULL when neither is known.
 */
char *tree_patch_author(git_repository *repo, const struct series_patch *p);

#endif
