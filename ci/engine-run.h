/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_ENGINE_RUN_H
#define RESPIN_CI_ENGINE_RUN_H

/*
 * The scheduler's parts (engine.c) that its helpers use: the -j lint
 * threads (parallel.c).  Not for the kinds (they have kind.h).
 */
#include "ci/kind.h"

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

/* 1 when check c's executor queues its jobs (a cluster), 0, <0 errors. */
int engine_queues(struct engine *e, const struct check *c);

#endif
