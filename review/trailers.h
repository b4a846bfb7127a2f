/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_TRAILERS_H
#define RESPIN_REVIEW_TRAILERS_H

#include <git2.h>
#include "series/store.h"
#include "tools/lib/strbuf.h"

/*
 * The trailers given to a recorded version in replies on the list, per
 * patch: those given to it (a trailer on the cover letter counts for
 * every patch), and those given to an earlier version of the series
 * that carry to this one because the patch's diff did not change
 * (same patch-id).  Those that do not carry are kept too, with why.
 *
 * Only trailers a reviewer gives count: Reviewed-by, Acked-by,
 * Tested-by, Reported-by, Suggested-by, Fixes, Closes.
 */
enum given_state {
	GIVEN_NEW,		/* to add */
	GIVEN_HAVE,		/* the commit has it already */
	GIVEN_NOT_CARRIED,	/* given to an earlier version; see why */
	/*
	 * A person's trailer whose name and address are not those of the
	 * mail that gave it (a CI bot's "Reported-by: Linux Kernel
	 * Functional Testing <lkft@...>" sent by a person): listed, added
	 * only when accepted (trailers_accept_mismatch()).
	 */
	GIVEN_MISMATCH,
	/*
	 * In the commit, but given (Reviewed-by, Acked-by, Tested-by)
	 * before the patch's code changed: the reviewer saw other code.
	 */
	GIVEN_STALE,
};

/* Reviewed-by, Acked-by, Tested-by: about the code as it was given. */
int trailer_about_code(const char *key);

struct given {
	char *key, *value;
	char *msgid;		/* the reply that gave it */
	char *from;		/* who sent that reply */
	int version;		/* the version it was given to */
	size_t given_to;	/* the patch it was given to there; 0 cover */
	size_t given_total;	/* of how many */
	enum given_state state;
	const char *why;	/* not carried: why (static text) */
};

struct patch_given {
	struct given *items;
	size_t nr, alloc;
};

struct trailers_report {
	size_t nr;			/* the version's patches */
	struct patch_given *patches;	/* [i] for patch i + 1 */
	struct strbuf notes;		/* versions whose mail was not found */
};

void trailers_report_release(struct trailers_report *r);

/*
 * Reads the replies in source (an mbox, maildir, lore:, notmuch:) to v
 * and to the earlier versions of s that have Message-IDs.  Fails when
 * the mail of v itself is not there.  A version not sent yet (no
 * Message-IDs) gets what carries from the earlier ones.  refresh
 * fetches lore: threads again.
 */
int trailers_collect(git_repository *repo, struct series *s,
		     struct series_version *v, const char *source, int refresh,
		     struct trailers_report *out);

/*
 * Where v's mail is when no source is given: the mbox or maildir it was
 * imported from when it is still there, else lore:<its Message-ID>; for
 * a version not sent yet, the newest earlier one's.
 */
void trailers_default_source(const struct series *s,
			     const struct series_version *v,
			     struct strbuf *out);

/* The GIVEN_MISMATCH trailers become GIVEN_NEW (b4 trailers -S). */
void trailers_accept_mismatch(struct trailers_report *r);

/* How many trailers of r are in state st. */
size_t trailers_count(const struct trailers_report *r, enum given_state st);

struct trailers_apply_opts {
	const char *owner;	/* user.email */
	int dry_run;		/* write nothing */
	int all;		/* also into patches owner does not send */
	int drop_stale;		/* GIVEN_STALE trailers taken out */
};

/*
 * Writes the GIVEN_NEW trailers into v's commits on the branch that
 * points at v's tip (with drop_stale, takes the GIVEN_STALE ones out),
 * as new commits (same trees and authors), and moves the branch
 * (compare-and-swap) only when every commit was written.  A commit
 * that changes must be one owner sends: its last Signed-off-by is
 * owner's, or owner committed it (a colleague's patch carried); the
 * others are refused, each named with why, unless o->all.  Refuses a
 * branch that is not at v's tip.  *branch gets the branch's name,
 * *new_tip its new tip; *nr_commits how many commits changed.
 */
int trailers_apply(git_repository *repo, const struct series_version *v,
		   const struct trailers_report *r,
		   const struct trailers_apply_opts *o, struct strbuf *branch,
		   git_oid *new_tip, size_t *nr_commits);

#endif
