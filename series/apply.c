// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/apply.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <git2/sys/mempack.h>
#include <stdlib.h>
#include <string.h>

void apply_result_release(struct apply_result *res)
{
	free(res->path);
	free(res->reason);
	memset(res, 0, sizeof(*res));
}

static int note_delta(const git_diff_delta *delta, void *payload)
{
	char **path = payload;

	free(*path);
	*path = xstrdup(delta->new_file.path ? delta->new_file.path :
			delta->old_file.path ? delta->old_file.path : "?");
	return 0;
}

/* A commit of tree on parent, with orig's author, committer, message. */
static int commit_like(git_repository *repo, git_commit *orig,
		       const git_oid *tree_id, const git_oid *parent_id,
		       git_oid *out)
{
	git_tree *tree = NULL;
	git_commit *parent = NULL;
	const git_commit *parents[1];
	int r;

	if (git_tree_lookup(&tree, repo, tree_id) < 0 ||
	    git_commit_lookup(&parent, repo, parent_id) < 0) {
		r = error_git("cannot read the tree or the parent of a new "
			      "commit");
		goto out;
	}
	parents[0] = parent;
	r = git_commit_create(out, repo, NULL, git_commit_author(orig),
			      git_commit_committer(orig),
			      git_commit_message_encoding(orig),
			      git_commit_message(orig), tree, 1, parents);
	if (r < 0)
		r = error_git("cannot write a commit");
out:
	git_commit_free(parent);
	git_tree_free(tree);
	return r;
}

/*
 * Applies each patch in order onto tree; stops at the first failure.
 * With commits (nr_patches of them) and parent, writes a commit for
 * each patch applied, on parent and then on each other.
 */
static int apply_all(git_repository *repo, const struct series_version *v,
		     git_tree *start, const git_oid *parent, git_oid *commits,
		     struct apply_result *res)
{
	git_tree *tree = start;
	git_apply_options opts = GIT_APPLY_OPTIONS_INIT;
	size_t i;
	int r = 0;

	opts.delta_cb = note_delta;
	opts.payload = &res->path;
	res->applies = 1;
	git_oid_cpy(&res->tree, git_tree_id(start));
	for (i = 0; i < v->nr_patches; i++) {
		git_commit *c = NULL;
		git_diff *diff = NULL;
		git_index *index = NULL;
		git_tree *next = NULL;
		git_oid oid;

		if (git_oid_is_zero(&v->patches[i].commit)) {
			r = error("patch %zu/%zu has no commit (recorded from "
				  "mail only)", i + 1, v->nr_patches);
			break;
		}
		if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0) {
			r = error_git("cannot read patch %zu/%zu", i + 1,
				      v->nr_patches);
			break;
		}
		r = patch_commit_diff(repo, c, &diff);
		if (r < 0) {
			git_commit_free(c);
			break;
		}
		r = git_apply_to_tree(&index, repo, tree, diff, &opts);
		git_diff_free(diff);
		if (r < 0) {
			const git_error *e = git_error_last();

			res->applies = 0;
			res->failed = i;
			res->reason = xstrdup(e && e->message ? e->message :
					      "does not apply");
			git_commit_free(c);
			r = 0;
			break;
		}
		r = git_index_write_tree_to(&oid, index, repo);
		git_index_free(index);
		if (r < 0 || git_tree_lookup(&next, repo, &oid) < 0) {
			git_commit_free(c);
			r = error_git("cannot write the tree after patch %zu",
				      i + 1);
			break;
		}
		if (commits) {
			r = commit_like(repo, c, &oid, i ? &commits[i - 1] :
					parent, &commits[i]);
			if (r < 0) {
				git_commit_free(c);
				git_tree_free(next);
				break;
			}
		}
		git_commit_free(c);
		if (tree != start)
			git_tree_free(tree);
		tree = next;
		git_oid_cpy(&res->tree, &oid);
		free(res->path);
		res->path = NULL;
	}
	if (tree != start)
		git_tree_free(tree);
	return r;
}

int series_apply_check(git_repository *repo, const struct series_version *v,
		       const git_oid *onto, struct apply_result *res)
{
	git_repository *mem = NULL;
	git_odb *odb = NULL;
	git_odb_backend *pack = NULL;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	int r = -1;

	memset(res, 0, sizeof(*res));
	/*
	 * A second handle on the same repository whose object store has
	 * an in-memory pack in front: everything written goes there and
	 * is dropped with it.
	 */
	if (git_repository_open(&mem, git_repository_path(repo)) < 0 ||
	    git_repository_odb(&odb, mem) < 0 ||
	    git_mempack_new(&pack) < 0 ||
	    git_odb_add_backend(odb, pack, 999) < 0) {
		error_git("cannot set up an in-memory object store");
		goto out;
	}
	if (git_commit_lookup(&c, mem, onto) < 0 ||
	    git_commit_tree(&tree, c) < 0) {
		error_git("cannot read commit %s", oid_short(onto, 12));
		goto out;
	}
	r = apply_all(mem, v, tree, NULL, NULL, res);
out:
	git_tree_free(tree);
	git_commit_free(c);
	if (pack)
		git_mempack_reset(pack);
	git_odb_free(odb);
	git_repository_free(mem);
	return r;
}

int series_apply_commits(git_repository *repo, const struct series_version *v,
			 const git_oid *onto, git_oid *commits,
			 struct apply_result *res)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	int r;

	memset(res, 0, sizeof(*res));
	if (git_commit_lookup(&c, repo, onto) < 0 ||
	    git_commit_tree(&tree, c) < 0) {
		r = error_git("cannot read commit %s", oid_short(onto, 12));
		goto out;
	}
	r = apply_all(repo, v, tree, onto, commits, res);
out:
	git_tree_free(tree);
	git_commit_free(c);
	return r;
}
