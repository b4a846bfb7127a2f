/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KSELFTEST_RUN_H
#define RESPIN_CI_KSELFTEST_RUN_H

#include "ci/kind.h"

/*
 * Inside kind = kselftest (ci/check-kselftest.c): what its two ways of
 * running share.  The guest way (ci/kselftest-guest.c, the default)
 * installs each target as the kernel's Makefile does and runs it with
 * the tree's run_kselftest.sh in the patch's kernel, the host's
 * userspace as its own; the initramfs way (ci/kselftest-initramfs.c,
 * initramfs = true) builds TEST_GEN_PROGS static and runs them from an
 * initramfs, for a kernel without 9p.
 */

#define KS_SELFTESTS "tools/testing/selftests"

/* One target at one position. */
struct ks_target {
	char *name;		/* as the tree has it ("vm") */
	int timeout;		/* per test: its settings' (0: none) */
	struct strbuf cache;	/* its build's cache directory */
	struct strbuf failed;	/* the programs that did not build */
	struct strbuf ktap;	/* its block's body: the runner's tests */
	int ran_ok;		/* that KTAP passed */
};

/* A way of running. */
struct ks_way {
	/* in the cache key: bump it when build_command() changes */
	const char *key;
	/* besides the target's directory and $(top_srcdir) files */
	const char *const *key_paths;
	size_t nr_key_paths;
	/* "building", "installing": "building the vm tests" */
	const char *build_verb;
	/* the shell command that fills t->cache (in the worktree) */
	void (*build_command)(const struct ks_target *t, struct strbuf *cmd);
	/*
	 * Runs the n targets in the position's kernel: 0 and each
	 * target's ktap and ran_ok; 1 the verdict says why it could not
	 * (ERROR, TIMEOUT); <0 errors.
	 */
	int (*run)(const struct check_job *j, struct ks_target *t, size_t n,
		   struct check_verdict *v);
};
extern const struct ks_way ks_way_initramfs, ks_way_guest;

/* The runner: respin.check.NAME.runner, else the one named beside respin. */
void ks_runner_path(const struct check *c, const char *name,
		    struct strbuf *out);
/*
 * The start of a runner's command: exit 127 saying so when QEMU or the
 * runner is not there.
 */
void ks_runner_check(const struct check *c, const char *runner,
		     struct strbuf *cmd);
/* The runner's stderr lines are marked with this in its output. */
#define KS_RUNNER_MARK "respin-runner: "
/* "... 2>ERR; rc=$?; the marked stderr; exit $rc" after the runner. */
void ks_runner_stderr(struct strbuf *cmd);
/* Splits a run's output: the runner's marked lines into said. */
void ks_split_output(const struct run_result *res, struct strbuf *rest,
		     struct strbuf *said);
/*
 * A step that did not run to a good end: the verdict says so (1), or
 * 0.  what: "building the vm tests".
 */
int ks_step_failed(const struct check_job *j, const char *what,
		   const struct run_result *res, double timeout,
		   struct check_verdict *v);
/* "# respin: STEP: N.N s" for the log, after the tests. */
void ks_step_time(const char *what, const struct run_result *res);
/* The last lines of text into the report, ending in a newline. */
void ks_report_tail(struct engine *e, const char *text, size_t len,
		    size_t lines);
/*
 * The verdicts of a way's run that both ways give: the runner's own
 * timeout (the check's) while running what ("the vm tests"), and a
 * runner or QEMU missing (exit 127; said: what it printed).  Each sets
 * v, reports it and returns 1.
 */
int ks_run_timed_out(const struct check_job *j, const char *what,
		     struct check_verdict *v);
int ks_run_no_runner(const struct check_job *j, const char *said,
		     struct check_verdict *v);
/* Whether ktap parses and passes (a parse error is no error here). */
int ks_ktap_passes(const struct strbuf *ktap);

#endif
