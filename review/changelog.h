/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_CHANGELOG_H
#define RESPIN_REVIEW_CHANGELOG_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * A cover letter as its author wrote it, taken apart: the title (the
 * first line), the body, and the changelog sections.  Section headers
 * are recognised in the forms people use:
 *
 *	Changes in v3:		Changes for v3		v3:
 *	Changes since v2:	Updates from V2:	(these mean v3)
 *	v2 -> v3:		Changes v2..v3:		(these too)
 *
 * A section runs until a blank line followed by a line that is not a
 * list item or a continuation.  "Link to vK:" items are dropped (the
 * cover letter writes its own), and a trailing shortlog and diffstat,
 * as git format-patch and git send-email leave them, are cut off.
 */
struct changelog_section {
	int version;
	struct strbuf text;	/* its lines, as written */
};

struct cover_text {
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
/*
 * The version a line heads a changelog section for, or 0 when it is not
 * a section header.
 */
int changelog_header_version(const char *line, size_t len);

/* Drops the lines that start with '#' (the editor's help), in place. */
void cover_strip_comments(struct strbuf *text);

#endif
