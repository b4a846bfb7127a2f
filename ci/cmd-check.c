// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin check NAME[@vN] [--only C1,C2] [--patch i] [--base-too] [--wait]
 *
 * Runs each configured check on each patch of a version (and on the
 * base for builds and benches), reusing every stored result.  One
 * respin at a time checks a series (its lock); SIGINT, SIGTERM and
 * SIGHUP end the running command's process group, record nothing for
 * it and end respin by the same signal.
 */
#include "ci/engine.h"
#include "ci/executor.h"
#include "ci/session.h"
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
	"respin check <name>[@v<n>] [--preset <p>] [--only <c1,c2>] [--patch <i>] [--base-too] [-j <n>] [--wait]",
	"respin check --list [--preset <p>] [--json]",
	NULL
};

static int list_checks(struct check_list *l, int json)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	if (json) {
		struct json j;

		json_init(&j, &out, 1);
		json_array_begin(&j);
		for (i = 0; i < l->nr; i++) {
			const struct check *c = &l->items[i];

			json_object_begin(&j);
			json_string_member(&j, "name", c->name);
			json_string_member(&j, "kind", check_kind_name(c->kind));
			json_string_member(&j, "command", c->command);
			check_describe_json(c, &j);
			json_key(&j, "timeout");
			json_double(&j, c->timeout);
			json_bool_member(&j, "builtin", c->builtin);
			if (c->preset)
				json_string_member(&j, "preset", c->preset);
			if (c->kconfig)
				json_string_member(&j, "kconfig", c->kconfig);
			if (c->guest)
				json_bool_member(&j, "guest", 1);
			if (c->partition)
				json_string_member(&j, "partition",
						   c->partition);
			if (c->constraint)
				json_string_member(&j, "constraint",
						   c->constraint);
			json_string_member(&j, "definition", c->hash);
			json_object_end(&j);
		}
		json_array_end(&j);
		strbuf_addch(&out, '\n');
	} else {
		for (i = 0; i < l->nr; i++) {
			const struct check *c = &l->items[i];

			strbuf_addf(&out, "%-16s %-8s ", c->name,
				    check_kind_name(c->kind));
			check_describe(c, &out);
			if (c->vmstat)
				strbuf_addf(&out, " (vmstat %s)", c->vmstat);
			if (c->guest)
				strbuf_addstr(&out, " (in the patch's kernel: "
					      "respin-guest)");
			if (c->builtin || c->preset)
				strbuf_addf(&out, "  [%s%s%s%s]",
					    c->builtin ? "built in" : "",
					    c->builtin && c->preset ? ", " : "",
					    c->preset ? "preset " : "",
					    c->preset ? c->preset : "");
			strbuf_addch(&out, '\n');
		}
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	return 0;
}

/* Where each check runs: a bad setting stops it before any work. */
static int executors_check(git_repository *repo,
			   const struct check_list *checks)
{
	size_t i;
	int r = 0;

	for (i = 0; i < checks->nr && r >= 0; i++) {
		struct executor x;

		r = executor_open(repo, checks->items[i].name, &x);
		executor_release(&x);
	}
	return r < 0 ? r : 0;
}

/* The run's report: it quotes subjects and what the checks printed. */
static void report_print(const struct engine *e)
{
	struct strbuf safe = STRBUF_INIT;

	strbuf_add_term_safe(&safe, e->report.buf, e->report.len,
			     TERM_SAFE_LINES);
	fputs(safe.buf, stderr);
	strbuf_release(&safe);
}

/* Interrupted: what became of the running work; the exit code. */
static int interrupted(const struct engine *e)
{
	if (e->queued)
		fprintf(stderr, "respin: %s: the jobs queued on the cluster "
			"go on; the next respin check finds them by name and "
			"records what they give\n", term_safe(error_last()));
	else
		fprintf(stderr, "respin: %s: the running command's process "
			"group was ended; nothing was recorded for it\n",
			term_safe(error_last()));
	error_clear();
	return 128 + run_interrupted();
}

int cmd_check(int argc, const char **argv, struct command_context *ctx)
{
	const char *only = NULL, *preset = NULL;
	int patch = -1, base_too = 0, list = 0, json = 0, jobs = 1, wait = 0;
	int exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "preset", &preset, "p", "add preset p's checks "
			   "(mm; respin.check.preset keeps one)"),
		OPT_STRING(0, "only", &only, "c1,c2", "run only these checks"),
		OPT_INT(0, "patch", &patch, "i", "only patch i (0: the base)"),
		OPT_BOOL(0, "base-too", &base_too,
			 "run tests on the base as well"),
		OPT_INT('j', "jobs", &jobs, "n",
			"run up to N checks that need no build at once"),
		OPT_BOOL(0, "wait", &wait, "wait while another respin checks "
			 "the series (default: stop, exit 128)"),
		OPT_BOOL(0, "list", &list, "list the configured checks"),
		OPT_BOOL(0, "json", &json, "with --list: JSON"),
		OPT_END()
	};
	struct check_list checks = { 0 };
	struct results *rs = NULL;
	struct series s;
	struct series_version *v;
	struct engine e;
	int engine_ready = 0;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	series_init(&s, "");
	r = checks_load_preset(ctx->repo, preset, &checks);
	if (r < 0)
		goto fail;
	if (only) {
		r = checks_filter(&checks, only);
		if (r < 0)
			goto fail;
	}
	if (list) {
		r = list_checks(&checks, json);
		goto out;
	}
	r = executors_check(ctx->repo, &checks);
	if (r < 0)
		goto fail;
	if (n != 1) {
		r = command_usage_error(opts, usage, n ? "too many arguments" :
					"which series? give NAME[@vN]");
		goto out;
	}
	if (jobs < 1 || jobs > 256) {
		r = command_usage_error(opts, usage, "-j wants 1 to 256, not %d",
					jobs);
		goto out;
	}
	series_release(&s);
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0)
		goto fail;
	if (patch > (int)v->nr_patches || patch < -1) {
		r = error_code(RESPIN_EUSAGE, "%s v%d has patches 1..%zu; "
			       "--patch %d is not one", s.name, v->number,
			       v->nr_patches, patch);
		goto fail;
	}
	r = check_session_open(ctx, &e, &s, v, &checks, &rs, &engine_ready);
	if (r == 1 && wait) {
		fprintf(stderr, "respin: %s; waiting...\n", error_last());
		error_clear();
		r = engine_lock(&e, 1, run_interrupted);
		if (r == 1 && run_interrupted())
			r = run_error_interrupted();
	}
	if (r == 1)
		r = RESPIN_ERR;
	if (r < 0)
		goto fail;
	e.only = patch;
	e.base_too = base_too;
	e.jobs = jobs;
	r = engine_run(&e);
	report_print(&e);
	if (r < 0 && run_interrupted()) {
		r = interrupted(&e);
		goto out;
	}
	if (r < 0)
		goto fail;
	printf("%zu run, %zu reused, %zu failed\n", e.ran, e.reused,
	       e.failed + e.errors);
	if (preset && !checks_preset_configured(ctx->repo, preset))
		fprintf(stderr, "hint: 'respin results %s --preset %s' shows "
			"them; 'git config respin.check.preset %s' makes the "
			"preset every command's (results, diff --results, the "
			"cover letter)\n", s.name, preset, preset);
	r = e.failed || e.errors ? RESPIN_FOUND : 0;
	goto out;
fail:
	r = error_report(r);
out:
	if (engine_ready)
		engine_release(&e);
	results_close(rs);
	checks_release(&checks);
	series_release(&s);
	return r;
}
