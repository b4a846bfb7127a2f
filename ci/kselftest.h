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
/* The guest's memory and CPUs (6.1's run_vmtests.sh wants 1G). */
#define KSELFTEST_MEMORY "1G"
#define KSELFTEST_SMP 2
/*
 * Each test's timeout is its settings' times this: the guest may run
 * under emulation (TCG), 10 to 50 times slower than the hardware the
 * settings were written for (6.1's run_vmtests.sh takes 80 s there on
 * a quiet machine, 285 s on a busy one, and vm/settings gives it 45).
 */
#define KSELFTEST_SLOWDOWN 20

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
 * One test of respin.check.NAME.tests: "vm:run_vmtests.sh -t mmap" is
 * collection vm, test run_vmtests.sh and its arguments "-t mmap" (the
 * words up to the next COLLECTION:TEST), which run_kselftest.sh gives
 * it from KSELFTEST_RUN_VMTESTS_SH_ARGS.
 */
struct kselftest_test {
	struct strbuf collection, test, args;
};
#define KSELFTEST_TEST_INIT { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }
void kselftest_test_release(struct kselftest_test *t);
/*
 * The next test of the list at *p into t: 1, 0 at the end, -1 with
 * what is wrong in err (a collection that is no target name, a test
 * or argument with other characters than letters, digits and "_.+-"
 * (",=" too in arguments), an argument before any test).
 */
int kselftest_tests_next(const char **p, struct kselftest_test *t,
			 struct strbuf *err);
/* "KSELFTEST_RUN_VMTESTS_SH_ARGS" for run_vmtests.sh, as runner.sh makes it. */
void kselftest_args_variable(const char *test, struct strbuf *out);

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
 * The output of the tree's run_kselftest.sh for one target (TAP 13, a
 * test's own lines behind "# ") as the body of that target's block
 * for kselftest_block(): each result line named by the test alone
 * ("ok 1 selftests: vm: run_vmtests.sh" is "ok 1 run_vmtests.sh"), and
 * a test's lines in 6.1's run_vmtests.sh form made its subtests
 * (ci/vmtests.h; "not ok ... # TIMEOUT ..." ends the one it cut).
 * stopped: NULL, or why the output ended early (the guest stopped):
 * the test it ended in is cut with that, and "Bail out! STOPPED"
 * follows.
 */
void kselftest_translate(const char *text, size_t len, const char *stopped,
			 struct strbuf *out);

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
