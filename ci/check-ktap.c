// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = ktap: the command (typically a booted kernel's tests, e.g.
 * tools/respin-qemu-ktap) prints KTAP or TAP; the parsed tree decides,
 * never the exit code.  No KTAP, or broken KTAP, is an ERROR.
 */
#include "ci/kind.h"
#include "ci/ktap.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/run.h"

static void ktap_cell(const struct ktap_result *kr, struct strbuf *out)
{
	const struct ktap_counts *k = &kr->counts;
	int total = k->pass + k->fail + k->skip + k->todo + k->xfail +
		    k->error + k->missing;

	strbuf_addf(out, "%d/%d", k->pass + k->xfail, total);
	if (k->fail + k->error + k->missing)
		strbuf_addf(out, ", %d failed", k->fail + k->error + k->missing);
	if (k->skip)
		strbuf_addf(out, " (%d skip)", k->skip);
}

static enum result_status ktap_judge(const struct run_result *res,
				     const struct ktap_result *kr, int parsed,
				     struct strbuf *summary)
{
	if (res->timed_out) {
		strbuf_addstr(summary, "timeout");
		return RESULT_TIMEOUT;
	}
	if (parsed == RESPIN_ENOTFOUND) {
		strbuf_addstr(summary, "no KTAP");
		return RESULT_ERROR;
	}
	if (kr->verdict == KTAP_VERDICT_PASS) {
		ktap_cell(kr, summary);
		return RESULT_PASS;
	}
	if (kr->verdict == KTAP_VERDICT_FAIL) {
		ktap_cell(kr, summary);
		return RESULT_FAIL;
	}
	strbuf_addf(summary, "ERROR: %s", kr->reason ? kr->reason :
		    "broken KTAP");
	return RESULT_ERROR;
}

static int ktap_command(const struct check_job *j, struct strbuf *cmd,
			struct strbuf *input)
{
	(void)input;
	strbuf_addstr(cmd, j->c->command);
	return 0;
}

static int ktap_judge_run(const struct check_job *j,
			  const struct run_result *res, struct check_verdict *v)
{
	struct engine *e = j->e;
	struct ktap_result kr;
	struct json js;
	int parsed;

	ktap_result_init(&kr);
	parsed = ktap_parse(res->output.buf, res->output.len, &kr);
	v->status = ktap_judge(res, &kr, parsed, &v->summary);
	if (v->status != RESULT_PASS) {
		engine_report(e, j->c, j->i, "%s: %s\n",
			      result_status_name(v->status),
			      kr.reason ? kr.reason : v->summary.buf);
		if (v->status == RESULT_ERROR || v->status == RESULT_TIMEOUT) {
			run_tail_lines(&e->report, res->output.buf,
				       res->output.len, 5);
			strbuf_addch(&e->report, '\n');
		}
	}
	json_init(&js, &v->details, 0);
	ktap_result_to_json(&js, &kr, KTAP_JSON_LEAVES);
	ktap_result_release(&kr);
	return 0;
}

const struct check_kind_ops check_ktap_ops = {
	.kind = CHECK_KTAP,
	.needs = KIND_NEEDS_BUILD | KIND_ON_BASE_TOO | KIND_IN_GUEST,
	.results = KIND_RESULTS_SUBTESTS,
	.command = ktap_command,
	.judge = ktap_judge_run,
};
