/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REPLY_H
#define RESPIN_REVIEW_REPLY_H

#include <stdint.h>
#include "patches/mail.h"
#include "tools/lib/strbuf.h"

/*
 * A reply draft to one message, as a mail client's "reply all" makes
 * it: From the user; To the sender (Reply-To when set), Cc everyone
 * else who was on To and Cc, each address once and never the user's
 * own; "Re: " before the subject; In-Reply-To and References threading
 * it under the message; an attribution line and the message's text
 * quoted, its signature and a long tail of older quotes cut.  Under
 * the quote come, in order, an optional block of text (test results)
 * and an optional trailer line ("Reviewed-by: Name <addr>").
 *
 * The draft is written by GMime: names and the subject are RFC 2047
 * encoded when they are not ASCII, long address lists are folded, the
 * body is UTF-8 text/plain.  Nothing is sent.
 */
struct reply_options {
	const char *from_name;		/* the user (git config user.name) */
	const char *from_addr;		/* user.email; required */
	const char *message_id;		/* the draft's, without <> */
	int64_t date;			/* the draft's Date, seconds */
	int date_tz;			/* minutes east of UTC */
	const char *block;		/* text under the quote, or NULL */
	const char *trailer;		/* "Reviewed-by", or NULL */
	size_t quote_max;		/* quote this many lines; 0: all */
};

/* What was read from the message replied to. */
struct reply_original {
	char *message_id;		/* without <> */
	char *subject;			/* decoded, UTF-8 */
	char *from_name, *from_addr;
	char *date;			/* the Date header as written */
	char **references;		/* without <>, oldest first */
	size_t nr_references;
	char *body;			/* its text, UTF-8 */
	int html_only;			/* no text part: nothing to quote */
	size_t nr_to, nr_cc;		/* recipients after the reply-all rules */
};

void reply_original_release(struct reply_original *o);

/*
 * Makes the draft of a reply to the raw message msg (where names it in
 * errors) and appends it to out (a plain message, no mbox "From "
 * line).  Fills orig with what was read, when not NULL.  Errors: a
 * message GMime cannot read, one without a Message-ID, an address of
 * the user's that is not an address.
 */
int reply_draft(struct strbuf *out, const char *msg, size_t len,
		const struct mail_where *where, const struct reply_options *o,
		struct reply_original *orig);

/*
 * The quoted text of a reply to body: "> " before each line (">" alone
 * for an empty one), the signature (from a "-- " line on) left out, and
 * a tail of more than REPLY_TAIL_MAX lines that were quotes already cut
 * to one "> [...]" line.
 */
#define REPLY_TAIL_MAX 10
void reply_quote(struct strbuf *out, const char *body, size_t len);

/* A Message-ID for a draft: "<date>.<pid>.<random>@<domain of addr>". */
void reply_make_message_id(struct strbuf *out, const char *addr,
			   int64_t date);

#endif
