/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KIND_H
#define RESPIN_CI_KIND_H

#include "ci/engine.h"

struct json;

/*
 * One check kind, one file (ci/check-KIND.c), behind this interface;
 * the engine (ci/engine.c) only schedules: it finds the positions a
 * check applies to, reuses what is stored, checks the tree out, builds
 * it first when the kind needs that, runs the kind's command through
 * the check's executor (engine_exec()) and stores the kind's verdict
 * (store_result()).  Most kinds say only what to run and how to judge
 * what it gave (command + judge); one that works in steps of its own
 * (build) has run, one that schedules all positions itself (bench)
 * run_all.  A new kind is a file and a line in kinds[] (engine.c).
 */

/* What a kind needs, and where it applies. */
#define KIND_NEEDS_BUILD	(1u << 0) /* the tree built first (artifacts) */
#define KIND_NEEDS_MAIL		(1u << 1) /* the patch's mail (its key): no base */
#define KIND_ON_BASE		(1u << 2) /* runs on the base (a reference) */
#define KIND_ON_BASE_TOO	(1u << 3) /* on the base with --base-too */
#define KIND_OWN_SCHEDULE	(1u << 4) /* run_all: after the others */
#define KIND_WORKTREE_FREE	(1u << 5) /* reads no tree: -j runs it in threads */
#define KIND_NEEDS_BASE		(1u << 6) /* compared with the base: it runs
					     there with --patch too */
#define KIND_NO_RERUN		(1u << 7) /* the tree decides: bisect's
					     retries reuse it */
#define KIND_KEY_PAIR		(1u << 8) /* the trees before and after
					     the patch decide: keyed by both */
#define KIND_BUILD_DIR		(1u << 9) /* makes in the build directory
					     itself, not on kept artifacts:
					     no build chain (it moves on) */
#define KIND_IN_GUEST		(1u << 10) /* guest = true runs it in the
					      position's kernel (guest.c) */
#define KIND_BUILDER		(1u << 11) /* builds the tree: the first such
					      check makes the builds the
					      others need (build_ensure()) */
#define KIND_OWN_COMMAND	(1u << 12) /* runs a command of its own when
					      respin.check.NAME.command is
					      not set */

/*
 * What a kind's stored results hold beyond a status and a summary: what
 * results diff compares between two versions of a patch (resultdiff.c).
 */
enum kind_results {
	KIND_RESULTS_STATUS = 0,	/* nothing more (command) */
	KIND_RESULTS_WARNINGS,		/* the warnings a patch adds (build,
					   the static kinds) */
	KIND_RESULTS_FINDINGS,		/* findings in the log (lint) */
	KIND_RESULTS_SUBTESTS,		/* KTAP subtests in the log */
	KIND_RESULTS_SAMPLES,		/* samples against the base (bench) */
};

/*
 * What a version's grid (grid.c) reads from a stored result's details
 * beyond its status and summary, and compares along the series.
 */
enum kind_details {
	KIND_DETAILS_PLAIN = 0,		/* nothing (command, lint, ktap) */
	KIND_DETAILS_WARNINGS,		/* the warnings of the whole tree, a
					   line each: the grid diffs them with
					   the position before (build) */
	KIND_DETAILS_ADDED,		/* what the patch adds and fixes, said
					   by the kind itself (the static
					   kinds' "+ - =" lines) */
	KIND_DETAILS_SELFTESTS,		/* subtests the grid compares with the
					   position before (kselftest) */
};

/* One check at one position. */
struct check_job {
	struct engine *e;
	const struct check *c;
	size_t i;		/* 0 the base */
	git_oid tree;		/* the tree at i */
	const char *key;	/* its result key (engine_key()) */
};

/* A verdict: what store_result() records and counts. */
struct check_verdict {
	enum result_status status;
	struct strbuf summary;	/* the cell: "0E 1W", "ok, 2 warnings" */
	struct strbuf details;	/* JSON or lines, or empty */
	double seconds;
	const char *log;	/* what the run printed (borrowed) */
	size_t log_len;
};
#define CHECK_VERDICT_INIT { RESULT_PASS, STRBUF_INIT, STRBUF_INIT, 0, NULL, 0 }
void check_verdict_release(struct check_verdict *v);

