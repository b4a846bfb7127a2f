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
	/* where each came from: the source set when it was added */
	const char **to_src, **cc_src;
	size_t nr_to, alloc_to, nr_cc, alloc_cc, alloc_to_src, alloc_cc_src;
	struct strmap seen;	/* key -> 0 added, 1 dropped */
	char **keys;
	size_t nr_keys, alloc_keys;
	/*
	 * The source of what is added next ("get_maintainer.pl", "v2
	 * sent", ...): a string that outlives the struct.
	 */
	const char *source;
	/* addresses left out by recipients_drop(), the first time tried */
	char **dropped;
	const char **dropped_src;
	size_t nr_dropped, alloc_dropped, alloc_dropped_src;
};

void recipients_init(struct recipients *r);
void recipients_release(struct recipients *r);

/* Adds one address ("Name <a@b>" or "a@b"); 0 added, 1 a duplicate
 * or dropped, -1 (with a message) when it holds no address. */
int recipients_add(struct recipients *r, int to, const char *who);

/*
 * Leaves who's address out of every later add (one added already
 * stays); an add of it is listed in r->dropped, once.  -1 (with a
 * message) when who holds no address.
 */
int recipients_drop(struct recipients *r, const char *who);

/* Whether who's address is in the lists (not dropped). */
int recipients_has(const struct recipients *r, const char *who);

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
/* With no To: the first Cc becomes the To. */
void recipients_cc_to_to(struct recipients *r);
void recipients_format(const struct recipients *r, struct strbuf *out);

#endif
