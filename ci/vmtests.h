/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_VMTESTS_H
#define RESPIN_CI_VMTESTS_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * The mm selftests' runner before it printed TAP of its own (6.1's
 * tools/testing/selftests/vm/run_vmtests.sh): each test it runs is
 *
 *	-----------------------
 *	running ./compaction_test
 *	-----------------------
 *	<what the test printed>
 *	[PASS]			(or [FAIL], [SKIP])
 *
 * vmtests_ktap() turns such output (its lines as the test printed
 * them, without the "# " run_kselftest.sh puts in front) into a KTAP
 * document of a subtest a "running" line, at indent (spaces):
 *
 *	KTAP version 1
 *	1..N
 *	# <the test's lines, one level down: a program's own KTAP nests>
 *	ok 1 compaction_test
 *
 * A subtest's name is the command after "running", each word without
 * its directories ("./hugepage-mremap ./huge/huge_mremap" is
 * "hugepage-mremap huge_mremap"; '#' becomes '_'), so that
 * "running ./map_fixed_noreplace" is map_fixed_noreplace.  A "running"
 * line counts only right after a line of dashes.  The last test, when
 * the output ends before its [PASS], [FAIL] or [SKIP], is "not ok"
 * with the directive cut (such as "TIMEOUT 450 seconds": its runner's
 * timeout ended it); one before another "running" without its line,
 * "not ok ... # no [PASS], [FAIL] or [SKIP]".
 *
 * Returns the number of subtests, 0 (out untouched) when the text has
 * no "running" line in that form: newer run_vmtests.sh print TAP of
 * their own, one level down, which is left as it is.
 */
int vmtests_ktap(const char *text, size_t len, const char *indent,
		 const char *cut, struct strbuf *out);

/* The subtest name of the command after "running " (n bytes), into out. */
void vmtests_name(const char *command, size_t n, struct strbuf *out);

#endif
