/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_RANGEDIFF_H
#define RESPIN_SERIES_RANGEDIFF_H

#include <git2.h>
#include "tools/lib/strbuf.h"

/*
 * A range-diff between two lists of patches, as `git range-diff` does
 * it.  Each patch becomes a text:
 *
 *	 ## Metadata ##
 *	Author: A U Thor <author@example.org>
 *
 *	 ## Commit message ##
 *	    subject
 *
 *	    body, indented by four spaces
 *
 *	 ## path/file.c ##
 *	@@ path/file.c: the function line
 *	 context
 *	-old
 *	+new
 *
 * (file headers say "(new)", "(deleted)", "old => new" and
 * "(mode change 100644 => 100755)"; hunk headers lose their line
 * numbers; index, ---, +++ lines are dropped).  The part from the first
 * file header on is "the diff".  Patches whose diffs are identical
 * pair at once; the rest pair by a linear assignment whose cost for
 * two patches is the number of lines in the diff of their texts and
 * for leaving one alone its diff's line count times creation_factor
 * / 100.
 *
 * Nothing here needs a commit: a patch read from mail can be built
 * with rangediff_patch_build() from its author, message and a git_diff
 * made by git_diff_from_buffer().
 */

#define RANGEDIFF_CREATION_FACTOR 60

struct rangediff_patch {
	git_oid oid;		/* the commit; zero if there is none */
	char *label;		/* what the pairing line shows: short OID */
	char *subject;
	char *text;		/* the text above, NUL-terminated */
	size_t len;
	size_t diff_offset;	/* where the diff starts in text */
	int diffsize;		/* lines in the diff */
	uint32_t diff_hash;	/* of text + diff_offset, for exact matches */
};

/*
 * Builds p from an author ("Name <email>"), a raw commit message and
 * the patch's diff.  label may be NULL (then "-------").  The subject
 * is the message's first paragraph on one line.  Returns 0 or a
 * negative code; release p with rangediff_patch_release() either way.
 */
int rangediff_patch_build(struct rangediff_patch *p, const char *label,
			  const char *author, const char *message,
			  git_diff *diff);

/*
 * Builds p from a commit and its diff against its parent.  mailmap
 * (may be NULL) maps the author as git log does with log.mailmap, its
 * default: load it once with git_mailmap_from_repository().
 */
int rangediff_patch_from_commit(git_repository *repo, git_commit *commit,
				const git_mailmap *mailmap,
				struct rangediff_patch *p);

void rangediff_patch_release(struct rangediff_patch *p);

/*
 * One line of the output, in the order git prints them: a is the
 * index in the first list or -1 (added), b the index in the second or
 * -1 (dropped); status is '=' (same text), '!' (changed), '<'
 * (dropped), '>' (added).  A pair made by rangediff_pair_by_title()
 * prints as a '!' line that ends in " (paired by title)".
 */
struct rangediff_pair {
	int a, b;
	char status;
	unsigned by_title:1;	/* paired by rangediff_pair_by_title() */
};

struct rangediff {
	const struct rangediff_patch *a, *b;	/* borrowed */
	size_t na, nb;
	struct rangediff_pair *pairs;
	size_t nr_pairs;
};

/*
 * Pairs a[0..na) with b[0..nb) and fills rd (which borrows a and b:
 * keep them until rangediff_release()).  Returns 0 or a negative code.
 */
int rangediff_compute(const struct rangediff_patch *a, size_t na,
		      const struct rangediff_patch *b, size_t nb,
		      int creation_factor, struct rangediff *rd);
void rangediff_release(struct rangediff *rd);

/*
 * Pairs what the range-diff left alone (a '<' and a '>') when the two
 * patches have one author and one subject, or alike subjects
 * (rangediff_subject_similarity() >= RANGEDIFF_TITLE_ALIKE) and a file
 * in common: a patch rewritten in a respin is often too new for git's
 * creation factor, yet it is the same patch.  The most alike pair
 * first.  Such a pair is '!' with by_title set; the pairs stay in the
 * order rangediff_compute() gives.  Returns how many pairs it made.
 */
#define RANGEDIFF_TITLE_ALIKE 0.75
int rangediff_pair_by_title(struct rangediff *rd);

/* 0..1: how alike two subjects are (1 - edit distance / longer length). */
double rangediff_subject_similarity(const char *a, const char *b);

enum rangediff_print_flags {
	RANGEDIFF_NO_PATCH = 1 << 0,	/* pairing lines only */
};

/*
 * Appends git range-diff's output: one line per pair, and under each
 * '!' line the diff of the two texts, indented by four spaces.
 */
int rangediff_print(const struct rangediff *rd, unsigned flags,
		    struct strbuf *out);

/*
 * The same, calling after_line(rd, k, out, data) after the line of
 * pair k and before the diff under it: what it appends goes there.  A
 * negative return stops the printing and is returned.
 */
typedef int rangediff_pair_fn(const struct rangediff *rd, size_t k,
			      struct strbuf *out, void *data);
int rangediff_print_with(const struct rangediff *rd, unsigned flags,
			 struct strbuf *out, rangediff_pair_fn *after_line,
			 void *data);

/*
 * The number of lines (hunk headers included) in a three-line-context
 * diff of two texts: the cost of pairing them.
 */
int rangediff_diffsize(const char *a, size_t alen, const char *b,
		       size_t blen);

/* The commit message in a patch's range-diff text, its indent taken off. */
void rangediff_patch_message(const struct rangediff_patch *p,
			     struct strbuf *out);

#endif
