// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin import NAME SOURCE [MSGID] [--base REF] [--mail-only] [--all]
 * respin import NAME[@vN] --base REF
 *
 * Records a version from mail as version N of series NAME.
 */
#include "series/import.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin import <name> <source> [<msgid>] [--base <ref>] [--mail-only] [--all [--no-search]]",
	"respin import <name>[@v<n>] --base <ref>   (apply a mail-only version)",
	NULL
};

int cmd_import(int argc, const char **argv, struct command_context *ctx)
{
	struct import_opts o = { 0 };
	struct option opts[] = {
		OPT_STRING(0, "base", &o.base, "ref",
			   "apply onto REF (else the mail's base-commit)"),
		OPT_BOOL(0, "mail-only", &o.mail_only,
			 "record from the mail alone, without applying"),
		OPT_BOOL(0, "all", &o.all,
			 "import every version of the series in the source"),
		OPT_BOOL(0, "no-search", &o.no_search,
			 "with lore: and --all, only the versions in the thread"),
		OPT_BOOL(0, "refresh", &o.refresh,
			 "fetch lore: threads and searches again, ignoring "
			 "the cache"),
		OPT_END()
	};
	struct strbuf report = STRBUF_INIT, notes = STRBUF_INIT;
	git_oid *keep = NULL;
	size_t nkeep = 0;
	struct series s;
	char *name = NULL;
	int number = 0, exit_code, n, r;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (ctx->stderr_is_tty)
		o.progress = command_progress;
	if (n < 1 || n > 3)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give its name and a "
					   "mail source");
	if (o.mail_only && o.base)
		return command_usage_error(opts, usage, "--mail-only and --base "
					   "contradict each other");
	r = series_spec_parse(argv[0], &name, &number);
	if (r < 0) {
		free(name);
		return error_report(r);
	}
	if (number && n > 1) {
		free(name);
		return command_usage_error(opts, usage, "NAME@vN is for applying "
					   "a stored version; the mail says "
					   "which version it is");
	}
	r = series_load(ctx->repo, name, &s, SERIES_LOAD_ALL);
	if (r == RESPIN_ENOTFOUND && n > 1) {
		error_clear();
		series_release(&s);
		series_init(&s, name);
		r = 0;
	}
	if (r < 0)
		goto out;
	if (n == 1) {
		keep = xcalloc(1, sizeof(*keep));
		nkeep = 1;
		r = import_stored(ctx->repo, &s, number, &o, &report, keep);
	} else {
		r = import_from_source(ctx->repo, &s, argv[1],
				       n > 2 ? argv[2] : NULL, &o, &report,
				       &notes, &keep, &nkeep);
		command_notes(notes.buf);
	}
	if (!r && o.recorded)
		r = import_save(ctx->repo, &s, &o, n > 1 ? argv[1] : NULL,
				keep, nkeep);
	if (!r)
		fputs(report.buf, stdout);
out:
	if (r < 0)
		r = error_report(r);
	free(keep);
	free(name);
	series_release(&s);
	strbuf_release(&report);
	strbuf_release(&notes);
	return r;
}
