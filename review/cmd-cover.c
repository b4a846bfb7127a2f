// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin cover NAME[@vN]: print the finished cover letter of a version;
 * --edit or --file F: change the text it is made from.
 */
#include "review/changelog.h"
#include "review/cover.h"
#include "review/sendto.h"
#include "series/trailerdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"
#include "tools/lib/termsafe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Stores text as v's cover; says so, or that nothing changed. */
static int store_text(git_repository *repo, struct series *s,
		      struct series_version *v, struct strbuf *text)
{
	struct strbuf old = STRBUF_INIT, msg = STRBUF_INIT;
	int r;

	strbuf_rtrim(text);
	if (!text->len)
		return error("the cover text is empty; nothing changed");
	strbuf_addch(text, '\n');
	r = series_version_text(repo, s, v, SERIES_TEXT_COVER, &old);
	if (r < 0 && r != RESPIN_ENOTFOUND)
		goto out;
	if (!r && old.len == text->len && !memcmp(old.buf, text->buf, old.len)) {
		printf("%s v%d: the cover text is unchanged\n", s->name,
		       v->number);
		r = 0;
		goto out;
	}
	series_version_set_text(v, SERIES_TEXT_COVER, text->buf, text->len);
	strbuf_addf(&msg, "respin cover: %s v%d", s->name, v->number);
	r = series_save(repo, s, NULL, msg.buf);
	if (!r)
		printf("%s v%d: cover text stored\n", s->name, v->number);
out:
	strbuf_release(&old);
	strbuf_release(&msg);
	return r;
}

/* Equal but for white space at the end. */
static int same_text(struct strbuf *a, struct strbuf *b)
{
	strbuf_rtrim(a);
	strbuf_rtrim(b);
	return a->len == b->len && !memcmp(a->buf, b->buf, a->len);
}

static int edit_text(git_repository *repo, struct series *s,
		     struct series_version *v)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, seed = STRBUF_INIT;
	struct strbuf offered = STRBUF_INIT;
	char *editor = repo_editor(repo);
	const char *argv[] = { "sh", "-c", NULL, NULL, NULL, NULL };
	struct strbuf script = STRBUF_INIT;
	FILE *f;
	struct trailerdiff td;
	int r = cover_edit_seed(repo, s, v, &text);
	size_t i;

	if (r < 0)
		goto out;
	/* who respin send would send it to, to edit with the text */
	if (sendto_offer(repo, s, v, &text, &offered) < 0) {
		warning("no recipients to edit: %s", error_last());
		error_clear();
		strbuf_reset(&offered);
	}
	/* what the author must put back, where they write the letter */
	lost_since_previous(repo, s, v, &td);
	if (td.nr)
		strbuf_addf(&text, "#\n# Tags lost since v%d (put them back "
			    "in the commits):\n", td.va);
	for (i = 0; i < td.nr; i++) {
		strbuf_addstr(&text, "# ");
		trailerdiff_line(&td, i, &text);
		strbuf_addch(&text, '\n');
	}
	trailerdiff_release(&td);
	strbuf_addf(&path, "%srespin", git_repository_path(repo));
	if (mkdir(path.buf, 0777) < 0 && errno != EEXIST) {
		r = error_errno("cannot make %s", path.buf);
		goto out;
	}
	strbuf_addstr(&path, "/COVER_EDITMSG");
	f = fopen(path.buf, "w");
	if (!f || fwrite(text.buf, 1, text.len, f) != text.len ||
	    fclose(f) != 0) {
		r = error_errno("cannot write %s", path.buf);
		goto out;
	}
	strbuf_add(&seed, text.buf, text.len);
	cover_strip_comments(&seed);
	/* the editor is the user's own setting: run it as git does */
	strbuf_addf(&script, "%s \"$@\"", editor);
	argv[2] = script.buf;
	argv[3] = editor;
	argv[4] = path.buf;
	r = run_interactive(argv);
	if (r > 0) {
		r = error("the editor (%s) exited with %d; the cover text is "
			  "unchanged (your text is in %s)", editor, r,
			  path.buf);
		goto out;
	}
	if (r < 0)
		goto out;
	strbuf_reset(&text);
	if (strbuf_read_file(&text, path.buf) < 0) {
		r = error_errno("cannot read %s", path.buf);
		goto out;
	}
	cover_strip_comments(&text);
	if (same_text(&text, &seed)) {
		/* closed without a change: keep what is stored */
		printf("%s v%d: the cover text is unchanged\n", s->name,
		       v->number);
		unlink(path.buf);
		r = 0;
		goto out;
	}
	if (offered.len)
		series_version_set_text(v, SERIES_TEXT_OFFERED, offered.buf,
				      offered.len);
	r = store_text(repo, s, v, &text);
	if (!r)
		unlink(path.buf);
