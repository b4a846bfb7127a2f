/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_SERIESADMIN_H
#define RESPIN_CI_SERIESADMIN_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * respin rm and respin rename: a series and everything respin keeps
 * under its name -- the ref (refs/respin/series/NAME), its check
 * worktree and build directories (.git/respin/worktrees/NAME,
 * .git/respin/build/NAME and NAME@VARIANT), a rebase waiting in
 * .git/respin/rebase/NAME, and the git config section
 * respin.series.NAME.  Results are kept by content (tree, patch text),
 * not by series, so they stay: another series or version with the same
 * trees reuses them.  Both refuse while a check holds the series
 * (its lock); rename refuses while a rebase of it waits, and when NEW
 * exists.  out says what was done, a line a thing.
 */
int series_admin_rm(git_repository *repo, const char *name,
		    struct strbuf *out);
int series_admin_rename(git_repository *repo, const char *old_name,
			const char *new_name, struct strbuf *out);

#endif
