/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_GUEST_H
#define RESPIN_CI_GUEST_H

#include "ci/warnings.h"
#include "tools/lib/run.h"

/*
 * respin.check.NAME.guest = true (command, ktap and bench checks): the
 * check's command runs inside the kernel of its position, the build
 * check's $RESPIN_BUILD/arch/x86/boot/bzImage booted under QEMU by
 * tools/respin-guest with the host's root filesystem read-only, the
 * same RESPIN_* variables as on the host, the worktree as its cwd, and
 * $RESPIN_OUT (.git/respin/guest/SERIES/CHECK, emptied before each run)
 * shared read-write.
 *
 * What runs on the host is a small sh script around the runner; after
 * the runner it prints a trailer that guest_run_parse() takes apart:
 *
 *	<what the command printed>
 *	respin-guest-end: exit N | runner N
 *	respin-guest-dmesg:		(the command ran to its end)
 *	<the guest's kernel log>
 *	respin-guest-console:		(it did not: the console log)
 *	<the whole console>
 *
 * "exit N": the command's own exit status; "runner N": the runner's
 * (123 the guest stopped while the command ran, 124 its timeout, 125
 * the guest never ran the command, 127 no runner).  The whole output,
 * trailer included, is the result's log.
 */
struct check;
struct engine;

/* The host command that runs command in the guest for check c. */
void guest_command(struct engine *e, const struct check *c,
		   const char *command, struct strbuf *out);
/* What the engine gives it: the check's timeout (the runner's) and
 * a margin for the boot's bound and the script. */
double guest_timeout(const struct check *c);

struct guest_run {
	int ended;		/* the command ran to its end: cmd.exit_code */
	int runner;		/* else the runner's exit status (or -1) */
	/* the command's own output and exit, for the kind's judge */
	struct run_result cmd;
	const char *dmesg;	/* (borrowed from the run's output) */
	size_t dmesg_len;
	const char *console;
	size_t console_len;
	struct warning_set splats;	/* in dmesg, else the console */
};

/* Takes a guest run's output apart (see above). */
void guest_run_parse(const struct run_result *res, struct guest_run *g);
void guest_run_release(struct guest_run *g);

/*
 * Judges a guest run of job j: the runner's own ends (the guest never
 * ran the command: ERROR; its timeout: TIMEOUT; the guest stopped while
 * it ran, a panic: FAIL, "guest stopped"), else the kind's judge on
 * what the command printed and its exit.  The details are the
 * runtime warnings (the kernel's splats, ci/splat.h), one a line;
 * those new since the position before are named in the report.
 */
struct check_job;
struct check_verdict;
int guest_judge(const struct check_job *j, const struct run_result *res,
		struct check_verdict *v);
/*
 * The splats stored with check c's result at position i - 1 into
 * prev: 1, or 0 when there is none (position 0, nothing stored), <0.
 */
int guest_prev_splats(struct engine *e, const struct check *c, size_t i,
		      struct warning_set *prev);
/* "c at i/n: a new kernel warning: KEY" for each of now not in prev. */
void guest_report_new(struct engine *e, const struct check *c, size_t i,
		      const struct warning_set *now,
		      const struct warning_set *prev);

#endif
