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

/* The stable patch-id of a commit's change. */
int patch_commit_id(git_repository *repo, git_commit *commit, git_oid *out);

#endif
