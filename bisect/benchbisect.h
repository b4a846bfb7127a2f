/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_BENCHBISECT_H
#define RESPIN_BISECT_BENCHBISECT_H

#include "ci/engine.h"
#include "tools/lib/strbuf.h"

/*
 * respin bisect for a bench: the first patch significantly worse than
 * the base (binary search, runs only where undecided), then held
 * against the patch before it, the two run in turns until that is
 * decided too or at the plan's maximum.  A later patch that undoes it
 * is found the same way.  The report (or JSON) goes to out as it is
 * (the text quotes subjects: the command escapes it); returns the exit
 * code (0 a patch named, 1 not), <0 on errors.
 */
int bench_bisect(struct engine *e, const struct check *c, int json,
		 struct strbuf *out);

#endif
