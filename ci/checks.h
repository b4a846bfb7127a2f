/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_CHECKS_H
#define RESPIN_CI_CHECKS_H

#include <git2.h>

/*
 * The checks respin runs on each patch, from git config:
 *
 *	[respin "check.NAME"]
 *		kind = build | lint | ktap | bench | command
 *		       | sparse | w1 | kdoc | coccicheck | kselftest
 *		command = ...		(run with sh -c in the tree)
 *		timeout = SECONDS
 *		metric = NAME		(bench: "respin-metric: NAME VALUE")
 *		pattern = REGEX		(bench: first group is the value)
 *		higher = true|false	(bench: is a higher value better?)
 *		runs = MIN..MAX		(bench: adaptive repetitions)
 *		threshold = PERCENT	(bench: "same" within +- this)
 *		artifacts = PATH...	(build: kept per tree, see engine)
 *		mean = harmonic		(bench: a rate; default arithmetic)
 *		vmstat = GLOB... | all	(bench: /proc/vmstat deltas a run)
 *		recipe = NAME		(bench: a built-in workload, ci/recipe.h)
 *		enabled = false		(switch a built-in off)
 *		executor = local | ...	(where it runs; see ci/executor.h)
 *		partition = NAME	(a cluster's queue for its jobs)
 *		constraint = FEATURES	(the node type its jobs ask for)
 *		targets = vm ...	(kselftest: tools/testing/selftests/DIRs)
 *		tests = vm:run_vmtests.sh [ARG]...	(kselftest: some of them)
 *		append = TEXT		(kselftest, guest: more kernel command line)
 *		icount = SHIFT		(guest: its clock counts instructions)
 *		runner = PATH		(kselftest: respin-guest, or
 *					 respin-qemu-ktap with initramfs)
 *		memory = SIZE, smp = N	(kselftest: the guest's)
 *		slowdown = N		(kselftest: timeouts of settings x N)
 *		initramfs = true	(kselftest: TEST_GEN_PROGS built static,
 *					 for a kernel without 9p)
 *		kconfig = current | tiny-qemu	(build: which .config)
 *		guest = true		(command, ktap, bench: the command runs
 *					 in the position's kernel, ci/guest.h)
 *
 *	respin.check.preset = NAME	(a preset's checks first: ci/preset.h)
 *
 * Two are built in and work in any kernel tree: "checkpatch" (lint)
 * and "build".  A check's definition hash covers what decides its
 * result (kind, command, metric, pattern), so results are found again
 * by (definition, tree) or (definition, patch text).
 */
enum check_kind {
	CHECK_BUILD,
	CHECK_LINT,
	CHECK_KTAP,
	CHECK_BENCH,
	CHECK_COMMAND,
	/* static analysis of the files a patch touches (ci/check-static.c) */
	CHECK_SPARSE,
	CHECK_W1,
	CHECK_KDOC,
	CHECK_COCCI,
	/* the tree's own selftests, in its kernel (ci/check-kselftest.c) */
	CHECK_KSELFTEST,
};

struct check {
	char *name;
	enum check_kind kind;
	char *command;
	double timeout;
	char *metric;
	char *pattern;
	int higher;		/* bench: 1 higher is better, 0 lower */
	int harmonic;		/* bench: a rate, summarised by Hmean */
	int min_runs, max_runs;
	double threshold_pct;	/* bench: the equivalence margin, % */
	char *artifacts;	/* build: paths under the build directory */
	char *partition;	/* a cluster executor's queue, or NULL */
	char *constraint;	/* the node type it asks for, or NULL */
	char *targets;		/* kselftest: "vm net", as configured */
	char *append;		/* kselftest: more kernel command line */
	char *runner;		/* kselftest: the QEMU runner, or NULL */
	char *tests;		/* kselftest: "vm:run_vmtests.sh -t x", or NULL */
	char *memory;		/* kselftest: the guest's memory ("1G") */
	int smp;		/* kselftest: the guest's CPUs */
	int slowdown;		/* kselftest: settings' timeouts times this */
	int initramfs;		/* kselftest: the static programs' way */
	int builtin;
	char *kconfig;		/* build: NULL or "current", "tiny-qemu" */
	char *vmstat;		/* bench: the counters' globs, or NULL */
	char *recipe;		/* bench: a built-in workload, or NULL */
	int guest;		/* runs in the position's kernel (ci/guest.h) */
	int icount;		/* guest: 1 + QEMU's icount shift, 0 unset */
	const char *preset;	/* the preset that set it up, or NULL */
	char hash[41];		/* definition hash */
};

struct check_list {
	struct check *items;
	size_t nr, alloc;
	/*
	 * The build check that checks_filter() left out, kept for the
	 * builds the kept checks need (a kselftest check boots its tree's
	 * kernel: never another's), not run for itself; or NULL.
	 */
	struct check *builder;
};

const char *check_kind_name(enum check_kind k);

struct json;
struct strbuf;
/*
 * respin check --list: what c runs, in words (its kind's, else its
 * command, a bench's recipe), and c's settings of its kind's own as
 * members of its JSON object.
 */
void check_describe(const struct check *c, struct strbuf *out);
void check_describe_json(const struct check *c, struct json *j);
/*
 * A static analysis kind (sparse, w1, kdoc, coccicheck): run on the
 * files each patch touches, before and after it; it reports the
 * findings the patch adds.  No result on the base.
 */
int check_kind_static(enum check_kind k);
/*
 * Reads the built-ins, the preset's settings (respin.check.preset, or
 * preset when not NULL: respin check --preset) and git config; errors
 * name the bad key, an unknown preset is RESPIN_EUSAGE.
 */
int checks_load(git_repository *repo, struct check_list *out);
int checks_load_preset(git_repository *repo, const char *preset,
		       struct check_list *out);
/* Whether git config's respin.check.preset names the preset name. */
int checks_preset_configured(git_repository *repo, const char *name);
void checks_release(struct check_list *l);
struct check *checks_find(struct check_list *l, const char *name);
/* The stats flags of a bench check (higher is better, harmonic). */
unsigned int check_stats_flags(const struct check *c);
/*
 * The adaptive plan of a bench check (its runs, threshold and flags);
 * release it with stats_plan_release().
 */
struct stats_plan;
void check_stats_plan(const struct check *c, struct stats_plan *out);
/*
 * Keeps only the named checks ("a,b"); errors name an unknown one.  A
 * build check left out becomes the list's builder.
 */
int checks_filter(struct check_list *l, const char *only);

#endif
