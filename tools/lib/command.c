// SPDX-License-Identifier: GPL-2.0-or-later
#include "command.h"
#include "error.h"
#include "options.h"
#include "run.h"
#include "strbuf.h"
#include "termsafe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int command_parse(int argc, const char **argv, const struct option *opts,
		  const char *const *usage, int *exit_code)
{
	int n = options_parse(argc, argv, opts, usage);

	if (n == OPTIONS_HELP) {
		*exit_code = 0;
		return -1;
	}
	if (n < 0) {
		*exit_code = RESPIN_EXIT_USAGE;
		return -1;
	}
	return n;
}

int command_usage_error(const struct option *opts, const char *const *usage,
			const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	options_usage(opts, usage, 0);
	return RESPIN_EXIT_USAGE;
}

int command_stopped(int r, const char *kept)
{
	if (!run_interrupted())
		return error_report(r);
	fprintf(stderr, "respin: %s: stopped; %s\n", term_safe(error_last()),
		kept);
	error_clear();
	return 128 + run_interrupted();
}

void command_notes(const char *lines)
{
	const char *p = lines;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		struct strbuf line = STRBUF_INIT;

		strbuf_add_term_safe(&line, p, n, 0);
		fprintf(stderr, "note: %s\n", line.buf);
		strbuf_release(&line);
		p += n + (nl ? 1 : 0);
	}
}

void command_progress(const char *what, void *data)
{
	(void)data;
	if (what)
		fprintf(stderr, "\r\033[K%s", term_safe(what));
	else
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

void command_progress_fit(const char *what)
{
	struct strbuf line = STRBUF_INIT;
	struct winsize ws;
	size_t cols = 0, k, shown = 0;

	if (!what) {
		fputs("\r\033[K", stderr);
		return;
	}
	strbuf_add_term_safe(&line, what, strlen(what), 0);
	/* one line that fits: a wrapped one could not be cleared in place */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1)
		cols = ws.ws_col - 1;
	for (k = 0; cols && k < line.len; k++) {
		if (((unsigned char)line.buf[k] & 0xc0) == 0x80)
			continue;	/* inside a UTF-8 character */
		if (shown++ == cols) {
			strbuf_setlen(&line, k);
			break;
		}
	}
	fprintf(stderr, "\r\033[K%s", line.buf);
	fflush(stderr);
	strbuf_release(&line);
}
