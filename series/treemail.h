/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TREEMAIL_H
#define RESPIN_SERIES_TREEMAIL_H

#include "series/treescan.h"

/*
 * For respin tree --source: the newest version on the list of each
 * series found in the branch.  A series in the mail is that series when
 * one of its messages is a stored patch's (by Message-ID), or when one
 * of its versions has the stored first patch's title from the same
 * address.  newest[k] gets, for t->found[k], the newest version number
 * in the mail, or 0.
 */
int tree_mail_newest(git_repository *repo, const struct tree_scan *t,
		     const char *source, int *newest);

#endif
