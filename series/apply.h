/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_APPLY_H
#define RESPIN_SERIES_APPLY_H

#include "series/store.h"

/*
 * Applies a version's patches one by one onto another commit, in
 * memory: the trees it makes go to an in-memory object store that is
 * thrown away, so nothing is checked out and nothing is written to
 * the repository.
 */
struct apply_result {
	int applies;		/* 1 if every patch applied */
	size_t failed;		/* 0-based index of the first that did not */
	char *path;		/* the file it failed in, if known */
	char *reason;		/* libgit2's words */
	git_oid tree;		/* the tree after the last patch, if applied */
};

/* Fills res; returns 0 whether or not the patches apply, <0 on errors. */
int series_apply_check(git_repository *repo, const struct series_version *v,
		       const git_oid *onto, struct apply_result *res);
void apply_result_release(struct apply_result *res);

/*
 * The same, for real: a commit for each patch that applies (author,
 * committer and message as the patch's own) on onto and then on each
 * other, written to the repository but referenced by nothing;
 * commits has room for v->nr_patches.
 */
int series_apply_commits(git_repository *repo, const struct series_version *v,
			 const git_oid *onto, git_oid *commits,
			 struct apply_result *res);

#endif
