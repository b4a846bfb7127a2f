// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/seriesadmin.h"
#include "ci/worktree.h"
#include "series/rebase.h"
#include "series/store.h"
#include "series/storename.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* The series' check lock taken, or 1 (said) when a check holds it. */
static int hold(git_repository *repo, const char *name, const char *what,
		struct worktree *wt)
{
	worktree_init(wt, repo, name);
	return worktree_lock(wt, what, 0, NULL);
}

/* The holder's message (worktree_lock()'s), and what was not done. */
static int held_error(const char *what)
{
	char *why = xstrdup(error_last() ? error_last() : "a check holds it");
	int r;

	error_clear();
	r = error("%s; %s", why, what);
	free(why);
	return r;
}

/* Its worktree, build directories and lock files gone. */
static int drop_checkouts(git_repository *repo, struct worktree *wt,
			  struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	DIR *d;
	struct dirent *e;
	size_t n = strlen(wt->series);
	int r = 0;

	if (exists(wt->path)) {
		r = worktree_discard(repo, wt);
		if (r < 0)
			return r;
		strbuf_addf(out, "removed its worktree %s\n", wt->path);
	}
	strbuf_addf(&dir, "%srespin/build", git_repository_commondir(repo));
	d = opendir(dir.buf);
	while (d && !r && (e = readdir(d))) {
		if (strncmp(e->d_name, wt->series, n) ||
		    (e->d_name[n] && e->d_name[n] != '@'))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, e->d_name);
		r = remove_tree(path.buf);
		if (!r)
			strbuf_addf(out, "removed its build directory %s\n",
				    path.buf);
	}
	if (d)
		closedir(d);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s.checkout", wt->path);
	if (!r && unlink(path.buf) < 0 && errno != ENOENT)
		r = error_errno("cannot remove %s", path.buf);
	strbuf_release(&dir);
	strbuf_release(&path);
	return r;
}

struct cfg_move {
	git_config *cfg;
	const char *from, *to;	/* "respin.series.NAME." prefixes */
	size_t nr;
	int err;
};

static int cfg_entry(const git_config_entry *e, void *data)
{
	struct cfg_move *m = data;
	struct strbuf key = STRBUF_INIT;

	if (strncasecmp(e->name, m->from, strlen(m->from)))
		return 0;
	if (m->to) {
		strbuf_addf(&key, "%s%s", m->to, e->name + strlen(m->from));
		if (git_config_set_multivar(m->cfg, key.buf, "^$", e->value) < 0 &&
		    git_config_set_string(m->cfg, key.buf, e->value) < 0)
			m->err = error_git("cannot set %s", key.buf);
	}
	if (!m->err && git_config_delete_multivar(m->cfg, e->name, ".*") < 0)
		m->err = error_git("cannot remove %s", e->name);
	m->nr++;
	strbuf_release(&key);
	return m->err ? -1 : 0;
}

/* respin.series.FROM.* moved to respin.series.TO.* (to NULL: removed). */
static int move_config(git_repository *repo, const char *from,
		       const char *to, struct strbuf *out)
{
	git_config *all = NULL, *local = NULL;
	struct strbuf pf = STRBUF_INIT, pt = STRBUF_INIT;
	struct cfg_move m = { NULL, NULL, NULL, 0, 0 };
	git_config_iterator *it = NULL;
	git_config_entry *e;
	char **names = NULL, **values = NULL;
	size_t nr = 0, alloc = 0, alloc2 = 0, i;
	int r = 0;

	if (git_repository_config(&all, repo) < 0 ||
	    git_config_open_level(&local, all, GIT_CONFIG_LEVEL_LOCAL) < 0) {
		git_config_free(all);
		git_error_clear();
		return 0;	/* no repository config: nothing there */
	}
	strbuf_addf(&pf, "respin.series.%s.", from);
	if (to)
		strbuf_addf(&pt, "respin.series.%s.", to);
	/* read first, then write: the iterator does not see changes */
	if (git_config_iterator_new(&it, local) < 0) {
		r = error_git("cannot read the git config");
		goto out;
	}
	while (!git_config_next(&e, it)) {
		if (strncasecmp(e->name, pf.buf, pf.len))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		ALLOC_GROW(values, nr + 1, alloc2);
		names[nr] = xstrdup(e->name);
		values[nr++] = xstrdup(e->value ? e->value : "");
	}
	git_config_iterator_free(it);
	git_error_clear();
	m.cfg = local;
	m.from = pf.buf;
	m.to = to ? pt.buf : NULL;
	for (i = 0; i < nr && !m.err; i++) {
		git_config_entry one = { 0 };

		one.name = names[i];
		one.value = values[i];
		cfg_entry(&one, &m);
	}
	r = m.err;
	if (!r && m.nr)
		strbuf_addf(out, "%s its %zu setting%s (respin.series.%s.*)\n",
			    to ? "moved" : "removed", m.nr,
			    m.nr == 1 ? "" : "s", from);
out:
	for (i = 0; i < nr; i++) {
		free(names[i]);
		free(values[i]);
	}
	free(names);
	free(values);
	strbuf_release(&pf);
	strbuf_release(&pt);
	git_config_free(local);
	git_config_free(all);
	return r;
}

