/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_LINT_H
#define RESPIN_CI_LINT_H

#include <stddef.h>
#include "tools/lib/json.h"

/*
 * checkpatch.pl's findings, from its "--terse --show-types --showfile"
 * output: "mm/x.c:12: WARNING:LONG_LINE: line length of 120 exceeds
 * 100 columns" (no file for the commit message).
 */
struct lint_finding {
	char *severity;		/* ERROR, WARNING, CHECK */
	char *type;		/* LONG_LINE, ... */
	char *file;		/* "" for the commit message */
	long line;
	char *message;
};

struct lint_report {
	struct lint_finding *items;
	size_t nr, alloc;
	size_t errors, warnings, checks;
};

void lint_report_release(struct lint_report *lr);
void lint_parse(struct lint_report *lr, const char *text, size_t len);
/* "0E 1W" (and " 2C" when there are checks). */
void lint_summary(const struct lint_report *lr, struct strbuf *out);
void lint_to_json(const struct lint_report *lr, struct json *j);

#endif
