/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_REBASE_H
#define RESPIN_SERIES_REBASE_H

#include "series/conflict.h"
#include "series/store.h"
#include "tools/lib/strbuf.h"

/*
 * A version's patches picked onto a new base one by one (series/pick.c,
 * a 3-way cherry-pick in memory), recorded as the next version with a
 * "rebased-from N" line in its metadata when every patch went in.
 *
 * A patch that conflicts stops the rebase: its state goes to
 * .git/respin/rebase/NAME.state (written to a temporary file and
 * renamed into place) and the patch is cherry-picked, conflict markers
 * and all, into a git worktree of its own, .git/respin/rebase/NAME,
 * for the user to resolve and `git add`.  Nothing is recorded until
 * every patch is in; the series ref then moves by compare-and-swap
 * against the metadata commit the rebase started from.
 */

enum rebase_how {
	REBASE_TODO = 0,	/* not picked yet */
	REBASE_CLEAN,		/* the patch applied as it is (git am would) */
	REBASE_3WAY,		/* it needed a 3-way merge (git am -3) */
	REBASE_RESOLVED,	/* it conflicted; the user resolved it */
	REBASE_EMPTY,		/* the base has it already: dropped */
	REBASE_CONFLICT,	/* it conflicts (the rebase stopped there) */
};

/* "clean", "3-way", "resolved", "empty", "conflict", "todo". */
const char *rebase_how_name(enum rebase_how how);
/* The how of a name (len bytes of s); REBASE_TODO when none is. */
enum rebase_how rebase_how_parse(const char *s, size_t len);

struct rebase_step {
	enum rebase_how how;
	git_oid commit;		/* the new commit, if the patch went in */
};

/* What a rebase in progress keeps on disk between commands. */
struct rebase_state {
	char *series;
	int from;		/* the version being rebased */
	int to;			/* the version it will be recorded as */
	git_oid meta;		/* the series' metadata commit at the start */
	git_oid onto;
	char *onto_name;	/* what the user gave, or the base ref */
	char *base_ref;		/* the ref the new version records, or NULL */
	char *branch;		/* a branch to move at the end, or NULL */
	git_oid branch_old;	/* where that branch was */
	size_t next;		/* the patch stopped at (0-based) */
	git_oid current;	/* the commit the patches before it made */
	struct rebase_step *steps;
	size_t nr;
};

void rebase_state_init(struct rebase_state *st, const char *series,
		       size_t nr_patches);
void rebase_state_release(struct rebase_state *st);

/* Where things are: .git/respin/rebase/NAME (the worktree), .state, .lock. */
void rebase_worktree_path(git_repository *repo, const char *series,
			  struct strbuf *out);
void rebase_state_path(git_repository *repo, const char *series,
		       struct strbuf *out);
void rebase_lock_path(git_repository *repo, const char *series,
		      struct strbuf *out);

/* Reads the state; RESPIN_ENOTFOUND (no message) when none is on disk. */
int rebase_state_read(git_repository *repo, const char *series,
		      struct rebase_state *st);
/* Writes it through a temporary file renamed into place. */
int rebase_state_write(git_repository *repo, const struct rebase_state *st);
/*
 * Removes the worktree and the state (the state last, so a crash in
 * between leaves a rebase that --abort still finds).
 */
int rebase_state_remove(git_repository *repo, const char *series);
/* Removes a worktree left without a state (a crash before it was written). */
int rebase_leftover_remove(git_repository *repo, const char *series);

/* The names of the series with a rebase in progress, one a line. */
int rebase_in_progress(git_repository *repo, struct strbuf *names);

/*
 * Picks patches v->patches[st->next...] onto st->current, one by one,
 * filling st->steps and moving st->current and st->next.  Stops at the
 * first conflict (st->steps[st->next].how == REBASE_CONFLICT, what
 * conflicts in *conflict) or after the last patch.  repo may be one
 * whose objects go to memory only (--dry-run).  Returns 0 either way,
 * <0 on errors.
 */
int rebase_pick_all(git_repository *repo, const struct series_version *v,
		    struct rebase_state *st, struct conflict *conflict);

/*
 * A second handle on repo whose new objects go to memory and are
 * dropped with it (for --dry-run); free with rebase_memory_close().
 */
int rebase_memory_open(git_repository *repo, git_repository **mem);
void rebase_memory_close(git_repository *mem);

/*
 * Sets up the worktree for the patch in conflict: made on first use
 * (git worktree add --detach), moved to st->current, and the patch
 * cherry-picked into it with its conflicts (markers in the files, the
 * stages in the index), as git cherry-pick leaves them.
 */
int rebase_worktree_conflict(git_repository *repo,
			     const struct rebase_state *st,
			     const git_oid *patch);

