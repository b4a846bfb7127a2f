/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_PATCHMAIL_H
#define RESPIN_PATCHMAIL_H

#include <stddef.h>

/*
 * The parts of a patch mail's body (UTF-8 text, as mail_body_parse()
 * gives it):
 *
 *	commit message			message
 *	Signed-off-by: ...		trailers (the last paragraph of Key: value)
 *	---
 *	 v2: ...			notes (changelog, diffstat)
 *	 mm/foo.c | 2 +-
 *	diff --git a/mm/foo.c ...	diff (up to the end of its last hunk)
 *	base-commit: ...		tail (what follows the diff)
 *	--
 *	2.43.0				signature
 *
 * The spans point into the body given to patchmail_split() (borrowed:
 * keep the body alive), but for diff when the body's is not git's (a
 * quilt or `diff -up` diff, blank context lines): then it is the same
 * diff as git writes it (diff_normalize()), owned like the trailer
 * list and freed by patchmail_release(); raw_diff is always the
 * body's.
 */

struct trailer {
	char *key;		/* "Reviewed-by" (known keys in canonical case) */
	char *value;		/* "Name <addr>", continuation lines joined */
};

struct trailer_list {
	struct trailer *items;
	size_t nr, alloc;
};

void trailer_list_init(struct trailer_list *tl);
void trailer_list_release(struct trailer_list *tl);
void trailer_list_add(struct trailer_list *tl, const char *key, size_t klen,
		      const char *value, size_t vlen);

/* A key that names a person ("*-by") or is a known kernel trailer. */
int trailer_key_is_known(const char *key, size_t len);

/*
 * A "Key: value" line in [p, e) (no newline): the key a word of
 * letters, digits, '-' and '_' at p itself, then ": " or ":\t".  Sets
 * the key's start and length and the value's start; returns 1, or 0
 * when the line is no such line.
 */
int trailer_line_parse(const char *p, const char *e, const char **key,
		       size_t *klen, const char **val);

struct patchmail_span {
	const char *p;		/* NULL when the part is missing */
	size_t len;
};

struct patchmail {
	struct patchmail_span message;	/* without the trailer block, trimmed */
	struct patchmail_span trailer_block;
	struct patchmail_span notes;	/* between the "---" line and the diff */
	struct patchmail_span diff;	/* from "diff --git"/"Index:"/"--- a/" */
	struct patchmail_span raw_diff;	/* the diff as in the body */
	struct patchmail_span tail;	/* after the diff, before the signature */
	struct patchmail_span signature;	/* after the "-- " line */
	struct trailer_list trailers;
	unsigned nr_files;	/* file sections in the diff */
	unsigned nr_hunks;
	char *diff_buf;		/* owned: diff rewritten as git's */
};

void patchmail_init(struct patchmail *pm);
void patchmail_release(struct patchmail *pm);

/*
 * Splits body into its parts.  A diff whose hunks are cut short or
 * malformed is an error; what (e.g. from mail_describe(), may be NULL)
 * names the message in it.
 */
int patchmail_split(struct patchmail *pm, const char *body, size_t len,
		    const char *what);

/* The offset of the first diff line in body, or len when none. */
size_t patchmail_find_diff(const char *body, size_t len);

/*
 * A diff pasted into a reply or another text: whether the line at p
 * starts one ("diff --git", "Index:", "--- a/x" over "+++ b/x", or a
 * bare "@@ -a,b +c,d @@" hunk), and where the diff that starts at p
 * ends (after its last hunk or header line; never an error: a hunk cut
 * short ends at the first line that cannot be one of its lines).
 */
int patchmail_diff_starts(const char *p, const char *end);
const char *patchmail_diff_skip(const char *p, const char *end);

#endif
