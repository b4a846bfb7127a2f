/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_WORKTREE_H
#define RESPIN_CI_WORKTREE_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * A series' own worktree (.git/respin/worktrees/NAME) and build
 * directory (.git/respin/build/NAME), reused across patches and
 * versions.  Moving to another patch writes only the files that
 * differ, so make rebuilds only what the patch touched.
 */
struct worktree {
	char *path;
	char *build_dir;
	git_repository *repo;	/* opened lazily */
	git_oid at;		/* the commit checked out, zero if unknown */
};

void worktree_init(struct worktree *wt, git_repository *repo,
		   const char *series);
void worktree_release(struct worktree *wt);

/*
 * Checks out commit into the worktree (made on first use).  Refuses,
 * naming the files, when the worktree has changes to tracked files.
 */
int worktree_checkout(git_repository *repo, struct worktree *wt,
		      const git_oid *commit);

/* The paths that differ between trees a (may be NULL) and b, one a line. */
int worktree_diff_paths(git_repository *repo, git_tree *a, git_tree *b,
			struct strbuf *out);

#endif
