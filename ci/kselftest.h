/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KSELFTEST_H
#define RESPIN_CI_KSELFTEST_H

#include <stddef.h>
#include "ci/ktap.h"
#include "ci/warnings.h"
#include "tools/lib/strbuf.h"

/*
 * The parts of kind = kselftest (ci/check-kselftest.c) that need no
 * process: the names of targets, a target's settings, the KTAP of one
 * target's run, and what changed from one position to the next.
 */

/* The per-test timeout kselftest's runner uses without a settings file. */
#define KSELFTEST_TIMEOUT 45
/* A set of test programs no check ran for this many days is removed. */
#define KSELFTEST_KEEP_DAYS 30

/*
 * A target's name as config may give it: letters, digits, '_', '-',
 * '.' and '/' (a subdirectory: "net/forwarding"), no "..", no leading
 * '/' or '.'.  1 when it is one.
 */
int kselftest_target_valid(const char *name);
/*
 * The other name of a target that was renamed: "vm" and "mm" (6.1 has
 * tools/testing/selftests/vm, 6.3 and later mm); NULL for the others.
 */
const char *kselftest_alias(const char *name);
/*
 * Which of name and its alias the tree has: has(dir) says whether
 * tools/testing/selftests/dir exists.  The name found, or NULL.
 */
const char *kselftest_resolve(const char *name,
			      int (*has)(const char *dir, void *data),
			      void *data);
/*
 * The per-test timeout of a target's settings file (text, len bytes:
 * lines "timeout=N"; the last one wins, as the runner reads them);
 * KSELFTEST_TIMEOUT when there is none, and 0 (never killed) for
 * "timeout=0".
 */
int kselftest_settings_timeout(const char *text, size_t len);

/*
 * One target's block in the check's KTAP: the runner's output (its own
 * "KTAP version" and plan lines dropped) indented by four spaces under
 * a plan of its tests plus the programs that did not build, each of
 * those "not ok N NAME # build failed".  failed: names, one a line.
 * A run with no programs at all is "1..0 # SKIP no programs".
 */
void kselftest_block(struct strbuf *out, const char *runner_ktap,
		     size_t len, const char *failed);

/*
 * What changed at a position from the one before: subtests by path
 * (the nth of a path that repeats is "PATH #n").  A test path present
 * only now is new, only before gone; one that went from PASS/SKIP to
 * FAIL/ERROR broke, the other way fixed; any other change (PASS to
 * SKIP, say) flipped.
 */
struct kselftest_changes {
	struct warning_set new_tests, gone_tests, broken, fixed, flipped;
};
void kselftest_changes_release(struct kselftest_changes *c);
void kselftest_changes_compute(struct kselftest_changes *c,
			       const char *before, size_t before_len,
			       const char *now, size_t now_len);
/* ", 1 new, 1 broken" (nothing when nothing changed). */
void kselftest_changes_text(const struct kselftest_changes *c,
			    struct strbuf *out);

/*
 * The cell of one run: per target "vm 41/43 (2 skip)", with
 * ", 1 failed" when some failed, targets joined by "; ".  kr is the
 * parsed KTAP of the whole check (a subtest a target).
 */
void kselftest_cell(const struct ktap_result *kr, struct strbuf *out);

#endif
