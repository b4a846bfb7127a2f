/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_STAT_H
#define RESPIN_REVIEW_STAT_H

#include "series/store.h"

/*
 * What goes under a cover letter: the shortlog ("Name (2):" and the
 * subjects) and the diffstat of a version, from its commits or, for a
 * version recorded from mail only, from its stored mail.
 */
void stat_shortlog(struct strbuf *out, git_repository *repo,
		   const struct series_version *v);
int stat_diffstat(struct strbuf *out, git_repository *repo,
		  const struct series *s, const struct series_version *v);

#endif
