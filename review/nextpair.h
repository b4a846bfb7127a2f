/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_NEXTPAIR_H
#define RESPIN_REVIEW_NEXTPAIR_H

#include "series/store.h"

/*
 * Which patch of the next version continues each patch of a reviewed
 * one: the pairing respin diff shows (series/rangediff.h: git's
 * range-diff, then the pairs by title), and each patch's commit
 * message, for telling whether a comment on it was addressed.
 */
struct next_pairs {
	size_t nv, nw;
	int *next;		/* per patch of v: its patch in w (1-based), 0 none */
	char **msg_v, **msg_w;	/* the commit messages */
};

/* Pairs the patches of v with those of w (both recorded in s). */
int next_pairs_load(git_repository *repo, const struct series *s,
		    const struct series_version *v,
		    const struct series_version *w, struct next_pairs *np);
void next_pairs_release(struct next_pairs *np);

#endif
