/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_EMAIL_H
#define RESPIN_EMAIL_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * Writing one patch as a mail, in the shape git format-patch gives
 * (an mbox "From " line, headers, the message, "---", notes, diffstat,
 * the diff, a signature), so that git am and b4 take it.
 */
struct email_options {
	const char *prefix;	/* "PATCH", "RFC PATCH", "PATCH net-next" */
	int version;		/* > 1 adds "vN" */
	size_t index, total;	/* i/N; total 0 = unnumbered */
	const char *message_id;	/* without <> */
	const char *in_reply_to;	/* without <>, or NULL */
	const char *references;	/* "<a> <b>", or NULL */
	const char *notes;	/* text between "---" and the diffstat */
	const char *trailer_block;	/* extra lines after the message */
	/* "base-commit: X\n" (and prerequisite-patch-id: lines) after the diff */
	const char *base_info;
};

/* "[PATCH v2 1/3]" (or "[PATCH v2]" when total is 0) into out. */
void email_subject_tag(struct strbuf *out, const struct email_options *o);

/* Appends an RFC 2822 date for a git time (in its own offset). */
void email_date(struct strbuf *out, git_time_t when, int offset_minutes);

/*
 * Appends the MIME headers of a plain-text mail in UTF-8, sent as it
 * is (8bit), and the blank line that ends the header block.
 */
void email_mime_headers(struct strbuf *out);

/* Appends a header line, encoding non-ASCII text as RFC 2047 words. */
void email_header(struct strbuf *out, const char *name, const char *value);
/*
 * Appends a display name as a header's phrase that every reader, git
 * send-email's address parser among them, takes as one name: control
 * characters become blanks; a name with '@', '"', '\\' or non-ASCII
 * becomes RFC 2047 encoded words, one with other specials (". , :")
 * a quoted-string; nothing for an empty name.
 */
void email_display_name(struct strbuf *out, const char *name);
/* Appends "Name <addr>" as an address header line (email_display_name). */
void email_address_header(struct strbuf *out, const char *hname,
			  const char *name, const char *email);

/* The whole mail of a non-merge commit as patch i/N. */
int email_from_commit(git_repository *repo, git_commit *commit,
		      const struct email_options *o, struct strbuf *out);

/*
 * Appends one mail to an mboxrd: every line but the first (the "From "
 * separator) that reads ">*From " gets one more '>'.
 */
void email_mboxrd_append(struct strbuf *out, const char *text, size_t len);

/*
 * A safe file name for a patch, as git format-patch [-v N] names it:
 * "0001-mm-fix-the-thing.patch", "v3-0001-mm-fix-the-thing.patch" (no
 * "vN-" for v1, as git without -v), at most 63 characters.
 */
void email_file_name(struct strbuf *out, int version, size_t index,
		     const char *subject);

#endif
