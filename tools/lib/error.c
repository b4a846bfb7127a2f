// SPDX-License-Identifier: GPL-2.0-or-later
#include "error.h"
#include "termsafe.h"
#include "strbuf.h"

#include <errno.h>
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local struct strbuf last = STRBUF_INIT;
static _Thread_local struct strbuf hint = STRBUF_INIT;

static void set_message(const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT;

	/*
	 * An argument may be error_last() itself: format first, then copy
	 * into the same buffer (a pointer taken from error_last() before
	 * stays a readable string, as callers' "%s", error_last() do).
	 */
	strbuf_vaddf(&msg, fmt, ap);
	strbuf_reset(&last);
	strbuf_add(&last, msg.buf, msg.len);
	strbuf_release(&msg);
	strbuf_reset(&hint);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap);
	va_end(ap);
	return RESPIN_ERR;
}

int error_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap);
	va_end(ap);
	return code;
}

int error_git(const char *fmt, ...)
{
	const git_error *e = git_error_last();
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap);
	va_end(ap);
	strbuf_addf(&last, ": %s", e && e->message ? e->message : "libgit2 error");
	return RESPIN_ERR;
}

int error_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap);
	va_end(ap);
	strbuf_addf(&last, ": %s", strerror(e));
	return RESPIN_ERR;
}

void error_hint(const char *fmt, ...)
{
	va_list ap;

	if (hint.len)
		strbuf_addch(&hint, '\n');
	va_start(ap, fmt);
	strbuf_vaddf(&hint, fmt, ap);
	va_end(ap);
}

const char *error_last(void)
{
	return last.len ? last.buf : "unknown error";
}

const char *error_last_hint(void)
{
	return hint.buf;
}

void error_clear(void)
{
	strbuf_reset(&last);
	strbuf_reset(&hint);
}

/*
 * Messages quote mail (subjects, Message-IDs): whatever a terminal
 * would act on is printed escaped (see termsafe.h).
 */
static void put_safe(const char *prefix, const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	strbuf_add_term_safe(&sb, s, len, TERM_SAFE_LINES);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

void warning(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	put_safe("warning: ", sb.buf, sb.len);
	strbuf_release(&sb);
}

void warning_lines(const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		put_safe("warning: ", p, n);
		p += n + (nl ? 1 : 0);
	}
}

int error_report(int code)
{
	const char *p, *nl, *msg;

	if (code >= 0)
		return code;
	msg = error_last();
	put_safe(code == RESPIN_EUSAGE ? "error: " : "fatal: ", msg,
		 strlen(msg));
	for (p = hint.buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			put_safe("hint: ", p, strlen(p));
			break;
		}
		put_safe("hint: ", p, (size_t)(nl - p));
	}
	error_clear();
	return code == RESPIN_EUSAGE ? RESPIN_EXIT_USAGE : RESPIN_EXIT_FATAL;
}
