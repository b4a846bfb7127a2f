// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a rebase in progress keeps on disk between commands: the state
 * file .git/respin/rebase/NAME.state (its text, read and written whole)
 * and where the worktree and the lock are.
 */
#include "series/rebase.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const how_names[] = {
	[REBASE_TODO] = "todo",
	[REBASE_CLEAN] = "clean",
	[REBASE_3WAY] = "3-way",
	[REBASE_RESOLVED] = "resolved",
	[REBASE_EMPTY] = "empty",
	[REBASE_CONFLICT] = "conflict",
};

const char *rebase_how_name(enum rebase_how how)
{
	return how <= REBASE_CONFLICT ? how_names[how] : "todo";
}

enum rebase_how rebase_how_parse(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i <= REBASE_CONFLICT; i++)
		if (strlen(how_names[i]) == len && !memcmp(how_names[i], s, len))
			return (enum rebase_how)i;
	return REBASE_TODO;
}

void rebase_state_init(struct rebase_state *st, const char *series,
		       size_t nr_patches)
{
	memset(st, 0, sizeof(*st));
	st->series = xstrdup(series);
	st->nr = nr_patches;
	st->steps = xcalloc(nr_patches + 1, sizeof(*st->steps));
}

void rebase_state_release(struct rebase_state *st)
{
	free(st->series);
	free(st->onto_name);
	free(st->base_ref);
	free(st->branch);
	free(st->steps);
	memset(st, 0, sizeof(*st));
}

/* ---- where things are ---- */

static void rebase_dir(git_repository *repo, struct strbuf *out)
{
	strbuf_addf(out, "%srespin/rebase", git_repository_commondir(repo));
}

void rebase_worktree_path(git_repository *repo, const char *series,
			  struct strbuf *out)
{
	rebase_dir(repo, out);
	strbuf_addf(out, "/%s", series);
}

void rebase_state_path(git_repository *repo, const char *series,
		       struct strbuf *out)
{
	rebase_worktree_path(repo, series, out);
	strbuf_addstr(out, ".state");
}

void rebase_lock_path(git_repository *repo, const char *series,
		      struct strbuf *out)
{
	rebase_worktree_path(repo, series, out);
	strbuf_addstr(out, ".lock");
}

/* ---- the state file ---- */

#define STATE_MAGIC "respin-rebase 1"

static void add_oid(struct strbuf *out, const char *key, const git_oid *oid)
{
	strbuf_addf(out, "%s %s\n", key, oid_short(oid, GIT_OID_HEXSZ));
}

static void state_format(const struct rebase_state *st, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, STATE_MAGIC "\nseries %s\nfrom %d\nto %d\n",
		    st->series, st->from, st->to);
	add_oid(out, "meta", &st->meta);
	add_oid(out, "onto", &st->onto);
	strbuf_addf(out, "onto-name %s\n", st->onto_name);
	if (st->base_ref)
		strbuf_addf(out, "base-ref %s\n", st->base_ref);
	if (st->branch) {
		strbuf_addf(out, "branch %s\n", st->branch);
		add_oid(out, "branch-old", &st->branch_old);
	}
	strbuf_addf(out, "next %zu\n", st->next);
	add_oid(out, "current", &st->current);
	strbuf_addf(out, "patches %zu\n", st->nr);
	for (i = 0; i < st->nr; i++) {
		strbuf_addf(out, "step %s", rebase_how_name(st->steps[i].how));
		if (!git_oid_is_zero(&st->steps[i].commit))
			strbuf_addf(out, " %s", oid_short(&st->steps[i].commit,
							  GIT_OID_HEXSZ));
		strbuf_addch(out, '\n');
	}
}

static int state_oid(git_oid *out, const char *val)
{
	return strlen(val) == GIT_OID_HEXSZ ? git_oid_fromstr(out, val) : -1;
}