int series_admin_rm(git_repository *repo, const char *name,
		    struct strbuf *out)
{
	struct series s;
	struct worktree wt;
	struct strbuf what = STRBUF_INIT, path = STRBUF_INIT;
	int r;

	r = series_load(repo, name, &s, SERIES_LOAD_LATEST);
	if (r < 0) {
		series_release(&s);
		return r;
	}
	strbuf_addf(&what, "respin rm %s", name);
	r = hold(repo, name, what.buf, &wt);
	if (r == 1)
		r = held_error("nothing was removed");
	if (r < 0)
		goto out;
	rebase_state_path(repo, name, &path);
	if (exists(path.buf)) {
		r = rebase_state_remove(repo, name);
		if (r < 0)
			goto out;
		strbuf_addstr(out, "removed its rebase in progress\n");
	} else {
		rebase_leftover_remove(repo, name);
	}
	r = drop_checkouts(repo, &wt, out);
	if (!r)
		r = move_config(repo, name, NULL, out);
	/* the ref last: until then `respin rm` can be run again */
	if (!r)
		r = series_ref_delete(repo, name, &s.meta);
	if (!r)
		strbuf_addf(out, "removed series %s (%zu version%s)\n", name,
			    s.nr_versions, s.nr_versions == 1 ? "" : "s");
out:
	worktree_release(&wt);
	if (!r) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%srespin/worktrees/%s.lock",
			    git_repository_commondir(repo), name);
		unlink(path.buf);
	}
	series_release(&s);
	strbuf_release(&what);
	strbuf_release(&path);
	return r;
}

int series_admin_rename(git_repository *repo, const char *old_name,
			const char *new_name, struct strbuf *out)
{
	struct series s, n;
	struct worktree wt, wn;
	struct strbuf what = STRBUF_INIT, path = STRBUF_INIT;
	int r, held = 0;

	if (series_name_check(new_name) < 0)
		return RESPIN_EUSAGE;
	memset(&n, 0, sizeof(n));	/* series_load() fills it */
	memset(&wn, 0, sizeof(wn));
	wn.lock.fd = -1;
	r = series_load(repo, old_name, &s, SERIES_LOAD_LATEST);
	if (r < 0) {
		series_release(&s);
		series_release(&n);
		return r;
	}
	if (series_load(repo, new_name, &n, SERIES_LOAD_LATEST) == 0) {
		r = error_code(RESPIN_EUSAGE, "there is a series %s already: "
			       "'respin rm %s' first, or choose another name",
			       new_name, new_name);
		goto out0;
	}
	error_clear();
	strbuf_addf(&what, "respin rename %s %s", old_name, new_name);
	r = hold(repo, old_name, what.buf, &wt);
	if (!r) {
		held = 1;
		r = hold(repo, new_name, what.buf, &wn);
	}
	if (r == 1)
		r = held_error("nothing was renamed");
	if (r < 0)
		goto out;
	rebase_state_path(repo, old_name, &path);
	if (exists(path.buf)) {
		r = error("a rebase of %s waits in %s: finish it ('respin "
			  "rebase %s --continue') or give it up (--abort) "
			  "first; nothing was renamed", old_name, path.buf,
			  old_name);
		goto out;
	}
	/* checkouts are caches by name: made again by the next check */
	r = drop_checkouts(repo, &wt, out);
	if (!r)
		r = move_config(repo, old_name, new_name, out);
	if (!r)
		r = series_ref_rename(repo, old_name, new_name);
	if (!r)
		strbuf_addf(out, "renamed series %s to %s\n", old_name,
			    new_name);
out:
	worktree_release(&wt);
	if (held)
		worktree_release(&wn);
	if (!r) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%srespin/worktrees/%s.lock",
			    git_repository_commondir(repo), old_name);
		unlink(path.buf);
	}
out0:
	series_release(&s);
	series_release(&n);
	strbuf_release(&what);
	strbuf_release(&path);
	return r;
}
