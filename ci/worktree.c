// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/worktree.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void worktree_init(struct worktree *wt, git_repository *repo,
		   const char *series)
{
	struct strbuf sb = STRBUF_INIT;

	memset(wt, 0, sizeof(*wt));
	strbuf_addf(&sb, "%srespin/worktrees/%s",
		    git_repository_commondir(repo), series);
	wt->path = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%srespin/build/%s",
		    git_repository_commondir(repo), series);
	wt->build_dir = strbuf_detach(&sb, NULL);
}

void worktree_release(struct worktree *wt)
{
	free(wt->path);
	free(wt->build_dir);
	git_repository_free(wt->repo);
	memset(wt, 0, sizeof(*wt));
}

static int mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int r = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			r = error_errno("cannot make %s", p);
		*s = '/';
		if (r)
			break;
	}
	if (!r && mkdir(p, 0777) < 0 && errno != EEXIST)
		r = error_errno("cannot make %s", p);
	free(p);
	return r;
}

static int worktree_create(git_repository *repo, struct worktree *wt,
			   const git_oid *commit)
{
	const char *top = git_repository_workdir(repo);
	const char *argv[] = { "git", "-C", top ? top :
			       git_repository_path(repo), "worktree", "add",
			       "--detach", "-f", wt->path,
			       oid_short(commit, GIT_OID_HEXSZ), NULL };
	struct run_opts o = { 0 };
	struct run_result res;
	char *parent = xstrdup(wt->path), *slash = strrchr(parent, '/');
	int r;

	*slash = '\0';
	r = mkdirs(parent);
	free(parent);
	if (r < 0)
		return r;
	o.argv = argv;
	o.timeout = 600;
	run_result_init(&res);
	r = run_program(&o, &res);
	if (!r && (!res.exited || res.exit_code)) {
		strbuf_rtrim(&res.output);
		r = error("cannot make the worktree %s: %s", wt->path,
			  res.output.buf);
	}
	run_result_release(&res);
	return r;
}

static int check_clean(struct worktree *wt)
{
	git_status_options so = GIT_STATUS_OPTIONS_INIT;
	git_status_list *list = NULL;
	struct strbuf files = STRBUF_INIT;
	size_t i, n;
	int r = 0;

	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, wt->repo, &so) < 0)
		return error_git("cannot read the status of %s", wt->path);
	n = git_status_list_entrycount(list);
	for (i = 0; i < n && i < 5; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ?
			e->index_to_workdir : e->head_to_index;

		if (d)
			strbuf_addf(&files, " %s", d->new_file.path);
	}
	if (n) {
		r = error("the worktree %s has changes (%s%s); respin will not "
			  "overwrite them", wt->path, files.buf + 1,
			  n > 5 ? " ..." : "");
		error_hint("look at them with 'git -C %s status'; 'git -C %s "
			   "reset --hard' drops them", wt->path, wt->path);
	}
	strbuf_release(&files);
	git_status_list_free(list);
	return r;
}

struct path_list {
	char **items;
	size_t nr, alloc;
};

static void path_list_release(struct path_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
}

static void path_list_add(struct path_list *l, const char *path)
{
	if (l->nr && !strcmp(l->items[l->nr - 1], path))
		return;
	ALLOC_GROW(l->items, l->nr, l->alloc);
	l->items[l->nr++] = xstrdup(path);
}

/* The paths that differ between the worktree's HEAD and commit c. */
static int changed_paths(git_repository *wrepo, git_commit *c,
			 struct path_list *out)
{
	git_object *head = NULL;
	git_tree *to = NULL;
	git_diff *diff = NULL;
	git_diff_options o = GIT_DIFF_OPTIONS_INIT;
	size_t i, n;
	int r = -1;

	o.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	if (git_revparse_single(&head, wrepo, "HEAD^{tree}") < 0 ||
	    git_commit_tree(&to, c) < 0 ||
	    git_diff_tree_to_tree(&diff, wrepo, (git_tree *)head, to, &o) < 0)
		goto out;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		path_list_add(out, d->old_file.path);
		path_list_add(out, d->new_file.path);
	}
	r = 0;
out:
	git_diff_free(diff);
	git_tree_free(to);
	git_object_free(head);
	return r;
}

int worktree_checkout(git_repository *repo, struct worktree *wt,
		      const git_oid *commit)
{
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	struct path_list paths = { 0 };
	git_commit *c = NULL;
	struct stat st;
	int r;

	if (!git_oid_is_zero(&wt->at) && git_oid_equal(&wt->at, commit))
		return 0;
	if (stat(wt->path, &st) < 0) {
		r = worktree_create(repo, wt, commit);
		if (r < 0)
			return r;
	}
	if (mkdirs(wt->build_dir) < 0)
		return -1;
	if (!wt->repo && git_repository_open(&wt->repo, wt->path) < 0)
		return error_git("cannot open the worktree %s", wt->path);
	r = check_clean(wt);
	if (r < 0)
		return r;
	if (git_commit_lookup(&c, wt->repo, commit) < 0)
		return error_git("cannot read commit %s", oid_short(commit, 12));
	/*
	 * A safe checkout from HEAD of only the paths that differ between
	 * the two trees: files the same in both are not even looked at,
	 * so their timestamps stay (make skips them) and a kernel tree's
	 * 75,000 files are not scanned again.
	 */
	r = changed_paths(wt->repo, c, &paths);
	co.checkout_strategy = GIT_CHECKOUT_SAFE |
			       GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	co.paths.strings = paths.items;
	co.paths.count = paths.nr;
	if (!r && paths.nr)
		r = git_checkout_tree(wt->repo, (git_object *)c, &co);
	if (!r)
		r = git_repository_set_head_detached(wt->repo, commit);
	git_commit_free(c);
	path_list_release(&paths);
	if (r < 0)
		return error_git("cannot check out %s in %s",
				 oid_short(commit, 12), wt->path);
	git_oid_cpy(&wt->at, commit);
	return 0;
}

int worktree_changed_paths(git_repository *repo, const git_oid *commit,
			   struct strbuf *out)
{
	git_commit *c = NULL;
	git_diff *diff = NULL;
	size_t i, n;

	if (git_commit_lookup(&c, repo, commit) < 0)
		return error_git("cannot read commit %s", oid_short(commit, 12));
	if (patch_commit_diff(repo, c, &diff) < 0) {
		git_commit_free(c);
		return -1;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strbuf_addf(out, "%s\n", d->new_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strbuf_addf(out, "%s\n", d->old_file.path);
	}
	git_diff_free(diff);
	git_commit_free(c);
	return 0;
}
