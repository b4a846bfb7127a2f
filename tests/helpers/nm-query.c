// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nm-query: a driver for end-to-end tests of tools/lib/nm.c until
 * `respin thread notmuch:QUERY` exists.
 *
 *   nm-query [--db=PATH] [--max=N] QUERY
 *
 * prints the file of each matching message, oldest first, one a line.
 * --db: the database's mail root (default: the user's notmuch config);
 * --max: stop after N files (exercises stopping the walk).
 * Exit codes: 0, 128 (the message on stderr), 129 usage.
 */
#include "tools/lib/error.h"
#include "tools/lib/nm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walk {
	long max;
	long seen;
};

static int print_path(const char *path, void *data)
{
	struct walk *w = data;

	if (printf("%s\n", path) < 0)
		return error("write error");
	if (w->max >= 0 && ++w->seen >= w->max)
		return 1;	/* enough: stop, not an error */
	return 0;
}

int main(int argc, char **argv)
{
	struct walk w = { -1, 0 };
	const char *db = NULL;
	int i, ret;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db = argv[i] + 5;
		} else if (!strncmp(argv[i], "--max=", 6)) {
			w.max = atol(argv[i] + 6);
		} else {
			fprintf(stderr, "error: unknown option '%s'\n", argv[i]);
			return RESPIN_EXIT_USAGE;
		}
	}
	if (argc - i != 1) {
		fprintf(stderr, "usage: nm-query [--db=PATH] [--max=N] QUERY\n");
		return RESPIN_EXIT_USAGE;
	}
	if (w.max == 0)
		return 0;
	ret = nm_query_files(db, argv[i], print_path, &w);
	if (ret > 0)
		ret = 0;
	if (fflush(stdout)) {
		perror("nm-query: write error");
		return RESPIN_EXIT_FATAL;
	}
	return error_report(ret);
}
