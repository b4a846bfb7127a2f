/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_MBOX_H
#define RESPIN_MBOX_H

#include <stddef.h>

#include "tools/lib/strbuf.h"

/*
 * Reading messages one by one from an mbox file, a maildir, or a
 * buffer that holds one mbox (or one raw message).
 *
 * An mbox file is mapped, not read: each message comes back as a
 * pointer into the mapping, with its offset and length in the file.
 * Only a message that needs work (">From " lines to unescape, CRLF line
 * ends to turn into LF) is copied, into a buffer the reader owns.
 *
 *	struct mbox *mb;
 *	struct mbox_msg msg;
 *	int r;
 *
 *	if (mbox_open(&mb, path, MBOX_AUTO) < 0)
 *		return -1;
 *	while ((r = mbox_next(mb, &msg)) > 0)
 *		use(msg.data, msg.len);
 *	mbox_free(mb);
 *	if (r < 0)
 *		return -1;
 *
 * msg.data is borrowed from the reader and stays valid until the next
 * mbox_next() or mbox_free(), whichever comes first; copy what you keep.
 */

enum mbox_format {
	MBOX_AUTO = 0,	/* mboxrd when the first line says "From mboxrd@z", else mboxo */
	MBOX_RD,	/* ">From " escaping: one '>' less on "^>+From " */
	MBOX_O,		/* "^>From " becomes "From "; ">>From " stays */
	MBOX_ONE,	/* the whole input is one raw message (no separators) */
};

struct mbox_msg {
	const char *data;	/* the message (headers + body), borrowed */
	size_t len;
	size_t offset;		/* where the message starts in the file */
	size_t raw_len;		/* its length in the file */
	size_t number;		/* 1-based number in the mbox (or maildir) */
	const char *path;	/* the file it came from (borrowed) */
	unsigned copied:1;	/* data lives in the reader's buffer */
	unsigned truncated:1;	/* the file ends inside this message */
	unsigned crlf:1;	/* it had CRLF line ends (data has LF) */
};

struct mbox;

/*
 * Opens an mbox file or a maildir (a directory with cur/ and/or new/;
 * files are read in name order).  A file whose first line is not a
 * "From " separator is refused ("not an mbox") unless fmt is MBOX_ONE.
 * The caller frees the reader with mbox_free().
 */
int mbox_open(struct mbox **out, const char *path, enum mbox_format fmt);

/*
 * The same over a buffer the caller owns and keeps alive while the
 * reader is used; name is used in messages (borrowed).
 */
int mbox_open_buffer(struct mbox **out, const char *data, size_t len,
		     const char *name, enum mbox_format fmt);

/* The next message: 1 and *msg filled, 0 at the end, negative on error. */
int mbox_next(struct mbox *mb, struct mbox_msg *msg);

/* How many messages have been returned so far. */
size_t mbox_count(const struct mbox *mb);

/* The path or name given at open (borrowed). */
const char *mbox_path(const struct mbox *mb);

/* The format in use (MBOX_AUTO resolved). */
enum mbox_format mbox_format_get(const struct mbox *mb);

/* Unmaps and frees everything; NULL is fine. */
void mbox_free(struct mbox *mb);

/*
 * Unescapes ">From " lines of one message into out (appending), per
 * fmt (MBOX_RD or MBOX_O), and turns CRLF into LF when crlf is set.
 */
void mbox_unescape(struct strbuf *out, const char *data, size_t len,
		   enum mbox_format fmt, int crlf);

#endif
