/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_QUEUE_AHEAD_H
#define RESPIN_CI_QUEUE_AHEAD_H

/*
 * Jobs queued ahead (queue-ahead.c): an executor that queues (a
 * cluster) is given every job known ahead at once, so that it runs them
 * side by side while engine_run() waits for each in its turn.
 */
#include "ci/engine.h"

/* 1 when check c's executor queues its jobs (a cluster), 0, <0 errors. */
int engine_queues(struct engine *e, const struct check *c);

/*
 * Queues, on each check's executor that queues, the kinds' own plans
 * first (ops->queue: the build chain), then each position's job of
 * every check whose kind says what to run without a build, unless
 * stored.  0 or <0.
 */
int queue_ahead(struct engine *e);

#endif
