/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_PARALLEL_H
#define RESPIN_CI_PARALLEL_H

#include "ci/engine.h"

/* -j runs c's jobs in threads (lint, on the local executor): 1 or 0. */
int parallel_in_threads(struct engine *e, const struct check *c);

/*
 * -j N (e->jobs > 1): every position's job of each check that
 * parallel_in_threads() takes, unless stored, N at a time, each in a
 * thread of its own; then judged and stored in order.  An error in a
 * thread (an interruption too) stops them all and is this thread's
 * error, its message kept.  0 or <0.
 */
int parallel_lint(struct engine *e);

#endif
