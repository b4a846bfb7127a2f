/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REPLYRESULTS_H
#define RESPIN_REVIEW_REPLYRESULTS_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * The stored results of the patch a reply answers, as a short plain
 * text block a list reader accepts:
 *
 *	respin check of mm-batch v3 2/5 (tree 1a2b3c4d5e6f):
 *	  checkpatch: 0 errors, 1 warning
 *	  build: ok, no new warnings
 *	  ktap-mm: 44/45 (1 skip)
 *	  fio: 9290.33 vs 8801.10 at the base: +5.6% (95% interval of the
 *	       difference +3.1% .. +8.0%), better, n=12 and 12
 *
 * The patch is found among the recorded series by a Message-ID: the
 * message's own, then those it answers, nearest first (what respin send
 * recorded, or import read), so a reviewer's mail on v1 gets v1's
 * results; else by the patch-id of the patch's diff (pid, may be NULL):
 * a version tracked from a branch and sent by hand is found too, the
 * version its subject names (version) first, else the newest that holds
 * it.  A cover letter (a recorded version's Message-ID, or whole with
 * pid the patch-id of one of its patches) gives the whole version, a
 * block a patch.
 *
 * Returns 0 with the block appended to out; RESPIN_ENOTFOUND when no
 * recorded version holds the message or the patch, or nothing is
 * stored for it (with a message saying which).
 */
struct reply_target {
	const char *const *ids;	/* the message's, then what it answers */
	size_t nr_ids;
	const git_oid *pid;	/* the patch's patch-id, or NULL */
	int whole;		/* pid is of a patch of a cover's version */
	int version;		/* the version its subject names; 0 none */
};
int reply_results(git_repository *repo, const struct reply_target *t,
		  struct strbuf *out);

#endif
