// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin results NAME[@vN] [--json] [--check C --patch i]
 *
 * The stored results of a version: one row a patch (and the base), one
 * column a check.
 */
#include "ci/benchtable.h"
#include "ci/engine.h"
#include "ci/grid.h"
#include "ci/kind.h"
#include "ci/warnings.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin results <name>[@v<n>] [--preset <p>] [--json | --format <f>]",
	"respin results <name>[@v<n>] [--preset <p>] --check <c> --patch <i>",
	NULL
};

static void table(struct engine *e, struct grid_cell *cells, size_t ncols,
		  struct strbuf *out)
{
	size_t i, k, n = e->v->nr_patches, *width, lw;
	struct strbuf cell = STRBUF_INIT, label = STRBUF_INIT;

	width = xcalloc(ncols + 1, sizeof(*width));
	strbuf_addf(&label, "%zu/%zu", n, n);
	lw = label.len > 4 ? label.len : 4;
	for (k = 0; k < ncols; k++) {
		width[k] = strlen(e->checks->items[k].name);
		for (i = 0; i <= n; i++) {
			strbuf_reset(&cell);
			grid_cell_text(&cell, &e->checks->items[k],
				  &cells[i * ncols + k], i);
			if (cell.len > width[k])
				width[k] = cell.len;
		}
	}
	strbuf_addf(out, "%-*s", (int)lw, "");
	for (k = 0; k < ncols; k++)
		strbuf_addf(out, "  %-*s", (int)width[k],
			    e->checks->items[k].name);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i <= n; i++) {
		strbuf_reset(&label);
		if (i)
			strbuf_addf(&label, "%zu/%zu", i, n);
		else
			strbuf_addstr(&label, "base");
		strbuf_addf(out, "%*s", (int)lw, label.buf);
		for (k = 0; k < ncols; k++) {
			strbuf_reset(&cell);
			grid_cell_text(&cell, &e->checks->items[k],
				  &cells[i * ncols + k], i);
			strbuf_addf(out, "  %-*s", (int)width[k], cell.buf);
		}
		if (i)
			strbuf_addf(out, "  %s",
				    term_safe(e->v->patches[i - 1].subject));
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&cell);
	strbuf_release(&label);
	free(width);
}

