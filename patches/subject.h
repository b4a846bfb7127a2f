/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SUBJECT_H
#define RESPIN_SUBJECT_H

/*
 * The tags of a patch mail's subject:
 *
 *	"Re: [RFC PATCH net-next v4 02/17] net: foo"
 *	  -> is_reply, is_rfc, prefix "net-next", version 4, 2/17,
 *	     title "net: foo"
 *
 * Without a counter a patch is 1/1; without a version it is v1.
 * "[PATCH 0/N]" is a cover letter.  struct subject owns its strings;
 * subject_release() frees them.
 *
 * Numbers are range-checked, never wrapped: a version above
 * SUBJECT_MAX_VERSION (or v0), a counter above SUBJECT_MAX_TOTAL, a
 * total of 0 or an index above its total ("[PATCH v4294967297 5/3]") is
 * not read as a tag: the word stays in the prefix like any other word,
 * and out_of_range is set so that callers can say so.
 */
#define SUBJECT_MAX_VERSION	9999
#define SUBJECT_MAX_TOTAL	999

struct subject {
	char *title;		/* tags and reply prefixes stripped */
	char *prefix;		/* other words of the tag ("net-next"), or NULL */
	int version;		/* 1 when not given */
	int index, total;	/* 1/1 for a patch without a counter */
	unsigned is_patch:1;	/* a [PATCH ...] (or [RFC ...]) tag was found */
	unsigned is_rfc:1;
	unsigned is_resend:1;
	unsigned is_reply:1;	/* Re:, RE:, Aw:, AW:, Fwd:, Sv:, ... */
	unsigned is_cover:1;	/* index 0 */
	unsigned has_counter:1;	/* an i/N was given */
	unsigned has_version:1;	/* a vN was given */
	unsigned out_of_range:1;	/* a vN or i/N word beyond the limits */
};

void subject_init(struct subject *s);
void subject_release(struct subject *s);

/* Parses a (decoded, unfolded) subject; never fails. */
void subject_parse(struct subject *s, const char *subject);

struct strbuf;
/*
 * The words of the subject's patch tags as written, without the
 * version and the counter: what git format-patch's --subject-prefix
 * was ("[RFC PATCH net-next v4 02/17] x" -> "RFC PATCH net-next",
 * "[PATCHv2 1/3] x" -> "PATCH").  Appends nothing when there is no tag.
 */
void subject_sent_prefix(const char *subject, struct strbuf *out);

/*
 * The title of subject (its [PATCH ...] prefix gone), a string of the
 * caller's; lower-cased when lower (titles compared loosely); "" for
 * NULL.
 */
char *subject_title(const char *subject, int lower);

#endif
