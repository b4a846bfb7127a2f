// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run_program() feeding a job's stdin: a job that exits without
 * reading it (a default command that finds its tool missing, say)
 * leaves respin running, with the job's own exit code.  Before, the
 * write into the closed pipe killed respin with SIGPIPE.
 *
 * Nothing a job started outlives run_program(): a process it left
 * behind with its output elsewhere (so the pipe closes when the leader
 * exits, before the grace second ends) is killed with the group.
 */
#include "tools/lib/run.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void note_group(long group, void *data)
{
	*(long *)data = group;
}

/*
 * Whether the process group is gone within two seconds of
 * run_program()'s return.  This test is the subreaper of what the job
 * leaves orphaned, so a killed stray is reaped here and the group can
 * empty; a stray alive keeps it.
 */
static int group_gone(long group)
{
	int i;

	for (i = 0; i < 200; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (kill(-(pid_t)group, 0) < 0 && errno == ESRCH)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

static void test_group_gone(void)
{
	static const char *const stray[] = {
		"sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 & exit 0", NULL
	};
	struct run_opts o = { 0 };
	struct run_result res;
	long group = 0;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		skip("cannot become a subreaper: %s", strerror(errno));
		return;
	}
	o.argv = stray;
	o.timeout = 30;
	o.started = note_group;
	o.data = &group;
	run_result_init(&res);
	ok(run_program(&o, &res) == 0 && res.exited && !res.exit_code &&
	   group > 0, "a job that leaves a process running exits 0");
	ok(group > 0 && group_gone(group), "its process group is gone after "
	   "run_program() returns");
	run_result_release(&res);
	/* whatever is left, so that a failure here ends no later */
	if (group > 0)
		kill(-(pid_t)group, SIGKILL);
}

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
	test_group_gone();
	return done_testing();
}
