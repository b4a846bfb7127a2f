// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin rebase NAME [--onto REF] [--branch BRANCH] [--dry-run]
 * respin rebase [NAME] --continue | --abort
 *
 * The latest version of a series picked onto a new base, patch by
 * patch (3-way), and recorded as the next version, marked rebased.  A
 * conflict stops it in a worktree of its own until --continue or
 * --abort; nothing is recorded before every patch is in.
 */
#include "series/rebase.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/lock.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin rebase <name> [--onto <ref>] [--branch <branch>] [--dry-run]",
	"respin rebase [<name>] --continue | --abort",
	NULL
};

struct rebase_run {
	git_repository *repo;
	struct series s;
	struct series_version *v;	/* the version rebased */
	struct rebase_state st;
	struct conflict conflict;
	int had_state;			/* a rebase was in progress */
};

static void run_release(struct rebase_run *rr)
{
	series_release(&rr->s);
	rebase_state_release(&rr->st);
	conflict_release(&rr->conflict);
}

/* Text that may come from mail or a tree, escaped for the terminal. */
static void put_text(const struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;

	strbuf_add_term_safe(&safe, out->buf, out->len, TERM_SAFE_LINES);
	fwrite(safe.buf, 1, safe.len, stdout);
	strbuf_release(&safe);
}

static const char *how_text(enum rebase_how how, int dry_run)
{
	switch (how) {
	case REBASE_CLEAN:
		return dry_run ? "applies cleanly" : "applied cleanly";
	case REBASE_3WAY:
		return dry_run ? "needs a 3-way merge" :
		       "applied with a 3-way merge";
	case REBASE_RESOLVED:
		return "resolved by hand";
	case REBASE_EMPTY:
		return dry_run ? "is in the base already (would be dropped)" :
		       "dropped: the base has it already";
	case REBASE_CONFLICT:
		return "conflicts";
	default:
		return "not tried";
	}
}

/* One line a patch from `from` on (0-based), up to the one stopped at. */
static void print_steps(const struct rebase_run *rr, size_t from, int dry_run)
{
	struct strbuf out = STRBUF_INIT;
	size_t i, n = rr->v->nr_patches;

	for (i = from; i < n && i <= rr->st.next; i++) {
		if (rr->st.steps[i].how == REBASE_TODO)
			break;
		strbuf_addf(&out, "  %zu/%zu %s: %s\n", i + 1, n,
			    how_text(rr->st.steps[i].how, dry_run),
			    rr->v->patches[i].subject);
	}
	put_text(&out);
	strbuf_release(&out);
}

static void print_conflict(const struct rebase_run *rr, int dry_run)
{
	const struct series_patch *p = &rr->v->patches[rr->st.next];
	struct strbuf out = STRBUF_INIT, wt = STRBUF_INIT;

	strbuf_addf(&out, "patch %zu/%zu \"%s\" conflicts on %s (%s):\n",
		    rr->st.next + 1, rr->v->nr_patches, p->subject,
		    rr->st.onto_name, oid_short(&rr->st.onto, 12));
	conflict_format(&rr->conflict, "  ", &out);
	if (dry_run) {
		if (rr->st.next + 1 < rr->v->nr_patches)
			strbuf_addf(&out, "patches after %zu/%zu not tried: "
				    "they go on top of its resolution\n",
				    rr->st.next + 1, rr->v->nr_patches);
	} else {
		rebase_worktree_path(rr->repo, rr->s.name, &wt);
		strbuf_addf(&out, "nothing is recorded yet; resolve the "
			    "conflict in %s\n(edit the files, 'git add' them), "
			    "then 'respin rebase %s --continue', or "
			    "'respin rebase %s --abort' to give up\n", wt.buf,
			    rr->s.name, rr->s.name);
	}
	put_text(&out);
	strbuf_release(&out);
	strbuf_release(&wt);
}

/* The branches still at the old tip, for the hint after recording. */
static void print_branch_hints(git_repository *repo, const git_oid *old,
			       const struct series_version *nv)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	const char *name;

	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0) {
		git_error_clear();
		return;
	}
	while (!git_branch_next(&ref, &type, it)) {
		const git_oid *at = git_reference_target(ref);

		if (at && git_oid_equal(at, old) &&
		    !git_branch_name(&name, ref))
			printf("branch %s is still at the old tip; "
			       "'git switch %s && git reset --keep %s' (or "
			       "--branch %s next time) moves it\n",
			       term_safe(name), term_safe(name),
			       oid_short(&nv->tip, 12), term_safe(name));
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
}

