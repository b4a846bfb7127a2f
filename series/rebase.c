// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/rebase.h"
#include "series/sent.h"
#include "series/track.h"
#include "patches/patch.h"
#include "series/pick.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/lock.h"
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
	r = patch_commit_diff(repo, c, &diff);
	if (r < 0)
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

/* The line "key N" of extra, once (replacing one there). */
static void extra_set(struct strbuf *extra, const char *key, int n)
{
	struct strbuf kept = STRBUF_INIT;
	const char *p = extra->buf;
	size_t kl = strlen(key);

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl + 1 - p) : strlen(p);

		if (strncmp(p, key, kl) || p[kl] != ' ')
			strbuf_add(&kept, p, len);
		p += len;
	}
	strbuf_addf(&kept, "%s %d\n", key, n);
	strbuf_release(extra);
	*extra = kept;
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
	if (step->how == REBASE_RESOLVED) {
		/* where it conflicted: the pick of it on what it went onto */
		struct pick_result pr;
		git_commit *nc = NULL;
		const char *f, *nl;

		pick_result_init(&pr);
		if (!git_commit_lookup(&nc, repo, &step->commit) &&
		    git_commit_parentcount(nc) == 1 &&
		    !pick_commit(repo, &old->commit,
				 git_commit_parent_id(nc, 0), &pr) &&
		    pr.conflict)
			for (f = pr.files.buf; *f; f = nl + 1) {
				nl = strchr(f, '\n');
				if (!nl)
					break;
				strbuf_addf(&p->extra, " conflict %.*s\n",
					    (int)(nl - f), f);
			}
		git_error_clear();
		error_clear();
		git_commit_free(nc);
		pick_result_release(&pr);
	}
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
	struct series_version *from, *nv, tmp = { 0 };
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
	if (st->to == st->from) {
		/* not sent yet: the version revised, after what it held */
		memset(&tmp, 0, sizeof(tmp));
		strbuf_init(&tmp.extra, 0);
		nv = &tmp;
	} else {
		nv = series_version_add(s, st->to);
		from = &s->versions[at];
	}
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
	if (nv == &tmp) {
		char *src = tmp.source;

		tmp.source = NULL;
		track_version_revise(from, &tmp, src);
		free(src);
		free(from->base_ref);
		from->base_ref = tmp.base_ref;
		tmp.base_ref = NULL;
		extra_set(&from->extra, "rebased-from", st->from);
		nv = from;
	} else if (has_cover)
		series_version_set_text(nv, SERIES_TEXT_COVER, cover.buf,
					cover.len);
	strbuf_addf(&msg, "respin: rebase %s v%d onto %s as v%d (%zu "
		    "patches)\n", s->name, st->from, st->onto_name, st->to,
		    nv->nr_patches);
	r = series_save(repo, s, &nv->tip, msg.buf);
	if (!r)
		*out = series_version_find(s, st->to);
out:
	series_version_release(&tmp);
	strbuf_release(&cover);
	strbuf_release(&msg);
	return r;
}

/* ---- a rebase run: start, continue, abort ---- */

void rebase_run_init(struct rebase_run *rr, git_repository *repo)
{
	memset(rr, 0, sizeof(*rr));
	rr->repo = repo;
}

void rebase_run_release(struct rebase_run *rr)
{
	series_release(&rr->s);
	rebase_state_release(&rr->st);
	conflict_release(&rr->conflict);
}

/* The steps [from, st.next] taken this run, for the command to show. */
static void steps_taken(struct rebase_run *rr, size_t from)
{
	rr->steps_from = from;
	rr->steps_end = rr->st.next + 1;
}

int rebase_branches_at(git_repository *repo, const git_oid *at,
		       struct strbuf *names)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	const char *name;

	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0) {
		git_error_clear();
		return 0;
	}
	while (!git_branch_next(&ref, &type, it)) {
		const git_oid *target = git_reference_target(ref);

		if (target && git_oid_equal(target, at) &&
		    !git_branch_name(&name, ref))
			strbuf_addf(names, "%s\n", name);
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	return 0;
}

/* The branch (--branch) moved to the new version, when there is one. */
static int move_branch(struct rebase_run *rr)
{
	struct strbuf msg = STRBUF_INIT;
	int r;

	strbuf_addf(&msg, "respin rebase: %s v%d onto %s", rr->s.name,
		    rr->nv->number, rr->st.onto_name);
	r = rebase_branch_move(rr->repo, rr->st.branch, &rr->st.branch_old,
			       &rr->nv->tip, msg.buf);
	strbuf_release(&msg);
	if (r < 0)
		error_hint("v%d is recorded; 'git branch -f %s %s' moves the "
			   "branch by hand", rr->nv->number,
			   repo_ref_short(rr->st.branch),
			   oid_short(&rr->nv->tip, 12));
	else
		rr->branch_moved = 1;
	return r;
}

