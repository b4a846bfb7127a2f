// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/worktree.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/lock.h"
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

/*
 * git worktree add reads the other worktrees' entries in .git/worktrees
 * while another git worktree add may be writing one ("failed to read
 * .git/worktrees/c/commondir"): respin adds and removes its worktrees
 * one process at a time, under .git/respin/worktrees.lock.
 */
static time_t admin_deadline;

static int admin_stop(void)
{
	return time(NULL) > admin_deadline;
}

static int admin_lock(git_repository *repo, struct lock_file *lk)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%srespin/worktrees.lock",
		    git_repository_commondir(repo));
	r = mkdir_leading(path.buf);
	admin_deadline = time(NULL) + 120;
	if (!r)
		r = lock_take(lk, path.buf, "git worktree add/remove", 1,
			      admin_stop, NULL);
	if (r == 1)
		r = error("%s has been held for two minutes: another respin "
			  "is making or removing a worktree; try again",
			  path.buf);
	strbuf_release(&path);
	return r;
}

static int worktree_create(git_repository *repo, struct worktree *wt,
			   const git_oid *commit)
{
	const char *top = git_repository_workdir(repo);
	struct strbuf what = STRBUF_INIT, reason = STRBUF_INIT;
	/*
	 * locked, with a reason: git worktree list marks it respin's, and
	 * git worktree prune leaves it; -f -f makes it again over a
	 * locked entry a killed respin left
	 */
	const char *argv[] = { "git", "-C", top ? top :
			       git_repository_path(repo), "worktree", "add",
			       "--detach", "-f", "-f", "--lock", "--reason",
			       NULL, wt->path,
			       oid_short(commit, GIT_OID_HEXSZ), NULL };
	int r;

	struct lock_file admin = LOCK_FILE_INIT;

	r = mkdir_leading(wt->path);
	if (!r)
		r = admin_lock(repo, &admin);
	if (r < 0)
		return r;
	strbuf_addf(&what, "cannot make the worktree %s", wt->path);
	strbuf_addf(&reason, "respin: the checks of series %s (respin rm "
		    "%s removes it)", wt->series, wt->series);
	argv[10] = reason.buf;
	r = run_checked(argv, NULL, what.buf);
	lock_release(&admin);
	strbuf_release(&what);
	strbuf_release(&reason);
	return r;
}

/*
 * A worktree that a killed respin left half made or half checked out
 * is respin's own: it goes, to be made again.
 */
int worktree_discard(git_repository *repo, struct worktree *wt)
{
	const char *top = git_repository_workdir(repo);
	const char *dir = top ? top : git_repository_path(repo);
	const char *rm[] = { "git", "-C", dir, "worktree", "remove", "--force",
			     "--force", wt->path, NULL };
	const char *rmrf[] = { "rm", "-rf", "--", wt->path, NULL };
	const char *prune[] = { "git", "-C", dir, "worktree", "prune", NULL };
	struct lock_file admin = LOCK_FILE_INIT;
	struct stat st;
	int r;

	git_repository_free(wt->repo);
	wt->repo = NULL;
	r = admin_lock(repo, &admin);
	if (r < 0)
		return r;
	if (run_checked(rm, NULL, "cannot remove the worktree") < 0)
		error_clear();
	if (!stat(wt->path, &st))
		r = run_checked(rmrf, NULL,
				"cannot remove the half-made worktree");
	if (!r)
		r = run_checked(prune, NULL, "cannot prune worktrees");
	lock_release(&admin);
	return r;
}

/* Does the path (made real) lie inside dir (made real)? */
static int inside(const char *path, const char *dir)
{
	char *rp = realpath(path, NULL), *rd = realpath(dir, NULL);
	size_t n = rd ? strlen(rd) : 0;
	int yes = rp && rd && !strncmp(rp, rd, n) &&
		  (rp[n] == '/' || !rp[n]);

	free(rp);
	free(rd);
	return yes;
}

/*
 * The gitdir a worktree's .git file names, or NULL (no such file: a
 * half-made worktree, which worktree_checkout's recovery handles).
 */
static char *gitdir_of(const char *wtpath)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	char *dir = NULL;

	strbuf_addf(&p, "%s/.git", wtpath);
	if (strbuf_read_file(&text, p.buf) >= 0 &&
	    !strncmp(text.buf, "gitdir: ", 8)) {
		strbuf_rtrim(&text);
		dir = xstrdup(text.buf + 8);
	}
	strbuf_release(&p);
	strbuf_release(&text);
	return dir;
}

/*
 * A repository copied with cp -a has respin's worktrees with it, but
 * their .git files still name the original's .git/worktrees: used as
 * they are, a check would move the original's worktree and store what
 * it found there.  Such a worktree is not this repository's: its
 * directory (a copy, inside this .git) goes, with this repository's
 * copy of the original's entry, and it is made again.
 */
static int disown_copied(git_repository *repo, struct worktree *wt)
{
	const char *common = git_repository_commondir(repo);
	char *dir = gitdir_of(wt->path);
	struct strbuf entry = STRBUF_INIT, entry_gitdir = STRBUF_INIT;
	const char *base;
	int r = 0;

	if (!dir || inside(dir, common))
		goto out;
	base = strrchr(dir, '/');
	strbuf_addf(&entry, "%sworktrees/%s", common, base ? base + 1 : dir);
	strbuf_addf(&entry_gitdir, "%s/gitdir", entry.buf);
	git_repository_free(wt->repo);
	wt->repo = NULL;
	r = remove_tree(wt->path);
	if (!r) {
		/* this repository's entry, if it names the original's path */
		struct strbuf text = STRBUF_INIT;

		if (strbuf_read_file(&text, entry_gitdir.buf) >= 0) {
			strbuf_rtrim(&text);
			if (!inside(text.buf, common))
				r = remove_tree(entry.buf);
		}
		strbuf_release(&text);
	}
	if (r < 0)
		r = error_errno("cannot remove %s, a worktree copied from "
				"another repository (%s)", wt->path, dir);
out:
	free(dir);
	strbuf_release(&entry);
	strbuf_release(&entry_gitdir);
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
	if (!wt->repo && disown_copied(repo, wt) < 0)
		return RESPIN_ERR;
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