/*
 * Every patch is in: the version recorded, the branch moved, the state
 * gone.  When the branch cannot move, the state stays (every patch
 * done) so that --continue records once that is fixed.
 */
static int rebase_finish(struct rebase_run *rr)
{
	struct series_version *nv;
	struct strbuf msg = STRBUF_INIT;
	git_oid old_tip;
	int r, from = rr->st.from;

	git_oid_cpy(&old_tip, &rr->v->tip);
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
	r = rebase_record(rr->repo, &rr->s, &rr->st, &nv);
	rr->v = NULL;	/* the versions may have moved */
	if (r < 0)
		return r;
	if (r == 1) {
		printf("every patch of %s v%d is in %s already; nothing "
		       "recorded\n", term_safe(rr->s.name), from,
		       term_safe(rr->st.onto_name));
	} else {
		printf("%s v%d recorded: %zu patch%s of v%d rebased onto %s "
		       "(%s), tip %s\n", term_safe(rr->s.name), nv->number,
		       nv->nr_patches, nv->nr_patches == 1 ? "" : "es", from,
		       term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12), oid_short(&nv->tip, 12));
	}
	if (r == 0 && rr->st.branch) {
		strbuf_addf(&msg, "respin rebase: %s v%d onto %s", rr->s.name,
			    nv->number, rr->st.onto_name);
		r = rebase_branch_move(rr->repo, rr->st.branch,
				       &rr->st.branch_old, &nv->tip, msg.buf);
		strbuf_release(&msg);
		if (r < 0)
			error_hint("v%d is recorded; 'git branch -f %s %s' "
				   "moves the branch by hand", nv->number,
				   repo_ref_short(rr->st.branch),
				   oid_short(&nv->tip, 12));
		else
			printf("branch %s moved to v%d (was %s)\n",
			       term_safe(repo_ref_short(rr->st.branch)),
			       nv->number, oid_short(&rr->st.branch_old, 12));
	} else if (r == 0) {
		print_branch_hints(rr->repo, &old_tip, nv);
	}
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
	print_conflict(rr, 0);
	return RESPIN_FOUND;
}

/* Picks from st.next on; stops or finishes. */
static int rebase_go_on(struct rebase_run *rr)
{
	size_t first = rr->st.next;
	int r;

	r = rebase_pick_all(rr->repo, rr->v, &rr->st, &rr->conflict);
	if (r < 0)
		return r;
	print_steps(rr, first, 0);
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
		printf("%s v%d (%zu patch%s) onto %s (%s):\n",
		       term_safe(rr->s.name), rr->v->number, rr->v->nr_patches,
		       rr->v->nr_patches == 1 ? "" : "es",
		       term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12));
		print_steps(rr, 0, 1);
		if (rr->st.next < rr->v->nr_patches)
			print_conflict(rr, 1);
		printf("nothing written (--dry-run); without it this would be "
		       "recorded as v%d\n", rr->st.to);
		r = rr->st.next < rr->v->nr_patches ? RESPIN_FOUND : 0;
	}
	rebase_memory_close(mem);
	return r;
}

static int rebase_start(struct rebase_run *rr, const char *name,
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
	rr->st.to = rr->v->number + 1;
	git_oid_cpy(&rr->st.meta, &rr->s.meta);
	r = pick_onto(rr, onto_arg);
	if (r < 0)
		return r;
	git_oid_cpy(&rr->st.current, &rr->st.onto);
	if (git_oid_equal(&rr->st.onto, &rr->v->base)) {
		printf("%s v%d is on %s (%s) already; nothing to rebase\n",
		       term_safe(name), rr->v->number,
		       term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12));
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
	return rebase_go_on(rr);
}

