// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = command: the command's exit decides (0 PASS, else FAIL); a
 * failure is named with the end of what it printed.
 */
#include "ci/kind.h"
#include "tools/lib/run.h"

static int command_command(const struct check_job *j, struct strbuf *cmd,
			   struct strbuf *input)
{
	(void)input;
	strbuf_addstr(cmd, j->c->command);
	return 0;
}

static int command_judge(const struct check_job *j,
			 const struct run_result *res, struct check_verdict *v)
{
	struct engine *e = j->e;
	const struct check *c = j->c;

	v->status = res->timed_out ? RESULT_TIMEOUT :
		    res->exited && !res->exit_code ? RESULT_PASS : RESULT_FAIL;
	strbuf_addstr(&v->summary, v->status == RESULT_PASS ? "ok" :
		      result_status_name(v->status));
	if (v->status == RESULT_PASS)
		return 0;
	/* name it, with the end of what it printed */
	if (res->timed_out)
		engine_report(e, c, j->i, "TIMEOUT after %.0f s\n", c->timeout);
	else if (res->exited)
		engine_report(e, c, j->i, "FAIL (exit %d)\n", res->exit_code);
	else
		engine_report(e, c, j->i, "FAIL (signal %d)\n", res->signal);
	run_tail_lines(&e->report, res->output.buf, res->output.len, 5);
	if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
		strbuf_addch(&e->report, '\n');
	return 0;
}

const struct check_kind_ops check_command_ops = {
	.kind = CHECK_COMMAND,
	.needs = KIND_ON_BASE_TOO | KIND_IN_GUEST,
	.results = KIND_RESULTS_STATUS,
	.command = command_command,
	.judge = command_judge,
};
