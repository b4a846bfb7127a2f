// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin: the entry point and the one command table.
 *
 * Runs as "respin CMD ..." and as "git respin CMD ..." (git finds
 * git-respin on PATH).  Each command lives in cmd-NAME.c of the folder
 * that owns its work; this file only finds the command, opens the
 * repository when the command needs one, and turns the result into an
 * exit code.
 */
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/objtx.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <malloc.h>
#include <unistd.h>

#ifndef RESPIN_VERSION
#define RESPIN_VERSION "0.1"
#endif

enum {
	NEED_REPO = 1 << 0,	/* fails outside a repository */
	WANT_REPO = 1 << 1,	/* uses one (config) when there is one */
	/*
	 * writes objects only through libgit2, none that another program
	 * must read before the command saves them: they are written out
	 * of a concurrent git gc's reach (tools/lib/objtx.h)
	 */
	GC_SAFE = 1 << 2,
};

struct command {
	const char *name;
	command_fn fn;
	unsigned flags;
	const char *summary;
};

static const struct command commands[] = {
	{ "track", cmd_track, NEED_REPO | GC_SAFE,
	  "record REF..TIP as the next version of a series" },
	{ "list", cmd_list, NEED_REPO,
	  "list the series, one line each" },
	{ "status", cmd_status, NEED_REPO,
	  "how each series stands against its base as it is now" },
	{ "show", cmd_show, NEED_REPO,
	  "show one version of a series: base, patches, source" },
	{ "diff", cmd_diff, WANT_REPO,
	  "range-diff between two versions of a series" },
	{ "thread", cmd_thread, WANT_REPO,
	  "what is in a thread or mailbox: series, versions, trailers" },
	{ "import", cmd_import, NEED_REPO | GC_SAFE,
	  "record a version from mail (mbox, maildir, lore, notmuch)" },
	{ "rebase", cmd_rebase, NEED_REPO,
	  "the latest version onto a new base, patch by patch, 3-way" },
	{ "check", cmd_check, NEED_REPO,
	  "build, checkpatch, test and bench each patch; results reused" },
	{ "results", cmd_results, NEED_REPO,
	  "the stored results of a version: a patch a row, a check a column" },
	{ "report", cmd_report, NEED_REPO,
	  "a self-contained HTML page with result tables and benchmark plots" },
	{ "cover", cmd_cover, NEED_REPO,
	  "the cover letter of a version: print it, or edit its text" },
	{ "format", cmd_format, NEED_REPO,
	  "write a version as mail: cover letter and patches" },
	{ "fixup", cmd_fixup, NEED_REPO,
	  "the vA..vB change as one -fix patch mail for a maintainer" },
	{ "reply", cmd_reply, WANT_REPO,
	  "a reply draft to a message: quoted, threaded, with results" },
	{ "thanks", cmd_thanks, NEED_REPO,
	  "the \"applied, thanks\" reply: each patch with its commit" },
	{ "send", cmd_send, NEED_REPO,
	  "send a version with git send-email; record what was sent" },
	{ "trailers", cmd_trailers, NEED_REPO,
	  "the trailers reviewers gave; --apply writes them into the commits" },
	{ "review", cmd_review, NEED_REPO,
	  "review comments on a version: open, answered, addressed" },
	{ "tree", cmd_tree, NEED_REPO,
	  "the tracked series inside an integration branch such as mm-unstable" },
	{ "replace", cmd_replace, NEED_REPO,
	  "swap the version of a series inside an integration branch" },
	{ "rm", cmd_rm, NEED_REPO,
	  "remove a series: its versions, worktrees and settings" },
	{ "rename", cmd_rename, NEED_REPO,
	  "rename a series, its history kept and its settings moved" },
	{ "bisect", cmd_bisect, NEED_REPO,
	  "which patch broke a check: binary search over the results" },
	{ "bisect-base", cmd_bisect_base, NEED_REPO,
	  "which base commit broke the series: apply it on each, bisect" },
};

