/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_ENGINE_H
#define RESPIN_CI_ENGINE_H

#include <time.h>

#include "ci/checks.h"
#include "ci/executor.h"
#include "ci/results.h"
#include "ci/worktree.h"
#include "series/store.h"

/*
 * Where the engine is, for the command's progress line: check c at
 * position i (0 the base) of n, doing what ("checking out", "running",
 * "run 3"); what NULL: the engine is done (clear the line).  The
 * engine never prints: the command that owns it does, if it wants.
 */
struct engine_progress {
	size_t i, n;
	const char *check;
	const char *what;
	long elapsed;		/* seconds since the first step */
};
typedef void engine_progress_fn(const struct engine_progress *p,
				void *data);
/* "[2/3] build: running (12s)": what a progress line says. */
void engine_progress_text(const struct engine_progress *p,
			  struct strbuf *out);
/*
 * Runs the checks of a version patch by patch: position 0 is the base
 * (builds and benches run there too, so comparisons have a reference),
 * position i the tree after patches 1..i.  A result whose key is stored
 * already is reused, never run again.
 */
struct engine {
	git_repository *repo;
	struct series *s;
	struct series_version *v;
	struct check_list *checks;
	struct results *rs;
	struct worktree wt;
	engine_progress_fn *progress;	/* or NULL: no progress wanted */
	void *progress_data;
	time_t started;		/* for the elapsed time in the progress */
	int only;		/* run only this position (-1: all) */
	int base_too;		/* ktap and command checks on the base too */
	int rerun;		/* run again, though stored (bisect's retries) */
	int jobs;		/* -j: lint jobs at once (they need no build) */
	size_t ran, reused, failed, errors;
	struct strbuf report;	/* one line per failure, for the command */
	struct strbuf running;	/* "build at 2/3", noted in the lock */
	int parallel;		/* lint jobs run in threads now */
	/* where each check's commands run (executor_open()), by index */
	struct executor *execs;
	size_t nr_execs;
	char job[64];		/* the executor's id of the job running now */
	char lost[96];		/* "slurm job 17 cancelled": no verdict */
	/* RESPIN_BUILD for the run now, when not the build directory */
	const char *build_override;
	struct strbuf artifacts;	/* its buffer */
	struct build_chain *chain;	/* the queued builds (ci/build-chain.c) */
	struct build_config *config;	/* its .config (ci/build-config.c) */
	int queued;		/* jobs went to an executor that queues */
};

void engine_init(struct engine *e, git_repository *repo, struct series *s,
		 struct series_version *v, struct check_list *checks,
		 struct results *rs);
void engine_release(struct engine *e);
/*
 * Takes the series' lock first (see worktree_lock()): 0 taken, 1 held
 * by another (message recorded), <0 errors.
 */
int engine_lock(struct engine *e, int wait, int (*stop)(void));
/* Stops, recording nothing more, when run_interrupted() says so. */
int engine_run(struct engine *e);

/*
 * Bench c at position b against position a as if a were the base: the
 * two run in turns until the comparison of b with a's runs of its span
 * is decided or at the plan's maximum (respin bisect: a patch against
 * the one before it).  Samples are stored as respin check stores them.
 */
int engine_bench_pair(struct engine *e, const struct check *c, size_t a,
		      size_t b);

/* The commit at position i (0 = the base). */
const git_oid *engine_commit(const struct series_version *v, size_t i);
/* The result key of check c at position i, appended to out. */
int engine_key(git_repository *repo, const struct series_version *v,
	       const struct check *c, size_t i, struct strbuf *out);
/* The mail text a lint check reads for patch i (1-based). */
int engine_patch_text(git_repository *repo, const struct series_version *v,
		      size_t i, struct strbuf *out);

#endif
