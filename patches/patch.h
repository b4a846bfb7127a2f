/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_PATCH_H
#define RESPIN_PATCH_H

#include <git2.h>

/*
 * One patch as a commit on its parent: the diff, its stable patch-id
 * (the same as `git patch-id --stable`), and the subject.
 */

/*
 * The diff of a non-merge commit against its parent as git log -p
 * makes it: renames found, hunks placed by the indent heuristic.
 */
int patch_commit_diff(git_repository *repo, git_commit *commit,
		      git_diff **out);

/*
 * The paths of files two trees differ in (either tree may be NULL),
 * found without visiting subtrees that are the same; a path that is a
 * file on one side and a folder on the other is listed too.  0 with
 * *paths (free each and the array), 1 when there are too many to list
 * (over 2000), <0 on errors.
 */
int patch_tree_paths(git_repository *repo, git_tree *a, git_tree *b,
		     char ***paths, size_t *nr);

/* The stable patch-id of a commit's change. */
int patch_commit_id(git_repository *repo, git_commit *commit, git_oid *out);

/*
 * The stable patch-id of a diff (a commit's, or one read from mail):
 * git patch-id --stable's for the text git prints of the same change,
 * also where libgit2's own git_diff_patchid() differs from it (a file
 * section without hunks: an empty file added or removed, a mode
 * changed, a pure rename).  <0 with libgit2's error when the diff
 * cannot be printed.
 */
int patch_diff_id(git_diff *diff, git_oid *out);

#endif
