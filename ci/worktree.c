// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/worktree.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	wt->lock.fd = -1;
	wt->series = xstrdup(series);
}

void worktree_build_variant(struct worktree *wt, git_repository *repo,
			    const char *variant)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%srespin/build/%s", git_repository_commondir(repo),
		    wt->series);
	if (variant)
		strbuf_addf(&sb, "@%s", variant);
	free(wt->build_dir);
	wt->build_dir = strbuf_detach(&sb, NULL);
}

void worktree_release(struct worktree *wt)
{
	lock_release(&wt->lock);
	free(wt->path);
	free(wt->build_dir);
	free(wt->series);
	git_repository_free(wt->repo);
	memset(wt, 0, sizeof(*wt));
	wt->lock.fd = -1;
}

int worktree_lock(struct worktree *wt, const char *what, int wait,
		  int (*stop)(void))
{
	struct strbuf path = STRBUF_INIT, when = STRBUF_INIT;
	struct lock_holder h;
	int r;

	r = mkdir_leading(wt->path);
	if (r < 0)
		return r;
	strbuf_addf(&path, "%s.lock", wt->path);
	r = lock_take(&wt->lock, path.buf, what, wait, stop, &h);
	if (r != 1) {
		strbuf_release(&path);
		return r;
	}
	if (h.since) {
		time_t t = (time_t)h.since;
		struct tm tm;
		char buf[32];

		localtime_r(&t, &tm);
		strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		strbuf_addf(&when, ", since %s", buf);
	}
	if (!h.pid) {
		error("series '%s' is in use by another process: %s is locked",
		      wt->series, path.buf);
		error_hint("wait for it to finish, or give --wait to wait for "
			   "it; respin never shares a series' worktree and "
			   "build directory");
	} else if (h.alive) {
		error("series '%s' is being checked by another respin (pid %ld"
		      "%s%s%s%s): its worktree and build directory are in use",
		      wt->series, (long)h.pid, h.what ? ", '" : "",
		      h.what ? h.what : "", h.what ? "'" : "", when.buf);
		error_hint("wait for it to finish, or give --wait to wait for "
			   "it; 'kill %ld' stops it", (long)h.pid);
	} else {
		error("series '%s': programs started by an earlier respin "
		      "(pid %ld, gone now%s) still run in its worktree or build "
		      "directory%s%s%s", wt->series, (long)h.pid, when.buf,
		      h.running ? " (" : "", h.running ? h.running : "",
		      h.running ? ")" : "");
		if (h.group > 0)
			error_hint("wait for them to end, or end them with "
				   "'kill -- -%ld'; --wait waits for them",
				   (long)h.group);
		else
			error_hint("wait for them to end, or end them (they "
				   "hold %s open); --wait waits for them",
				   path.buf);
	}
	lock_holder_release(&h);
	strbuf_release(&path);
	strbuf_release(&when);
	return 1;
}

void worktree_lock_note(struct worktree *wt, const char *running, long group)
{
	struct strbuf sb = STRBUF_INIT;

	if (running)
		strbuf_addf(&sb, "running %s\n", running);
	if (group > 0)
		strbuf_addf(&sb, "group %ld\n", group);
	lock_note(&wt->lock, sb.buf);
	strbuf_release(&sb);
}

static int worktree_create(git_repository *repo, struct worktree *wt,
			   const git_oid *commit)
{
	const char *top = git_repository_workdir(repo);
	const char *argv[] = { "git", "-C", top ? top :
			       git_repository_path(repo), "worktree", "add",
			       "--detach", "-f", wt->path,
			       oid_short(commit, GIT_OID_HEXSZ), NULL };
	struct strbuf what = STRBUF_INIT;
	int r;

	r = mkdir_leading(wt->path);
	if (r < 0)
		return r;
	strbuf_addf(&what, "cannot make the worktree %s", wt->path);
	r = run_checked(argv, NULL, what.buf);
	strbuf_release(&what);
	return r;
}

/*
 * A worktree that a killed respin left half made or half checked out
 * is respin's own: it goes, to be made again.
 */
