/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_DRAFTS_H
#define RESPIN_REVIEW_DRAFTS_H

#include <stdint.h>
#include "tools/lib/strbuf.h"

/*
 * Where reply drafts go, so that a mail client picks them up; nothing
 * is sent from here.
 */

/*
 * Appends the mail text (no "From " line) to the mbox at path as one
 * mboxrd message, in one write; makes the mbox and its folders when
 * missing.  A failed write takes back what part of it got in.
 */
int drafts_mbox_append(const char *path, const char *text, size_t len);

/*
 * Puts the mail into the maildir dir (made when missing) as a draft:
 * written into dir/tmp, then moved to dir/cur/NAME:2,D; *where gets
 * its path.
 */
int drafts_maildir_put(const char *dir, const char *text, size_t len,
		       int64_t when, struct strbuf *where);

/*
 * One draft to where the user asked: appended to the mbox, else put
 * into the maildir; out gets where ("draft <ID> in PATH"; no "<ID>"
 * when id is NULL), or with neither the draft itself, for the command
 * to print.
 */
int drafts_write(const char *mbox, const char *maildir, const char *text,
		 size_t len, int64_t when, const char *id, struct strbuf *out);

#endif