struct check_kind_ops {
	enum check_kind kind;
	unsigned needs;		/* KIND_* */
	enum kind_results results;	/* what versions compare */
	enum kind_details details;	/* what the grid reads of a result */
	double timeout;		/* seconds when none is set; 0: 600 */
	/*
	 * What to run for j, and its stdin: 0, 1 when there is nothing to
	 * run (said in e->report, counted an error), <0 errors.
	 */
	int (*command)(const struct check_job *j, struct strbuf *cmd,
		       struct strbuf *input);
	/* How to judge what it gave (status, summary, details, report). */
	int (*judge)(const struct check_job *j, const struct run_result *res,
		     struct check_verdict *v);
	/* Instead of command + judge: runs, judges and stores j itself. */
	int (*run)(const struct check_job *j);
	/* KIND_OWN_SCHEDULE: every position of c at once, in its own order. */
	int (*run_all)(struct engine *e, const struct check *c);
	/*
	 * On an executor that queues (a cluster), before the first
	 * position: queues what c will run, so that the cluster runs it
	 * meanwhile (build: its chain).  NULL: command kinds queue each
	 * position's command; others queue nothing ahead.
	 */
	int (*queue)(struct engine *e, const struct check *c);
	/*
	 * The lines of c's definition (its hash, checks.c) that the
	 * kind's own settings add, when they change what runs; NULL:
	 * none.  A changed line is another check: nothing stored is
	 * reused for it.
	 */
	void (*definition)(const struct check *c, struct strbuf *out);
	/*
	 * Once a check's settings are read (checks.c): those of the
	 * kind's own checked, and its defaults filled in.  0, or an error
	 * naming the setting and what to do; NULL: nothing to check.
	 */
	int (*settle)(struct check *c);
	/*
	 * respin check --list: what c runs, in words (NULL: its command,
	 * a bench's recipe), and the members the kind's own settings add
	 * to c's JSON object (NULL: none).
	 */
	void (*describe)(const struct check *c, struct strbuf *out);
	void (*describe_json)(const struct check *c, struct json *j);
};

/* Whether c is of a kind that builds the tree (KIND_BUILDER). */
int check_is_builder(const struct check *c);

const struct check_kind_ops *check_kind_ops(enum check_kind k);
/*
 * What check c needs: its kind's, and with guest = true the build (the
 * position's kernel) and the base (the reference of its kernel
 * warnings).
 */
unsigned check_needs(const struct check *c);

extern const struct check_kind_ops check_build_ops, check_lint_ops,
	check_ktap_ops, check_bench_ops, check_command_ops;
/* the static analysis kinds (ci/check-static.c) */
extern const struct check_kind_ops check_sparse_ops, check_w1_ops,
	check_kdoc_ops, check_cocci_ops;
/* the tree's own selftests in its kernel (ci/check-kselftest.c) */
extern const struct check_kind_ops check_kselftest_ops;

/*
 * Judged: counts it (FAIL and TIMEOUT failed) and stores it, except a
 * TIMEOUT (a run cut short says nothing about the tree: it runs again).
 * 0 or <0 when the store fails.
 */
int store_result(const struct check_job *j, const struct check_verdict *v);

/*
 * Runs "sh -c command" for check c at position i (tree) through c's
 * executor, with respin's variables (RESPIN_BUILD, RESPIN_SRC, ...);
 * input is fed to stdin.  The job's name is (series, check, tree) and
 * step, which tells apart the jobs of one check at one tree ("config",
 * "run-3"; NULL for the check's own command), so an executor that
 * outlives respin finds each again.  0 and res filled (whatever the
 * exit), <0 when it could not run or was interrupted.
 */
int engine_exec(struct engine *e, const struct check *c, size_t i,
		const git_oid *tree, const char *step, const char *command,
		double timeout, const char *input, size_t input_len,
		struct run_result *res);