/*
 * Every patch is in: the version recorded, the branch moved, the state
 * gone.  When the branch cannot move, the state stays (every patch
 * done) so that --continue records once that is fixed.
 */
static int rebase_finish(struct rebase_run *rr)
{
	int r;

	git_oid_cpy(&rr->old_tip, &rr->v->tip);
	if (rr->st.branch) {
		r = rebase_branch_check(rr->repo, rr->st.branch,
					&rr->st.branch_old);
		if (r < 0) {
			error_hint("every patch is in; once that is fixed, "
				   "'respin rebase %s --continue' records it",
				   rr->s.name);
			if (rebase_state_write(rr->repo, &rr->st) < 0)
				error_clear();
			return r;
		}
	}
	r = rebase_record(rr->repo, &rr->s, &rr->st, &rr->nv);
	rr->v = NULL;	/* the versions may have moved */
	if (r < 0)
		return r;
	rr->outcome = r == 1 ? REBASE_RUN_IN_BASE : REBASE_RUN_RECORDED;
	if (r == 0 && rr->st.branch)
		r = move_branch(rr);
	if (rr->had_state) {
		int rm = rebase_state_remove(rr->repo, rr->s.name);

		if (rm < 0 && r >= 0)
			r = rm;
	}
	return r < 0 ? r : 0;
}

/* Stops at a conflict: the worktree set up, then the state written. */
static int rebase_stop(struct rebase_run *rr)
{
	const git_oid *patch = &rr->v->patches[rr->st.next].commit;
	struct strbuf wt = STRBUF_INIT;
	int r;

	r = rebase_worktree_conflict(rr->repo, &rr->st, patch);
	if (!r) {
		rebase_worktree_path(rr->repo, rr->s.name, &wt);
		conflict_markers_from_files(&rr->conflict, wt.buf);
		strbuf_release(&wt);
		r = rebase_state_write(rr->repo, &rr->st);
	}
	if (r < 0) {
		/* a rebase just begun leaves nothing; one in progress stays */
		if (!rr->had_state &&
		    rebase_state_remove(rr->repo, rr->s.name) < 0)
			error_clear();
		return r;
	}
	rr->outcome = REBASE_RUN_STOPPED;
	return RESPIN_FOUND;
}

/* Picks from st.next on; stops or finishes.  from: the first step shown. */
static int rebase_go_on(struct rebase_run *rr, size_t from)
{
	int r;

	r = rebase_pick_all(rr->repo, rr->v, &rr->st, &rr->conflict);
	if (r < 0)
		return r;
	steps_taken(rr, from);
	if (rr->st.next < rr->v->nr_patches)
		return rebase_stop(rr);
	return rebase_finish(rr);
}

