/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_QUILT_H
#define RESPIN_SERIES_QUILT_H

#include <git2.h>
#include "series/treescan.h"
#include "tools/lib/strbuf.h"

/*
 * A quilt stack kept as mm is: DIR/series names the patch files in
 * order (comments and blank lines between, "-p1" allowed after a name),
 * each file a patch as akpm writes them (From:, Subject:, Date:, the
 * message, "---", a diffstat and the diff).  respin reads it as a chain
 * of commits on a base (written to the repository, referenced by
 * nothing) so that tree and replace see it as a branch, and writes a
 * replaced chain back as patch files.
 */
struct quilt_patch {
	char *name;		/* the file's name in DIR */
	git_oid commit;		/* its commit in the chain */
};

struct quilt_stack {
	char *dir;
	git_oid base, tip;	/* tip: the last patch's commit (base if none) */
	struct quilt_patch *patches;
	size_t nr, alloc;
	struct strbuf series;	/* the series file as read */
};

/*
 * Reads DIR/series and applies each patch (exactly, as git apply) on
 * base and the one before.  An error names the file and what to do.
 */
int quilt_load(git_repository *repo, const char *dir, const git_oid *base,
	       struct quilt_stack *q);
void quilt_stack_release(struct quilt_stack *q);

/* The patch whose commit is oid, or NULL. */
const struct quilt_patch *quilt_find(const struct quilt_stack *q,
				     const git_oid *oid);

/*
 * The stack in DIR read on base (NULL: HEAD) and scanned as respin tree
 * scans a branch; t->branch is DIR.  t is set (to release) either way.
 */
int quilt_scan(git_repository *repo, const char *dir, const char *base,
	       struct quilt_stack *q, struct tree_scan *t);
/* Per commit of the scan, its patch file's name (owned array). */
const char **quilt_scan_names(const struct quilt_stack *q,
			      const struct tree_scan *t);

/* commit as akpm writes a patch file (its diff against its parent). */
int quilt_format(git_repository *repo, const git_oid *commit,
		 struct strbuf *out);

/*
 * The stack rewritten: at the series line of old patch i, the names
 * put[i] (a NULL-ended list; NULL or empty: the line goes), comments
 * and everything else kept; write[] the files to (re)write from their
 * commits, the old files no series line names any more removed.  New
 * files and the series file are each written whole (a temporary file
 * renamed); the old ones go last.
 */
struct quilt_write {
	const char *name;
	git_oid commit;
};

int quilt_rewrite(git_repository *repo, struct quilt_stack *q,
		  char ***put, const struct quilt_write *write, size_t nr_write);

/* name is one of the put lists' names (put[0..nr), each NULL-ended). */
int quilt_named(char ***put, size_t nr, const char *name);

#endif