static void json_table(struct engine *e, struct grid_cell *cells, size_t ncols,
		       struct strbuf *out)
{
	size_t i, k, n = e->v->nr_patches;
	struct json j;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", e->s->name);
	json_int_member(&j, "version", e->v->number);
	json_key(&j, "patches");
	json_array_begin(&j);
	for (i = 0; i <= n; i++) {
		json_object_begin(&j);
		json_int_member(&j, "index", (int64_t)i);
		json_string_member(&j, "subject", i ?
				   e->v->patches[i - 1].subject : NULL);
		json_string_member(&j, "commit",
				   oid_short(engine_commit(e->v, i), 40));
		json_key(&j, "results");
		json_object_begin(&j);
		for (k = 0; k < ncols; k++) {
			const struct check *c = &e->checks->items[k];
			const struct grid_cell *cell = &cells[i * ncols + k];

			if (!cell->have)
				continue;
			json_key(&j, c->name);
			json_object_begin(&j);
			json_string_member(&j, "kind", check_kind_name(c->kind));
			json_string_member(&j, "status",
					   result_status_name(cell->res.status));
			json_string_member(&j, "summary", cell->res.summary);
			json_key(&j, "duration");
			json_double(&j, cell->res.duration);
			if (check_kind_ops(c->kind)->results ==
			    KIND_RESULTS_SAMPLES) {
				size_t w;

				json_key(&j, "samples");
				json_array_begin(&j);
				for (w = 0; w < cell->nr_samples; w++)
					json_double(&j, cell->samples[w]);
				json_array_end(&j);
				json_key(&j, "mean");
				json_double(&j, stats_mean(cell->samples,
							   cell->nr_samples));
				json_key(&j, "stddev");
				json_double(&j, stats_stddev(cell->samples,
							     cell->nr_samples));
				if (cell->have_cmp)
					grid_comparison_json(&j, &cell->cmp);
				grid_metrics_json(&j, cell);
			}
			if (cell->ks) {	/* kselftest's (grid.c) */
				warning_set_json(&j, "new_tests",
						 &cell->ks->new_tests);
				warning_set_json(&j, "gone_tests",
						 &cell->ks->gone_tests);
				warning_set_json(&j, "broken_tests",
						 &cell->ks->broken);
				warning_set_json(&j, "fixed_tests",
						 &cell->ks->fixed);
				warning_set_json(&j, "flipped_tests",
						 &cell->ks->flipped);
			}
			if (c->guest) {
				warning_set_json(&j, "runtime_warnings",
						 &cell->warnings);
				warning_set_json(&j, "new_runtime_warnings",
						 &cell->added);
				warning_set_json(&j, "fixed_runtime_warnings",
						 &cell->fixed);
			}
			if (check_kind_ops(c->kind)->results ==
			    KIND_RESULTS_WARNINGS) {
				warning_set_json(&j, "warnings", &cell->warnings);
				warning_set_json(&j, "new_warnings", &cell->added);
				warning_set_json(&j, "fixed_warnings", &cell->fixed);
			}
			json_object_end(&j);
		}
		json_object_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/* Every bench's tables as mmtests prints them (ci/benchtable.h). */
static int mmtests_tables(struct engine *e, const struct grid *g,
			  struct strbuf *out)
{
	size_t k;

	for (k = 0; k < e->checks->nr; k++) {
		const struct check *c = &e->checks->items[k];
		size_t before = out->len;

		if (check_kind_ops(c->kind)->results != KIND_RESULTS_SAMPLES)
			continue;
		if (out->len)
			strbuf_addch(out, '\n');
		bench_table_by_patch(out, c, g, k);
		if (out->len == before + (before ? 1 : 0))
			strbuf_setlen(out, before);
	}
	if (!out->len)
		return error_code(RESPIN_ENOTFOUND, "no bench results stored "
				  "for %s v%d: run 'respin check %s@v%d' with "
				  "a bench check (kind = bench)", e->s->name,
				  e->v->number, e->s->name, e->v->number);
	return 0;
}

static int detail(struct engine *e, struct grid_cell *cells, size_t ncols,
		  const char *check, int patch, struct strbuf *out)
{
	const struct check *c = checks_find(e->checks, check);
	const struct grid_cell *cell;
	size_t k, w;
	int r;

	if (!c)
		return error_code(RESPIN_EUSAGE, "no check named '%s'", check);
	if (patch < 0 || (size_t)patch > e->v->nr_patches)
		return error_code(RESPIN_EUSAGE, "%s v%d has no patch %d",
				  e->s->name, e->v->number, patch);
	k = (size_t)(c - e->checks->items);
	cell = &cells[(size_t)patch * ncols + k];
	if (!cell->have)
		return error_code(RESPIN_ENOTFOUND, "no stored %s result for "
				  "%s at %d/%zu: run 'respin check %s@v%d'",
				  check, e->s->name, patch, e->v->nr_patches,
				  e->s->name, e->v->number);
	strbuf_addf(out, "check     %s (%s)\n", c->name,
		    check_kind_name(c->kind));
	strbuf_addf(out, "patch     %d/%zu %s\n", patch, e->v->nr_patches,
		    patch ? term_safe(e->v->patches[patch - 1].subject) :
		    "(base)");
	strbuf_addf(out, "status    %s\n", result_status_name(cell->res.status));
	strbuf_addf(out, "summary   %s\n", cell->res.summary);
	strbuf_addf(out, "duration  %.1fs\n", cell->res.duration);
	for (w = 0; w < cell->added.nr; w++)
		strbuf_addf(out, "new       %s\n", cell->added.items[w]);
	for (w = 0; w < cell->fixed.nr; w++)
		strbuf_addf(out, "fixed     %s\n", cell->fixed.items[w]);
	strbuf_addstr(out, "\n--- log ---\n");
	r = results_log(e->rs, c->hash, cell->res.key, out);
	return r;
}

int cmd_results(int argc, const char **argv, struct command_context *ctx)
{
	const char *check = NULL, *preset = NULL, *format = NULL;
	int patch = -1, json = 0, mmtests = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_STRING(0, "format", &format, "f", "text, json, or mmtests "
			   "(the benches' tables as mmtests compares them)"),
		OPT_STRING(0, "preset", &preset, "p", "with preset p's checks "
			   "(as respin check --preset p ran them)"),
		OPT_STRING(0, "check", &check, "c", "details of one check"),
		OPT_INT(0, "patch", &patch, "i", "at patch i (0: the base)"),
		OPT_END()
	};
	struct check_list checks = { 0 };
	struct results *rs = NULL;
	struct series s;
	struct series_version *v;
	struct engine e;
	struct grid grid = { 0 };
	struct grid_cell *cells = NULL;
	struct strbuf out = STRBUF_INIT;
	int ready = 0;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (!check != (patch < 0))
		return command_usage_error(opts, usage, "--check and --patch "
					   "go together");
	if (format && strcmp(format, "text") && strcmp(format, "json") &&
	    strcmp(format, "mmtests"))
		return command_usage_error(opts, usage, "--format: '%s' is not "
					   "text, json or mmtests", format);
	if (format && json && strcmp(format, "json"))
		return command_usage_error(opts, usage, "--json and --format "
					   "%s: give one", format);
	if (format && check)
		return command_usage_error(opts, usage, "--format shows every "
					   "check: it takes no --check");
	json |= format && !strcmp(format, "json");
	mmtests = format && !strcmp(format, "mmtests");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0)
		goto fail;
	r = checks_load_preset(ctx->repo, preset, &checks);
	if (!r)
		r = results_open(ctx->repo, &rs);
	if (r < 0)
		goto fail;
	if (series_version_mail_only(v)) {
		r = error("%s v%d was recorded from mail only: it has no "
			  "results", s.name, v->number);
		goto fail;
	}
	engine_init(&e, ctx->repo, &s, v, &checks, rs);
	ready = 1;
	r = grid_load(&grid, ctx->repo, rs, &checks, v);
	cells = grid.cells;
	if (r < 0)
		goto fail;
	if (check)
		r = detail(&e, cells, checks.nr, check, patch, &out);
	else if (mmtests)
		r = mmtests_tables(&e, &grid, &out);
	else if (json)
		json_table(&e, cells, checks.nr, &out);
	else
		table(&e, cells, checks.nr, &out);
	if (r < 0)
		goto fail;
	if (json || term_safe_clean(out.buf, out.len, TERM_SAFE_LINES)) {
		fwrite(out.buf, 1, out.len, stdout);
	} else {
		/* a log quotes what the patch made the commands print */
		struct strbuf safe = STRBUF_INIT;

		strbuf_add_term_safe(&safe, out.buf, out.len, TERM_SAFE_LINES);
		fwrite(safe.buf, 1, safe.len, stdout);
		strbuf_release(&safe);
	}
	goto out;
fail:
	r = error_report(r);
out:
	grid_release(&grid);
	if (ready)
		engine_release(&e);
	results_close(rs);
	checks_release(&checks);
	series_release(&s);
	strbuf_release(&out);
	return r;
}
