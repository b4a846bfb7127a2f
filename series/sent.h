/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_SENT_H
#define RESPIN_SERIES_SENT_H

#include "series/store.h"

/*
 * Whether a version went out to the list, which is what numbers
 * versions (as b4 prep numbers them): a version not sent yet is
 * revised in place by respin track, rebase and trailers --apply; once
 * the latest was sent, the next change starts a new number.
 *
 * A version is sent when it has a Message-ID (respin send recorded
 * them, it was imported from the list, or a b4 sent/ tag gave them) or
 * was marked sent ("sent TIME" in its vN/meta) by someone who sends
 * otherwise (respin track NAME --mark-sent).  The one place that says
 * so: track, rebase, trailers, tree, replace, thanks and fixup ask here.
 */
int series_version_sent(const struct series_version *v);

/*
 * Marks v sent now, as msgid (its cover letter's or 1/N's Message-ID,
 * without <>) when not NULL; saved with the series.
 */
void series_version_mark_sent(struct series_version *v, const char *msgid);

/*
 * git config respin.numbering: "sent" (the default: a new number once
 * the latest version was sent) or "track" (every change recorded gets a
 * number of its own, as respin numbered before).  1 for "sent".
 */
int series_numbering_by_sent(git_repository *repo);

#endif
