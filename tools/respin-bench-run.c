// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin-bench-run [--vmstat GLOBS] --recipe NAME
 * respin-bench-run [--vmstat GLOBS] -- COMMAND [ARG...]
 *
 * What a bench check runs when it has a recipe or records vmstat
 * deltas (respin.check.NAME.recipe, .vmstat): one run of the recipe's
 * workload or of COMMAND, and around it, when asked, /proc/vmstat read
 * before and after.  It prints, after what the run printed:
 *
 *	respin-metric: METRIC VALUE		(a recipe: its value)
 *	respin-metric: vmstat:NAME DELTA	(each counter GLOBS match)
 *
 * It is a program of its own, not a part of respin, so that the
 * counting happens where the command runs: on this machine, or in the
 * patch's kernel when the check runs in a guest (which sees the host's
 * programs).  Exit status: the run's (128 + N when a signal N ended
 * it); 1 when a recipe's output gave no value; 125 its own errors
 * (usage, /proc/vmstat unreadable, no tmpfs for fio); 127 when the
 * recipe's tool is not installed.  Its messages start with
 * "respin-bench-run: " on standard error.
 */
#include "ci/recipe.h"
#include "ci/vmstat.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_OWN 125
#define EXIT_NO_TOOL 127
#define TMPFS_MAGIC_NR 0x01021994

static const char usage_text[] =
	"usage: respin-bench-run [--vmstat GLOBS] --recipe NAME\n"
	"   or: respin-bench-run [--vmstat GLOBS] -- COMMAND [ARG...]\n";

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("respin-bench-run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* Whether name is an executable on PATH. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH"), *p;
	struct strbuf dir = STRBUF_INIT;
	int found = 0;

	if (!path)
		path = "/usr/bin:/bin";
	p = path;
	while (!found && strbuf_next_word(&dir, &p, ":")) {
		strbuf_addf(&dir, "/%s", name);
		found = !access(dir.buf, X_OK);
	}
	strbuf_release(&dir);
	return found;
}

/*
 * A directory of our own for the workload's files: under the first of
 * $TMPDIR, /dev/shm, /tmp, /run, /var/tmp that is a tmpfs (the files
 * then live in memory, as in a guest), else (want_tmpfs 0) under the
 * first where one can be made.  0 and its path in dir, or <0.
 */
static int work_dir(struct strbuf *dir, int want_tmpfs)
{
	const char *cand[] = { getenv("TMPDIR"), "/dev/shm", "/tmp", "/run",
			       "/var/tmp" };
	size_t i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sizeof(cand) / sizeof(*cand); i++) {
			struct statfs fs;

			if (!cand[i] || !*cand[i] || statfs(cand[i], &fs))
				continue;
			if (!pass && fs.f_type != TMPFS_MAGIC_NR)
				continue;
			strbuf_reset(dir);
			strbuf_addf(dir, "%s/respin-bench.XXXXXX", cand[i]);
			if (mkdtemp(dir->buf))
				return 0;
		}
		if (want_tmpfs)
			break;
	}
	return -1;
}

/* Runs argv, its output ours; its exit status as a shell gives it. */
static int run(char **argv)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fail(EXIT_OWN, "cannot fork: %s", strerror(errno));
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "respin-bench-run: cannot run %s: %s\n",
			argv[0], strerror(errno));
		_exit(errno == ENOENT ? EXIT_NO_TOOL : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail(EXIT_OWN, "cannot wait for %s: %s", argv[0],
				    strerror(errno));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The recipe's value from its output file, printed as its metric. */
static int recipe_value(const struct recipe *r, const char *dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	double value;
	int code = 0;

	recipe_output(r, dir, &path);
	if (strbuf_read_file(&text, path.buf) < 0)
		code = fail(1, "%s wrote no %s: %s", r->tool, path.buf,
			    strerror(errno));
	else if (recipe_parse(r, text.buf, text.len, &value) < 0)
		code = fail(1, "%s", error_last());
	else
		printf("respin-metric: %s %.6f\n", r->metric, value);
	strbuf_release(&path);
	strbuf_release(&text);
	return code;
}

int main(int argc, char **argv)
{
	const char *globs = NULL, *recipe_name = NULL;
	const struct recipe *r = NULL;
	struct vmstat before = VMSTAT_INIT, after = VMSTAT_INIT;
	struct strbuf dir = STRBUF_INIT, sb = STRBUF_INIT;
	char **cmd = NULL, **workload = NULL;
	int i, code;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--vmstat") && i + 1 < argc) {
			globs = argv[++i];
		} else if (!strcmp(argv[i], "--recipe") && i + 1 < argc) {
			recipe_name = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			break;
		} else {
			fputs(usage_text, stderr);
			return EXIT_OWN;
		}
	}
	if (!recipe_name == !(cmd && *cmd)) {
		fputs(usage_text, stderr);
		return EXIT_OWN;
	}
	if (globs && vmstat_globs_check("--vmstat", globs) < 0)
		return fail(EXIT_OWN, "%s", error_last());
	if (recipe_name) {
		r = recipe_find(recipe_name);
		if (!r) {
			recipe_names(&sb);
			return fail(EXIT_OWN, "no recipe '%s' (there are: %s)",
				    recipe_name, sb.buf);
		}
		if (!on_path(r->tool))
			return fail(EXIT_NO_TOOL, "%s is not installed "
				    "(Debian: apt-get install %s)", r->tool,
				    r->package);
		if (work_dir(&dir, !strcmp(r->tool, "fio")) < 0)
			return fail(EXIT_OWN, "%s needs a tmpfs to work in "
				    "($TMPDIR, /dev/shm, /tmp, /run or "
				    "/var/tmp): none is one, or none is "
				    "writable", r->name);
		workload = recipe_argv(r, dir.buf);
		cmd = workload;
	}
	if (globs && vmstat_read(&before, NULL) < 0) {
		code = fail(EXIT_OWN, "%s", error_last());
		goto out;
	}
	code = run(cmd);
	if (globs) {
		if (vmstat_read(&after, NULL) < 0) {
			code = fail(EXIT_OWN, "%s", error_last());
			goto out;
		}
		strbuf_reset(&sb);
		vmstat_delta_lines(&sb, &before, &after, globs);
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_reset(&sb);
		vmstat_globs_unmatched(&sb, &after, globs);
		if (sb.len)
			fail(0, "no /proc/vmstat counter matches %s", sb.buf);
	}
	if (r && !code)
		code = recipe_value(r, dir.buf);
	else if (r)
		fail(0, "%s exited with %d: no value", r->tool, code);
out:
	fflush(stdout);
	if (dir.len && remove_tree(dir.buf) < 0)
		fail(0, "%s", error_last());
	recipe_argv_free(workload);
	vmstat_release(&before);
	vmstat_release(&after);
	strbuf_release(&dir);
	strbuf_release(&sb);
	return code;
}
