// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin bisect-base NAME[@vN] --good REV --bad REV [--check C]
 *                     [--subtest PATTERN] [--retries N] [--json]
 *
 * The series was fine on an older base and is broken on a newer one:
 * a binary search over the base commits between (first parents, in
 * order), applying the series on each.  A patch that no longer applies
 * is an outcome of its own; with --check the check runs on the series
 * applied there.
 */
#include "bisect/baseprobe.h"
#include "bisect/report.h"
#include "bisect/setup.h"
#include "ci/checks.h"
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
	"respin bisect-base <name>[@v<n>] --good <rev> --bad <rev> "
	"[--check <check>] [--subtest <pattern>] [--retries <n>] [--json]",
	NULL
};

/* "0123456789ab "subject"" of a commit. */
static void commit_name(struct strbuf *out, git_repository *repo,
			const git_oid *oid)
{
	git_commit *c = NULL;

	strbuf_addstr(out, oid_short(oid, 12));
	if (!git_commit_lookup(&c, repo, oid)) {
		strbuf_addf(out, " \"%s\"", git_commit_summary(c));
		git_commit_free(c);
	}
}

static void result_line(struct strbuf *out, const struct bisect *b,
			const struct base_probe *bp, const char *what)
{
	struct strbuf bad = STRBUF_INIT, good = STRBUF_INIT;

	commit_name(&bad, bp->repo, &bp->bases[b->first_bad <= bp->m ?
						 b->first_bad : bp->m]);
	commit_name(&good, bp->repo, &bp->bases[b->last_good]);
	switch (b->answer) {
	case BISECT_FOUND:
		strbuf_addf(out, "Bisected the base to %s: ", bad.buf);
		if (bp->conflict[b->first_bad])
			strbuf_addf(out, "%s there", bp->why[b->first_bad].buf);
		else
			strbuf_addf(out, "%s fails with the series on it",
				    what);
		strbuf_addf(out, "; good on %s", good.buf);
		break;
	case BISECT_FLAKY:
		strbuf_addf(out, "Not bisected: %s is flaky at the boundary: "
			    "%zu of %zu runs failed on %s, %zu of %zu on %s",
			    what, b->bad_at_bad_pos, b->runs_bad_pos, bad.buf,
			    b->bad_at_good_pos, b->runs_good_pos, good.buf);
		break;
	case BISECT_NONE:
		strbuf_addf(out, "Nothing to bisect: the series applies%s%s%s "
			    "on %s", bp->e ? " and " : "", bp->e ? what : "",
			    bp->e ? " passes" : "", bad.buf);
		break;
	case BISECT_BAD_AT_START:
		strbuf_addf(out, "The good base is not good: %s", bp->why[0].buf);
		break;
	case BISECT_UNTESTABLE:
		strbuf_addf(out, "Not bisected: the base commits from %s to %s "
			    "cannot be tested", good.buf, bad.buf);
		break;
	}
	strbuf_release(&bad);
	strbuf_release(&good);
}

static void print_text(const struct bisect *b, const struct base_probe *bp,
		       const struct series *s, const char *what)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	strbuf_addf(&out, "%s v%d on %zu base commit%s: %zu tested (%zu "
		    "retr%s); testing every commit: %zu\n", s->name,
		    bp->v->number, bp->m, bp->m == 1 ? "" : "s", b->tested,
		    b->retried, b->retried == 1 ? "y" : "ies", bp->m + 1);
	for (i = 0; i <= bp->m; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		strbuf_addf(&out, "  %4zu %s %-10s %s\n", i,
			    oid_short(&bp->bases[i], 12),
			    bisect_outcome_name(b->at[i]), bp->why[i].buf);
	}
	result_line(&out, b, bp, what);
	strbuf_addch(&out, '\n');
	fputs_term_safe(stdout, out.buf, out.len, TERM_SAFE_LINES);
	strbuf_release(&out);
}

static void print_json(const struct bisect *b, const struct base_probe *bp,
		       const struct series *s, const char *what)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	struct json j;
	size_t i;
	int found = b->answer == BISECT_FOUND;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", bp->v->number);
	json_key(&j, "check");
	if (bp->c)
		json_string(&j, bp->c->name);
	else
		json_null(&j);
	json_string_member(&j, "answer", bisect_answer_name(b->answer));
	json_key(&j, "commit");
	if (found)
		json_string(&j, oid_short(&bp->bases[b->first_bad], 40));
	else
		json_null(&j);
	json_key(&j, "last_good");
	if (found)
		json_string(&j, oid_short(&bp->bases[b->last_good], 40));
	else
		json_null(&j);
	json_key(&j, "conflict");
	if (found && bp->conflict[b->first_bad]) {
		json_object_begin(&j);
		json_int_member(&j, "patch",
				(int64_t)bp->failed_patch[b->first_bad] + 1);
		json_string_member(&j, "why", bp->why[b->first_bad].buf);
		json_object_end(&j);
	} else {
		json_null(&j);
	}
	json_int_member(&j, "base_commits", (int64_t)bp->m);
	json_int_member(&j, "tested", (int64_t)b->tested);
	json_int_member(&j, "retries", (int64_t)b->retried);
	json_key(&j, "positions");
	json_array_begin(&j);
	for (i = 0; i <= bp->m; i++) {
		if (b->at[i] == BISECT_UNKNOWN)
			continue;
		json_object_begin(&j);
		json_int_member(&j, "index", (int64_t)i);
		json_string_member(&j, "commit", oid_short(&bp->bases[i], 40));
		json_string_member(&j, "outcome",
				   bisect_outcome_name(b->at[i]));
		json_string_member(&j, "why", bp->why[i].buf);
		json_object_end(&j);
	}
	json_array_end(&j);
	result_line(&line, b, bp, what);
	json_string_member(&j, "line", line.buf);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
	strbuf_release(&line);
}

