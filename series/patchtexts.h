/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_PATCHTEXTS_H
#define RESPIN_SERIES_PATCHTEXTS_H

#include "series/import.h"
#include "series/rangediff.h"
#include "series/store.h"

/*
 * The range-diff texts of a recorded version's patches: from their
 * commits, or from the stored mail of a version recorded from mail
 * only.  *out is allocated (free with rangediff_patches_free, also on
 * an error: *nr says how many were built).
 */
int series_rangediff_patches(git_repository *repo, const git_mailmap *mailmap,
			     const struct series *s,
			     const struct series_version *v,
			     struct rangediff_patch **out, size_t *nr);

/*
 * The same from patches read from mail (no repository needed); what
 * names them in errors.
 */
int rangediff_patches_from_mail(struct mail_patch *mps, size_t nr,
				struct rangediff_patch **out, size_t *nout,
				const char *what);

void rangediff_patches_free(struct rangediff_patch *p, size_t nr);

#endif