static int rebase_continue(struct rebase_run *rr, const char *name)
{
	struct series_version *latest;
	git_oid commit;
	int empty, r;

	r = rebase_state_read(rr->repo, name, &rr->st);
	if (r == RESPIN_ENOTFOUND) {
		error("no rebase of %s is in progress", name);
		error_hint("'respin rebase %s --onto REF' starts one", name);
		return RESPIN_ERR;
	}
	if (r < 0)
		return r;
	rr->had_state = 1;
	r = series_load(rr->repo, name, &rr->s, SERIES_LOAD_LATEST);
	if (r < 0)
		return r;
	latest = series_latest(&rr->s);
	if (!git_oid_equal(&rr->s.meta, &rr->st.meta)) {
		if (latest && latest->number == rr->st.to &&
		    rebase_version_from(latest) == rr->st.from &&
		    git_oid_equal(&latest->base, &rr->st.onto)) {
			printf("%s v%d was recorded already; the rebase's "
			       "state is removed\n", term_safe(name),
			       latest->number);
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
	if (rr->st.next >= rr->st.nr)
		return rebase_finish(rr);

	r = rebase_worktree_resolved(rr->repo, &rr->st,
				     &rr->v->patches[rr->st.next].commit,
				     &commit, &empty);
	if (r == RESPIN_ENOTFOUND) {
		/* the worktree was removed by hand: set it up again */
		fprintf(stderr, "warning: %s; it is set up again with the "
			"conflict\n", error_last());
		error_clear();
		r = conflict_describe(rr->repo,
				      &rr->v->patches[rr->st.next].commit,
				      &rr->st.current, &rr->conflict);
		return r < 0 ? r : rebase_stop(rr);
	}
	if (r < 0)
		return r;
	rr->st.steps[rr->st.next].how = empty ? REBASE_EMPTY : REBASE_RESOLVED;
	if (!empty) {
		git_oid_cpy(&rr->st.steps[rr->st.next].commit, &commit);
		git_oid_cpy(&rr->st.current, &commit);
	}
	print_steps(rr, rr->st.next, 0);
	rr->st.next++;
	return rebase_go_on(rr);
}

static int rebase_abort(struct rebase_run *rr, const char *name)
{
	int r = rebase_state_read(rr->repo, name, &rr->st);
	struct strbuf wt = STRBUF_INIT;

	if (r == RESPIN_ENOTFOUND) {
		error("no rebase of %s is in progress", name);
		error_hint("'respin rebase %s --onto REF' starts one", name);
		return RESPIN_ERR;
	}
	/* a state that cannot be read is removed all the same */
	if (r < 0)
		error_clear();
	r = rebase_state_remove(rr->repo, name);
	if (r < 0)
		return r;
	rebase_worktree_path(rr->repo, name, &wt);
	printf("rebase of %s stopped; nothing was recorded, %s is removed\n",
	       term_safe(name), wt.buf);
	strbuf_release(&wt);
	return 0;
}

/* The one series with a rebase in progress, for --continue/--abort alone. */
static int only_in_progress(git_repository *repo, char **name)
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

static int take_lock(git_repository *repo, const char *name,
		     struct lock_file *lk)
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

int cmd_rebase(int argc, const char **argv, struct command_context *ctx)
{
	const char *onto = NULL, *branch = NULL;
	int dry_run = 0, cont = 0, abort_it = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "onto", &onto, "ref",
			   "the new base (default: the series' base ref now)"),
		OPT_STRING(0, "branch", &branch, "branch",
			   "move this branch (at the old tip) to the new one"),
		OPT_BOOL('n', "dry-run", &dry_run,
			 "say what would apply, merge or conflict; write nothing"),
		OPT_BOOL(0, "continue", &cont,
			 "go on after the conflict was resolved and added"),
		OPT_BOOL(0, "abort", &abort_it,
			 "give up the rebase in progress; nothing is recorded"),
		OPT_END()
	};
	struct lock_file lk = LOCK_FILE_INIT;
	struct rebase_run rr;
	char *name = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (cont && abort_it)
		return command_usage_error(opts, usage, "--continue or --abort, "
					   "not both");
	if ((cont || abort_it) && (onto || branch || dry_run))
		return command_usage_error(opts, usage, "--%s takes no --%s: "
			"the rebase in progress has its own",
			cont ? "continue" : "abort",
			onto ? "onto" : branch ? "branch" : "dry-run");
	if (n > 1)
		return command_usage_error(opts, usage, "too many arguments");
	if (!n && !cont && !abort_it)
		return command_usage_error(opts, usage, "which series? give its "
					   "name");
	if (n && strchr(argv[0], '@'))
		return command_usage_error(opts, usage, "rebase takes the latest "
					   "version; give NAME, not '%s'",
					   argv[0]);
	if (n) {
		r = series_name_check(argv[0]);
		if (r < 0)
			return error_report(r);
		name = xstrdup(argv[0]);
	} else if ((r = only_in_progress(ctx->repo, &name)) < 0) {
		return error_report(r);
	}

	/* all zero: what the loads fill is released either way */
	memset(&rr, 0, sizeof(rr));
	rr.repo = ctx->repo;
	r = dry_run ? 0 : take_lock(ctx->repo, name, &lk);
	if (!r && cont)
		r = rebase_continue(&rr, name);
	else if (!r && abort_it)
		r = rebase_abort(&rr, name);
	else if (!r)
		r = rebase_start(&rr, name, onto, branch, dry_run);
	lock_release(&lk);
	run_release(&rr);
	free(name);
	return r < 0 ? error_report(r) : r;
}
