// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

int patch_commit_diff(git_repository *repo, git_commit *commit, git_diff **out)
{
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_commit *parent = NULL;
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
	int r = -1;

	*out = NULL;
	if (git_commit_parentcount(commit) > 1)
		return error("commit %s is a merge; a patch has one parent",
			     oid_short(git_commit_id(commit), 12));
	if (git_commit_parentcount(commit) == 1 &&
	    git_commit_parent(&parent, commit, 0) < 0)
		return error_git("cannot read the parent of %s",
				 oid_short(git_commit_id(commit), 12));
	if ((parent && git_commit_tree(&old_tree, parent) < 0) ||
	    git_commit_tree(&new_tree, commit) < 0) {
		r = error_git("cannot read the tree of %s",
			      oid_short(git_commit_id(commit), 12));
		goto out;
	}
	/* hunks placed as git log -p places them (git's default since 2.14) */
	opts.flags |= GIT_DIFF_INDENT_HEURISTIC;
	if (git_diff_tree_to_tree(out, repo, old_tree, new_tree, &opts) < 0) {
		r = error_git("cannot diff %s",
			      oid_short(git_commit_id(commit), 12));
		goto out;
	}
	find.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_find_similar(*out, &find) < 0) {
		git_diff_free(*out);
		*out = NULL;
		r = error_git("cannot find renames in %s",
			      oid_short(git_commit_id(commit), 12));
		goto out;
	}
	r = 0;
out:
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(parent);
	return r;
}

int patch_commit_id(git_repository *repo, git_commit *commit, git_oid *out)
{
	git_diff *diff;
	int r;

	if (patch_commit_diff(repo, commit, &diff) < 0)
		return -1;
	r = git_diff_patchid(out, diff, NULL);
	git_diff_free(diff);
	if (r < 0)
		return error_git("cannot compute the patch-id of %s",
				 oid_short(git_commit_id(commit), 12));
	return 0;
}
