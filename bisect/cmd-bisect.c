// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin bisect NAME[@vN] --check C [--subtest PATTERN] [--retries N]
 *                [--json]
 *
 * Which patch of a version broke a check: the first whose check (or
 * KTAP subtest) fails while the one before passes, by binary search
 * over the stored results, running only what is missing.
 */
#include "bisect/benchbisect.h"
#include "bisect/report.h"
#include "bisect/search.h"
#include "bisect/setup.h"
#include "bisect/testprobe.h"
#include "ci/checks.h"
#include "ci/engine.h"
#include "ci/kind.h"
#include "series/store.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin bisect <name>[@v<n>] --check <check> [--subtest <pattern>] "
	"[--retries <n>] [--json]",
	NULL
};

/* The one line a reply can quote. */
static void result_line(struct strbuf *out, const struct bisect *b,
			const struct test_probe *tp,
			const struct series_version *v, const char *what)
{
	struct strbuf pos = STRBUF_INIT, good = STRBUF_INIT;

	bisect_position_name(&pos, v, b->first_bad, 1);
	bisect_position_name(&good, v, b->last_good, 0);
	switch (b->answer) {
	case BISECT_FOUND:
		strbuf_reset(&pos);
		bisect_culprit_name(&pos, v, b->first_bad);
		strbuf_addf(out, "Bisected to %s: %s fails", pos.buf, what);
		if (tp->why[b->first_bad].len && tp->subtest)
			strbuf_addf(out, " (%s)", tp->why[b->first_bad].buf);
		strbuf_addf(out, "; passes at %s", good.buf);
		if (b->retries)
			strbuf_addf(out, "; %zu of %zu runs failed there, 0 of "
				    "%zu before", b->bad_at_bad_pos,
				    b->runs_bad_pos, b->runs_good_pos);
		break;
	case BISECT_FLAKY:
		strbuf_addf(out, "Not bisected: %s is flaky at the boundary: "
			    "%zu of %zu runs failed at %s, %zu of %zu at %s",
			    what, b->bad_at_bad_pos, b->runs_bad_pos, pos.buf,
			    b->bad_at_good_pos, b->runs_good_pos, good.buf);
		break;
	case BISECT_NONE:
		strbuf_addf(out, "Nothing to bisect: %s passes at %zu/%zu",
			    what, v->nr_patches, v->nr_patches);
		break;
	case BISECT_BAD_AT_START:
		strbuf_addf(out, "Not the series: %s fails on the base already",
			    what);
		break;
	case BISECT_UNTESTABLE:
		strbuf_reset(&pos);
		bisect_position_name(&pos, v, b->first_bad, 0);
		if (b->first_bad > b->n || b->at[b->first_bad] != BISECT_BAD)
			strbuf_addf(out, "Not bisected: %s cannot be tested at "
				    "%s", what, pos.buf);
		else
			strbuf_addf(out, "Not bisected: %s fails at %s and "
				    "passes at %s; the patches between cannot "
				    "be tested", what, pos.buf, good.buf);
		break;
	}
	strbuf_release(&pos);
	strbuf_release(&good);
}

static void print_text(const struct bisect *b, const struct test_probe *tp,
		       const struct series *s, const struct series_version *v,
		       const char *what, size_t stored)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	size_t i;

	strbuf_addf(&out, "%s v%d, %s: %zu run%s (%zu retr%s), %zu stored "
		    "result%s; testing every patch: %zu\n", s->name,
		    v->number, what, b->tested, b->tested == 1 ? "" : "s",
		    b->retried, b->retried == 1 ? "y" : "ies", stored,
		    stored == 1 ? "" : "s", v->nr_patches + 1);
	for (i = 0; i <= b->n; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		strbuf_reset(&line);
		bisect_position_name(&line, v, i, 0);
		strbuf_addf(&out, "  %-8s %-10s %-6s %s\n", line.buf,
			    bisect_outcome_name(b->at[i]),
			    tp->ran[i] ? "ran" : "stored",
			    tp->why[i].buf);
	}
	if (b->good_again && b->answer == BISECT_FOUND) {
		strbuf_reset(&line);
		bisect_position_name(&line, v, b->good_again, 0);
		strbuf_addf(&out, "note: %s passes again at %s (a later patch "
			    "undoes it?)\n", what, line.buf);
	}
	strbuf_reset(&line);
	result_line(&line, b, tp, v, what);
	strbuf_addf(&out, "%s\n", line.buf);
	fputs_term_safe(stdout, out.buf, out.len, TERM_SAFE_LINES);
	strbuf_release(&out);
	strbuf_release(&line);
}

