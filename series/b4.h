/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_B4_H
#define RESPIN_SERIES_B4_H

#include "series/store.h"

/*
 * Reading a "b4 prep" branch (b4 0.12) as respin versions.
 *
 * b4 keeps a series' state in one of two places, chosen by the branch's
 * branch.NAME.b4-prep-cover-strategy:
 *
 *   commit (the default), tip-commit: an empty commit (the first or the
 *	last of the branch) whose message is the cover letter, a line
 *	"--- b4-submit-tracking ---", a "# ..." comment line and JSON;
 *   branch-description: the cover letter in branch.NAME.description and
 *	the JSON (one line) in branch.NAME.b4-tracking.
 *
 * The JSON is {"series": {"revision": N, "change-id": ..., "base-branch":
 * ..., "prefixes": [...], "history": {"v1": [msgid, ...], ...}}}: the
 * revision being worked on, and the cover letter Message-IDs of the
 * revisions sent.  Each "b4 send" tags what it sent as sent/NAME-vN
 * (NAME is the branch name without "b4/"): an annotated tag whose
 * message is the cover letter as sent (title, body, "---", shortlog,
 * diffstat, "---", "base-commit: SHA", "change-id: ..."), pointing at
 * the last patch of a line of commits on that base (with no cover
 * commit: b4 cherry-picks the patches for the tag).
 */

#define B4_MARKER "--- b4-submit-tracking ---"

struct b4_version {
	int number;
	int sent;		/* from a sent/ tag (else the branch) */
	char *where;		/* "sent/foo-v1" or "b4/foo", for messages */
	char *cover;		/* "title\n\nbody\n", or NULL */
	char *message_id;	/* the cover letter's, without <>, or NULL */
	int same_as;		/* the branch's: a sent version it equals */
	/* base, tip, patches (with Message-IDs when b4's are known) and
	 * source, ready to be recorded */
	struct series_version v;
};

struct b4_branch {
	char *branch;		/* "b4/foo" */
	char *strategy;		/* "commit", "tip-commit", "branch-description" */
	char *tracking_in;	/* "cover commit 0123456789ab", "branch.X.b4-tracking" */
	int revision;		/* series.revision */
	char *change_id;
	char *base_branch;	/* as b4 wrote it, or NULL */
	char *base_ref;		/* its full ref name when it resolves, or NULL */
	/* the sent versions (ascending), then the branch's own if it has
	 * patches */
	struct b4_version *versions;
	size_t nr_versions, alloc_versions;
	int branch_empty;	/* the branch holds no patches yet */
};

/*
 * Reads branch BRANCH ("b4/foo", "foo" for "b4/foo", or a full ref
 * name) and every sent/ tag of it.  Reads only; every error (no such
 * branch, not a b4 prep branch, malformed JSON, a tag whose commits are
 * missing) comes before anything is recorded.  Release with
 * b4_branch_release() either way.
 */
int b4_branch_read(git_repository *repo, const char *branch,
		   struct b4_branch *b);
void b4_branch_release(struct b4_branch *b);

/*
 * The cover letter the user wrote, from a sent tag's message: the part
 * before the "---" section holding the shortlog/diffstat or
 * base-commit/change-id, trimmed, ending in one newline (empty when
 * nothing is left).
 */
void b4_cover_from_tag(const char *msg, struct strbuf *out);
/*
 * A cover letter from the cover commit or the branch description as b4
 * sends it: "#" comment lines dropped, runs of blank lines squeezed to
 * one, trimmed, ending in one newline.
 */
void b4_cover_clean(const char *text, size_t len, struct strbuf *out);
/*
 * How many patches a sent tag holds, from the shortlog in its message
 * ("Author Name (N):" lines); 0 when it has none.
 */
int b4_tag_patch_count(const char *msg);

#endif
