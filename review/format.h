/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_FORMAT_H
#define RESPIN_REVIEW_FORMAT_H

#include "series/store.h"

/*
 * A version written as mail: a cover letter (index 0) and one mail a
 * patch, threaded under the cover, with Message-IDs that stay the same
 * when the same version is formatted again.
 */
struct format_mail {
	/* "0000-cover-letter.patch", "0001-x.patch"; "v3-0001-x.patch" */
	char *file_name;
	char *message_id;	/* without <> */
	struct strbuf text;
};

struct format_options {
	const char *prefix;	/* "PATCH" unless set */
	int cover_letter;	/* -1 auto (when more than one patch), 0, 1 */
	const char *lore_url;	/* for "Link to vN:" lines */
	int no_results;		/* no results below "---", none in the cover */
};

struct format_result {
	struct format_mail *mails;
	size_t nr;
};

/*
 * The base the mail names, as git format-patch --base writes it: the
 * commit's hex into base, "prerequisite-patch-id: ID" lines into
 * prereqs.  A version from mail names the base-commit (and the
 * prerequisite patches) its author sent: when it has no commits, when
 * it was applied on that commit, or when that commit is not in this
 * repository (the base it was applied on here stands in for it).
 * Applied on another commit while the author's is here too, it was
 * moved on purpose, and its own base is named.  Other versions name
 * their own base; a version with none names nothing.
 */
int format_base_info(git_repository *repo, const struct series_version *v,
		     struct strbuf *base, struct strbuf *prereqs);

int format_version(git_repository *repo, struct series *s,
		   struct series_version *v, const struct format_options *o,
		   struct format_result *res);
void format_result_release(struct format_result *res);

/*
 * Writes every mail into dir (made if missing) through temporary files
 * renamed into place; on an error removes what it wrote.
 */
int format_write(const struct format_result *res, const char *dir);

#endif
