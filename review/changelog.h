/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_CHANGELOG_H
#define RESPIN_REVIEW_CHANGELOG_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * A cover letter as its author wrote it, taken apart: the title (the
 * first line), the body, and the changelog sections.  Section headers
 * are recognised in the forms people use (those of the cover letters
 * on linuxppc-dev in 2023 among them):
 *
 *	Changes in v3:		Changes for v3		v3:
 *	Notes for v3:		Patch set v3:		-v3:
 *	Change log v3:		Change overview in v3:	v3 changes:
 *	Changes since v2:	Updates from V2:	(these mean v3)
 *	Changes against v2:	Changes compared to v2[1]:
 *	Changes since v2 [msgid]:	Changes since v2 <URL>:
 *	v2 -> v3:		v2 --> v3:		Changes v2..v3:
 *	v2 (URL) -> v3:					(these too)
 *	v3: the first item on the header's line
 *	v3. the same
 *
 * or underlined (the line under it all '-', '=', '~', '*' or '+'):
 *
 *	Changes since v2	v3
 *	----------------	==
 *
 * A heading over the whole changelog ("Changelog:", "Changes:",
 * "History:", "Revisions" underlined) goes with the sections under it;
 * under one, a bare "v3" heads a section too.  A heading with anything
 * else under it is body text, as is "v2: URL" (a link).
 *
 * A section runs until a blank line followed by a line that is not a
 * list item ("- ", "* ", "+ ", "o ", "1. ", "1) ") or a continuation.
 * "Link to vK:" items are dropped (the cover letter writes its own),
 * and a trailing shortlog and diffstat, as git format-patch and git
 * send-email leave them, are cut off.
 */
struct changelog_section {
	int version;
	struct strbuf text;	/* its lines, as written */
};

struct cover_text {
	struct strbuf to, cc;	/* "To:"/"Cc:" lines before the title: values */
	char *title;
	struct strbuf body;	/* without sections; trimmed */
	struct strbuf diffstat;	/* the diffstat found in the tail, if any */
	struct changelog_section *sections;	/* in the order found */
	size_t nr, alloc;
};

void cover_text_parse(const char *text, size_t len, struct cover_text *ct);
void cover_text_release(struct cover_text *ct);
/* The section for version n, or NULL. */
const struct changelog_section *cover_text_section(const struct cover_text *ct,
						   int n);
/* What changelog_header_parse() makes of a line. */
#define CHANGELOG_CONTAINER (-1)	/* "Changelog:": over all versions */
struct changelog_header {
	int version;	/* > 0, CHANGELOG_CONTAINER, or 0: not a header */
	unsigned bare:1;	/* "v2" alone: a header only in context */
	unsigned colon:1;	/* the header ends in ':' */
	size_t text;	/* where "v2: text" has its text, else 0 */
};

/* Parses a line as a changelog header; returns h->version. */
int changelog_header_parse(const char *line, size_t len,
			   struct changelog_header *h);

/*
 * The version a line heads a changelog section for, or 0 when it is not
 * a section header on a line of its own ("v2: text", a bare "v2" and
 * "Changelog:" give 0).
 */
int changelog_header_version(const char *line, size_t len);

/* Drops the lines that start with '#' (the editor's help), in place. */
void cover_strip_comments(struct strbuf *text);

#endif
