/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_COMMAND_H
#define RESPIN_COMMAND_H

#include <git2.h>

/*
 * What the entry point hands a command: the repository when the
 * command's table entry asks for one, and whether stdout and stderr
 * are terminals (for progress).  A command returns its exit code
 * (see error.h); it prints, nothing below it does.
 */
struct command_context {
	git_repository *repo;
	int stdout_is_tty;
	int stderr_is_tty;
};

typedef int (*command_fn)(int argc, const char **argv,
			  struct command_context *ctx);

/*
 * Runs options_parse() and maps its outcome: returns the number of
 * remaining arguments, or stores an exit code in *exit_code and
 * returns -1 (after --help: 0; on a bad option: 129).
 */
struct option;
int command_parse(int argc, const char **argv, const struct option *opts,
		  const char *const *usage, int *exit_code);
/* Prints "error: msg" and the usage; returns 129. */
int command_usage_error(const struct option *opts, const char *const *usage,
			const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The exit code of a command that failed with r: when a signal
 * interrupted it (run_signals_catch()), it says "respin: MESSAGE:
 * stopped; kept" (kept: what is stored of the work) and gives 128 +
 * the signal; else the error, reported as error_report() does.
 */
int command_stopped(int r, const char *kept);

/*
 * Prints each line of lines (text from mail, escaped for the terminal)
 * to stderr as "note: LINE".
 */
void command_notes(const char *lines);
/*
 * A progress line on stderr that the next one overwrites; what NULL
 * clears it.  For stderr on a terminal only (ctx->stderr_is_tty).  Its
 * form fits callbacks that take a data pointer (unused).
 */
void command_progress(const char *what, void *data);
/*
 * The same line cut to the terminal's width (a wrapped line could not
 * be rewritten in place); what NULL clears it.
 */
void command_progress_fit(const char *what);

#endif
