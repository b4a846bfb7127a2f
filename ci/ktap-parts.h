/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KTAP_PARTS_H
#define RESPIN_CI_KTAP_PARTS_H

/*
 * The parts of the KTAP parser (ktap.h), for ci/ktap*.c alone: the
 * lines (ktap-line.c), the tree (ktap.c), what the tree says
 * (ktap-verdict.c).
 */
#include "ci/ktap.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

/* A plan bigger than this is not a plan but noise. */
#define KTAP_MAX_PLAN 100000

enum line_kind {
	LINE_NONE,
	LINE_VERSION,
	LINE_PLAN,
	LINE_RESULT,
	LINE_BAIL,
	LINE_SUBTEST,
};

/* One line taken apart; pointers into the cleaned line. */
struct ktap_line {
	enum line_kind kind;
	int version;
	int ok;
	int number;		/* plan count for LINE_PLAN */
	const char *name;	/* description, subtest name, bail reason */
	size_t name_len;
	const char *directive;	/* after '#', trimmed, or NULL */
	size_t directive_len;
};

/*
 * Copies a raw line into out (reset first) without carriage returns,
 * NULs, other control characters and terminal escape sequences, then
 * drops a printk timestamp ("[   1.234567] ", optionally after "<6>")
 * and trailing blanks.
 */
void ktap_line_clean(struct strbuf *out, const char *s, size_t len);

/* Is s (at some depth) a KTAP line?  Fills l: 1, or 0 (LINE_NONE). */
int ktap_line_classify(const char *s, struct ktap_line *l);

const char *ktap_skip_blanks(const char *s);
int ktap_starts_with(const char *s, const char *prefix);
int ktap_starts_with_icase(const char *s, const char *prefix);

/*
 * The parser's last step: tests a plan promised under a skipped one
 * skipped too, then the counts, the verdict and its reason.
 */
void ktap_result_finish(struct ktap_result *r);

#endif
