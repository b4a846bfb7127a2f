/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SOURCE_H
#define RESPIN_SOURCE_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * Where mail comes from, all through one interface:
 *
 *	PATH		an mbox file (mboxrd or mboxo) or a maildir
 *	-		an mbox on standard input
 *	lore:MSGID	the thread of MSGID from a public-inbox server
 *	notmuch:QUERY	the messages QUERY finds in a notmuch database
 *
 * Messages are read once in order with mail_source_next(); any of them
 * can be read again later by its number with mail_source_get(), so a
 * caller can scan headers first and parse only the messages it needs.
 */
struct mail_source_options {
	const char *lore_url;	/* base URL for lore: (required for it) */
	const char *cache_dir;	/* for fetched threads; NULL: no cache */
	const char *notmuch_db;	/* NULL: the user's own database */
	unsigned lore_refresh:1;
};

struct mail_source_msg {
	const char *data;	/* the raw message, borrowed until the next call */
	size_t len;
	size_t number;		/* 1-based */
	const char *path;	/* file it came from (borrowed), for messages */
	unsigned truncated:1;
};

struct mail_source;

/* Opens spec; the caller frees the source with mail_source_free(). */
int mail_source_open(struct mail_source **out, const char *spec,
		     const struct mail_source_options *o);
/*
 * Opens an mbox already in memory (mail put together from several
 * answers): the source takes mbox's buffer over and leaves mbox empty.
 * name names its messages in errors, describe is what
 * mail_source_describe() says.  Free the source as any other.
 */
int mail_source_open_mbox(struct mail_source **out, const char *name,
			  const char *describe, struct strbuf *mbox);
/* 1 and *msg filled, 0 at the end, negative on errors. */
int mail_source_next(struct mail_source *src, struct mail_source_msg *msg);
/*
 * Reads every message at once, in two threads when the source is one
 * large mbox: fn(msg, part, data) gets the messages of the first half
 * of the file with part 0 and those of the second half with part 1,
 * each half in order, at the same time.  A part-1 message's number
 * counts from the start of its half: add *first_part_count to it.
 * Afterwards mail_source_get() knows every message.  fn must be safe
 * to run in two threads at once; a nonzero return stops its part.
 */
int mail_source_scan(struct mail_source *src,
		     int (*fn)(const struct mail_source_msg *msg, int part,
			       void *data),
		     void *data, size_t *first_part_count);

/* Message number n (from mail_source_next) again, appended to out. */
int mail_source_get(struct mail_source *src, size_t n, struct strbuf *out);
/*
 * Its header alone (up to and with the blank line after it), for what
 * needs no body: an mbox's giant patch is not copied for its To: line.
 * Other sources give the whole message.
 */
int mail_source_get_head(struct mail_source *src, size_t n,
			 struct strbuf *out);
/* How spec was understood: "mbox PATH", "lore URL", ... (borrowed). */
const char *mail_source_describe(const struct mail_source *src);
/* The path messages are named by in errors (borrowed). */
const char *mail_source_name(const struct mail_source *src);
void mail_source_free(struct mail_source *src);

#endif