static void print_json(const struct bisect *b, const struct test_probe *tp,
		       const struct series *s, const struct series_version *v,
		       const char *what, size_t stored)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	struct json j;
	size_t i;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_string_member(&j, "check", tp->c->name);
	json_key(&j, "subtest");
	if (tp->subtest)
		json_string(&j, tp->subtest);
	else
		json_null(&j);
	json_string_member(&j, "answer", bisect_answer_name(b->answer));
	json_key(&j, "patch");
	if (b->answer == BISECT_FOUND || b->answer == BISECT_FLAKY)
		json_int(&j, (int64_t)b->first_bad);
	else
		json_null(&j);
	json_key(&j, "title");
	if ((b->answer == BISECT_FOUND || b->answer == BISECT_FLAKY) &&
	    b->first_bad && v->patches[b->first_bad - 1].subject)
		json_string(&j, v->patches[b->first_bad - 1].subject);
	else
		json_null(&j);
	json_key(&j, "last_good");
	if (b->answer == BISECT_FOUND || b->answer == BISECT_FLAKY ||
	    b->answer == BISECT_UNTESTABLE)
		json_int(&j, (int64_t)b->last_good);
	else
		json_null(&j);
	json_int_member(&j, "runs", (int64_t)b->tested);
	json_int_member(&j, "retries", (int64_t)b->retried);
	json_int_member(&j, "stored_used", (int64_t)stored);
	json_int_member(&j, "every_patch", (int64_t)v->nr_patches + 1);
	if (b->retries) {
		json_key(&j, "boundary_runs");
		json_object_begin(&j);
		json_int_member(&j, "bad_runs", (int64_t)b->runs_bad_pos);
		json_int_member(&j, "bad_failed", (int64_t)b->bad_at_bad_pos);
		json_int_member(&j, "good_runs", (int64_t)b->runs_good_pos);
		json_int_member(&j, "good_failed", (int64_t)b->bad_at_good_pos);
		json_object_end(&j);
	}
	json_key(&j, "positions");
	json_array_begin(&j);
	for (i = 0; i <= b->n; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		json_object_begin(&j);
		json_int_member(&j, "patch", (int64_t)i);
		json_string_member(&j, "outcome", bisect_outcome_name(b->at[i]));
		json_bool_member(&j, "ran", tp->ran[i]);
		json_string_member(&j, "why", tp->why[i].buf);
		json_object_end(&j);
	}
	json_array_end(&j);
	result_line(&line, b, tp, v, what);
	json_string_member(&j, "line", line.buf);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
	strbuf_release(&line);
}

int cmd_bisect(int argc, const char **argv, struct command_context *ctx)
{
	const char *check = NULL, *subtest = NULL;
	int retries = -1, json = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "check", &check, "check",
			   "the check that fails (respin check --list)"),
		OPT_STRING(0, "subtest", &subtest, "pattern",
			   "only KTAP subtests matching this glob decide"),
		OPT_INT(0, "retries", &retries, "n",
			"test the boundary again n times (default "
			"respin.bisect.retries, else 2)"),
		OPT_BOOL(0, "json", &json, "the answer as JSON"),
		OPT_END()
	};
	struct check_list checks = { 0 };
	const struct check *c = NULL;
	struct results *rs = NULL;
	struct series s;
	struct series_version *v;
	struct engine e;
	struct test_probe tp;
	struct bisect b;
	struct bisect_probe probe = { test_probe_test, &tp };
	struct strbuf what = STRBUF_INIT;
	int engine_ready = 0;
	size_t i, stored = 0;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (!check)
		return command_usage_error(opts, usage, "which check fails? "
					   "give --check NAME");
	series_init(&s, "");
	r = bisect_retries(ctx->repo, &retries);
	if (!r)
		r = checks_load(ctx->repo, &checks);
	if (!r)
		r = bisect_pick_checks(&checks, check, subtest, &c);
	if (r < 0)
		goto fail;
	series_release(&s);
	r = bisect_load_version(ctx->repo, argv[0], &s, &v);
	if (!r)
		r = bisect_engine_start(ctx, &e, &s, v, &checks, &rs,
					&engine_ready);
	if (r < 0)
		goto fail;
	if (check_kind_ops(c->kind)->results == KIND_RESULTS_SAMPLES) {
		r = bench_bisect(&e, c, json, &what);
		if (json)
			fputs(what.buf, stdout);
		else
			fputs_term_safe(stdout, what.buf, what.len,
					TERM_SAFE_LINES);
		if (r < 0)
			r = command_stopped(r, "the runs taken are stored");
		goto out;
	}

	test_probe_init(&tp, &e, c, subtest);
	bisect_init(&b, v->nr_patches);
	b.retries = retries;
	for (i = 0; i <= v->nr_patches && r >= 0; i++) {
		r = test_probe_stored(&tp, i, &b.at[i]);
		stored += b.at[i] != BISECT_UNKNOWN;
	}
	if (r >= 0)
		r = bisect_run(&b, &probe);
	if (r < 0) {
		r = command_stopped(r, "what ran is stored");
	} else {
		if (subtest)
			strbuf_addf(&what, "%s subtest %s", c->name, subtest);
		else
			strbuf_addstr(&what, c->name);
		if (json)
			print_json(&b, &tp, &s, v, what.buf, stored);
		else
			print_text(&b, &tp, &s, v, what.buf, stored);
		r = b.answer == BISECT_FOUND ? 0 : RESPIN_FOUND;
	}
	bisect_release(&b);
	test_probe_release(&tp);
	goto out;
fail:
	r = error_report(r);
out:
	if (engine_ready)
		engine_release(&e);
	strbuf_release(&what);
	results_close(rs);
	checks_release(&checks);
	series_release(&s);
	return r;
}
