/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_ENGINE_RUN_H
#define RESPIN_CI_ENGINE_RUN_H

/*
 * The scheduler's parts (engine.c) that its helpers use: the -j lint
 * threads (parallel.c), the jobs queued ahead (queue-ahead.c).  Not for
 * the kinds (they have kind.h).
 */
#include "ci/kind.h"

/* What the executor's callbacks are told: the engine, the job. */
struct engine_job_note {
	struct engine *e;
	const struct check *c;
	size_t i;
};

/* The job engine_exec() gives an executor, and what it owns. */
struct engine_job_parts {
	struct exec_job job;
	char *env[ENGINE_ENV];
	size_t n;
	struct strbuf name;
	struct engine_job_note note;
};

/*
 * The job of c at position i (tree), its step (NULL: none), command,
 * timeout and stdin, with the environment and the name every job of
 * the engine has.  Release it with engine_job_parts_release().
 */
void engine_job_parts_fill(struct engine_job_parts *jp, struct engine *e,
			  const struct check *c, size_t i,
			  const git_oid *tree, const char *step,
			  const char *command, double timeout,
			  const char *input, size_t input_len);
void engine_job_parts_release(struct engine_job_parts *jp);

/*
 * Check c's executor (respin.check.NAME.executor, else respin.executor,
 * else local), opened on first use.  Lint jobs in threads (-j) each run
 * on a local executor of their own, in *own; so does a check that is
 * not one of the engine's (*out == own: the caller releases it).
 */
int engine_executor_for(struct engine *e, const struct check *c,
			struct executor *own, struct executor **out);

/*
 * A stored result of c at i: reused, not run again (the failures among
 * them are named unless quiet).  0 reused, RESPIN_ENOTFOUND to run, <0
 * a database error.
 */
int engine_reuse(struct engine *e, const struct check *c, size_t i,
		 const char *key, int quiet);

/* Judges what the run of j gave, by its kind, and stores the verdict. */
int engine_judge_and_store(const struct check_job *j,
			   const struct run_result *res);

#endif
