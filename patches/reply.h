/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REPLY_H
#define RESPIN_REPLY_H

#include "patches/patchmail.h"

/*
 * What a reply to a patch gives: trailers ("Reviewed-by: X <x@y>",
 * "Acked-by:", "Tested-by:", ..., "Fixes: <sha> (...)", "Closes:
 * http...", "Link: http...") and reports by bots.
 *
 * A trailer is given when its line starts at the left margin, is not
 * quoted ('>'), comes before the reply's signature ("-- ") and is no
 * part of something the reply pastes:
 *
 *   - a diff: from "diff --git", "Index:", "--- a/" over "+++ b/" or an
 *     "@@ -a,b +c,d @@" line to the end of its last hunk (by the hunk
 *     counts; a hunk cut short ends at the first line that cannot be
 *     one of its lines), with git's "-- " and version line after it;
 *   - the patch a diff belongs to: the paragraph of tags right on a
 *     "---" line that a diff follows, or right on the diff itself (a
 *     blank line between them and the tags are the reply's again);
 *   - a commit: a "commit <7..40 hex>" line followed by "Author:" or
 *     "Merge:" (git log, git show), a "From <40 hex>" line (git
 *     format-patch) or a scissors line ("-- >8 --", "---8<---"): its
 *     header lines, then its message: an indented message ends at the
 *     first line back at the margin, one at the margin ends at the
 *     blank line after its first paragraph with a tag, or at its "---";
 *     a quoted line ends any of them.
 *
 * Indented tags are given only as a paragraph of tags alone right
 * under a paragraph of the reply's own words ("feel free to have my:"
 * over "    Acked-by: X"); indented under quoted or pasted text, or
 * among other indented lines (a commit message pasted without its
 * header), or restating the patch's own tags (a Signed-off-by among
 * them), they are not.
 *
 * A bot's boilerplate ("If you fix the issue ..., kindly add following
 * tag(s)", syzbot's "please add the following tag to the commit") is
 * the bot's report, and the tags under it (with or without the "| " in
 * front) are its own, not given; so are all tags in mail from a bot
 * (reply_from_bot()).
 */

struct bot_report {
	char *who;	/* its Reported-by tags ("A <a>, B <b>"), else the sender */
	char *what;	/* "build warnings", "build errors", ...; or NULL */
	char *link;	/* its Closes: (else Link:) tag, or NULL */
	const char *message_id;	/* borrowed; left NULL here for the caller */
};

struct bot_report_list {
	struct bot_report *items;
	size_t nr, alloc;
};

void bot_report_list_init(struct bot_report_list *l);
void bot_report_list_release(struct bot_report_list *l);

/* Mail from a bot: the kernel test robot, syzbot, a "*-bot" address. */
int reply_from_bot(const char *name, const char *addr);

/*
 * Reads body (UTF-8 text, as mail_body_parse() gives it) of a reply
 * from from_name <from_addr> (either may be NULL): appends the
 * trailers it gives to given and its bots' reports to reports (may be
 * NULL: then they are dropped).  Returns how many trailers it gave.
 */
int reply_parse(struct trailer_list *given, struct bot_report_list *reports,
		const char *body, size_t len, const char *from_name,
		const char *from_addr);

/* reply_parse() for the trailers alone, sender unknown. */
int patchmail_reply_trailers(struct trailer_list *out, const char *body,
			     size_t len);

#endif
