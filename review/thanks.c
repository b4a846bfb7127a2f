// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/thanks.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <string.h>

int thanks_find(git_repository *repo, const char *branch,
		const struct series_version *v, size_t max_commits,
		git_oid *commits, size_t *walked)
{
	git_object *tip = NULL;
	git_revwalk *walk = NULL;
	git_oid id, mb;
	size_t found = 0, want = 0, i;
	int r, have_mb = 0;

	*walked = 0;
	for (i = 0; i < v->nr_patches; i++) {
		memset(&commits[i], 0, sizeof(commits[i]));
		if (!git_oid_is_zero(&v->patches[i].patch_id))
			want++;
	}
	if (git_revparse_single(&tip, repo, branch) < 0)
		return error_code(RESPIN_ENOTFOUND, "no branch or commit '%s' "
				  "in this repository", branch);
	if (!git_oid_is_zero(&v->base) &&
	    !git_merge_base(&mb, repo, git_object_id(tip), &v->base))
		have_mb = 1;
	git_error_clear();
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push(walk, git_object_id(tip)) < 0 ||
	    (have_mb && git_revwalk_hide(walk, &mb) < 0)) {
		r = error_git("cannot walk %s", branch);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL);
	r = 0;
	while (found < want && !git_revwalk_next(&id, walk)) {
		git_commit *c = NULL;
		git_oid pid;

		if (!have_mb && max_commits && *walked >= max_commits)
			break;
		(*walked)++;
		if (git_commit_lookup(&c, repo, &id) < 0) {
			r = error_git("cannot read commit %s", oid_short(&id, 12));
			goto out;
		}
		if (git_commit_parentcount(c) != 1) {
			git_commit_free(c);
			continue;
		}
		if (patch_commit_id(repo, c, &pid) < 0) {
			git_commit_free(c);
			r = -1;
			goto out;
		}
		git_commit_free(c);
		/* the newest commit with it wins: walked newest first */
		for (i = 0; i < v->nr_patches; i++)
			if (git_oid_is_zero(&commits[i]) &&
			    git_oid_equal(&v->patches[i].patch_id, &pid)) {
				commits[i] = id;
				found++;
			}
	}
	git_error_clear();
	r = (int)found;
out:
	git_revwalk_free(walk);
	git_object_free(tip);
	return r;
}

void thanks_text(struct strbuf *out, const struct series_version *v,
		 const git_oid *commits, size_t only, const char *branch,
		 const char *name, const char *addr)
{
	size_t i, n = v->nr_patches;

	strbuf_addf(out, "Applied to %s, thanks!\n\n", branch);
	for (i = 0; i < n; i++) {
		if (only && i + 1 != only)
			continue;
		if (n > 1)
			strbuf_addf(out, "[%zu/%zu] %s\n", i + 1, n,
				    v->patches[i].subject);
		else
			strbuf_addf(out, "[1/1] %s\n", v->patches[i].subject);
		if (git_oid_is_zero(&commits[i]))
			strbuf_addf(out, "      (not in %s)\n", branch);
		else
			strbuf_addf(out, "      commit: %s\n",
				    oid_short(&commits[i], 12));
	}
	strbuf_addstr(out, "\nBest regards,\n-- \n");
	if (name && *name)
		strbuf_addf(out, "%s <%s>\n", name, addr);
	else
		strbuf_addf(out, "%s\n", addr);
}
