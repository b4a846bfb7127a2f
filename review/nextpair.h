/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_NEXTPAIR_H
#define RESPIN_REVIEW_NEXTPAIR_H

#include "series/store.h"

/*
 * Which patches of the next version continue each patch of a reviewed
 * one: the pairing respin diff shows (splits_pair_versions(): git's
 * range-diff, the pairs by title, the splits and squashes), and each
 * patch's commit message, for telling whether a comment on it was
 * addressed.  A patch split in the next version goes on in each of its
 * parts; one squashed with others goes on in the patch they became.
 */
struct next_parts {
	int *w;			/* patches of w (1-based), its pair first */
	size_t nr;
};

struct next_pairs {
	size_t nv, nw;
	int *next;		/* per patch of v: its patch in w (1-based), 0 none */
	struct next_parts *parts;	/* per patch of v: every patch of w
					   holding its lines (next first) */
	char **msg_v, **msg_w;	/* the commit messages */
};

/* Pairs the patches of v with those of w (both recorded in s). */
int next_pairs_load(git_repository *repo, const struct series *s,
		    const struct series_version *v,
		    const struct series_version *w, struct next_pairs *np);
void next_pairs_release(struct next_pairs *np);

#endif
