/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_SETUP_H
#define RESPIN_BISECT_SETUP_H

#include <git2.h>
#include "ci/checks.h"

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

#endif
