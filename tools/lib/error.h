/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_ERROR_H
#define RESPIN_ERROR_H

/*
 * Library code reports failure by returning a negative number after
 * recording one message with error().  Callers pass the code up
 * without recording another; only the command layer prints the message
 * and chooses an exit code.
 *
 * Exit codes follow git: 0 ok, 1 "ran fine, found a problem",
 * 128 runtime error, 129 usage.
 */
enum {
	RESPIN_OK = 0,
	RESPIN_FOUND = 1,
	RESPIN_EXIT_FATAL = 128,
	RESPIN_EXIT_USAGE = 129,
};

/* Error codes, always negative. */
enum {
	RESPIN_ERR = -1,	/* a runtime failure */
	RESPIN_EUSAGE = -2,	/* the user asked for something impossible */
	RESPIN_ENOTFOUND = -3,	/* a named thing does not exist */
};

/* Records a message and returns RESPIN_ERR. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records a message and returns the given code. */
int error_code(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Records "what: libgit2's last message" and returns RESPIN_ERR. */
int error_git(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records "what: strerror(errno)" and returns RESPIN_ERR. */
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last recorded message (borrowed), or "unknown error". */
const char *error_last(void);
void error_clear(void);
/* Adds a hint line shown after the message ("hint: ..."). */
void error_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *error_last_hint(void);

/* Prints "warning: ..." to stderr (library code may warn). */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One "warning: " line a line of text. */
void warning_lines(const char *text);

/* Turns an error code into git's exit code, printing the message. */
int error_report(int code);

#endif
