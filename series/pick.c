// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/pick.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

void pick_result_init(struct pick_result *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->files, 0);
}

void pick_result_release(struct pick_result *r)
{
	strbuf_release(&r->files);
	pick_result_init(r);
}

/* The conflicting paths of index, one a line. */
static int conflict_files(git_index *index, struct strbuf *out)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;
	int r;

	if (git_index_conflict_iterator_new(&it, index) < 0)
		return error_git("cannot list the conflicts");
	while (!(r = git_index_conflict_next(&anc, &ours, &theirs, it))) {
		const git_index_entry *e = ours ? ours : theirs ? theirs : anc;

		strbuf_addf(out, "%s\n", e ? e->path : "?");
	}
	git_index_conflict_iterator_free(it);
	return r == GIT_ITEROVER ? 0 : error_git("cannot list the conflicts");
}

/* The blob entry at path in tree: 1 and *e, 0 none, -1 a folder there. */
static int blob_at(git_tree *tree, const char *path, git_tree_entry **e)
{
	*e = NULL;
	if (git_tree_entry_bypath(e, tree, path) < 0) {
		git_error_clear();
		return 0;
	}
	if (git_tree_entry_type(*e) != GIT_OBJECT_BLOB) {
		git_tree_entry_free(*e);
		*e = NULL;
		return -1;
	}
	return 1;
}

static int same_entry(const git_tree_entry *a, const git_tree_entry *b)
{
	if (!a || !b)
		return !a && !b;
	return git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
	       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
}

/*
 * The common case, without a merge: every file the commit changes is
 * in the target as it was in the commit's parent, so the result is the
 * target with those files as the commit has them.  1 done (*out set),
 * 0 when a 3-way merge is needed, <0 on errors.
 */
static int pick_fast(git_repository *repo, git_commit *pick,
		     git_commit *target, git_oid *out)
{
	git_commit *parent = NULL;
	git_tree *pt = NULL, *ct = NULL, *tt = NULL;
	git_tree_update *up = NULL;
	char **paths = NULL;
	size_t nr = 0, i, nu = 0;
	int r;

	if (git_commit_parent(&parent, pick, 0) < 0 ||
	    git_commit_tree(&pt, parent) < 0 || git_commit_tree(&ct, pick) < 0 ||
	    git_commit_tree(&tt, target) < 0) {
		r = error_git("cannot read the trees of %s",
			      oid_short(git_commit_id(pick), 12));
		goto out;
	}
	r = patch_tree_paths(repo, pt, ct, &paths, &nr);
	if (r)
		goto out;	/* too many (1): merge; or an error */
	up = xcalloc(nr + 1, sizeof(*up));
	for (i = 0; i < nr && !r; i++) {
		git_tree_entry *ep = NULL, *et = NULL, *ec = NULL;
		int kp = blob_at(pt, paths[i], &ep);
		int kt = blob_at(tt, paths[i], &et);
		int kc = blob_at(ct, paths[i], &ec);

		if (kp < 0 || kt < 0 || kc < 0 || !same_entry(ep, et)) {
			r = 1;	/* a folder, or the target changed it: merge */
		} else if (ec) {
			up[nu].action = GIT_TREE_UPDATE_UPSERT;
			git_oid_cpy(&up[nu].id, git_tree_entry_id(ec));
			up[nu].filemode = git_tree_entry_filemode(ec);
			up[nu++].path = paths[i];
		} else {
			up[nu].action = GIT_TREE_UPDATE_REMOVE;
			up[nu++].path = paths[i];
		}
		git_tree_entry_free(ep);
		git_tree_entry_free(et);
		git_tree_entry_free(ec);
	}
	if (r) {
		r = 0;
		goto out;
	}
	if (git_tree_create_updated(out, repo, tt, nu, up) < 0) {
		git_error_clear();
		r = 0;		/* let the merge say what is wrong */
		goto out;
	}
	r = 1;
out:
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	free(up);
	git_tree_free(pt);
	git_tree_free(ct);
	git_tree_free(tt);
	git_commit_free(parent);
	return r;
}

int pick_commit(git_repository *repo, const git_oid *commit,
		const git_oid *onto, struct pick_result *res)
{
	return pick_commit_as(repo, commit, onto, NULL, NULL, res);
}

int pick_commit_as(git_repository *repo, const git_oid *commit,
		   const git_oid *onto, const char *message,
		   const git_signature *committer, struct pick_result *res)
{
	git_commit *pick = NULL, *target = NULL;
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_merge_options mo = GIT_MERGE_OPTIONS_INIT;
	const git_commit *parents[1];
	int r;

	if (git_commit_lookup(&pick, repo, commit) < 0 ||
	    git_commit_lookup(&target, repo, onto) < 0) {
		r = error_git("cannot read commit %s or %s",
			      oid_short(commit, 12), oid_short(onto, 12));
		goto out;
	}
	if (git_commit_parentcount(pick) != 1) {
		r = error("commit %s is a merge or a root commit: it cannot "
			  "be picked as a patch", oid_short(commit, 12));
		goto out;
	}
	r = pick_fast(repo, pick, target, &res->tree);
	if (r < 0)
		goto out;
	if (r == 1)
		goto commit;
	if (git_cherrypick_commit(&index, repo, pick, target, 0, &mo) < 0) {
		r = error_git("cannot pick %s onto %s", oid_short(commit, 12),
			      oid_short(onto, 12));
		goto out;
	}
	if (git_index_has_conflicts(index)) {
		res->conflict = 1;
		r = conflict_files(index, &res->files);
		goto out;
	}
	if (git_index_write_tree_to(&res->tree, index, repo) < 0) {
		r = error_git("cannot write the tree of %s picked",
			      oid_short(commit, 12));
		goto out;
	}
commit:
	if (git_tree_lookup(&tree, repo, &res->tree) < 0) {
		r = error_git("cannot write the tree of %s picked",
			      oid_short(commit, 12));
		goto out;
	}
	res->empty = git_oid_equal(&res->tree, git_commit_tree_id(target));
	parents[0] = target;
	r = git_commit_create(&res->commit, repo, NULL,
			      git_commit_author(pick), committer ? committer :
			      git_commit_committer(pick),
			      git_commit_message_encoding(pick),
			      message ? message : git_commit_message(pick),
			      tree, 1, parents);
	if (r < 0)
		r = error_git("cannot write the commit of %s picked",
			      oid_short(commit, 12));
out:
	git_tree_free(tree);
	git_index_free(index);
	git_commit_free(target);
	git_commit_free(pick);
	return r;
}