/* The full name of the ref REV names (refs/heads/x), or NULL. */
static char *ref_name(git_repository *repo, const char *rev)
{
	git_reference *ref = NULL;
	char *r = NULL;

	if (!git_reference_dwim(&ref, repo, rev) &&
	    git_reference_type(ref) == GIT_REFERENCE_DIRECT)
		r = xstrdup(git_reference_name(ref));
	else if (ref && git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
		r = xstrdup(git_reference_symbolic_target(ref));
	git_error_clear();
	git_reference_free(ref);
	return r;
}

static int in_progress_error(git_repository *repo, const char *name,
			     const struct rebase_state *st)
{
	struct strbuf wt = STRBUF_INIT;

	rebase_worktree_path(repo, name, &wt);
	error("a rebase of %s is in progress (patch %zu/%zu of v%d onto %s "
	      "stopped at a conflict)", name, st->next + 1, st->nr, st->from,
	      st->onto_name);
	error_hint("resolve it in %s and run 'respin rebase %s --continue', "
		   "or 'respin rebase %s --abort'", wt.buf, name, name);
	strbuf_release(&wt);
	return RESPIN_ERR;
}

/* The version's base, the commit to go onto and the ref to record. */
static int pick_onto(struct rebase_run *rr, const char *onto_arg)
{
	const char *given = onto_arg ? onto_arg : rr->s.base_ref ?
			    rr->s.base_ref : rr->v->base_ref;
	git_commit *c = NULL;
	char *full;
	int r;

	if (!given)
		return error_code(RESPIN_EUSAGE, "series '%s' has no base ref; "
				  "say where to go with --onto REF",
				  rr->s.name);
	r = repo_commit_lookup(rr->repo, given, &c);
	if (r < 0) {
		if (onto_arg)
			error_hint("--onto takes a branch, a tag or a commit "
				   "('git rev-parse %s' must name one)",
				   onto_arg);
		else
			error_hint("series '%s' tracks %s; give --onto REF "
				   "if it moved", rr->s.name, given);
		return r;
	}
	git_oid_cpy(&rr->st.onto, git_commit_id(c));
	git_commit_free(c);
	full = onto_arg ? ref_name(rr->repo, onto_arg) : NULL;
	if (!full && (rr->s.base_ref || rr->v->base_ref))
		full = xstrdup(rr->s.base_ref ? rr->s.base_ref :
			       rr->v->base_ref);
	rr->st.base_ref = full;
	rr->st.onto_name = xstrdup(onto_arg ? onto_arg :
				   repo_ref_short(given));
	return 0;
}

static int pick_branch(struct rebase_run *rr, const char *branch)
{
	git_reference *ref = NULL;

	if (git_branch_lookup(&ref, rr->repo, branch, GIT_BRANCH_LOCAL) < 0)
		return error_git("no branch '%s'", branch);
	rr->st.branch = xstrdup(git_reference_name(ref));
	git_reference_free(ref);
	git_oid_cpy(&rr->st.branch_old, &rr->v->tip);
	return rebase_branch_check(rr->repo, rr->st.branch, &rr->v->tip);
}

/* Loads the series and its latest version, which must have commits. */
static int load_latest(struct rebase_run *rr, const char *name)
{
	int r = series_load(rr->repo, name, &rr->s, SERIES_LOAD_LATEST);

	if (r < 0)
		return r;
	rr->v = series_latest(&rr->s);
	if (!rr->v)
		return error("series '%s' has no versions", name);
	if (series_version_mail_only(rr->v) || git_oid_is_zero(&rr->v->tip))
		return error("%s v%d was recorded from mail without commits: "
			     "there is nothing to pick", name, rr->v->number);
	return 0;
}

static int rebase_dry_run(struct rebase_run *rr)
{
	git_repository *mem = NULL;
	int r;

	r = rebase_memory_open(rr->repo, &mem);
	if (!r)
		r = rebase_pick_all(mem, rr->v, &rr->st, &rr->conflict);
	if (!r) {
		rr->outcome = REBASE_RUN_DRY;
		steps_taken(rr, 0);
		r = rr->st.next < rr->v->nr_patches ? RESPIN_FOUND : 0;
	}
	rebase_memory_close(mem);
	return r;
}

int rebase_run_start(struct rebase_run *rr, const char *name,
		     const char *onto_arg, const char *branch, int dry_run)
{
	struct rebase_state old = { 0 };
	int r;

	r = rebase_state_read(rr->repo, name, &old);
	if (!r)
		r = in_progress_error(rr->repo, name, &old);
	rebase_state_release(&old);
	if (r != RESPIN_ENOTFOUND)
		return r < 0 ? r : error("a rebase of %s is in progress", name);
	r = load_latest(rr, name);
	if (r < 0)
		return r;
	rebase_state_init(&rr->st, name, rr->v->nr_patches);
	rr->st.from = rr->v->number;
	/* a version not sent yet is revised; a sent one makes the next */
	rr->st.to = rr->v->number + (series_version_sent(rr->v) ||
				     !series_numbering_by_sent(rr->repo));
	git_oid_cpy(&rr->st.meta, &rr->s.meta);
	r = pick_onto(rr, onto_arg);
	if (r < 0)
		return r;
	git_oid_cpy(&rr->st.current, &rr->st.onto);
	if (git_oid_equal(&rr->st.onto, &rr->v->base)) {
		rr->outcome = REBASE_RUN_ON_BASE;
		return 0;
	}
	if (branch && (r = pick_branch(rr, branch)) < 0)
		return r;
	if (dry_run)
		return rebase_dry_run(rr);
	/* a worktree without a state: a crash before it was written */
	r = rebase_leftover_remove(rr->repo, name);
	if (r < 0)
		return r;
	return rebase_go_on(rr, rr->st.next);
}

static int none_in_progress(const char *name)
{
	error("no rebase of %s is in progress", name);
	error_hint("'respin rebase %s --onto REF' starts one", name);
	return RESPIN_ERR;
}

/* The series as the rebase in progress left it, and its version. */
static int continue_load(struct rebase_run *rr, const char *name)
{
	struct series_version *latest;
	int r = series_load(rr->repo, name, &rr->s, SERIES_LOAD_LATEST);

	if (r < 0)
		return r;
	latest = series_latest(&rr->s);
	if (!git_oid_equal(&rr->s.meta, &rr->st.meta)) {
		if (latest && latest->number == rr->st.to &&
		    rebase_version_from(latest) == rr->st.from &&
		    git_oid_equal(&latest->base, &rr->st.onto)) {
			rr->outcome = REBASE_RUN_RECORDED_BEFORE;
			rr->nv = latest;
			return rebase_state_remove(rr->repo, name);
		}
		error("series %s changed since the rebase started (another "
		      "respin recorded to it); nothing was recorded", name);
		error_hint("'respin rebase %s --abort', then rebase the "
			   "latest version again", name);
		return RESPIN_ERR;
	}
	rr->v = series_version_find(&rr->s, rr->st.from);
	if (!rr->v || (r = series_version_ensure(rr->repo, &rr->s,
						 rr->v)) < 0 ||
	    rr->v->nr_patches != rr->st.nr)
		return r < 0 ? r : error("series %s v%d is not the one the "
					 "rebase started from", name,
					 rr->st.from);
	return 0;
}

int rebase_run_continue(struct rebase_run *rr, const char *name)
{
	git_oid commit;
	size_t at;
	int empty, r;

	r = rebase_state_read(rr->repo, name, &rr->st);
	if (r == RESPIN_ENOTFOUND)
		return none_in_progress(name);
	if (r < 0)
		return r;
	rr->had_state = 1;
	r = continue_load(rr, name);
	if (r < 0 || rr->outcome == REBASE_RUN_RECORDED_BEFORE)
		return r;
	if (rr->st.next >= rr->st.nr)
		return rebase_finish(rr);

	at = rr->st.next;
	r = rebase_worktree_resolved(rr->repo, &rr->st,
				     &rr->v->patches[at].commit, &commit,
				     &empty);
	if (r == RESPIN_ENOTFOUND) {
		/* the worktree was removed by hand: set it up again */
		warning("%s; it is set up again with the conflict",
			error_last());
		error_clear();
		r = conflict_describe(rr->repo, &rr->v->patches[at].commit,
				      &rr->st.current, &rr->conflict);
		return r < 0 ? r : rebase_stop(rr);
	}
	if (r < 0)
		return r;
	rr->st.steps[at].how = empty ? REBASE_EMPTY : REBASE_RESOLVED;
	if (!empty) {
		git_oid_cpy(&rr->st.steps[at].commit, &commit);
		git_oid_cpy(&rr->st.current, &commit);
	}
	/* the resolved step is shown even when the picks after it fail */
	steps_taken(rr, at);
	rr->st.next++;
	return rebase_go_on(rr, at);
}

int rebase_run_abort(struct rebase_run *rr, const char *name)
{
	int r = rebase_state_read(rr->repo, name, &rr->st);

	if (r == RESPIN_ENOTFOUND)
		return none_in_progress(name);
	/* a state that cannot be read is removed all the same */
	if (r < 0)
		error_clear();
	r = rebase_state_remove(rr->repo, name);
	if (!r)
		rr->outcome = REBASE_RUN_ABORTED;
	return r;
}

int rebase_only_in_progress(git_repository *repo, char **name)
{
	struct strbuf names = STRBUF_INIT;
	char *nl;
	int r = rebase_in_progress(repo, &names);

	*name = NULL;
	if (r < 0)
		goto out;
	nl = strchr(names.buf, '\n');
	if (!nl) {
		r = error("no rebase is in progress");
		error_hint("'respin rebase NAME --onto REF' starts one");
	} else if (nl[1]) {
		strbuf_rtrim(&names);
		for (nl = names.buf; (nl = strchr(nl, '\n')); )
			*nl = ' ';
		r = error_code(RESPIN_EUSAGE, "rebases of several series are in "
			       "progress (%s): name one", names.buf);
	} else {
		*name = xstrndup(names.buf, (size_t)(nl - names.buf));
	}
out:
	strbuf_release(&names);
	return r;
}

int rebase_lock(git_repository *repo, const char *name, struct lock_file *lk)
{
	struct strbuf path = STRBUF_INIT, what = STRBUF_INIT;
	struct lock_holder h = { 0 };
	int r;

	rebase_lock_path(repo, name, &path);
	strbuf_addf(&what, "respin rebase %s", name);
	r = mkdir_leading(path.buf);
	if (!r)
		r = lock_take(lk, path.buf, what.buf, 0, NULL, &h);
	if (r == 1) {
		r = error("another respin (pid %ld) works on the rebase of %s",
			  (long)h.pid, name);
		error_hint("wait for it to finish");
	}
	lock_holder_release(&h);
	strbuf_release(&path);
	strbuf_release(&what);
	return r;
}
