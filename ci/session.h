/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_SESSION_H
#define RESPIN_CI_SESSION_H

#include "ci/engine.h"
#include "tools/lib/command.h"

/*
 * A check session: what respin check, bisect and bisect-base set up
 * before the engine runs.  The results store opened into *rs, the
 * engine for v with checks (*ready once engine_init() ran: release it
 * then), signals caught (they end the running command), the series
 * locked, and the progress line on stderr when it is a terminal.
 * 0, 1 when another respin holds the lock (its message recorded; the
 * caller waits or gives up), <0 errors.
 */
int check_session_open(struct command_context *ctx, struct engine *e,
		       struct series *s, struct series_version *v,
		       struct check_list *checks, struct results **rs,
		       int *ready);

/*
 * The commands' progress callback: the engine's progress line on
 * stderr (command_progress_fit(): escaped, fitted to the terminal and
 * rewritten in place); cleared at the end.  check_session_open() sets
 * it on a terminal.
 */
void check_progress_stderr(const struct engine_progress *p, void *data);

#endif
