// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin rm NAME: a series removed, with everything respin keeps under
 * its name (ci/seriesadmin.h).
 */
#include "ci/seriesadmin.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>

static const char *const usage[] = {
	"respin rm <name>",
	NULL
};

int cmd_rm(int argc, const char **argv, struct command_context *ctx)
{
	struct option opts[] = { OPT_END() };
	struct strbuf out = STRBUF_INIT;
	int exit_code, n, r;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME");
	r = series_admin_rm(ctx->repo, argv[0], &out);
	fputs_term_safe(stdout, out.buf, out.len, TERM_SAFE_LINES);
	strbuf_release(&out);
	return r < 0 ? error_report(r) : 0;
}
