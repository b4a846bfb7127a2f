/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_COMMENTS_H
#define RESPIN_REVIEW_COMMENTS_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * Review comments in a reply: each run of the reviewer's own new text
 * with the quoted lines just above it (what it answers).  Left out: the
 * attribution line ("On ..., X wrote:"), the signature, trailer lines,
 * and the reviewer's text with no quote above it before the first quote
 * is kept as a comment with no quote (a top-post, a general remark).
 *
 * When the quote holds lines of a diff, the comment is placed in it:
 * the file and the hunk header, from "diff --git", "+++ b/" and "@@"
 * lines quoted anywhere above it in the reply, or else found by looking
 * the quoted lines up in the patch's own diff.
 */
struct comment {
	struct strbuf quote;	/* the quoted lines, one '>' level off */
	struct strbuf text;	/* the reviewer's lines */
	char *file;		/* "mm/vmscan.c", or NULL */
	char *hunk;		/* "@@ -4375,6 +4419,8 @@ ...", or NULL */
};

struct comment_list {
	struct comment *items;
	size_t nr, alloc;
};

void comment_list_init(struct comment_list *l);
void comment_list_release(struct comment_list *l);

/*
 * The comments of body (a reply's text, UTF-8) into out; diff is the
 * diff of the patch replied to (NULL for a cover letter).  Returns how
 * many.
 */
size_t comments_parse(struct comment_list *out, const char *body, size_t len,
		      const char *diff, size_t diff_len);

/*
 * Whether reply (parsed) answers comment c: it quotes a line of c's
 * text and has text of its own under that quote.
 */
int comment_answered_by(const struct comment *c, const struct comment_list *reply);

/*
 * Whether the next version changed the lines c answers: a +/- line of
 * old_diff it quotes is no longer among the lines new_diff adds or
 * removes in that file, a context line it quotes is now removed, or a
 * line of the old commit message it quotes is not in the new one.  A
 * comment that quotes none of the patch's lines (a general remark) is
 * never addressed by a change elsewhere in the patch: the author
 * answers it or marks it done.  Any of the texts may be NULL.
 */
int comment_addressed(const struct comment *c, const char *old_msg,
		      const char *old_diff, const char *new_msg,
		      const char *new_diff);

/*
 * How much of what c quotes diff holds: two for each line the comment
 * quotes that diff adds, removes or keeps as context (in c's file when
 * it has one), one more when diff touches c's file.  0 for a NULL diff.
 * For following a comment into the part of a split patch that holds
 * its lines.
 */
size_t comment_holds(const struct comment *c, const char *diff);

#endif
