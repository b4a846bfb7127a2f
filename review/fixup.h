/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_FIXUP_H
#define RESPIN_REVIEW_FIXUP_H

#include "series/store.h"

/*
 * The change from version a to version b of a series as one patch mail
 * for a maintainer who takes fixups rather than replacements (akpm's
 * mm tree): the diff from a's tip tree to b's, so that git am on a's
 * tip gives b's tree exactly (binary files included).
 *
 * Subject: when one patch changed its code and none was added or
 * dropped, that patch's title and "-fix" ("[PATCH] mm/vmscan: do not
 * scan far past nr_to_reclaim-fix"), as akpm names fixups; otherwise
 * the series' title and "-fixes".  The prefix is b's (cover.h).  The
 * message says what changed per patch (review/changes.h), links b when
 * it was sent, and ends with the user's Signed-off-by; From and Date
 * are the user's git identity and now.  It answers b's mail of the
 * patch (or its cover letter) when b was sent.
 */
struct fixup {
	struct strbuf mail;	/* an mbox of one message */
	struct strbuf subject;	/* its subject, for messages and names */
	int one_patch;		/* 1-based patch of b it fixes; 0: several */
};

void fixup_init(struct fixup *f);
void fixup_release(struct fixup *f);

/*
 * Fills f.  Returns 0; 1 when a and b end in the same tree (nothing to
 * send); <0 on errors, among them a and b on different bases (the diff
 * would carry the base's change) unless force.
 */
int fixup_build(git_repository *repo, struct series *s,
		const struct series_version *a, const struct series_version *b,
		int force, struct fixup *f);

/*
 * Writes the mail to path, through a temporary file renamed into
 * place: the file is whole or as it was.
 */
int fixup_write(const struct fixup *f, const char *path);

#endif
