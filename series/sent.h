/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_SENT_H
#define RESPIN_SERIES_SENT_H

#include "series/store.h"

/*
 * Whether version v went to the list: respin send recorded the
 * Message-IDs it sent it as, or it was imported from mail (or from a b4
 * branch b4 sent), which gives it Message-IDs too.  A version recorded
 * from a branch, or by respin rebase, and never sent has none.  The one
 * place that says so: respin tree, replace, thanks and fixup ask here.
 */
int series_version_sent(const struct series_version *v);

#endif
