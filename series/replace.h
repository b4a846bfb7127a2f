/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_REPLACE_H
#define RESPIN_SERIES_REPLACE_H

#include "series/carry.h"
#include "series/treescan.h"

/*
 * Replacing the version of a series applied in an integration branch
 * with another: the commits before it stay, the new version's patches
 * are picked (3-way) onto the commit before the old one's first, and
 * every later commit of the branch is picked after them, but for the
 * old version's own patches.  Its fixups are picked too; one that
 * conflicts or comes out empty (the new version has it) is obsolete:
 * an error, or left out with drop_obsolete.  Nothing is moved here:
 * the new tip is an unreferenced commit for the caller to put in place.
 */
struct replace_plan {
	const struct tree_found *f;	/* the old version, in the scan */
	struct series_version *to;	/* the version put in */
	git_oid onto;		/* the commit before the old first one */
	git_oid tip;		/* the branch's new tip */
	size_t kept, dropped_fixups, kept_fixups;
	/* which commits of the scan were left out (obsolete fixups) */
	unsigned char *left_out;
	/* the first that failed: a patch of to (1-based), or a commit */
	size_t failed_patch;
	int failed_commit;	/* index in the scan, -1 none */
	struct strbuf why;	/* what failed: "conflict in a.c, b.c" */
	/* per patch of to: the maintainer's part carried to it */
	struct carry_commit *carried;
	size_t nr_carried;
};

void replace_plan_init(struct replace_plan *p);
void replace_plan_release(struct replace_plan *p);

/*
 * Makes the new history; 0 with p->tip set, 1 when a patch or commit
 * does not apply (p->failed_* and p->why say which; nothing written
 * that anything refers to), <0 on errors.  Each new patch takes the
 * maintainer's part of the old commit it replaces (the one with its
 * patch-id, else its title; a new patch the series' first one's) and
 * given[i] (NULL: none), as carry_make() makes it, committed as the old
 * commit's committer.
 */
int replace_make(git_repository *repo, const struct tree_scan *t,
		 const struct tree_found *f, struct series_version *to,
		 const struct carry_given_list *given, int drop_obsolete,
		 struct replace_plan *p);

/*
 * The review tags given to version to's patches on the list, one list
 * a patch (given[to->nr_patches], empty); notes says what could not
 * be read.  Errors stop the replace.
 */
typedef int (*replace_given_fn)(git_repository *repo, struct series *s,
				struct series_version *to, void *data,
				struct carry_given_list *given,
				struct strbuf *notes);

/* respin replace: the version in a branch swapped, the branch moved. */
struct replace_request {
	const char *name;	/* the series */
	const char *branch;	/* --in: a local branch */
	const char *base;	/* --base, or NULL (as respin tree) */
	int version;		/* the version to put in; 0: the latest */
	int drop_obsolete;
	int dry_run;		/* the plan only, nothing moved */
	replace_given_fn given;	/* the review tags since, or NULL */
	void *given_data;
};

struct replace_run {
	struct tree_scan t;		/* the branch as it was */
	const struct tree_found *f;	/* the series' version in it */
	struct series_version *to;	/* the version put in */
	struct replace_plan p;
	struct carry_given_list *given;	/* per patch of to */
	struct strbuf notes;		/* what given could not read */
	int moved;			/* the branch is at p.tip now */
};

/*
 * Scans the branch (refused while its worktree has changes), finds the
 * series' version in it and makes the new history; then, unless a dry
 * run, moves the branch by compare-and-swap and its worktree follows.
 * When rr->to is the version in it already, nothing is made (rr->to
 * and rr->f say so).  An error says what did not apply.
 */
int replace_run(git_repository *repo, const struct replace_request *rq,
		struct replace_run *rr);
void replace_run_release(struct replace_run *rr);

/*
 * The same on rr->t scanned already (a quilt stack's chain, rr set up
 * by replace_run_init()): finds the series, makes the new history;
 * nothing moved.  rq->branch names what was scanned in messages.
 */
void replace_run_init(struct replace_run *rr);
int replace_run_scanned(git_repository *repo,
			const struct replace_request *rq,
			struct replace_run *rr);

#endif
