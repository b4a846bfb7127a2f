// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/rebase.h"
#include "patches/patch.h"
#include "series/pick.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2/sys/mempack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static enum rebase_how how_parse(const char *s, size_t len)
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
		st->steps[*steps].how = how_parse(val, sp ? (size_t)(sp - val) :
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
	    st->from < 1 || st->to <= st->from) {
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

/* ---- picking ---- */

/* Whether the patch applies as it is on onto, as git am without -3. */
static int applies_as_is(git_repository *repo, const git_oid *commit,
			 const git_oid *onto, int *clean)
{
	git_commit *c = NULL, *o = NULL;
	git_tree *tree = NULL;
	git_diff *diff = NULL;
	git_index *index = NULL;
	int r = -1;

	*clean = 0;
	if (git_commit_lookup(&c, repo, commit) < 0 ||
	    git_commit_lookup(&o, repo, onto) < 0 ||
	    git_commit_tree(&tree, o) < 0) {
		error_git("cannot read commit %s or %s", oid_short(commit, 12),
			  oid_short(onto, 12));
		goto out;
	}
	if (patch_commit_diff(repo, c, &diff) < 0)
		goto out;
	if (git_apply_to_tree(&index, repo, tree, diff, NULL) < 0)
		git_error_clear();
	else
		*clean = 1;
	r = 0;
out:
	git_index_free(index);
	git_diff_free(diff);
	git_tree_free(tree);
	git_commit_free(o);
	git_commit_free(c);
	return r;
}

int rebase_pick_all(git_repository *repo, const struct series_version *v,
		    struct rebase_state *st, struct conflict *conflict)
{
	size_t i;
	int r = 0;

	for (i = st->next; i < v->nr_patches && i < st->nr; i++) {
		const struct series_patch *p = &v->patches[i];
		struct rebase_step *step = &st->steps[i];
		struct pick_result res;
		int clean;

		st->next = i;
		if (git_oid_is_zero(&p->commit))
			return error("patch %zu/%zu has no commit (recorded from "
				     "mail only)", i + 1, v->nr_patches);
		r = applies_as_is(repo, &p->commit, &st->current, &clean);
		if (r < 0)
			return r;
		pick_result_init(&res);
		r = pick_commit(repo, &p->commit, &st->current, &res);
		if (r < 0) {
			pick_result_release(&res);
			return r;
		}
		if (res.conflict) {
			pick_result_release(&res);
			step->how = REBASE_CONFLICT;
			memset(&step->commit, 0, sizeof(step->commit));
			return conflict_describe(repo, &p->commit, &st->current,
						 conflict);
		}
		if (res.empty) {
			step->how = REBASE_EMPTY;
			memset(&step->commit, 0, sizeof(step->commit));
		} else {
			step->how = clean ? REBASE_CLEAN : REBASE_3WAY;
			git_oid_cpy(&step->commit, &res.commit);
			git_oid_cpy(&st->current, &res.commit);
		}
		pick_result_release(&res);
	}
	st->next = i;
	return 0;
}

int rebase_memory_open(git_repository *repo, git_repository **mem)
{
	git_odb *odb = NULL;
	git_odb_backend *pack = NULL;
	int r = 0;

	*mem = NULL;
	if (git_repository_open(mem, git_repository_path(repo)) < 0 ||
	    git_repository_odb(&odb, *mem) < 0 ||
	    git_mempack_new(&pack) < 0 ||
	    git_odb_add_backend(odb, pack, 999) < 0) {
		r = error_git("cannot set up an in-memory object store");
		git_repository_free(*mem);
		*mem = NULL;
	}
	git_odb_free(odb);
	return r;
}

void rebase_memory_close(git_repository *mem)
{
	git_repository_free(mem);
}

/* ---- recording ---- */

static const char *extra_value(const struct strbuf *extra, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = extra->buf; p && *p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, key, n) && p[n] == ' ')
			return p + n + 1;
	}
	return NULL;
}

int rebase_version_from(const struct series_version *v)
{
	const char *val = extra_value(&v->extra, "rebased-from");

	return val ? atoi(val) : 0;
}

enum rebase_how rebase_patch_how(const struct series_patch *p)
{
	const char *val = extra_value(&p->extra, " rebased");

	return val ? how_parse(val, strcspn(val, "\n")) : REBASE_TODO;
}

/* The patch of a rebase step, for the new version. */
static int record_patch(git_repository *repo, struct series_version *nv,
			const struct series_patch *old,
			const struct rebase_step *step)
{
	struct series_patch *p = series_version_add_patch(nv);
	git_commit *c = NULL;
	int r;

	git_oid_cpy(&p->commit, &step->commit);
	p->subject = xstrdup(old->subject ? old->subject : "");
	strbuf_addf(&p->extra, " rebased %s\n", rebase_how_name(step->how));
	if (git_commit_lookup(&c, repo, &step->commit) < 0)
		return error_git("cannot read commit %s",
				 oid_short(&step->commit, 12));
	r = patch_commit_id(repo, c, &p->patch_id);
	git_commit_free(c);
	return r;
}

int rebase_record(git_repository *repo, struct series *s,
		  const struct rebase_state *st, struct series_version **out)
{
	struct series_version *from, *nv;
	struct strbuf cover = STRBUF_INIT, msg = STRBUF_INIT;
	size_t i, at, kept = 0;
	int has_cover, r;

	*out = NULL;
	from = series_version_find(s, st->from);
	if (!from)
		return error("series '%s' has no v%d any more", s->name,
			     st->from);
	r = series_version_ensure(repo, s, from);
	if (r < 0)
		return r;
	for (i = 0; i < st->nr; i++)
		kept += !git_oid_is_zero(&st->steps[i].commit);
	if (!kept)
		return 1;
	r = series_version_text(repo, s, from, SERIES_TEXT_COVER, &cover);
	has_cover = !r;
	if (r == RESPIN_ENOTFOUND)
		r = 0;
	if (r < 0)
		goto out;

	/* st->to is above st->from: v's place stays, the array may move */
	at = (size_t)(from - s->versions);
	nv = series_version_add(s, st->to);
	from = &s->versions[at];
	git_oid_cpy(&nv->base, &st->onto);
	git_oid_cpy(&nv->tip, &st->current);
	nv->base_ref = st->base_ref ? xstrdup(st->base_ref) : NULL;
	nv->recorded = repo_now();
	strbuf_addf(&msg, "rebase of v%d onto %s (%s)", st->from,
		    st->onto_name, oid_short(&st->onto, 12));
	nv->source = strbuf_detach(&msg, NULL);
	nv->subject_prefix = from->subject_prefix ?
			     xstrdup(from->subject_prefix) : NULL;
	strbuf_addf(&nv->extra, "rebased-from %d\n", st->from);
	nv->loaded = 1;
	for (i = 0; i < st->nr && i < from->nr_patches && !r; i++)
		if (!git_oid_is_zero(&st->steps[i].commit))
			r = record_patch(repo, nv, &from->patches[i],
					 &st->steps[i]);
	if (r < 0)
		goto out;
	if (has_cover)
		series_version_set_text(nv, SERIES_TEXT_COVER, cover.buf,
					cover.len);
	strbuf_addf(&msg, "respin: rebase %s v%d onto %s as v%d (%zu "
		    "patches)\n", s->name, st->from, st->onto_name, st->to,
		    nv->nr_patches);
	r = series_save(repo, s, &nv->tip, msg.buf);
	if (!r)
		*out = series_version_find(s, st->to);
out:
	strbuf_release(&cover);
	strbuf_release(&msg);
	return r;
}
