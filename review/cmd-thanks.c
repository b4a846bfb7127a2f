// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin thanks NAME[@vN] --in BRANCH [--source SOURCE]
 *               [-o FILE | --maildir DIR]
 *
 * For a maintainer: the "applied, thanks" reply to a version's cover
 * letter (or to each applied patch when it has none), each patch with
 * the commit it became in BRANCH.  A draft, never sent.
 */
#include "review/thanks.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin thanks <name>[@v<n>] --in <branch> [--source <source>]",
	"              [-o <mbox> | --maildir <dir>] [--max-commits <n>]",
	NULL
};

int cmd_thanks(int argc, const char **argv, struct command_context *ctx)
{
	const char *branch = NULL, *source = NULL, *mbox = NULL, *maildir = NULL;
	int max_commits = 10000, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "in", &branch, "branch",
			   "the branch the patches were applied to"),
		OPT_STRING(0, "source", &source, "source",
			   "where the version's mail is (default lore:MSGID)"),
		OPT_STRING('o', "output", &mbox, "mbox",
			   "append the drafts to this mbox"),
		OPT_STRING(0, "maildir", &maildir, "dir",
			   "put the drafts into this maildir (flagged draft)"),
		OPT_INT(0, "max-commits", &max_commits, "n",
			"read at most N commits of the branch when the "
			"version's base is not in it (default 10000)"),
		OPT_END()
	};
	struct thanks_opts to = { 0 };
	struct thanks t;
	struct series s;
	struct series_version *v;
	struct strbuf out = STRBUF_INIT;
	char *name = NULL, *addr = NULL;
	size_t i;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (!branch)
		return command_usage_error(opts, usage, "applied where? give "
					   "--in BRANCH");
	if (mbox && maildir)
		return command_usage_error(opts, usage, "-o and --maildir: "
					   "give one");
	if (max_commits < 0)
		return command_usage_error(opts, usage, "--max-commits: a "
					   "count, 0 for no bound");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	repo_user(ctx->repo, &name, &addr);
	to.branch = branch;
	to.source = source;
	to.max_commits = (size_t)max_commits;
	to.name = name;
	to.addr = addr;
	to.date = repo_now();
	thanks_init(&t);
	r = thanks_make(ctx->repo, &s, v, &to, &t);
	for (i = 0; t.found && i < v->nr_patches; i++)
		if (git_oid_is_zero(&t.commits[i]))
			fprintf(stderr, "note: %zu/%zu \"%s\" is not in %s\n",
				i + 1, v->nr_patches,
				term_safe(v->patches[i].subject),
				branch);
	if (!r)
		r = thanks_write(&t, mbox, maildir, to.date, &out);
	fwrite(out.buf, 1, out.len, stdout);
	if (r < 0)
		r = error_report(r);
	thanks_release(&t);
	series_release(&s);
	strbuf_release(&out);
	free(name);
	free(addr);
	return r;
}
