// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run_program() feeding a job's stdin: a job that exits without
 * reading it (a default command that finds its tool missing, say)
 * leaves respin running, with the job's own exit code.  Before, the
 * write into the closed pipe killed respin with SIGPIPE.
 */
#include "tools/lib/run.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	static const char *const quit[] = { "sh", "-c", "exit 3", NULL };
	static const char *const half[] = { "sh", "-c", "head -c 10 >/dev/null; echo read", NULL };
	size_t len = 4 << 20;
	char *input = malloc(len);
	struct run_opts o = { 0 };
	struct run_result res;
	int round;

	memset(input, 'x', len);
	o.input = input;
	o.input_len = len;
	o.timeout = 30;
	for (round = 0; round < 3; round++) {
		run_result_init(&res);
		o.argv = quit;
		ok(run_program(&o, &res) == 0 && res.exited &&
		   res.exit_code == 3, "a job that reads none of 4 MiB: its exit "
		   "code (round %d)", round);
		run_result_release(&res);
	}
	run_result_init(&res);
	o.argv = half;
	ok(run_program(&o, &res) == 0 && res.exited && !res.exit_code &&
	   !strcmp(res.output.buf, "read\n"), "one that reads 10 bytes of it");
	run_result_release(&res);
	free(input);
	return done_testing();
}
