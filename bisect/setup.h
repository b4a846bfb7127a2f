/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_SETUP_H
#define RESPIN_BISECT_SETUP_H

#include <git2.h>
#include "ci/checks.h"
#include "ci/engine.h"
#include "series/store.h"
#include "tools/lib/command.h"

/* What respin bisect and bisect-base both set up. */

/*
 * *retries from --retries (-1: not given) or respin.bisect.retries,
 * else 2; RESPIN_EUSAGE (naming it) outside 0..100.
 */
int bisect_retries(git_repository *repo, int *retries);

/*
 * Keeps in l the check named name (a build, ktap, command or bench
 * check) and the builds a ktap or bench check needs; *c is it.
 * RESPIN_EUSAGE, saying why, for an unknown check, a lint check, or a
 * subtest pattern with a check that is not ktap.
 */
int bisect_pick_checks(struct check_list *l, const char *name,
		       const char *subtest, const struct check **c);

/*
 * The version spec names, into *s and *v; one recorded from mail only
 * is an error saying how to apply it.
 */
int bisect_load_version(git_repository *repo, const char *spec,
			struct series *s, struct series_version **v);

/*
 * The engine for v with checks, on the results store (*rs), the
 * series locked (held by another respin: an error), progress on a
 * terminal; *ready once engine_init() ran (release it then).
 */
int bisect_engine_start(struct command_context *ctx, struct engine *e,
			struct series *s, struct series_version *v,
			struct check_list *checks, struct results **rs,
			int *ready);


#endif
