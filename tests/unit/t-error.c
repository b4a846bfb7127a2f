// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * error(): a message may quote the last one (error_last() as an
 * argument, as "cannot run X: <why>" does); the hint of an earlier
 * error goes with it.
 */
#include "tools/lib/error.h"
#include "tests/unit/tap.h"

#include <string.h>

int main(void)
{
	int r;

	r = error("interrupted by %s", "SIGTERM");
	ok(r == RESPIN_ERR && !strcmp(error_last(), "interrupted by SIGTERM"),
	   "error() sets the message");
	error_hint("a hint");
	r = error("cannot run %s: %s", "squeue", error_last());
	ok(!strcmp(error_last(), "cannot run squeue: interrupted by SIGTERM"),
	   "the last message quoted in the next one: '%s'", error_last());
	ok(!*error_last_hint(), "the new message drops the old hint");
	r = error_code(RESPIN_EUSAGE, "%s, again: %s", error_last(),
		       error_last());
	ok(r == RESPIN_EUSAGE && !strcmp(error_last(), "cannot run squeue: "
					 "interrupted by SIGTERM, again: "
					 "cannot run squeue: interrupted by "
					 "SIGTERM"),
	   "twice, with error_code()");
	error_clear();
	ok(!strcmp(error_last(), "unknown error"), "cleared");
	return done_testing();
}
