// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/worktree.h"
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

int worktree_diff_paths(git_repository *repo, git_tree *a, git_tree *b,
			struct strbuf *out)
{
	git_diff *diff = NULL;
	size_t k, n;

	if (git_diff_tree_to_tree(&diff, repo, a, b, NULL) < 0)
		return error_git("cannot compare trees");
	n = git_diff_num_deltas(diff);
	for (k = 0; k < n; k++) {
		const git_diff_delta *d = git_diff_get_delta(diff, k);

		strbuf_addf(out, "%s\n", d->new_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strbuf_addf(out, "%s\n", d->old_file.path);
	}
	git_diff_free(diff);
	return 0;
}

/*
 * The paths that differ between the worktree's HEAD and commit c, as
 * a pathspec: lines holds them, paths points into it.
 */
static int changed_pathspec(git_repository *wrepo, git_commit *c,
			    struct strbuf *lines, git_strarray *paths)
{
	git_object *head = NULL;
	git_tree *to = NULL;
	char *p, *nl;
	size_t n = 0;
	int r = -1;

	if (git_revparse_single(&head, wrepo, "HEAD^{tree}") < 0 ||
	    git_commit_tree(&to, c) < 0) {
		error_git("cannot read the trees of %s",
			  oid_short(git_commit_id(c), 12));
		goto out;
	}
	r = worktree_diff_paths(wrepo, (git_tree *)head, to, lines);
	if (r < 0)
		goto out;
	for (p = lines->buf; *p; p++)
		n += *p == '\n';
	paths->strings = xcalloc(n + 1, sizeof(char *));
	paths->count = 0;
	for (p = lines->buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		paths->strings[paths->count++] = p;
	}
out:
	git_tree_free(to);
	git_object_free(head);
	return r;
}

int worktree_checkout(git_repository *repo, struct worktree *wt,
		      const git_oid *commit)
{
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	struct strbuf lines = STRBUF_INIT;
	git_strarray paths = { NULL, 0 };
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
	r = changed_pathspec(wt->repo, c, &lines, &paths);
	co.checkout_strategy = GIT_CHECKOUT_SAFE |
			       GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	co.paths = paths;
	if (!r && paths.count)
		r = git_checkout_tree(wt->repo, (git_object *)c, &co);
	if (!r)
		r = git_repository_set_head_detached(wt->repo, commit);
	git_commit_free(c);
	free(paths.strings);
	strbuf_release(&lines);
	if (r < 0)
		return error_git("cannot check out %s in %s",
				 oid_short(commit, 12), wt->path);
	git_oid_cpy(&wt->at, commit);
	return 0;
}
