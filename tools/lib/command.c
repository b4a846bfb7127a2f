// SPDX-License-Identifier: GPL-2.0-or-later
#include "command.h"
#include "error.h"
#include "options.h"

#include <stdarg.h>
#include <stdio.h>

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
