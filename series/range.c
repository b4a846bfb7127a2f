// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/range.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <string.h>

int series_range_collect(git_repository *repo, git_commit *base,
			 git_commit *tip, const char *base_name,
			 const char *tip_name, struct series_version *v)
{
	const git_oid *base_id = git_commit_id(base), *tip_id = git_commit_id(tip);
	git_revwalk *walk = NULL;
	git_oid *oids = NULL;
	size_t nr = 0, alloc = 0, i;
	git_oid oid;
	int r;

	if (git_oid_equal(base_id, tip_id))
		return error("%s..%s is empty: %s is the base itself; commit "
			     "the patches on top of %s first", base_name,
			     tip_name, tip_name, base_name);
	r = git_graph_descendant_of(repo, tip_id, base_id);
	if (r < 0)
		return error_git("cannot compare %s and %s", base_name, tip_name);
	if (!r) {
		error("base %s (%s) is not an ancestor of %s (%s)", base_name,
		      oid_short(base_id, 12), tip_name, oid_short(tip_id, 12));
		error_hint("rebase the series onto %s, or give the base it "
			   "was written on with --base", base_name);
		return RESPIN_ERR;
	}
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(walk, tip_id) < 0 ||
	    git_revwalk_hide(walk, base_id) < 0) {
		r = error_git("cannot walk %s..%s", base_name, tip_name);
		goto out;
	}
	while (!(r = git_revwalk_next(&oid, walk))) {
		ALLOC_GROW(oids, nr, alloc);
		git_oid_cpy(&oids[nr++], &oid);
	}
	if (r != GIT_ITEROVER) {
		r = error_git("cannot walk %s..%s", base_name, tip_name);
		goto out;
	}
	r = 0;
	if (!nr) {
		r = error("%s..%s is empty", base_name, tip_name);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		git_commit *c = NULL;
		struct series_patch *p;

		if (git_commit_lookup(&c, repo, &oids[i]) < 0) {
			r = error_git("cannot read commit %s",
				      oid_short(&oids[i], 12));
			goto out;
		}
		if (git_commit_parentcount(c) != 1) {
			r = error("%s..%s holds merge commit %s (\"%s\"); a "
				  "series is a straight line of patches",
				  base_name, tip_name, oid_short(&oids[i], 12),
				  git_commit_summary(c));
			error_hint("linearise it, e.g. with 'git rebase %s'",
				   base_name);
			git_commit_free(c);
			goto out;
		}
		p = series_version_add_patch(v);
		git_oid_cpy(&p->commit, &oids[i]);
		p->subject = xstrdup(git_commit_summary(c) ?
				     git_commit_summary(c) : "");
		r = patch_commit_id(repo, c, &p->patch_id);
		git_commit_free(c);
		if (r < 0)
			goto out;
	}
	git_oid_cpy(&v->base, base_id);
	git_oid_cpy(&v->tip, tip_id);
	r = 0;
out:
	if (r < 0) {
		for (i = 0; i < v->nr_patches; i++)
			free(v->patches[i].subject);
		v->nr_patches = 0;
	}
	free(oids);
	git_revwalk_free(walk);
	return r;
}

int series_version_same_patches(git_repository *repo,
				const struct series_version *a,
				const struct series_version *b, int *same)
{
	size_t i;

	*same = 0;
	if (a->nr_patches != b->nr_patches)
		return 0;
	for (i = 0; i < a->nr_patches; i++) {
		git_commit *ca = NULL, *cb = NULL;
		int eq;

		if (!git_oid_equal(&a->patches[i].patch_id,
				   &b->patches[i].patch_id))
			return 0;
		if (git_oid_is_zero(&a->patches[i].commit) ||
		    git_oid_is_zero(&b->patches[i].commit)) {
			if (strcmp(a->patches[i].subject, b->patches[i].subject))
				return 0;
			continue;
		}
		if (git_commit_lookup(&ca, repo, &a->patches[i].commit) < 0 ||
		    git_commit_lookup(&cb, repo, &b->patches[i].commit) < 0) {
			git_commit_free(ca);
			return error_git("cannot read patch %zu", i + 1);
		}
		eq = !strcmp(git_commit_message(ca), git_commit_message(cb));
		git_commit_free(ca);
		git_commit_free(cb);
		if (!eq)
			return 0;
	}
	*same = 1;
	return 0;
}
