/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_TERMSAFE_H
#define RESPIN_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

struct strbuf;

/*
 * Text from mail (subjects, names, addresses, Message-IDs, trailers,
 * patch lines) shown as text: whatever a terminal would act on is
 * written as visible escapes, so that a subject cannot move the cursor,
 * retitle the window, recolour the screen or reverse the line.
 *
 *	C0 controls, DEL	\n \r \t \e, else \xNN
 *	C1 controls		\u0080 ... \u009f (U+0080..U+009F)
 *	bidi overrides		\u202a ... \u202e, \u2066 ... \u2069
 *	bytes not UTF-8		\xNN
 *
 * Everything else, a backslash too, is copied as it is.  Every text
 * listing escapes, on a terminal or not (a pipe often ends in one: less,
 * a CI log); --json carries the exact string instead (json.c escapes
 * the same characters as \uXXXX, which JSON reads back unchanged).
 */

/* Keep newlines and tabs: for a block of text (a patch, a cover). */
#define TERM_SAFE_LINES	(1u << 0)

/* Appends s[0..len) to sb, escaped as above. */
void strbuf_add_term_safe(struct strbuf *sb, const char *s, size_t len,
			  unsigned flags);

/*
 * s escaped as above (NULL reads as ""), for one field of a printf-style
 * line: the result is borrowed and stays valid for the next 7 calls in
 * the same thread (each thread has a ring of its own).
 */
const char *term_safe(const char *s);

/* s (len bytes) written to f as strbuf_add_term_safe() makes it. */
void fputs_term_safe(FILE *f, const char *s, size_t len, unsigned flags);

/* 1 when s has nothing strbuf_add_term_safe() would escape. */
int term_safe_clean(const char *s, size_t len, unsigned flags);

/*
 * The length of the UTF-8 sequence at s (at most avail bytes) and its
 * code point in *cp; 0 when it is not valid UTF-8.
 */
size_t utf8_decode(const unsigned char *s, size_t avail, unsigned *cp);

#endif
