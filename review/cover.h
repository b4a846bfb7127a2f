/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_COVER_H
#define RESPIN_REVIEW_COVER_H

#include "series/store.h"

/*
 * A version's cover letter, finished: the author's text (stored as the
 * version's "cover", or the nearest earlier version's), the changelog
 * of this version and the ones before it, what respin knows changed
 * (review/changes.h), links to earlier versions, the results respin
 * check stored, shortlog, diffstat, base-commit and change-id, laid
 * out by a template (git config respin.cover.template, or the file
 * named by respin.cover.templateFile, or the built-in one).
 */
struct cover_options {
	const char *prefix;	/* "PATCH" unless set */
	const char *lore_url;	/* for "Link to vK:" */
	int no_results;		/* leave the results out */
	/* a template and where it came from; NULL: the configured one */
	const char *template_text;
	const char *template_origin;
};

struct cover_letter {
	struct strbuf subject;	/* "[PATCH v3 0/3] the title" */
	struct strbuf body;
	int have_text;		/* some version has a stored cover text */
};

int cover_build(git_repository *repo, struct series *s,
		struct series_version *v, const struct cover_options *o,
		struct cover_letter *out);
void cover_letter_release(struct cover_letter *c);

/*
 * The subject prefix: override when given, else the one v was sent
 * with (a version from mail: "PATCH mm-unstable"), else git config
 * respin.series.NAME.subjectPrefix, else respin.subjectPrefix, else
 * "PATCH"; rfc puts "RFC " in front unless it says RFC already.
 */
void cover_subject_prefix(git_repository *repo, const struct series *s,
			  const struct series_version *v,
			  const char *override, int rfc, struct strbuf *out);

/* The built-in template, for documentation and tests. */
extern const char cover_default_template[];

/*
 * The text the editor starts from for version v: its stored cover, or
 * the nearest earlier one with a "Changes in vN:" section added for
 * v, and help lines starting with '#'.
 */
int cover_edit_seed(git_repository *repo, const struct series *s,
		    const struct series_version *v, struct strbuf *out);

#endif
