// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin format NAME[@vN] [-o DIR]: a version as mail, ready for
 * git send-email, git am or b4.
 */
#include "patches/email.h"
#include "review/cover.h"
#include "review/format.h"
#include "series/trailerdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/termsafe.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin format <name>[@v<n>] [-o <dir>] [--subject-prefix <p>] [--rfc]",
	"              [--cover-letter | --no-cover] [--no-results] [--stdout]",
	NULL
};


/*
 * The mails of res as one mboxrd on stdout; to a terminal with nothing
 * in them a terminal acts on (it is to be read there, not saved).
 */
static void print_mbox(const struct format_result *res)
{
	struct strbuf mbox = STRBUF_INIT;
	size_t i;

	for (i = 0; i < res->nr; i++)
		email_mboxrd_append(&mbox, res->mails[i].text.buf,
				    res->mails[i].text.len);
	if (isatty(STDOUT_FILENO))
		fputs_term_safe(stdout, mbox.buf, mbox.len, TERM_SAFE_LINES);
	else
		fwrite(mbox.buf, 1, mbox.len, stdout);
	strbuf_release(&mbox);
}

/* The files res was written as in dir, one a line or as JSON. */
static void print_written(const struct format_result *res, const char *dir,
			  int json)
{
	struct strbuf out = STRBUF_INIT;
	struct json j;
	size_t i;

	if (!json) {
		for (i = 0; i < res->nr; i++)
			printf("%s/%s\n", dir, res->mails[i].file_name);
		return;
	}
	json_init(&j, &out, 1);
	json_array_begin(&j);
	for (i = 0; i < res->nr; i++) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s", dir, res->mails[i].file_name);
		json_object_begin(&j);
		json_string_member(&j, "file", path.buf);
		json_string_member(&j, "message_id", res->mails[i].message_id);
		json_object_end(&j);
		strbuf_release(&path);
	}
	json_array_end(&j);
	puts(out.buf);
	strbuf_release(&out);
}

int cmd_format(int argc, const char **argv, struct command_context *ctx)
{
	const char *dir = ".", *prefix = NULL;
	int rfc = 0, cover = -1, no_cover = 0, json = 0, stdout_mbox = 0;
	int no_results = 0;
	int exit_code, n, r;
	struct option opts[] = {
		OPT_STRING('o', "output-directory", &dir, "dir",
			   "write the mails into DIR (default .)"),
		OPT_STRING(0, "subject-prefix", &prefix, "prefix",
			   "instead of PATCH, e.g. \"PATCH net-next\""),
		OPT_BOOL(0, "rfc", &rfc, "prefix RFC (\"RFC PATCH\")"),
		OPT_BOOL(0, "cover-letter", &cover,
			 "write a cover letter even for one patch"),
		OPT_BOOL(0, "no-cover", &no_cover, "write no cover letter"),
		OPT_BOOL(0, "no-results", &no_results,
			 "leave the results of respin check out of the mail"),
		OPT_BOOL(0, "stdout", &stdout_mbox,
			 "print one mboxrd to stdout instead of files"),
		OPT_BOOL(0, "json", &json, "list what was written as JSON"),
		OPT_END()
	};
	struct format_options fo = { 0 };
	struct format_result res = { 0 };
	struct series s;
	struct series_version *v;
	struct strbuf pfx = STRBUF_INIT;
	char *lore = NULL, *trimmed = NULL;
	size_t dir_len;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (no_cover && cover == 1)
		return command_usage_error(opts, usage, "--cover-letter and "
					   "--no-cover contradict each other");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0)
		goto fail;
	cover_subject_prefix(ctx->repo, &s, v, prefix, rfc, &pfx);
	fo.prefix = pfx.buf;
	fo.no_results = no_results;
	fo.cover_letter = no_cover ? 0 : cover;
	lore = repo_lore_url(ctx->repo);
	fo.lore_url = lore;
	r = format_version(ctx->repo, &s, v, &fo, &res);
	if (r < 0)
		goto fail;
	if (stdout_mbox) {
		print_mbox(&res);
		goto done;
	}
	/* "-o out/" lists out/0001-..., as git format-patch does */
	dir_len = strlen(dir);
	while (dir_len > 1 && dir[dir_len - 1] == '/')
		dir_len--;
	trimmed = xstrndup(dir, dir_len);
	dir = trimmed;
	r = format_write(&res, dir);
	if (r < 0)
		goto fail;
	{
		/* the tags lost since the last version: for the author */
		struct strbuf lost = STRBUF_INIT;

		trailerdiff_lines(&lost, ctx->repo, &s, v);
		warning_lines(lost.buf);
		strbuf_release(&lost);
	}
	print_written(&res, dir, json);
	goto done;
fail:
	r = error_report(r);
	goto out;
done:
	r = 0;
out:
	format_result_release(&res);
	series_release(&s);
	strbuf_release(&pfx);
	free(lore);
	free(trimmed);
	return r;
}
