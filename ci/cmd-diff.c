// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin diff NAME [vA vB]: a range-diff between two recorded versions
 * of a series (without versions: the one before the latest against the
 * latest).  With --results, under each pair, what changed in its
 * stored results.
 */
#include "ci/seriesdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin diff <name> [<vA> <vB>] [--creation-factor <n>] [-s] [--json]"
	" [--results] [--no-title-pairs] [--no-splits]",
	"respin diff <mail-a> <mail-b>   (two versions straight from mail)",
	"respin diff <mail>              (its last two versions)",
	NULL
};

/*
 * A range-diff quotes mail (subjects, patch lines): what a terminal
 * would act on is written escaped, newlines and tabs as they are.  The
 * JSON form escapes for itself (and stays the exact text).
 */
static void put_text(const struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;

	if (term_safe_clean(out->buf, out->len, TERM_SAFE_LINES)) {
		fwrite(out->buf, 1, out->len, stdout);
		return;
	}
	strbuf_add_term_safe(&safe, out->buf, out->len, TERM_SAFE_LINES);
	fwrite(safe.buf, 1, safe.len, stdout);
	strbuf_release(&safe);
}

/* --results with a version that has none: a note saying what to run. */
static void results_note(const struct seriesdiff *sd)
{
	const struct seriesdiff_results *dr = &sd->dr;
	int va = sd->va->number, vb = sd->vb->number;
	const char *name = sd->s->name;

	if (dr->on)
		return;
	if (va == vb)
		fprintf(stderr, "note: no results stored for v%d; run respin "
			"check %s@v%d\n", va, name, va);
	else if (!dr->grid[0].any && !dr->grid[1].any)
		fprintf(stderr, "note: no results stored for v%d or v%d; run "
			"respin check\n", va, vb);
	else
		fprintf(stderr, "note: no results stored for v%d; run respin "
			"check %s@v%d\n", dr->grid[0].any ? vb : va, name,
			dr->grid[0].any ? vb : va);
}

/* respin diff MAIL [MAIL]: the text, printed. */
static int diff_mail(git_repository *repo, int n, const char **argv,
		     const struct seriesdiff_options *o, unsigned flags)
{
	struct strbuf out = STRBUF_INIT;
	int r = seriesdiff_mail(repo, n, argv, o, flags, &out);

	if (!r)
		put_text(&out);
	strbuf_release(&out);
	return r < 0 ? error_report(r) : 0;
}

int cmd_diff(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, no_patch = 0, results = 0, no_title = 0, no_splits = 0;
	int exit_code, n, r;
	int creation_factor = RANGEDIFF_CREATION_FACTOR;
	struct option opts[] = {
		OPT_INT(0, "creation-factor", &creation_factor, "n",
			"percentage by which creating a patch is weighted "
			"(default 60)"),
		OPT_BOOL('s', "no-patch", &no_patch,
			 "show the pairing lines only"),
		OPT_BOOL(0, "json", &json, "print the pairs as JSON"),
		OPT_BOOL(0, "results", &results,
			 "show what changed in each pair's stored results"),
		OPT_BOOL(0, "no-title-pairs", &no_title,
			 "pair as git range-diff alone: no pairing of its "
			 "leftovers by subject and author"),
		OPT_BOOL(0, "no-splits", &no_splits,
			 "say nothing of patches split or squashed"),
		OPT_END()
	};
	struct seriesdiff_options o;
	struct strbuf out = STRBUF_INIT;
	struct series s;
	struct series_version *latest, *va = NULL, *vb = NULL;
	struct seriesdiff sd;
	unsigned flags;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n == 0)
		return command_usage_error(opts, usage,
					   "which series? give NAME [vA vB]");
	if (creation_factor < 0)
		return command_usage_error(opts, usage,
					   "--creation-factor must be 0 or more");
	o.creation_factor = creation_factor;
	o.title_pairs = !no_title;
	o.find_splits = !no_splits;
	o.results = results;
	flags = no_patch ? RANGEDIFF_NO_PATCH : 0;
	if ((n == 2 || (n == 1 && !ctx->repo)) &&
	    seriesdiff_is_mail_source(argv[0]) &&
	    (n == 1 || seriesdiff_is_mail_source(argv[1]))) {
		if (results)
			return command_usage_error(opts, usage, "--results "
				"needs a series recorded in a repository, not "
				"mail");
		return diff_mail(ctx->repo, n, argv, &o, flags);
	}
	if (n == 1 && access(argv[0], R_OK) == 0 && !strchr(argv[0], '@')) {
		struct series probe;

		/* a file, not a series name: its last two versions */
		if (series_load(ctx->repo, argv[0], &probe, SERIES_LOAD_LATEST) ==
		    RESPIN_ENOTFOUND) {
			series_release(&probe);
			error_clear();
			if (results)
				return command_usage_error(opts, usage,
					"--results needs a series recorded in "
					"a repository, not mail");
			return diff_mail(ctx->repo, 1, argv, &o, flags);
		}
		series_release(&probe);
		error_clear();
	}
	if (!ctx->repo)
		return error_report(error("not a git repository, and '%s' is "
					  "not mail to compare", argv[0]));
	if (n == 2)
		return command_usage_error(opts, usage,
					   "give two versions, or none");
	if (n > 3)
		return command_usage_error(opts, usage, "too many arguments");
	if (n == 3 && (series_version_parse(argv[1]) < 0 ||
		       series_version_parse(argv[2]) < 0))
		return command_usage_error(opts, usage,
					   "not a version: '%s' (give vN or N)",
					   series_version_parse(argv[1]) < 0 ?
					   argv[1] : argv[2]);

	memset(&sd, 0, sizeof(sd));
	r = series_load_spec(ctx->repo, argv[0], &s, &latest);
	if (!r)
		r = seriesdiff_pick_versions(&s, latest,
					     n == 3 ? argv[1] : NULL,
					     n == 3 ? argv[2] : NULL, &va, &vb);
	if (!r)
		r = seriesdiff_versions(ctx->repo, &s, va, vb, &o, &sd);
	if (!r && results)
		results_note(&sd);
	if (!r)
		r = json ? seriesdiff_json(&sd, &out) :
			   seriesdiff_text(&sd, flags, &out);
	if (!r)
		put_text(&out);
	strbuf_release(&out);
	seriesdiff_release(&sd);
	series_release(&s);
	return r < 0 ? error_report(r) : 0;
}
