/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_IMPORT_H
#define RESPIN_SERIES_IMPORT_H

#include "series/mailpatch.h"
#include "series/mailset.h"
#include "series/store.h"

/*
 * A version from mail, as respin records it: each patch's commit
 * message, author and diff come from its mail; with a base, the patches
 * are applied and committed (as git am would); without one
 * ("mail-only") the mail itself is stored beside the version so that
 * diff, cover letters and review work, and a later import applies it.
 */

/* "base-commit: X" named in the cover letter or the patches, or NULL. */
char *import_base_commit(struct mailset *ms, long vi);
/*
 * How loaded version vi was sent, into sv: its subject prefix (the tag
 * of the cover letter, else of 1/N, without version and counter), and
 * the base-commit: and prerequisite-patch-id: lines it named.
 */
void import_sent_info(struct mailset *ms, long vi, struct series_version *sv);

/*
 * Applies the patches onto base and commits each; fills v's patches,
 * base and tip.  On failure names the patch (its Message-ID), the file
 * and the reason, and leaves v without patches.
 */
int import_apply(git_repository *repo, git_commit *base,
		 struct mail_patch *patches, size_t nr,
		 struct series_version *v);

/* Fills v's patches from mail alone: no commits; mail kept beside v. */
int import_mail_only(struct mail_patch *patches, size_t nr,
		     struct series_version *v);

/* The stored mails of a mail-only version, read back. */
int import_stored_patches(git_repository *repo, const struct series *s,
			  const struct series_version *v,
			  struct mail_patch **out, size_t *nr);

#endif
