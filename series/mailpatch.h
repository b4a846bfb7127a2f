/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_MAILPATCH_H
#define RESPIN_SERIES_MAILPATCH_H

#include "series/mailset.h"
#include "tools/lib/strbuf.h"

/* The commit message, author and diff of one patch mail. */
struct mail_patch {
	char *title;		/* subject without tags */
	char *message;		/* the full commit message (title first) */
	char *author_name, *author_email;
	long long date;
	int date_tz;		/* the Date's zone, minutes east of UTC */
	/*
	 * The diff text, diff_len bytes: diff_buf when the patch owns it
	 * (then NUL-terminated), else borrowed from a loaded mailset.
	 */
	const char *diff;
	size_t diff_len;
	char *diff_buf;
	char *message_id;
};

void mail_patch_release(struct mail_patch *mp);
/* Builds mp from patch i (0-based) of a loaded mailset version. */
int mail_patch_from_mailset(struct mailset *ms, long vi, long i,
			    struct mail_patch *mp);
/*
 * The same, but the diff is not copied: mp->diff points into the
 * mailset's copy of the mail (not NUL-terminated: use diff_len), which
 * must stay loaded while mp is used.  A big patch is then in memory
 * once, not twice.
 */
int mail_patch_borrow_from_mailset(struct mailset *ms, long vi, long i,
				   struct mail_patch *mp);
/*
 * Stores mp as mail text ("From:", "Date:", "Subject:", "Message-Id:"
 * headers, the message, "---", the diff) and reads it back.
 */
void mail_patch_to_text(const struct mail_patch *mp, struct strbuf *out);
int mail_patch_from_text(const char *text, size_t len, struct mail_patch *mp);
/* Releases each of nr patches, then the array. */
void mail_patches_free(struct mail_patch *mps, size_t nr);

#endif