static int worktree_discard(git_repository *repo, struct worktree *wt)
{
	const char *top = git_repository_workdir(repo);
	const char *dir = top ? top : git_repository_path(repo);
	const char *rm[] = { "git", "-C", dir, "worktree", "remove", "--force",
			     "--force", wt->path, NULL };
	const char *rmrf[] = { "rm", "-rf", "--", wt->path, NULL };
	const char *prune[] = { "git", "-C", dir, "worktree", "prune", NULL };
	struct stat st;
	int r;

	git_repository_free(wt->repo);
	wt->repo = NULL;
	if (run_checked(rm, NULL, "cannot remove the worktree") < 0)
		error_clear();
	r = 0;
	if (!stat(wt->path, &st))
		r = run_checked(rmrf, NULL,
				"cannot remove the half-made worktree");
	if (!r)
		r = run_checked(prune, NULL, "cannot prune worktrees");
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

static int marker_make(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		return error_errno("cannot make %s", path);
	close(fd);
	return 0;
}

static int index_locked(struct worktree *wt, const git_oid *commit,
			const char *file)
{
	struct strbuf what = STRBUF_INIT, lock = STRBUF_INIT;
	int r;

	strbuf_addf(&what, "cannot check out %s in %s", oid_short(commit, 12),
		    wt->path);
	if (file)
		strbuf_addstr(&lock, file);
	else
		strbuf_addf(&lock, "%sindex.lock",
			    git_repository_path(wt->repo));
	if (file)
		git_error_clear();
	r = lock_error_git(what.buf, lock.buf);
	strbuf_release(&what);
	strbuf_release(&lock);
	return r;
}

/* Someone else's git in the worktree: stop before writing a file. */
static int index_unlocked(struct worktree *wt, const git_oid *commit)
{
	struct strbuf lock = STRBUF_INIT;
	struct stat st;
	int held, r;

	strbuf_addf(&lock, "%sindex.lock", git_repository_path(wt->repo));
	held = !stat(lock.buf, &st);
	if (!held) {
		strbuf_reset(&lock);
		strbuf_addf(&lock, "%sHEAD.lock", git_repository_path(wt->repo));
		held = !stat(lock.buf, &st);
	}
	r = held ? index_locked(wt, commit, lock.buf) : 0;
	strbuf_release(&lock);
	return r;
}

int worktree_checkout(git_repository *repo, struct worktree *wt,
		      const git_oid *commit)
{
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	struct strbuf lines = STRBUF_INIT, marker = STRBUF_INIT;
	git_strarray paths = { NULL, 0 };
	git_commit *c = NULL;
	struct stat st;
	int r, recover;

	if (!git_oid_is_zero(&wt->at) && git_oid_equal(&wt->at, commit))
		return 0;
	/* "a checkout is under way": a killed one leaves it behind */
	strbuf_addf(&marker, "%s.checkout", wt->path);
	recover = !stat(marker.buf, &st);
	if (recover && !stat(wt->path, &st) &&
	    (wt->repo || git_repository_open(&wt->repo, wt->path) < 0)) {
		git_error_clear();
		r = worktree_discard(repo, wt);
		if (r < 0)
			goto out;
	}
	if (stat(wt->path, &st) < 0) {
		r = marker_make(marker.buf);
		if (!r)
			r = worktree_create(repo, wt, commit);
		if (r < 0)
			goto out;
	}
	r = mkdir_parents(wt->build_dir);
	if (r < 0)
		goto out;
	if (!wt->repo && git_repository_open(&wt->repo, wt->path) < 0) {
		r = error_git("cannot open the worktree %s", wt->path);
		goto out;
	}
	if (recover) {
		static const char *const locks[] = { "index.lock", "HEAD.lock" };
		size_t k;

		/* a killed respin's: this one holds the series' lock */
		for (k = 0; k < sizeof(locks) / sizeof(*locks); k++) {
			struct strbuf lock = STRBUF_INIT;

			strbuf_addf(&lock, "%s%s", git_repository_path(wt->repo),
				    locks[k]);
			unlink(lock.buf);
			strbuf_release(&lock);
		}
	} else {
		/* your changes are yours: refuse before touching anything */
		r = check_clean(wt);
		if (!r)
			r = index_unlocked(wt, commit);
		if (!r)
			r = marker_make(marker.buf);
		if (r < 0)
			goto out;
	}
	if (git_commit_lookup(&c, wt->repo, commit) < 0) {
		r = error_git("cannot read commit %s", oid_short(commit, 12));
		goto out;
	}
	if (recover) {
		/* the whole tree, by force: what is there is half done */
		co.checkout_strategy = GIT_CHECKOUT_FORCE |
				       GIT_CHECKOUT_REMOVE_UNTRACKED;
		r = git_checkout_tree(wt->repo, (git_object *)c, &co);
	} else {
		/*
		 * A safe checkout from HEAD of only the paths that differ
		 * between the two trees: files the same in both are not
		 * even looked at, so their timestamps stay (make skips
		 * them) and a kernel tree's 75,000 files are not scanned
		 * again.
		 */
		r = changed_pathspec(wt->repo, c, &lines, &paths);
		co.checkout_strategy = GIT_CHECKOUT_SAFE |
				       GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
		co.paths = paths;
		if (!r && paths.count)
			r = git_checkout_tree(wt->repo, (git_object *)c, &co);
	}
	if (!r)
		r = git_repository_set_head_detached(wt->repo, commit);
	if (r == GIT_ELOCKED) {
		/* taken meanwhile: half done, finished next time */
		r = index_locked(wt, commit, NULL);
		goto out;
	}
	if (r < 0) {
		r = error_git("cannot check out %s in %s",
			      oid_short(commit, 12), wt->path);
		goto out;
	}
	git_oid_cpy(&wt->at, commit);
	if (unlink(marker.buf) < 0)
		r = error_errno("cannot remove %s", marker.buf);
out:
	git_commit_free(c);
	free(paths.strings);
	strbuf_release(&lines);
	strbuf_release(&marker);
	return r;
}