/*
 * The user's resolution of the patch in conflict: the worktree's index
 * committed on st->current with the patch's author and message (or the
 * commit the user made there on st->current with git commit / git
 * cherry-pick --continue).  Fails, naming the files, while conflicts
 * are unresolved or changes are not added.  *empty says it resolved to
 * no change at all.
 */
int rebase_worktree_resolved(git_repository *repo,
			     const struct rebase_state *st,
			     const git_oid *patch, git_oid *commit,
			     int *empty);

/*
 * Records the rebased version as st->to in s (loaded at st->meta) and
 * saves s: the patches that went in, with "rebased-from" and a
 * " rebased HOW" line a patch, the cover letter and subject prefix of
 * version from.  Returns 1, recording nothing, when every patch was
 * dropped as empty.
 */
int rebase_record(git_repository *repo, struct series *s,
		  const struct rebase_state *st, struct series_version **out);

/* The version N a version was rebased from (its "rebased-from" line), or 0. */
int rebase_version_from(const struct series_version *v);
/* How a patch of a rebased version went in, or REBASE_TODO if not said. */
enum rebase_how rebase_patch_how(const struct series_patch *p);

/*
 * The tracked files of repo's work tree that differ from HEAD (index or
 * work tree), up to five names and "..." into out; 0 clean, 1 dirty.
 */
int rebase_checkout_dirty(git_repository *repo, struct strbuf *out);

/*
 * Whether branch (a full ref name) may be moved from old at the end of
 * a rebase: it points at old, and is checked out nowhere but in repo's
 * own work tree, which then has no changes to tracked files.  Errors
 * say what stands in the way.
 */
int rebase_branch_check(git_repository *repo, const char *branch,
			const git_oid *old);

/*
 * Moves branch from old to new (compare-and-swap); when it is checked
 * out here, the work tree and index follow first (a safe checkout,
 * which stops before touching a file changed since the check).
 */
int rebase_branch_move(git_repository *repo, const char *branch,
		       const git_oid *old, const git_oid *new,
		       const char *reflog);

/* The local branches at commit at, one name a line, into names. */
int rebase_branches_at(git_repository *repo, const git_oid *at,
		       struct strbuf *names);

/* ---- respin rebase: start, --continue, --abort ---- */

enum rebase_outcome {
	REBASE_RUN_NONE = 0,		/* failed before anything happened */
	REBASE_RUN_ON_BASE,		/* the version is on onto already */
	REBASE_RUN_DRY,			/* --dry-run: what would happen */
	REBASE_RUN_STOPPED,		/* at a conflict, left to resolve */
	REBASE_RUN_RECORDED,		/* the new version recorded (nv) */
	REBASE_RUN_IN_BASE,		/* every patch dropped: none recorded */
	REBASE_RUN_RECORDED_BEFORE,	/* --continue: recorded already (nv) */
	REBASE_RUN_ABORTED,		/* --abort: the state removed */
};

/*
 * One rebase command's run.  A call says what happened in outcome (set
 * also when an error follows, as a branch that would not move after the
 * version was recorded) and which steps it took; the command shows them.
 */
struct rebase_run {
	git_repository *repo;
	struct series s;
	struct series_version *v;	/* the version rebased */
	struct rebase_state st;
	struct conflict conflict;	/* what conflicts at st.next */
	int had_state;			/* a rebase was in progress */
	enum rebase_outcome outcome;
	/* the steps this run took: st.steps[steps_from, steps_end) */
	size_t steps_from, steps_end;
	struct series_version *nv;	/* the version recorded, in s */
	git_oid old_tip;		/* the rebased version's tip */
	int branch_moved;		/* st.branch moved to nv */
};

void rebase_run_init(struct rebase_run *rr, git_repository *repo);
void rebase_run_release(struct rebase_run *rr);

/*
 * Rebases the latest version of series name onto onto (NULL: its base
 * ref), moving branch (or NULL) at the end; with dry_run in memory
 * only.  Returns 1 when it stopped at a conflict (or would), 0 when
 * done, <0 on errors.
 */
int rebase_run_start(struct rebase_run *rr, const char *name,
		     const char *onto, const char *branch, int dry_run);
/* Goes on after the conflict was resolved; returns as above. */
int rebase_run_continue(struct rebase_run *rr, const char *name);
/* Gives the rebase in progress up; nothing is recorded. */
int rebase_run_abort(struct rebase_run *rr, const char *name);

/* The name of the one series with a rebase in progress (allocated). */
int rebase_only_in_progress(git_repository *repo, char **name);

/* Takes the lock of series name's rebase; says who holds it if taken. */
struct lock_file;
int rebase_lock(git_repository *repo, const char *name, struct lock_file *lk);

#endif