/*
 * The check named check (and the build it needs) out of the
 * repository's checks into *c; a bench is refused.
 */
static int pick_check(git_repository *repo, struct check_list *checks,
		      const char *check, const char *subtest,
		      const struct check **c)
{
	int r = checks_load(repo, checks);

	if (!r)
		r = bisect_pick_checks(checks, check, subtest, c);
	if (!r && check_kind_ops((*c)->kind)->results == KIND_RESULTS_SAMPLES)
		r = error_code(RESPIN_EUSAGE, "'%s' is a bench: bisect-base "
			       "takes a build, ktap or command check (respin "
			       "bisect finds the patch that slowed a bench)",
			       check);
	return r;
}

/* The answer, naming what was tested (the check, its subtest). */
static void print_answer(const struct bisect *b, const struct base_probe *bp,
			 const struct series *s, const char *subtest, int json)
{
	struct strbuf what = STRBUF_INIT;

	if (bp->c && subtest)
		strbuf_addf(&what, "%s subtest %s", bp->c->name, subtest);
	else if (bp->c)
		strbuf_addstr(&what, bp->c->name);
	if (json)
		print_json(b, bp, s, what.buf);
	else
		print_text(b, bp, s, what.buf);
	strbuf_release(&what);
}

int cmd_bisect_base(int argc, const char **argv, struct command_context *ctx)
{
	const char *good = NULL, *bad = NULL, *check = NULL, *subtest = NULL;
	int retries = -1, json = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "good", &good, "rev", "a base it was fine on"),
		OPT_STRING(0, "bad", &bad, "rev", "a newer base it is broken on"),
		OPT_STRING(0, "check", &check, "check",
			   "run this check on the series applied (else: "
			   "does it apply?)"),
		OPT_STRING(0, "subtest", &subtest, "pattern",
			   "only KTAP subtests matching this glob decide"),
		OPT_INT(0, "retries", &retries, "n",
			"test the boundary again n times (with --check)"),
		OPT_BOOL(0, "json", &json, "the answer as JSON"),
		OPT_END()
	};
	struct check_list checks = { 0 };
	struct results *rs = NULL;
	struct series s;
	struct series_version *v;
	struct engine e;
	struct base_probe bp = { 0 };
	struct bisect b = { 0 };
	struct bisect_probe probe = { base_probe_test, &bp };
	int engine_ready = 0;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (!good || !bad)
		return command_usage_error(opts, usage, "give --good REV (a "
					   "base it was fine on) and --bad REV");
	if (subtest && !check)
		return command_usage_error(opts, usage, "--subtest goes with "
					   "--check");
	series_init(&s, "");
	r = bisect_retries(ctx->repo, &retries);
	if (r < 0)
		goto fail;
	if (check && (r = pick_check(ctx->repo, &checks, check, subtest,
				     &bp.c)) < 0)
		goto fail;
	r = base_probe_init(&bp, ctx->repo, good, bad);
	if (r < 0)
		goto fail;
	series_release(&s);
	r = bisect_load_version(ctx->repo, argv[0], &s, &v);
	if (r < 0)
		goto fail;
	bp.v = v;
	bp.subtest = subtest;
	if (check) {
		r = bisect_engine_start(ctx, &e, &s, v, &checks, &rs,
					&engine_ready);
		if (r < 0)
			goto fail;
		bp.e = &e;
	}
	bisect_init(&b, bp.m);
	b.retries = check ? retries : 0;
	r = bisect_run(&b, &probe);
	if (r < 0) {
		r = command_stopped(r, "what ran is stored");
		goto out;
	}
	print_answer(&b, &bp, &s, subtest, json);
	r = b.answer == BISECT_FOUND ? 0 : RESPIN_FOUND;
	goto out;
fail:
	r = error_report(r);
out:
	bisect_release(&b);
	if (engine_ready)
		engine_release(&e);
	base_probe_release(&bp);
	results_close(rs);
	checks_release(&checks);
	series_release(&s);
	return r;
}
