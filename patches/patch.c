// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

/*
 * The paths two trees differ in, found by walking both and skipping
 * every subtree whose id is the same: a patch touches a few files of a
 * big tree, and libgit2's tree diff visits every entry of the folders
 * on the way, a hundred times slower on a kernel tree.  Given to the
 * diff as an exact pathspec it gives the same diff.
 */
#define CHANGED_PATHS_MAX 2000

struct changed {
	char **paths;
	size_t nr, alloc;
	int too_many;
};

static int tree_changes(git_repository *repo, git_tree *a, git_tree *b,
			struct strbuf *prefix, struct changed *ch)
{
	size_t i = 0, j = 0;
	size_t na = a ? git_tree_entrycount(a) : 0;
	size_t nb = b ? git_tree_entrycount(b) : 0;
	size_t plen = prefix->len;

	while ((i < na || j < nb) && !ch->too_many) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !ea ? 1 : !eb ? -1 :
			strcmp(git_tree_entry_name(ea), git_tree_entry_name(eb));
		int ta, tb;

		if (!c && git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
		    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb)) {
			i++;
			j++;
			continue;
		}
		strbuf_setlen(prefix, plen);
		strbuf_addstr(prefix, git_tree_entry_name(c <= 0 ? ea : eb));
		ta = c <= 0 && git_tree_entry_type(ea) == GIT_OBJECT_TREE;
		tb = c >= 0 && git_tree_entry_type(eb) == GIT_OBJECT_TREE;
		if (ta || tb) {
			git_tree *x = NULL, *y = NULL;
			int r = 0;

			if ((ta && git_tree_lookup(&x, repo, git_tree_entry_id(ea)) < 0) ||
			    (tb && git_tree_lookup(&y, repo, git_tree_entry_id(eb)) < 0))
				r = -1;
			strbuf_addch(prefix, '/');
			if (!r)
				r = tree_changes(repo, x, y, prefix, ch);
			git_tree_free(x);
			git_tree_free(y);
			if (r < 0)
				return r;
			strbuf_setlen(prefix, prefix->len - 1);
		}
		/* a blob on either side (a folder that became a file too) */
		if (!(ta && tb)) {
			if (ch->nr >= CHANGED_PATHS_MAX) {
				ch->too_many = 1;
				break;
			}
			ALLOC_GROW(ch->paths, ch->nr + 1, ch->alloc);
			ch->paths[ch->nr++] = xstrdup(prefix->buf);
		}
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	strbuf_setlen(prefix, plen);
	return 0;
}

int patch_tree_paths(git_repository *repo, git_tree *a, git_tree *b,
		     char ***paths, size_t *nr)
{
	struct changed ch = { NULL, 0, 0, 0 };
	struct strbuf prefix = STRBUF_INIT;
	int r = tree_changes(repo, a, b, &prefix, &ch);
	size_t k;

	strbuf_release(&prefix);
	if (r < 0 || ch.too_many) {
		for (k = 0; k < ch.nr; k++)
			free(ch.paths[k]);
		free(ch.paths);
		return r < 0 ? error_git("cannot compare two trees") : 1;
	}
	*paths = ch.paths;
	*nr = ch.nr;
	return 0;
}

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
	{
		struct changed ch = { NULL, 0, 0, 0 };
		struct strbuf prefix = STRBUF_INIT;
		size_t k;

		r = tree_changes(repo, old_tree, new_tree, &prefix, &ch);
		strbuf_release(&prefix);
		if (!r && !ch.too_many) {
			opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
			opts.pathspec.strings = ch.paths;
			opts.pathspec.count = ch.nr;
		}
		r = r < 0 ? -1 : git_diff_tree_to_tree(out, repo, old_tree,
						      new_tree, &opts);
		for (k = 0; k < ch.nr; k++)
			free(ch.paths[k]);
		free(ch.paths);
		if (r < 0) {
			r = error_git("cannot diff %s",
				      oid_short(git_commit_id(commit), 12));
			goto out;
		}
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

	r = patch_commit_diff(repo, commit, &diff);
	if (r < 0)
		return r;
	r = patch_diff_id(diff, out);
	git_diff_free(diff);
	if (r < 0)
		return error_git("cannot compute the patch-id of %s",
				 oid_short(git_commit_id(commit), 12));
	return 0;
}
