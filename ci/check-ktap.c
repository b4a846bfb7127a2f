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

static int ktap_run(const struct check_job *j)
{
	struct engine *e = j->e;
	const struct check *c = j->c;
	struct ktap_result kr;
	struct run_result res;
	struct strbuf summary = STRBUF_INIT, details = STRBUF_INIT;
	struct check_verdict v = { 0 };
	struct json js;
	int r;

	run_result_init(&res);
	ktap_result_init(&kr);
	r = engine_exec(e, c, j->i, &j->tree, NULL, c->command, c->timeout, NULL, 0,
			&res);
	if (r < 0)
		goto out;
	r = ktap_parse(res.output.buf, res.output.len, &kr);
	v.status = ktap_judge(&res, &kr, r, &summary);
	if (v.status != RESULT_PASS) {
		engine_report(e, c, j->i, "%s: %s\n",
			      result_status_name(v.status),
			      kr.reason ? kr.reason : summary.buf);
		if (v.status == RESULT_ERROR || v.status == RESULT_TIMEOUT) {
			run_tail_lines(&e->report, res.output.buf,
				       res.output.len, 5);
			strbuf_addch(&e->report, '\n');
		}
	}
	json_init(&js, &details, 0);
	ktap_result_to_json(&js, &kr, KTAP_JSON_LEAVES);
	v.summary = summary.buf;
	v.details = details.buf;
	v.seconds = res.seconds;
	v.log = res.output.buf;
	v.log_len = res.output.len;
	r = store_result(j, &v);
out:
	ktap_result_release(&kr);
	run_result_release(&res);
	strbuf_release(&summary);
	strbuf_release(&details);
	return r;
}

const struct check_kind_ops check_ktap_ops = {
	CHECK_KTAP, KIND_NEEDS_BUILD | KIND_ON_BASE_TOO, ktap_run, NULL,
};
