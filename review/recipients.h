/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_RECIPIENTS_H
#define RESPIN_REVIEW_RECIPIENTS_H

#include <git2.h>
#include "series/store.h"
#include "tools/lib/strbuf.h"
#include "tools/lib/strmap.h"

/*
 * Who a version is sent to: To and Cc lists of "Name <addr>" (or a
 * bare address), each address once (compared without case) over both
 * lists, To winning.  Filled from, in order: the command line and git
 * config, the tree's scripts/get_maintainer.pl, the recipients the
 * previous version was sent to, and every address that gave a trailer
 * in the version's commits.
 */
struct recipients {
	char **to, **cc;
	size_t nr_to, alloc_to, nr_cc, alloc_cc;
	struct strmap seen;
	char **keys;
	size_t nr_keys, alloc_keys;
};

void recipients_init(struct recipients *r);
void recipients_release(struct recipients *r);

/* Adds one address ("Name <a@b>" or "a@b"); 0 added, 1 a duplicate,
 * -1 (with a message) when it holds no address. */
int recipients_add(struct recipients *r, int to, const char *who);

/*
 * Reads get_maintainer.pl --rolestats output: maintainers and
 * supporters go to To, the rest (lists, reviewers) to Cc.
 */
void recipients_add_get_maintainer(struct recipients *r, const char *out);

/*
 * Every address of list ("A <a@b>, c@d", lines of them): commas inside
 * quotes or <> do not split.  Returns -1 (with a message naming it) for
 * one that is not an address.
 */
int recipients_add_list(struct recipients *r, int to, const char *list);

/* Addresses on "*-by:" and "Cc:" trailer lines of text, to Cc. */
void recipients_add_trailers(struct recipients *r, const char *text);

/* "To: ...\nCc: ...\n" lines (as stored with a sent version) back in. */
void recipients_add_stored(struct recipients *r, const char *text);
void recipients_format(const struct recipients *r, struct strbuf *out);

#endif
