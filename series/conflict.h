/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_CONFLICT_H
#define RESPIN_SERIES_CONFLICT_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * What conflicts when a commit is cherry-picked onto another, said the
 * way a user resolving it needs: each file, the kind of conflict, the
 * patch's hunks that meet a change of the base, and the lines of the
 * merged file that carry the conflict markers.
 */
struct conflict_file {
	char *path;
	const char *kind;	/* "content conflict", "added by both ...", ... */
	/*
	 * The patch's hunks that touch lines the base changed too, as
	 * headers of a diff without context ("@@ -30 +30,2 @@ func"), one
	 * a line.
	 */
	struct strbuf hunks;
	struct strbuf markers;	/* "30-36, 52-60": lines with the markers */
};

struct conflict {
	struct conflict_file *files;
	size_t nr, alloc;
};

void conflict_init(struct conflict *c);
void conflict_release(struct conflict *c);

/*
 * Fills c for commit (a patch: one parent) picked onto onto.  The
 * blobs of files that merged go to repo's object store (as a pick's
 * do): give a repository whose objects stay in memory to write none.
 */
int conflict_describe(git_repository *repo, const git_oid *commit,
		      const git_oid *onto, struct conflict *c);

/*
 * The markers as they are in the files under workdir (checked out
 * there with the user's conflict style, which may add lines).
 */
int conflict_markers_from_files(struct conflict *c, const char *workdir);

/* "  mm/b.c: content conflict, markers at lines 30-36" and its hunks. */
void conflict_format(const struct conflict *c, const char *indent,
		     struct strbuf *out);

#endif
