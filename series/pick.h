/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_PICK_H
#define RESPIN_SERIES_PICK_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * One commit picked onto another as git cherry-pick does (a 3-way
 * merge of the commit's change into the target's tree, in memory),
 * written as a new commit that nothing references: the picked commit's
 * author, committer and message, the target as its parent.  Nothing
 * is checked out; no ref moves.
 */
struct pick_result {
	int conflict;		/* 1: it did not merge; no commit made */
	int empty;		/* merged to the target's own tree */
	struct strbuf files;	/* conflict: the paths, one a line */
	git_oid commit;		/* the new commit (not on conflict) */
	git_oid tree;
};

void pick_result_init(struct pick_result *r);
void pick_result_release(struct pick_result *r);

/* 0 whether or not it conflicts (see res); <0 on errors. */
int pick_commit(git_repository *repo, const git_oid *commit,
		const git_oid *onto, struct pick_result *res);

/*
 * The same, the new commit with message (NULL: the picked one's) and
 * committer (NULL: the picked one's) given.
 */
int pick_commit_as(git_repository *repo, const git_oid *commit,
		   const git_oid *onto, const char *message,
		   const git_signature *committer, struct pick_result *res);

#endif
