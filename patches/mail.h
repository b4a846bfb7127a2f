/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_MAIL_H
#define RESPIN_MAIL_H

#include <stddef.h>

#include "tools/lib/strbuf.h"

/*
 * One mail message, two ways:
 *
 * - mail_header_scan(): the scan path.  Walks the header block only and
 *   pulls out the few headers a thread needs, without a MIME parser;
 *   GMime is called only to decode RFC 2047 words ("=?") or 8-bit bytes
 *   and for dates our fast parser does not know.
 * - mail_body_parse(): the full parse with GMime 3: the text/plain body
 *   (or the part holding the diff) decoded (quoted-printable, base64)
 *   and converted to UTF-8.
 *
 * Both take the raw message (as mbox_next() returns it) and copy what
 * they keep: the structs own their strings; *_release() frees them and
 * leaves an empty struct behind.  The scan is patches/mail.c, the Date:
 * header patches/maildate.c, the full parse patches/mailbody.c.
 */

/* Where a message came from, for error messages (both may be unset). */
struct mail_where {
	const char *path;	/* mbox or maildir path, or NULL */
	size_t number;		/* 1-based number in it, or 0 */
};

struct mail_addr {
	char *name;		/* display name, UTF-8, or NULL */
	char *addr;		/* "user@host", or NULL */
};

struct mail_header {
	char *message_id;	/* without "<>", or NULL when missing */
	char *in_reply_to;	/* the first id in In-Reply-To, or NULL */
	char **references;	/* ids of References, oldest first */
	size_t nr_references, alloc_references;
	char *subject;		/* unfolded, decoded, UTF-8, or NULL */
	struct mail_addr from;
	long long date;		/* seconds since the epoch */
	int date_tz;		/* its zone, in minutes east of UTC */
	unsigned date_valid:1;	/* a Date header that parsed */
	unsigned has_content_type:1;
	unsigned has_body:1;	/* a blank line ends the headers */
	size_t body_offset;	/* where the body starts (len when none) */
};

void mail_header_init(struct mail_header *h);
void mail_header_release(struct mail_header *h);

/*
 * Scans the header block of msg.  Missing headers stay NULL/0; only a
 * message that does not start with a header is an error.  where may
 * be NULL.
 */
int mail_header_scan(struct mail_header *h, const char *msg, size_t len,
		     const struct mail_where *where);

/*
 * The value of the first header called name (case-insensitive),
 * unfolded, raw (not decoded), appended to out.  Returns 1 when found,
 * 0 when not.
 */
int mail_header_get(const char *msg, size_t len, const char *name,
		    struct strbuf *out);

/*
 * The mailboxes of address header name (To, Cc), decoded to UTF-8,
 * appended to out a line each: "Name <a@b>", "\"N. Rao\" <c@d>" (a
 * name with specials quoted; groups opened; at most 20000).  Returns
 * how many.
 */
int mail_header_mailboxes(const char *msg, size_t len, const char *name,
			  struct strbuf *out);

/*
 * Parses an RFC 5322 date ("Mon, 2 Jan 2023 10:00:00 +0100") into
 * seconds since the epoch.  Returns 0, or -1 (nothing recorded) when
 * it is not a date.
 */
int mail_date_parse(const char *s, long long *out);
/* The same, also giving the date's zone in minutes east of UTC. */
int mail_date_parse_tz(const char *s, long long *out, int *tz_minutes);

/*
 * Appends a description of a message for error messages:
 * "message <ID> (#N in PATH)".  msgid and where may be NULL.
 */
void mail_describe(struct strbuf *out, const char *msgid,
		   const struct mail_where *where);

/*
 * The next "<id>" between *pp (moved past it) and end, without the
 * angle brackets (allocated); the first word when bare is set and
 * there are none.  NULL when there is none.
 */
char *mail_id_next(const char **pp, const char *end, int bare);

struct mail_body {
	char *text;		/* the body, UTF-8 (see warnings), NUL-terminated */
	size_t len;
	char *message_id;	/* as GMime read it, or NULL */
	char *charset;		/* the chosen part's charset, or NULL */
	char **warnings;	/* things that were kept as they were */
	size_t nr_warnings, alloc_warnings;
	unsigned from_attachment:1;	/* the diff came from an attached part */
	unsigned has_text:1;	/* a text part was found */
};

void mail_body_init(struct mail_body *b);
void mail_body_release(struct mail_body *b);

/*
 * Parses msg with GMime and fills b with its text: the first
 * text/plain part that is not an attachment; when that has no diff and
 * another text part (text/x-patch, text/x-diff, an attached
 * text/plain) has one, that part is appended to it.  Transfer
 * encodings are undone and the text converted to UTF-8; an unknown
 * charset or invalid bytes keep the bytes and add a warning.  Broken
 * base64 and unparseable messages are errors that name the message.
 */
int mail_body_parse(struct mail_body *b, const char *msg, size_t len,
		    const struct mail_where *where);

/*
 * A format=flowed text part (RFC 3676) as its sender wrote it, the way
 * git mailinfo reads it: a line ending in a space (a soft break) is
 * joined with the next (that space dropped too with delsp), the space
 * stuffed in front of an unquoted line goes, "-- " stays; quoted lines
 * are joined only to lines of their own depth.  Appended to out.
 */
void mail_unflow(const char *p, size_t len, int delsp, struct strbuf *out);

/* Content-Type value ct has the parameter name=value (no case). */
int mail_ct_param_is(const char *ct, const char *name, const char *value);

/* Calls g_mime_init() the first time (the parse functions do it). */
void mail_gmime_init(void);

#endif
