/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_CARRY_H
#define RESPIN_SERIES_CARRY_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * The maintainer's part of a commit in an integration branch, carried
 * to the commit that replaces it (respin replace): what the maintainer
 * added when applying the old version -- the committer's own
 * Signed-off-by (put last), the Cc: lines, and the Link: to the posting,
 * pointed at the new version's mail in the same form
 * (https://lkml.kernel.org/r/ID or https://lore.kernel.org/r/ID) when
 * the new version came from mail -- plus the review tags given on the
 * list since.  The replacement's author and message otherwise stay the
 * author's: the lines are added after its trailers, none twice.
 */

/* A review tag to add, and where it was given ("given to v2 1/3"). */
struct carry_given {
	char *key, *value, *note;
};

struct carry_given_list {
	struct carry_given *items;
	size_t nr, alloc;
};

void carry_given_add(struct carry_given_list *l, const char *key,
		     const char *value, const char *note);
void carry_given_release(struct carry_given_list *l);

/* One line added to a replacement (or not carried, and why). */
struct carry_line {
	char *key, *value;
	char *note;		/* "was ID", "the committer's, last", or NULL */
	int dropped;		/* 1: not carried (note says why) */
};

/* What went into one replacement commit. */
struct carry_commit {
	git_oid from;		/* the old commit taken from; zero: none */
	int no_predecessor;	/* a new patch: the series' first one's */
	struct carry_line *lines;
	size_t nr, alloc;
	char *message;		/* the replacement's message */
	char *committer_name, *committer_email;	/* the old committer */
};

void carry_commit_release(struct carry_commit *c);

/*
 * The message of the replacement of old (NULL: nothing to carry but
 * given) made from new_msg, the new patch's own.  new_msgid is the new
 * patch's Message-ID (NULL: the new version was not sent, so the old
 * Link: is not carried); given the review tags for it.  out->message and
 * out->lines are set; out->from is old's id.
 */
int carry_make(git_commit *old, const char *new_msg, const char *new_msgid,
	       const struct carry_given_list *given, struct carry_commit *out);

#endif
