/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REPLACETAGS_H
#define RESPIN_REVIEW_REPLACETAGS_H

#include "series/replace.h"

/*
 * For respin replace: the review tags given on the list to the version
 * put in, collected as respin trailers collects them
 * (trailers_collect(): given to its patches, and carried from earlier
 * versions where the diff did not change), from source (data: a
 * const char *, NULL for the version's own mail as trailers finds it).
 * Mail that cannot be read is said in notes, not an error: the
 * maintainer's own lines are carried all the same.
 */
int replace_given_tags(git_repository *repo, struct series *s,
		       struct series_version *to, void *data,
		       struct carry_given_list *given, struct strbuf *notes);

#endif
