/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_WORKTREE_H
#define RESPIN_CI_WORKTREE_H

#include <git2.h>
#include "tools/lib/lock.h"
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
	struct lock_file lock;	/* NAME.lock beside the worktree */
	char *series;
};

void worktree_init(struct worktree *wt, git_repository *repo,
		   const char *series);
void worktree_release(struct worktree *wt);
/*
 * The build directory of another kind of build: .git/respin/build/
 * NAME@VARIANT ('@' is in no series name), or NAME for NULL.  A build
 * check's kconfig other than the default is such a kind (tiny-qemu):
 * each .config gets a directory of its own, so switching between them
 * keeps each build incremental.
 */
void worktree_build_variant(struct worktree *wt, git_repository *repo,
			    const char *variant);

/*
 * Takes the series' lock (.git/respin/worktrees/NAME.lock): one respin
 * at a time uses a series' worktree and build directory.  Returns 0
 * when taken; 1 when another process holds it, with a message naming
 * the holder and what to do; <0 on errors.  With wait, waits for it
 * until stop() (may be NULL) says to give up, then returns 1.  what
 * says who takes it ("respin check k@v2").  Released by
 * worktree_release(), or by the kernel when respin dies.
 */
int worktree_lock(struct worktree *wt, const char *what, int wait,
		  int (*stop)(void));
/* Notes in the lock what is running now (shown to whoever waits). */
void worktree_lock_note(struct worktree *wt, const char *running,
			long group);

/*
 * Checks out commit into the worktree (made on first use).  Refuses,
 * naming the files, when the worktree has changes to tracked files.
 * A checkout that a killed respin left half done (NAME.checkout says
 * so) is finished by force: those changes were respin's own.
 */
int worktree_checkout(git_repository *repo, struct worktree *wt,
		      const git_oid *commit);

/*
 * Removes the worktree (git worktree remove, then what is left, then
 * git worktree prune), under the lock of git worktree add/remove.
 */
int worktree_discard(git_repository *repo, struct worktree *wt);

/* The paths that differ between trees a (may be NULL) and b, one a line. */
int worktree_diff_paths(git_repository *repo, git_tree *a, git_tree *b,
			struct strbuf *out);

#endif