/*
 * The variables of a job at position i (RESPIN_BUILD, RESPIN_SRC, ...):
 * at most ENGINE_ENV - 1 strings of the caller's to free, NULL-ended.
 */
#define ENGINE_ENV 8
size_t engine_job_env(struct engine *e, size_t i, const git_oid *tree,
		      char **env);
/* Check c's executor (opened on first use), or <0. */
int engine_executor(struct engine *e, const struct check *c,
		    struct executor **out);
/* Whether c runs at position i in this run (--patch, --base-too). */
int engine_applies(const struct engine *e, const struct check *c, size_t i);
/* 1 when c's result under key is stored and stays, 0 to run, <0. */
int engine_stored(struct engine *e, const struct check *c, const char *key);
/* Notes the executor's id and state of j's job in the progress line. */
void engine_job_state(struct engine *e, const struct check *c, size_t i,
		      const char *id, int state);

/* The progress callback, if any, with what the engine does now. */
void engine_step(struct engine *e, size_t i, const struct check *c,
		 const char *what);
/* "NAME at i/n" noted in the series' lock while it runs. */
void engine_running(struct engine *e, const struct check *c, size_t i);
/* A line for the user: "NAME at i/n: ..." appended to e->report. */
void engine_report(struct engine *e, const struct check *c, size_t i,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The tree of commit. */
int engine_tree(git_repository *repo, const git_oid *commit, git_oid *out);
int engine_file_exists(const char *dir, const char *name);

/* The build check (the first of kind build; else the one --only left
 * out, for the builds the others need), or NULL. */
const struct check *engine_build_check(const struct engine *e);
/* Builds position i's tree with the build check unless its directory
 * holds it already (ci/check-build.c). */
int build_ensure(struct engine *e, size_t i, const git_oid *tree);
/*
 * The builds of a series on an executor that queues: one chain, a job
 * building every position that needs it in turn on one node
 * (ci/build-chain.c).  build_chain_has: 1 when step (tree, step; NULL
 * the build) is the chain's.  build_chain_take: its end into res and
 * where the tree was into src: 1; 0 when the chain has no such step
 * (its end waited for first: run it as a job); <0 errors.
 */
int build_chain_queue(struct engine *e, const struct check *b);
int build_chain_has(struct engine *e, const git_oid *tree, const char *step);
int build_chain_take(struct engine *e, const struct check *b, size_t i,
		     const git_oid *tree, const char *step,
		     struct run_result *res, struct strbuf *src);
void build_chain_release(struct engine *e);
/*
 * While a chain runs, what the build directory holds as the builds
 * judged so far say (the marker): build_chain_marker 1 and tree, 0 no
 * chain; build_chain_built records it, 1 while later steps remain (the
 * marker file waits), 0 no chain or its last step judged.
 */
int build_chain_marker(struct engine *e, git_oid *tree);
int build_chain_built(struct engine *e, const git_oid *tree);
/* What check-build.c runs: the clean, the .config, the build. */
const char *build_clean_command(void);
/*
 * The build directory's .config (ci/build-config.c).  build_config_
 * command: 1 and the command when one is to be made (none there, or
 * one made otherwise than the build check's kconfig wants now: the
 * command empties the directory first), with its log lines; 0 when
 * the one there is right or the tree is no kernel's; <0 errors.
 * build_config_fresh: 1 the one there is right (or no kernel), 0 not,
 * <0 errors.  build_config_release frees what a run worked out.
 */
int build_config_command(struct engine *e, struct strbuf *cmd,
			 struct strbuf *log);
int build_config_fresh(struct engine *e);
void build_config_release(struct engine *e);
const char *build_command(struct engine *e, const struct check *b);
/* The cut marker is there: the next build starts over. */
int build_was_cut(struct engine *e);

/* The tree the build directory holds for build check b (zero: none). */
void build_marker_read(struct engine *e, const struct check *b,
		       git_oid *tree);

#endif
