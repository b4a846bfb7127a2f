/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_STORENAME_H
#define RESPIN_SERIES_STORENAME_H

#include <git2.h>

/*
 * A series' ref deleted or renamed (respin rm, respin rename).  Delete
 * checks the ref still points where it did when the series was loaded
 * (expect), so a concurrent writer is not lost silently.  Rename writes
 * a metadata commit naming the new name, its parent the old one (the
 * history and every version stay), under refs/respin/series/NEW
 * (which must not exist), then deletes the old ref.
 */
int series_ref_delete(git_repository *repo, const char *name,
		      const git_oid *expect);
int series_ref_rename(git_repository *repo, const char *old_name,
		      const char *new_name);

#endif
