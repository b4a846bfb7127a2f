// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = command: the command's exit decides (0 PASS, else FAIL); a
 * failure is named with the end of what it printed.
 */
#include "ci/kind.h"
#include "tools/lib/run.h"

static int command_run(const struct check_job *j)
{
	struct engine *e = j->e;
	const struct check *c = j->c;
	struct check_verdict v = { 0 };
	struct run_result res;
	int r;

	run_result_init(&res);
	r = engine_exec(e, c, j->i, &j->tree, NULL, c->command, c->timeout, NULL, 0,
			&res);
	if (r < 0) {
		run_result_release(&res);
		return r;
	}
	v.status = res.timed_out ? RESULT_TIMEOUT :
		   res.exited && !res.exit_code ? RESULT_PASS : RESULT_FAIL;
	v.summary = v.status == RESULT_PASS ? "ok" : result_status_name(v.status);
	v.seconds = res.seconds;
	v.log = res.output.buf;
	v.log_len = res.output.len;
	r = store_result(j, &v);
	if (v.status != RESULT_PASS) {
		/* name it, with the end of what it printed */
		if (res.timed_out)
			engine_report(e, c, j->i, "TIMEOUT after %.0f s\n",
				      c->timeout);
		else if (res.exited)
			engine_report(e, c, j->i, "FAIL (exit %d)\n",
				      res.exit_code);
		else
			engine_report(e, c, j->i, "FAIL (signal %d)\n",
				      res.signal);
		run_tail_lines(&e->report, res.output.buf, res.output.len, 5);
		if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
			strbuf_addch(&e->report, '\n');
	}
	run_result_release(&res);
	return r;
}

const struct check_kind_ops check_command_ops = {
	CHECK_COMMAND, KIND_ON_BASE_TOO, command_run, NULL,
};
