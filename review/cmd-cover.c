// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin cover NAME[@vN]: print the finished cover letter of a version;
 * --edit or --file F: change the text it is made from.
 */
#include "review/changelog.h"
#include "review/cover.h"
#include "review/coveredit.h"
#include "series/trailerdiff.h"
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
	"respin cover <name>[@v<n>] [--subject-prefix <p>] [--rfc] "
	"[--no-results] [--template <file>] [--json]",
	"respin cover <name>[@v<n>] --edit",
	"respin cover <name>[@v<n>] --file <file>",
	"respin cover --default-template",
	NULL
};

/*
 * The tags v's unchanged patches lost since the version before it: a
 * problem in them is said (a warning) and is no reason not to go on.
 */
static void lost_since_previous(git_repository *repo, struct series *s,
				struct series_version *v, struct trailerdiff *td)
{
	if (trailerdiff_since_previous(td, repo, s, v) < 0) {
		warning("cannot compare the tags of %s v%d with the version "
			"before it: %s", s->name, v->number, error_last());
		error_clear();
		trailerdiff_release(td);
	}
}

static void print_stored(const struct series *s,
			 const struct series_version *v, int stored)
{
	printf("%s v%d: %s\n", s->name, v->number, stored ?
	       "cover text stored" : "the cover text is unchanged");
}

/* --edit: the text in the user's editor, run as git runs it. */
static int edit_text(git_repository *repo, struct series *s,
		     struct series_version *v)
{
	struct cover_edit ed;
	struct strbuf script = STRBUF_INIT;
	const char *argv[] = { "sh", "-c", NULL, NULL, NULL, NULL };
	int stored, r;

	cover_edit_init(&ed);
	r = cover_edit_begin(repo, s, v, &ed);
	if (!r) {
		strbuf_addf(&script, "%s \"$@\"", ed.editor);
		argv[2] = script.buf;
		argv[3] = ed.editor;
		argv[4] = ed.path.buf;
		r = run_interactive(argv);
	}
	if (r > 0)
		r = error("the editor (%s) exited with %d; the cover text is "
			  "unchanged (your text is in %s)", ed.editor, r,
			  ed.path.buf);
	if (!r)
		r = cover_edit_end(repo, s, v, &ed, &stored);
	if (!r)
		print_stored(s, v, stored);
	cover_edit_release(&ed);
	strbuf_release(&script);
	return r;
}

static int file_text(git_repository *repo, struct series *s,
		     struct series_version *v, const char *file)
{
	int stored, r = cover_text_from_file(repo, s, v, file, &stored);

	if (!r)
		print_stored(s, v, stored);
	return r;
}

static void print_json(const struct cover_letter *c, const struct series *s,
		       const struct series_version *v,
		       const struct trailerdiff *td)
{
	struct strbuf out = STRBUF_INIT;
	struct json j;
	size_t i;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_string_member(&j, "subject", c->subject.buf);
	json_string_member(&j, "body", c->body.buf);
	json_bool_member(&j, "stored_text", c->have_text);
	json_key(&j, "lost_trailers");
	json_array_begin(&j);
	for (i = 0; i < td->nr; i++)
		trailerdiff_lost_json(&j, td, &td->items[i]);
	json_array_end(&j);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
}

/* The letter: escaped on a terminal, as it will be sent elsewhere. */
static void print_letter(const struct cover_letter *c, int tty)
{
	if (!tty) {
		printf("Subject: %s\n\n%s", c->subject.buf, c->body.buf);
		return;
	}
	fputs("Subject: ", stdout);
	fputs_term_safe(stdout, c->subject.buf, c->subject.len, 0);
	fputs("\n\n", stdout);
	fputs_term_safe(stdout, c->body.buf, c->body.len, TERM_SAFE_LINES);
}

/* The finished letter of v, printed, and the tags lost for its author. */
static int show_letter(struct command_context *ctx, struct series *s,
		       struct series_version *v, struct cover_options *co,
		       int json)
{
	struct cover_letter c = { STRBUF_INIT, STRBUF_INIT, 0 };
	struct trailerdiff td = { 0 };
	char *lore = repo_lore_url(ctx->repo);
	size_t i;
	int r;

	co->lore_url = lore;
	r = cover_build(ctx->repo, s, v, co, &c);
	if (r < 0)
		goto out;
	lost_since_previous(ctx->repo, s, v, &td);
	if (json)
		print_json(&c, s, v, &td);
	else
		print_letter(&c, ctx->stdout_is_tty);
	/* for the author, not the list: never in the letter itself */
	for (i = 0; !json && i < td.nr; i++) {
		struct strbuf line = STRBUF_INIT;

		fflush(stdout);
		trailerdiff_line(&td, i, &line);
		warning("%s", line.buf);
		strbuf_release(&line);
	}
	trailerdiff_release(&td);
out:
	cover_letter_release(&c);
	free(lore);
	return r;
}

int cmd_cover(int argc, const char **argv, struct command_context *ctx)
{
	const char *file = NULL, *prefix = NULL, *tmpl_file = NULL;
	int edit = 0, rfc = 0, no_results = 0, json = 0, def = 0;
	int exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "edit", &edit, "edit the text in $GIT_EDITOR"),
		OPT_STRING(0, "file", &file, "file",
			   "take the text from FILE (- for stdin)"),
		OPT_STRING(0, "subject-prefix", &prefix, "prefix",
			   "instead of PATCH, e.g. \"PATCH mm-unstable\""),
		OPT_BOOL(0, "rfc", &rfc, "prefix RFC (\"RFC PATCH\")"),
		OPT_BOOL(0, "no-results", &no_results,
			 "leave the results of respin check out"),
		OPT_STRING(0, "template", &tmpl_file, "file",
			   "lay it out with the template in FILE"),
		OPT_BOOL(0, "default-template", &def,
			 "print the built-in template"),
		OPT_BOOL(0, "json", &json, "print subject and body as JSON"),
		OPT_END()
	};
	struct cover_options co = { 0 };
	struct strbuf pfx = STRBUF_INIT, tmpl = STRBUF_INIT;
	struct series s;
	struct series_version *v;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (def) {
		if (n)
			return command_usage_error(opts, usage,
						   "--default-template takes "
						   "no series");
		fputs(cover_default_template, stdout);
		return 0;
	}
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (edit && file)
		return command_usage_error(opts, usage, "--edit and --file "
					   "contradict each other");
	if ((edit || file) && (prefix || rfc || no_results || tmpl_file || json))
		return command_usage_error(opts, usage, "--%s changes the text; "
					   "print options do not go with it",
					   edit ? "edit" : "file");
	if (tmpl_file && strbuf_read_file(&tmpl, tmpl_file) < 0) {
		r = error_report(error_errno("cannot read the template %s",
					     tmpl_file));
		strbuf_release(&tmpl);
		return r;
	}
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (!r && edit) {
		r = edit_text(ctx->repo, &s, v);
	} else if (!r && file) {
		r = file_text(ctx->repo, &s, v, file);
	} else if (!r) {
		cover_subject_prefix(ctx->repo, &s, v, prefix, rfc, &pfx);
		co.prefix = pfx.buf;
		co.no_results = no_results;
		if (tmpl_file) {
			co.template_text = tmpl.buf;
			co.template_origin = tmpl_file;
		}
		r = show_letter(ctx, &s, v, &co, json);
	}
	if (r < 0)
		r = error_report(r);
	series_release(&s);
	strbuf_release(&pfx);
	strbuf_release(&tmpl);
	return r;
}
