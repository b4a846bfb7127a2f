// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The patches of a version paired with the next version's, as respin
 * diff pairs them: one pairing for both commands.
 */
#include "review/nextpair.h"
#include "series/patchtexts.h"
#include "series/rangediff.h"
#include "series/splits.h"
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

/* Adds patch j (1-based) to parts once. */
static void add_part(struct next_parts *parts, int j)
{
	size_t i;

	for (i = 0; i < parts->nr; i++)
		if (parts->w[i] == j)
			return;
	parts->w = xrealloc(parts->w, (parts->nr + 1) * sizeof(*parts->w));
	parts->w[parts->nr++] = j;
}

int next_pairs_load(git_repository *repo, const struct series *s,
		    const struct series_version *v,
		    const struct series_version *w, struct next_pairs *np)
{
	git_mailmap *mailmap = NULL;
	struct rangediff_patch *pa = NULL, *pb = NULL;
	struct rangediff rd = { 0 };
	struct splits sp = { 0 };
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
		r = splits_pair_versions(pa, na, pb, nb, &rd, &sp);
	if (!r) {
		np->nv = na;
		np->nw = nb;
		np->next = xcalloc(na + 1, sizeof(*np->next));
		np->parts = xcalloc(na + 1, sizeof(*np->parts));
		for (k = 0; k < rd.nr_pairs; k++)
			if (rd.pairs[k].a >= 0 && rd.pairs[k].b >= 0)
				np->next[rd.pairs[k].a] = rd.pairs[k].b + 1;
		for (k = 0; k < na; k++) {
			const struct splits_item *it = splits_of(&sp, 0, (int)k);
			size_t m;

			if (np->next[k])
				add_part(&np->parts[k], np->next[k]);
			if (it && it->kind == SPLITS_SPLIT)
				for (m = 0; m < it->nr; m++)
					add_part(&np->parts[k], it->many[m] + 1);
			else if (it)
				add_part(&np->parts[k], it->one + 1);
			/* no pair of its own: the first part continues it */
			if (!np->next[k] && np->parts[k].nr)
				np->next[k] = np->parts[k].w[0];
		}
		np->msg_v = messages(pa, na);
		np->msg_w = messages(pb, nb);
	}
	splits_release(&sp);
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
	for (i = 0; np->parts && i < np->nv; i++)
		free(np->parts[i].w);
	free(np->parts);
	free(np->msg_v);
	free(np->msg_w);
	free(np->next);
	memset(np, 0, sizeof(*np));
}
