// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The patches of a version paired with the next version's, as respin
 * diff pairs them: one pairing for both commands.
 */
#include "review/nextpair.h"
#include "series/patchtexts.h"
#include "series/rangediff.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

static char **messages(const struct rangediff_patch *p, size_t n)
{
	char **out = xcalloc(n + 1, sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		rangediff_patch_message(&p[i], &sb);
		out[i] = strbuf_detach(&sb, NULL);
	}
	return out;
}

int next_pairs_load(git_repository *repo, const struct series *s,
		    const struct series_version *v,
		    const struct series_version *w, struct next_pairs *np)
{
	git_mailmap *mailmap = NULL;
	struct rangediff_patch *pa = NULL, *pb = NULL;
	struct rangediff rd = { 0 };
	size_t na = 0, nb = 0, k;
	int r;

	memset(np, 0, sizeof(*np));
	/* git log maps authors through .mailmap; so does respin diff */
	if (git_mailmap_from_repository(&mailmap, repo) < 0) {
		git_error_clear();
		mailmap = NULL;
	}
	r = series_rangediff_patches(repo, mailmap, s, v, &pa, &na);
	if (!r)
		r = series_rangediff_patches(repo, mailmap, s, w, &pb, &nb);
	if (!r)
		r = rangediff_compute(pa, na, pb, nb, RANGEDIFF_CREATION_FACTOR,
				      &rd);
	if (!r) {
		rangediff_pair_by_title(&rd);
		np->nv = na;
		np->nw = nb;
		np->next = xcalloc(na + 1, sizeof(*np->next));
		for (k = 0; k < rd.nr_pairs; k++)
			if (rd.pairs[k].a >= 0 && rd.pairs[k].b >= 0)
				np->next[rd.pairs[k].a] = rd.pairs[k].b + 1;
		np->msg_v = messages(pa, na);
		np->msg_w = messages(pb, nb);
	}
	rangediff_release(&rd);
	rangediff_patches_free(pa, na);
	rangediff_patches_free(pb, nb);
	git_mailmap_free(mailmap);
	return r;
}

void next_pairs_release(struct next_pairs *np)
{
	size_t i;

	for (i = 0; np->msg_v && i < np->nv; i++)
		free(np->msg_v[i]);
	for (i = 0; np->msg_w && i < np->nw; i++)
		free(np->msg_w[i]);
	free(np->msg_v);
	free(np->msg_w);
	free(np->next);
	memset(np, 0, sizeof(*np));
}
