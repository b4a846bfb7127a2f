// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/rebase.h"
#include "patches/patch.h"
#include "series/pick.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <git2/sys/mempack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	return val ? rebase_how_parse(val, strcspn(val, "\n")) : REBASE_TODO;
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
