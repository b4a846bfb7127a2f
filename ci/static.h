/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_STATIC_H
#define RESPIN_CI_STATIC_H

#include <git2.h>
#include "ci/checks.h"
#include "ci/warnings.h"

/*
 * The static analysis kinds (sparse, w1, kdoc, coccicheck): what each
 * looks at among the files a patch touches, its default command, and
 * its findings before and after the patch as a result's details.  The
 * running is ci/check-static.c's.
 *
 * A kind's command reads its list on stdin, one path a line, relative
 * to the top of the tree (the current directory).  Only paths made of
 * letters, digits and "_-.,+/" (not starting with "-", no ".."
 * component) are listed: the default commands give them to make and
 * xargs, which would read anything else as syntax.  Others are named
 * in the report and left out.
 */
enum static_files {
	STATIC_C,		/* the .c files */
	STATIC_C_H,		/* the .c and .h files */
	STATIC_DIRS,		/* the directories of the .c and .h files */
};

struct static_kind {
	enum check_kind kind;
	enum static_files files;
	const char *command;	/* the default */
	const char *brief;	/* it in words, for respin check --list */
	const char *what;	/* "no .c files": nothing to look at */
};

/* The table entry of a static kind, NULL for another kind. */
const struct static_kind *static_kind(enum check_kind k);

/* May path go to a tool? (the rule above) */
int static_path_ok(const char *path);

/* One side of a patch: what its kind looks at there. */
struct static_lists {
	struct strbuf before;	/* at the patch's parent, one a line */
	struct strbuf after;	/* at the patch */
	struct strbuf refused;	/* touched paths left out, one a line */
};

void static_lists_init(struct static_lists *l);
void static_lists_release(struct static_lists *l);
/*
 * The lists of kind sk for the change from tree a to tree b: a file
 * counts on the side where it exists (an added one has no before).
 */
int static_lists_make(git_repository *repo, git_tree *a, git_tree *b,
		      const struct static_kind *sk, struct static_lists *l);

/*
 * A result's details: a finding a line, "+ " one the patch adds, "- "
 * one it removes, "= " one there before and after; *added and *fixed
 * count the first two.  And back: added, fixed and after (the findings
 * after the patch) may be NULL.
 */
void static_details(const struct warning_set *before,
		    const struct warning_set *after, struct strbuf *out,
		    size_t *added, size_t *fixed);
void static_details_parse(const char *details, struct warning_set *added,
			  struct warning_set *fixed,
			  struct warning_set *after);
/* The cell: "ok", "+2", "+2 -1", "ok -1". */
void static_summary(size_t added, size_t fixed, struct strbuf *out);

#endif
