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
	char *file_name;	/* "0000-cover-letter.patch", "0001-x.patch" */
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
