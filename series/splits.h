/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_SPLITS_H
#define RESPIN_SERIES_SPLITS_H

#include "series/rangediff.h"

/*
 * Patches split or squashed between two versions, found from their
 * diffs (titles say nothing here).  A patch's changed lines are its
 * '+' and '-' lines, each taken with its file and sign, white space
 * collapsed, lines of fewer than SPLITS_MIN_CHARS characters ("}",
 * "{", blank) left out; two patches share the lines they have in common
 * (counted as a multiset).
 *
 * A patch P of the older version was split into new patches Q1..Qk
 * (k >= 2) when each Qi
 *  - has at least SPLITS_FROM of its changed lines from P,
 *  - carries at least SPLITS_SHARE of P's changed lines that the Qs
 *    with larger shares do not carry, and these are most (SPLITS_FROM)
 *    of what it has of P (two copies of P's lines are not two parts),
 *  - is unpaired or paired with P in rd (not another patch's partner),
 * and together they carry at least SPLITS_COVER of P's changed lines.
 * Squashed is the same the other way: new patch Q is old patches
 * P1..Pk (k >= 2) squashed when each Pi has at least SPLITS_FROM of
 * its changed lines in Q and carries at least SPLITS_SHARE of Q's, and
 * together they carry at least SPLITS_COVER of Q's.  A patch is in one
 * split or squash at most (splits are looked for first).
 */
#define SPLITS_MIN_CHARS 4
#define SPLITS_FROM 0.5
#define SPLITS_SHARE 0.1
#define SPLITS_COVER 0.6

enum splits_kind {
	SPLITS_SPLIT,		/* one old patch into many new ones */
	SPLITS_SQUASH,		/* many old patches into one new one */
};

struct splits_item {
	enum splits_kind kind;
	int one;		/* the old patch (split) or the new (squash) */
	int *many;		/* the others' indexes, ascending */
	size_t nr;
};

struct splits {
	struct splits_item *items;
	size_t nr, alloc;
};

/*
 * Finds the splits and squashes between rd's two lists (rd as
 * rangediff_compute() and maybe rangediff_pair_by_title() left it).
 * out is initialised here; free it with splits_release().
 */
void splits_find(const struct rangediff *rd, struct splits *out);
void splits_release(struct splits *s);

/*
 * The pairing of two versions that respin diff shows and every command
 * that follows a patch from one version to the next uses (review,
 * the cover's changes): git's range-diff at RANGEDIFF_CREATION_FACTOR,
 * then the pairs by title, then the splits and squashes.  rd borrows a
 * and b; rd and sp are set up here, release both either way.  Returns 0
 * or a negative code.
 */
int splits_pair_versions(const struct rangediff_patch *a, size_t na,
			 const struct rangediff_patch *b, size_t nb,
			 struct rangediff *rd, struct splits *sp);

/*
 * The steps of splits_pair_versions() after rangediff_compute(), for
 * respin diff's options: the pairs by title when title_pairs, the
 * splits and squashes into sp (set up here) when find_splits.
 */
void splits_pair_computed(struct rangediff *rd, int title_pairs,
			  int find_splits, struct splits *sp);

/* The item in which old patch i (side 0) or new patch j (side 1) is. */
const struct splits_item *splits_of(const struct splits *s, int side,
				    int index);

/* Appends the others' positions: "2/5, 3/5, 4/5" (total: their version's). */
void splits_positions(struct strbuf *out, const struct splits_item *it,
		      size_t total);

/*
 * The lines respin diff prints under pair k of rd: "    split into
 * 2/5, 3/5", "    split from 2/3", "    squashed from 2/5, 3/5",
 * "    squashed into 2/4" (positions i/N of the other version).
 */
void splits_pair_notes(const struct splits *sp, const struct rangediff *rd,
		       size_t k, struct strbuf *out);

/*
 * The items as a JSON array: {"kind": "split", "old": [2], "new": [2,
 * 3, 4]}, {"kind": "squash", "new": [2], "old": [2, 3]} (1-based).
 */
struct json;
void splits_to_json(const struct splits *sp, struct json *j);

#endif
