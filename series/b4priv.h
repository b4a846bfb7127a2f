/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_B4PRIV_H
#define RESPIN_SERIES_B4PRIV_H

#include "series/b4.h"

/*
 * What b4.c (the branch, its tracking data, the version being worked
 * on) and b4sent.c (the sent/ tags) share; only they include it.
 */

struct json_object;

/* The last Message-ID b4 recorded for vN in its history, or NULL. */
char *b4_history_msgid(struct json_object *history, int n);
/* The patches' Message-IDs from the cover letter's, as b4 numbers them. */
void b4_derive_patch_msgids(struct b4_version *bv);
/* base..tip into a fresh version, without b4's cover commit. */
int b4_collect(git_repository *repo, const git_oid *base, const git_oid *tip,
	       const char *base_name, const char *tip_name,
	       struct series_version *v);
/* A new version of b, number, read from where (a tag, the branch). */
struct b4_version *b4_add_version(struct b4_branch *b, int number,
				  const char *where);

/* b4sent.c: every sent/NAME-vN tag of the branch, ascending. */
int b4_read_sent_tags(git_repository *repo, struct b4_branch *b,
		      struct json_object *history);

#endif
