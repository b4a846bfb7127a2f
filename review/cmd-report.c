// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin report NAME[@vN] [-o FILE]: the stored results of a series as
 * one self-contained HTML page, with a plot a benchmark.
 */
#include "review/report.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const usage[] = {
	"respin report <name>[@v<n>] [-o <file>]",
	NULL
};

int cmd_report(int argc, const char **argv, struct command_context *ctx)
{
	const char *file = NULL;
	int exit_code, n, r, number = 0;
	struct option opts[] = {
		OPT_STRING('o', "output", &file, "file",
			   "write the page to FILE (default: standard output)"),
		OPT_END()
	};
	struct check_list checks = { 0 };
	struct results *rs = NULL;
	struct series s;
	struct series_version *v;
	struct strbuf out = STRBUF_INIT;
	char *name = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (file && !*file)
		return command_usage_error(opts, usage, "-o needs a file name");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (!r)
		r = series_spec_parse(argv[0], &name, &number);
	if (!r)
		r = checks_load(ctx->repo, &checks);
	if (!r)
		r = results_open(ctx->repo, &rs);
	if (!r)
		r = report_build(ctx->repo, &s, number, &checks, rs, &out);
	if (!r && file)
		r = report_write(file, &out);
	else if (!r)
		fwrite(out.buf, 1, out.len, stdout);
	if (r < 0)
		r = error_report(r);
	free(name);
	results_close(rs);
	checks_release(&checks);
	series_release(&s);
	strbuf_release(&out);
	return r;
}
