/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_COVEREDIT_H
#define RESPIN_REVIEW_COVEREDIT_H

#include "series/store.h"
#include "tools/lib/strbuf.h"

/*
 * The cover text as the author writes it (what respin cover builds the
 * letter from): given whole with --file, or edited in the user's
 * editor, seeded with the recipients respin send would use and the
 * tags lost since the version before.
 */

/*
 * Stores text (white space at its end trimmed) as v's cover text and
 * saves s; *stored is 0 when it is what was stored already.  Empty
 * text is an error.
 */
int cover_text_store(git_repository *repo, struct series *s,
		     struct series_version *v, struct strbuf *text,
		     int *stored);

/*
 * --file FILE ("-": standard input): the text is all the author's, so
 * no recipient an older edit turned down is held back.
 */
int cover_text_from_file(git_repository *repo, struct series *s,
			 struct series_version *v, const char *file,
			 int *stored);

/* An edit in progress: the file the editor gets and what it started as. */
struct cover_edit {
	struct strbuf path;	/* .git/respin/COVER_EDITMSG */
	struct strbuf seed;	/* the text as written there, comments out */
	struct strbuf offered;	/* the recipients offered in it */
	char *editor;		/* the user's editor (git's setting) */
};

void cover_edit_init(struct cover_edit *ed);
void cover_edit_release(struct cover_edit *ed);

/* Writes the text to edit into ed->path. */
int cover_edit_begin(git_repository *repo, struct series *s,
		     struct series_version *v, struct cover_edit *ed);
/*
 * Reads what the editor left: unchanged (*stored 0) or stored, the
 * file removed either way; kept when storing fails.
 */
int cover_edit_end(git_repository *repo, struct series *s,
		   struct series_version *v, struct cover_edit *ed,
		   int *stored);

#endif
