/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_RUN_H
#define RESPIN_RUN_H

#include "strbuf.h"

/*
 * Running a program: in its own process group, with a timeout that
 * kills the whole group, its stdout and stderr captured together.
 * Only argv arrays are run; a configured command string goes through
 * "sh -c" as argv[2], never text that came from mail.
 */
struct run_opts {
	const char *const *argv;	/* argv[0] is looked up in PATH */
	const char *cwd;		/* NULL: the current directory */
	const char *const *env;		/* "NAME=value" added, or NULL */
	const char *input;		/* fed to stdin, or NULL (/dev/null) */
	size_t input_len;
	double timeout;			/* seconds; 0 = none */
	size_t max_output;		/* keep at most this much (tail); 0 = 64 MiB */
	/* called with the process group of the program once it started */
	void (*started)(long group, void *data);
	void *data;
};

struct run_result {
	int exited;		/* 1: exit_code is valid */
	int exit_code;
	int signal;		/* the signal that ended it, or 0 */
	int timed_out;		/* killed by the timeout */
	double seconds;
	struct strbuf output;	/* stdout and stderr, in order */
};

void run_result_init(struct run_result *r);
void run_result_release(struct run_result *r);

/*
 * Runs; returns 0 when it ran (whatever it exited with), <0 if not.
 * The program's own exit decides: when it has exited, what it left
 * running (a child holding its output open) gets a second, then the
 * whole group is killed.  When respin is interrupted (see
 * run_signals_catch()), the group is ended (SIGTERM, SIGKILL two
 * seconds later) and it returns <0, "interrupted".
 */
int run_program(const struct run_opts *o, struct run_result *res);

/*
 * SIGINT, SIGTERM and SIGHUP (unless they were ignored when respin
 * started, as nohup does) no longer end respin at once: they are
 * noted, the running program's process group is ended, and
 * run_interrupted() says which signal came, so that the caller stops,
 * records nothing for the cut run, and exits by the same signal.
 */
void run_signals_catch(void);
/* The signal that interrupted respin, or 0. */
int run_interrupted(void);
/* Records "interrupted by SIGxxx" and returns RESPIN_ERR. */
int run_error_interrupted(void);

/*
 * Runs argv in the foreground with the terminal (an editor): stdin,
 * stdout and stderr are ours.  Returns its exit code (128 + signal when
 * a signal ended it), or <0 with a message when it could not start.
 */
int run_interactive(const char *const *argv);

/* Appends the last n lines of text. */
void run_tail_lines(struct strbuf *out, const char *text, size_t len, int n);

/*
 * Runs argv (no shell) in cwd (NULL: here) for at most 600 s: 0 when
 * it exited 0, else an error "what: its output" (what NULL: RESPIN_ERR,
 * nothing recorded); <0 when it could not run.
 */
int run_checked(const char *const *argv, const char *cwd, const char *what);

#endif