out:
	free(editor);
	strbuf_release(&offered);
	strbuf_release(&script);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&seed);
	return r;
}

static int file_text(git_repository *repo, struct series *s,
		     struct series_version *v, const char *file)
{
	struct strbuf text = STRBUF_INIT;
	int r;

	if (!strcmp(file, "-"))
		r = strbuf_read_fd(&text, 0);
	else
		r = strbuf_read_file(&text, file);
	if (r < 0)
		r = error_errno("cannot read %s",
				strcmp(file, "-") ? file : "standard input");
	else if (!text.len)
		r = error("%s is empty; the cover text is unchanged", file);
	else {
		/*
		 * The text is all the author's: nothing it lacks is left
		 * out, not even what an older version's edit turned down.
		 */
		static const char none[] =
			"# none: the text was given whole (respin cover --file)\n";

		series_version_set_text(v, SERIES_TEXT_OFFERED, none,
				      sizeof(none) - 1);
		r = store_text(repo, s, v, &text);
	}
	strbuf_release(&text);
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
	struct cover_letter c = { STRBUF_INIT, STRBUF_INIT, 0 };
	struct strbuf pfx = STRBUF_INIT, tmpl = STRBUF_INIT;
	struct series s;
	struct series_version *v;
	struct trailerdiff td = { 0 };
	char *lore = NULL;
	size_t i;

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
	if (r < 0)
		goto fail;
	if (edit) {
		r = edit_text(ctx->repo, &s, v);
		goto done_or_fail;
	}
	if (file) {
		r = file_text(ctx->repo, &s, v, file);
		goto done_or_fail;
	}
	cover_subject_prefix(ctx->repo, &s, v, prefix, rfc, &pfx);
	lore = repo_lore_url(ctx->repo);
	co.prefix = pfx.buf;
	co.lore_url = lore;
	co.no_results = no_results;
	if (tmpl_file) {
		co.template_text = tmpl.buf;
		co.template_origin = tmpl_file;
	}
	r = cover_build(ctx->repo, &s, v, &co, &c);
	if (r < 0)
		goto fail;
	lost_since_previous(ctx->repo, &s, v, &td);
	if (json) {
		print_json(&c, &s, v, &td);
	} else if (ctx->stdout_is_tty) {
		/*
		 * On a terminal what it would act on shows escaped; into a
		 * pipe or a file goes the letter as it will be sent.
		 */
		struct strbuf safe = STRBUF_INIT;

		strbuf_addstr(&safe, "Subject: ");
		strbuf_add_term_safe(&safe, c.subject.buf, c.subject.len, 0);
		strbuf_addstr(&safe, "\n\n");
		strbuf_add_term_safe(&safe, c.body.buf, c.body.len,
				     TERM_SAFE_LINES);
		fputs(safe.buf, stdout);
		strbuf_release(&safe);
	} else {
		printf("Subject: %s\n\n%s", c.subject.buf, c.body.buf);
	}
	/* for the author, not the list: never in the letter itself */
	for (i = 0; !json && i < td.nr; i++) {
		struct strbuf line = STRBUF_INIT;

		fflush(stdout);
		trailerdiff_line(&td, i, &line);
		warning("%s", line.buf);
		strbuf_release(&line);
	}
	trailerdiff_release(&td);
	cover_letter_release(&c);
	goto done;
done_or_fail:
	if (r < 0)
		goto fail;
done:
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	series_release(&s);
	strbuf_release(&pfx);
	strbuf_release(&tmpl);
	free(lore);
	return r;
}
