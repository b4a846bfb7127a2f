/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_TAP_H
#define RESPIN_TAP_H

/*
 * A tiny TAP producer for the C unit tests: each file is one program
 * whose output prove reads.  ok(cond, fmt, ...) prints one test line;
 * is_int / is_str print the expected and actual values on failure;
 * skip(fmt, ...) counts a test that cannot run here and says why;
 * done_testing() prints the plan and returns the exit code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

static inline int tap_vok(int pass, const char *fmt, va_list ap)
{
	tap_count++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	return pass;
}

static inline __attribute__((format(printf, 2, 3)))
int ok(int pass, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_vok(pass, fmt, ap);
	va_end(ap);
	return r;
}

static inline __attribute__((format(printf, 3, 4)))
int is_int(long long got, long long want, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_vok(got == want, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got: %lld\n#  want: %lld\n", got, want);
	return r;
}

static inline __attribute__((format(printf, 3, 4)))
int is_str(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_vok(got && want ? !strcmp(got, want) : got == want, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got: '%s'\n#  want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return r;
}

/* skip(fmt, ...): one test that cannot run here, saying why. */
static inline __attribute__((format(printf, 1, 2)))
void skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d # skip ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void diag(const char *msg)
{
	printf("# %s\n", msg);
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