static const struct command *command_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(FILE *out)
{
	size_t i;

	fputs("usage: respin [--version] [--help] <command> [<args>]\n"
	      "       git respin <command> [<args>]\n\n"
	      "The commands:\n", out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'respin <command> --help' shows a command's options;\n"
	      "'respin help <command>' opens its manual page.\n", out);
}

/*
 * The page beside the program when it runs from the build tree
 * (build/respin, build/man/man1/PAGE.1), which man's search path does
 * not hold; 0 with its path in out.
 */
static int build_tree_page(const char *page, char *out, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(out, size, "%s/man/man1/%s.1", exe, page) >= size)
		return -1;
	return access(out, R_OK);
}

static int cmd_help(int argc, const char **argv)
{
	char page[64], local[PATH_MAX];

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	if (!command_find(argv[1])) {
		fprintf(stderr, "error: '%s' is not a respin command; see "
			"'respin help'\n", argv[1]);
		return RESPIN_EXIT_USAGE;
	}
	snprintf(page, sizeof(page), "respin-%s", argv[1]);
	if (build_tree_page(page, local, sizeof(local)) == 0)
		execlp("man", "man", "-l", local, (char *)NULL);
	else
		execlp("man", "man", page, (char *)NULL);
	fprintf(stderr, "fatal: cannot run man: %s\n", strerror(errno));
	fprintf(stderr, "hint: 'respin %s --help' lists its options\n",
		argv[1]);
	return RESPIN_EXIT_FATAL;
}

int main(int argc, const char **argv)
{
	struct command_context ctx = { 0 };
	struct objtx tx = { 0 };
	const struct command *cmd;
	int r;

	if (argc < 2) {
		list_commands(stderr);
		return RESPIN_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("respin version %s\n", RESPIN_VERSION);
		return 0;
	}
	cmd = command_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "error: '%s' is not a respin command; see "
			"'respin help'\n", argv[1]);
		return RESPIN_EXIT_USAGE;
	}

	/*
	 * A big patch is read, copied and diffed a few times over: each
	 * big buffer in its own mapping, given back when freed.  (glibc
	 * raises the threshold to the size of a mapping freed, so the next
	 * copies of a 32 MB hunk came from the heap and stayed there: peak
	 * RSS 6x the mail where the live data was 4x.)
	 */
	mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
	git_libgit2_init();
	/* objects come from the user's own repository: skip re-hashing */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * nor look up every blob a new tree names (a 3-way pick on a tree of
	 * 5,000 files read all 5,000 each time): respin writes trees of
	 * objects it has just read or written
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
	ctx.stdout_is_tty = isatty(1);
	ctx.stderr_is_tty = isatty(2);
	if (cmd->flags & NEED_REPO) {
		int i;

		/* --help works outside a repository too */
		for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
				goto run;
		r = repo_open(&ctx.repo);
		if (r < 0) {
			r = error_report(r);
			goto out;
		}
	}
	if ((cmd->flags & WANT_REPO) && repo_open(&ctx.repo) < 0) {
		error_clear();
		ctx.repo = NULL;
	}
run:
	if ((cmd->flags & GC_SAFE) && ctx.repo) {
		r = objtx_begin(&tx, ctx.repo);
		if (r < 0) {
			r = error_report(r);
			goto out;
		}
	}
	r = cmd->fn(argc - 1, argv + 1, &ctx);
	objtx_end(&tx);
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "fatal: cannot write output: %s\n",
				strerror(errno));
		if (!r)
			r = RESPIN_EXIT_FATAL;
	}
out:
	git_repository_free(ctx.repo);
	git_libgit2_shutdown();
	if (run_interrupted()) {
		/*
		 * Cleaned up: end by the signal itself, so that a shell
		 * or make that ran respin knows it was interrupted (the
		 * shell shows 128 + the signal: 130, 143, 129).
		 */
		int sig = run_interrupted();

		fflush(stderr);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return r;
}
