/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_BRANCHUSE_H
#define RESPIN_SERIES_BRANCHUSE_H

#include <git2.h>

/*
 * Where a local branch is in use before respin moves it: checked out in
 * a worktree of the repository (the main one or a linked one), or being
 * rewritten there by a git operation in progress (a rebase, an am, a
 * merge, a cherry-pick...), which a moved branch would break.
 */
struct branch_use {
	git_repository *wt;	/* the worktree with it checked out, or NULL */
	int owned;		/* wt was opened here (else the caller's) */
	char *busy;		/* "a git rebase in /path", or NULL */
};

/* Looks refname up in every worktree; 0, or <0 with an error set. */
int branch_use_find(git_repository *repo, const char *refname,
		    struct branch_use *u);
void branch_use_release(struct branch_use *u);

/*
 * 0 when moving the branch leaves nothing behind: it is not checked
 * out, or its worktree has no changes; else an error naming the branch
 * (short name) and the worktree.
 */
int branch_use_check_clean(const struct branch_use *u, const char *branch);

/*
 * After the branch moved from one commit to another: its worktree and
 * index follow (files the move does not touch are left alone).
 */
int branch_use_follow(const struct branch_use *u, const git_oid *from,
		      const git_oid *to);

#endif
