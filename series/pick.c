// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/pick.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

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

int pick_commit(git_repository *repo, const git_oid *commit,
		const git_oid *onto, struct pick_result *res)
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
	if (git_index_write_tree_to(&res->tree, index, repo) < 0 ||
	    git_tree_lookup(&tree, repo, &res->tree) < 0) {
		r = error_git("cannot write the tree of %s picked",
			      oid_short(commit, 12));
		goto out;
	}
	res->empty = git_oid_equal(&res->tree, git_commit_tree_id(target));
	parents[0] = target;
	r = git_commit_create(&res->commit, repo, NULL,
			      git_commit_author(pick), git_commit_committer(pick),
			      git_commit_message_encoding(pick),
			      git_commit_message(pick), tree, 1, parents);
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
