/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_SERIESDIFF_H
#define RESPIN_CI_SERIESDIFF_H

#include "ci/resultdiff.h"
#include "series/rangediff.h"
#include "series/splits.h"
#include "series/store.h"
#include "series/trailerdiff.h"
#include "tools/lib/strbuf.h"

#include <git2.h>

/*
 * respin diff's work: a range-diff of two versions of a series, paired
 * as asked, with what is said under each pairing line besides git's:
 * the patches split or squashed (splits.h), what changed in the pair's
 * stored results (resultdiff.h, --results) and the tags the vB patch
 * lost (trailerdiff.h).  The versions come from the store, or straight
 * from mail.
 */

struct seriesdiff_options {
	int creation_factor;	/* RANGEDIFF_CREATION_FACTOR by default */
	int title_pairs;	/* pair git's leftovers by title */
	int find_splits;	/* say which patches were split or squashed */
	int results;		/* --results: load the stored results */
};

/* The stored results of the two versions, for --results. */
struct seriesdiff_results {
	struct grid_store st;
	struct grid grid[2];
	int version[2];
	int on;			/* both versions have results */
};

struct seriesdiff {
	const struct series *s;			/* borrowed */
	const struct series_version *va, *vb;	/* borrowed */
	struct rangediff_patch *pa, *pb;
	size_t na, nb;
	struct rangediff rd;
	struct splits sp;
	struct trailerdiff td;
	struct seriesdiff_results dr;		/* with results */
	int results;
};

/* Whether arg names mail (a readable file, lore:, notmuch:, "-"). */
int seriesdiff_is_mail_source(const char *arg);

/*
 * The range-diff of two versions from mail, as text into out: the last
 * version of each of two sources (nr == 2), or the last two versions of
 * one (nr == 1).  Each source must hold one series.  flags are
 * rangediff_print_with()'s.
 */
int seriesdiff_mail(git_repository *repo, int nr, const char **sources,
		    const struct seriesdiff_options *o, unsigned flags,
		    struct strbuf *out);

/*
 * Picks the two versions of s: both given (arg_a, arg_b: "vN" or "N"),
 * or, with arg_a NULL, the one before latest and latest.
 */
int seriesdiff_pick_versions(struct series *s, struct series_version *latest,
			     const char *arg_a, const char *arg_b,
			     struct series_version **va,
			     struct series_version **vb);

/*
 * Compares versions va and vb of s as recorded in the store: pairs,
 * splits, lost tags and (o->results) the stored results.  Fills sd
 * (release it with seriesdiff_release(), also on an error).
 */
int seriesdiff_versions(git_repository *repo, const struct series *s,
			const struct series_version *va,
			const struct series_version *vb,
			const struct seriesdiff_options *o,
			struct seriesdiff *sd);

/* The comparison as text (rangediff_print_with()'s flags). */
int seriesdiff_text(struct seriesdiff *sd, unsigned flags, struct strbuf *out);

/* The comparison as JSON (see docs/respin-diff.md). */
int seriesdiff_json(struct seriesdiff *sd, struct strbuf *out);

void seriesdiff_release(struct seriesdiff *sd);

#endif
