/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_LOREFIND_H
#define RESPIN_SERIES_LOREFIND_H

#include "series/mailset.h"

/*
 * The other versions of a series on a public-inbox server (lore), as
 * `b4 am -c` looks for newer revisions, in both directions.
 *
 * lore_find_open() fetches the thread of msgid (what lore:MSGID reads),
 * finds the series that focus (default: msgid) belongs to with the
 * mailset, and asks the server for that series' other versions, in
 * rounds.  A round asks, for what the series' versions known so far
 * carry and was not asked before, at most one request of each kind:
 *
 *	change-id	nq:"change-id: X"
 *	subject		s:"TITLE" AND f:"AUTHOR" (the versions' titles)
 *	backlink	nq:"MSGID": mail naming a version's Message-ID
 *			("Link to v1: https://lore.../MSGID/")
 *	patch-id	patchid:X, the versions' patches
 *	link		the thread of each Message-ID that a version's
 *			cover (or first patch) names in a URL, fetched
 *			from the same server by its Message-ID
 *
 * Searches come back as whole threads (x=m&t=1).  Rounds go on while
 * they find more; they stop after LORE_FIND_MAX_ROUNDS rounds or
 * LORE_FIND_MAX_REQUESTS requests, when the answers together pass
 * respin.maxMailSize, when respin.lore.timeout is spent (it bounds all
 * the searching together, as it bounds one request), or at the first
 * failure.  Answers are cached as threads are (--refresh: refresh).
 *
 * What comes back is one mail source, the thread first and then every
 * answer, to be grouped with the mailset as the thread alone would be:
 * the mailset decides which versions are the series' (by change-id,
 * links, In-Reply-To, titles, patch-ids); whatever else the searches
 * brought is left out.  Only the thread can fail (as lore:MSGID does);
 * a failed search (a server without search, a timeout) is a note and
 * leaves the versions found so far.
 *
 * Queries are built from mail but only ever sent percent-encoded
 * (tools/lib/lore.c); nothing reaches a shell.
 */
#define LORE_FIND_MAX_ROUNDS	4
#define LORE_FIND_MAX_REQUESTS	16

enum lore_found {
	LORE_FOUND_THREAD,	/* in the thread asked for */
	LORE_FOUND_CHANGE_ID,
	LORE_FOUND_SUBJECT,
	LORE_FOUND_BACKLINK,	/* it names a version's Message-ID */
	LORE_FOUND_LINK,	/* a version names it */
	LORE_FOUND_PATCH_ID,
};

struct lore_find_part;

struct lore_find {
	struct mail_source *src;	/* owned; the caller may take it */
	char *url;			/* the inbox */
	char *msgid;			/* the thread asked for */
	struct lore_find_part *parts;	/* in source order */
	size_t nr_parts, alloc_parts;
	size_t requests;		/* asked (or answered by the cache) */
	struct strbuf notes;		/* failures: one line each */
};

struct lore_find_options {
	int refresh;
	const char *focus;		/* NULL: msgid */
	/* called before each request, when not NULL (progress) */
	void (*progress)(const char *what, void *data);
	void *progress_data;
};

/*
 * Fills lf (release it with lore_find_release(), also on failure).
 * Returns what lore:MSGID would for the thread (0, RESPIN_ENOTFOUND,
 * RESPIN_EUSAGE, RESPIN_ERR); never fails for a search.
 */
int lore_find_open(git_repository *repo, const char *msgid,
		   const struct lore_find_options *o, struct lore_find *lf);

/*
 * How version vi of ms (a mailset read from lf->src) came: -1 when it
 * has no messages.
 */
int lore_find_how(const struct lore_find *lf, const struct mailset *ms,
		  long vi);
/* "thread", "change-id", "subject", "link", "patch-id" (for JSON). */
const char *lore_found_name(int how);

/*
 * Appends lf's notes, then one line a version of series si of ms:
 * "v2 <MSGID>: found by change-id X", "v1 <MSGID>: in the thread asked
 * for", ...; text from mail as it is (the caller escapes for a
 * terminal).
 */
void lore_find_describe(const struct lore_find *lf, struct mailset *ms,
			long si, struct strbuf *out);

void lore_find_release(struct lore_find *lf);

#endif