static int state_line(struct rebase_state *st, char *line, size_t *steps)
{
	char *val = strchr(line, ' ');
	int r = 0;

	if (!val)
		return -1;
	*val++ = '\0';
	if (!strcmp(line, "series")) {
		free(st->series);
		st->series = xstrdup(val);
	} else if (!strcmp(line, "from")) {
		st->from = atoi(val);
	} else if (!strcmp(line, "to")) {
		st->to = atoi(val);
	} else if (!strcmp(line, "meta")) {
		r = state_oid(&st->meta, val);
	} else if (!strcmp(line, "onto")) {
		r = state_oid(&st->onto, val);
	} else if (!strcmp(line, "onto-name")) {
		free(st->onto_name);
		st->onto_name = xstrdup(val);
	} else if (!strcmp(line, "base-ref")) {
		free(st->base_ref);
		st->base_ref = xstrdup(val);
	} else if (!strcmp(line, "branch")) {
		free(st->branch);
		st->branch = xstrdup(val);
	} else if (!strcmp(line, "branch-old")) {
		r = state_oid(&st->branch_old, val);
	} else if (!strcmp(line, "next")) {
		st->next = (size_t)strtoul(val, NULL, 10);
	} else if (!strcmp(line, "current")) {
		r = state_oid(&st->current, val);
	} else if (!strcmp(line, "patches")) {
		st->nr = (size_t)strtoul(val, NULL, 10);
		if (st->nr > 100000)
			return -1;
		free(st->steps);
		st->steps = xcalloc(st->nr + 1, sizeof(*st->steps));
	} else if (!strcmp(line, "step")) {
		char *sp = strchr(val, ' ');

		if (*steps >= st->nr)
			return -1;
		st->steps[*steps].how =
			rebase_how_parse(val, sp ? (size_t)(sp - val) :
					 strlen(val));
		if (sp)
			r = state_oid(&st->steps[*steps].commit, sp + 1);
		(*steps)++;
	}
	return r;
}

int rebase_state_read(git_repository *repo, const char *series,
		      struct rebase_state *st)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t steps = 0;
	char *p, *nl;
	int r = 0;

	rebase_state_release(st);
	rebase_state_init(st, series, 0);
	rebase_state_path(repo, series, &path);
	if (strbuf_read_file(&text, path.buf) < 0) {
		r = errno == ENOENT ? RESPIN_ENOTFOUND :
		    error_errno("cannot read %s", path.buf);
		goto out;
	}
	if (strncmp(text.buf, STATE_MAGIC "\n", strlen(STATE_MAGIC) + 1)) {
		r = error("%s is not a respin rebase state", path.buf);
		goto out;
	}
	for (p = text.buf + strlen(STATE_MAGIC) + 1; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (*p && state_line(st, p, &steps) < 0) {
			r = error("%s: a bad line: %s", path.buf, p);
			goto out;
		}
	}
	if (steps != st->nr || st->next > st->nr || !st->onto_name ||
	    st->from < 1 || st->to < st->from) {
		r = error("%s is incomplete", path.buf);
		goto out;
	}
out:
	if (r < 0 && r != RESPIN_ENOTFOUND)
		error_hint("'respin rebase %s --abort' removes it", series);
	strbuf_release(&path);
	strbuf_release(&text);
	return r;
}

int rebase_state_write(git_repository *repo, const struct rebase_state *st)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int r;

	rebase_state_path(repo, st->series, &path);
	state_format(st, &text);
	r = mkdir_leading(path.buf);
	if (!r)
		r = write_file_atomic(path.buf, NULL, text.buf, text.len,
				      0666);
	strbuf_release(&path);
	strbuf_release(&text);
	return r;
}

int rebase_in_progress(git_repository *repo, struct strbuf *names)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *e;
	DIR *d;

	rebase_dir(repo, &dir);
	d = opendir(dir.buf);
	strbuf_release(&dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 6 && !strcmp(e->d_name + n - 6, ".state") &&
		    e->d_name[0] != '.')
			strbuf_addf(names, "%.*s\n", (int)(n - 6), e->d_name);
	}
	closedir(d);
	return 0;
}
