// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin fixup NAME vA vB [-o FILE] [--force]: the change from vA to
 * vB as one "-fix" patch mail for a maintainer who takes fixups.  It
 * lives in review/ because it writes mail out and says what changed
 * per patch as the cover letter does (review/changes.c).
 */
#include "review/fixup.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <string.h>

static const char *const usage[] = {
	"respin fixup <name> <vA> <vB> [-o <file>] [--force]",
	NULL
};

static int pick_version(struct series *s, const char *arg,
			struct series_version **v)
{
	return series_version_get(s, series_version_parse(arg), v);
}

static void put_mail(const struct fixup *f, int tty)
{
	/* into a pipe or a file goes the mail as it is */
	if (!tty)
		fwrite(f->mail.buf, 1, f->mail.len, stdout);
	else
		fputs_term_safe(stdout, f->mail.buf, f->mail.len,
				TERM_SAFE_LINES);
}

int cmd_fixup(int argc, const char **argv, struct command_context *ctx)
{
	const char *output = NULL;
	int force = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING('o', "output", &output, "file",
			   "write the mail to FILE instead of standard output"),
		OPT_BOOL(0, "force", &force,
			 "versions on different bases: send the base's change "
			 "too"),
		OPT_END()
	};
	struct series s;
	struct series_version *a = NULL, *b = NULL;
	struct fixup f;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 3)
		return command_usage_error(opts, usage, n > 3 ?
			"too many arguments" : "give the series and two "
			"versions: NAME vA vB");
	if (series_version_parse(argv[1]) < 0 ||
	    series_version_parse(argv[2]) < 0)
		return command_usage_error(opts, usage, "not a version: '%s' "
			"(give vN or N)", series_version_parse(argv[1]) < 0 ?
			argv[1] : argv[2]);
	if (series_version_parse(argv[1]) == series_version_parse(argv[2]))
		return command_usage_error(opts, usage, "give two different "
					   "versions");
	if (output && !*output)
		return command_usage_error(opts, usage, "-o wants a file name");

	fixup_init(&f);
	r = series_load(ctx->repo, argv[0], &s, SERIES_LOAD_ALL);
	if (!r)
		r = pick_version(&s, argv[1], &a);
	if (!r)
		r = pick_version(&s, argv[2], &b);
	if (!r)
		r = fixup_build(ctx->repo, &s, a, b, force, &f);
	if (r == 1) {
		fprintf(stderr, "nothing to fix up: v%d and v%d of %s end in "
			"the same tree\n", a->number, b->number,
			term_safe(s.name));
		r = RESPIN_FOUND;
	} else if (!r && output) {
		r = fixup_write(&f, output);
		if (!r)
			printf("%s: [fixup of v%d to v%d] %s\n", output,
			       a->number, b->number, term_safe(f.subject.buf));
	} else if (!r) {
		put_mail(&f, ctx->stdout_is_tty);
	}
	fixup_release(&f);
	series_release(&s);
	return r < 0 ? error_report(r) : r;
}
