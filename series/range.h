/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_RANGE_H
#define RESPIN_SERIES_RANGE_H

#include "series/store.h"

/*
 * Fills v's patches with the commits base..tip, oldest first: commit,
 * patch-id, subject; and v->base, v->tip.  Fails (recording nothing
 * in v) when base is not an ancestor of tip, the range is empty, or
 * holds a merge.  base_name and tip_name are for messages.
 */
int series_range_collect(git_repository *repo, git_commit *base,
			 git_commit *tip, const char *base_name,
			 const char *tip_name, struct series_version *v);

/*
 * Whether two versions hold the same patches: same count, patch-ids
 * and commit messages (in order).
 */
int series_version_same_patches(git_repository *repo,
				const struct series_version *a,
				const struct series_version *b, int *same);

#endif
