// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Range-diff of two lists of patches made from the input, and the
 * linear assignment under it.  The first byte is the creation factor
 * (0-255 %), the second's low bit asks for pairing lines only, its
 * next bit for pairing git's leftovers by title, the third for the
 * splits and squashes (series/splits.c); the rest is a list
 * of patches, each ended by a line "%%%\n", the two lists parted by a
 * line "===\n".  A patch is an author line and a
 * mail body; the body is split as a patch mail is (patches/patchmail.c)
 * and its diff read by libgit2, as for a series read from mail.
 */
#include "patches/patchmail.h"
#include "series/rangediff.h"
#include "series/splits.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A list's patches are capped (the solver is O(n^3)). */
#define RANGEDIFF_FUZZ_MAX 24

struct rangediff_fuzz_list {
	struct rangediff_patch p[RANGEDIFF_FUZZ_MAX];
	size_t nr;
};

static char *rangediff_fuzz_dup(const struct patchmail_span *s)
{
	return s->p ? xstrndup(s->p, s->len) : xstrdup("");
}

/* One patch from [p, end) added to l, if it reads. */
static void rangediff_fuzz_patch(struct rangediff_fuzz_list *l,
				 const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);
	char *author, *message;
	struct patchmail pm;
	git_diff *diff = NULL;
	char label[16];

	if (l->nr >= RANGEDIFF_FUZZ_MAX)
		return;
	author = xstrndup(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
	p = nl ? nl + 1 : end;
	patchmail_init(&pm);
	if (patchmail_split(&pm, p, end - p, "fuzz") < 0 ||
	    (pm.diff.p && git_diff_from_buffer(&diff, pm.diff.p, pm.diff.len) < 0)) {
		patchmail_release(&pm);
		free(author);
		return;
	}
	message = rangediff_fuzz_dup(&pm.message);
	snprintf(label, sizeof(label), "%zu", l->nr + 1);
	memset(&l->p[l->nr], 0, sizeof(l->p[l->nr]));
	if (rangediff_patch_build(&l->p[l->nr], label, author, message,
				  diff) < 0)
		rangediff_patch_release(&l->p[l->nr]);
	else
		l->nr++;
	git_diff_free(diff);
	free(message);
	free(author);
	patchmail_release(&pm);
}

static void rangediff_fuzz_release(struct rangediff_fuzz_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		rangediff_patch_release(&l->p[i]);
	l->nr = 0;
}

/* The pairs name every patch of both lists once. */
static void rangediff_fuzz_check(const struct rangediff *rd)
{
	unsigned char seen_a[RANGEDIFF_FUZZ_MAX] = { 0 };
	unsigned char seen_b[RANGEDIFF_FUZZ_MAX] = { 0 };
	size_t k;

	for (k = 0; k < rd->nr_pairs; k++) {
		const struct rangediff_pair *pr = &rd->pairs[k];

		if (pr->a < -1 || pr->a >= (int)rd->na ||
		    pr->b < -1 || pr->b >= (int)rd->nb ||
		    (pr->a < 0 && pr->b < 0))
			abort();
		if ((pr->a >= 0 && seen_a[pr->a]++) ||
		    (pr->b >= 0 && seen_b[pr->b]++))
			abort();
		if (!strchr("=!<>", pr->status))
			abort();
	}
	for (k = 0; k < rd->na; k++)
		if (!seen_a[k])
			abort();
	for (k = 0; k < rd->nb; k++)
		if (!seen_b[k])
			abort();
}

/* Splits name patches that exist, each in one item at most. */
static void rangediff_fuzz_splits(const struct rangediff *rd)
{
	unsigned char in_a[RANGEDIFF_FUZZ_MAX] = { 0 };
	unsigned char in_b[RANGEDIFF_FUZZ_MAX] = { 0 };
	struct splits sp;
	size_t i, k;

	splits_find(rd, &sp);
	for (i = 0; i < sp.nr; i++) {
		const struct splits_item *it = &sp.items[i];
		int split = it->kind == SPLITS_SPLIT;
		size_t n_one = split ? rd->na : rd->nb;
		size_t n_many = split ? rd->nb : rd->na;
		unsigned char *one = split ? in_a : in_b;
		unsigned char *many = split ? in_b : in_a;

		if (it->one < 0 || (size_t)it->one >= n_one || one[it->one]++ ||
		    it->nr < 2)
			abort();
		for (k = 0; k < it->nr; k++)
			if (it->many[k] < 0 || (size_t)it->many[k] >= n_many ||
			    many[it->many[k]]++ ||
			    (k && it->many[k] <= it->many[k - 1]))
				abort();
	}
	splits_release(&sp);
}

FUZZ_TARGET(rangediff)
{
	struct rangediff_fuzz_list *a, *b, *cur;
	const char *p, *end;
	struct strbuf out = STRBUF_INIT;
	struct rangediff rd;
	int factor;
	unsigned flags;

	if (size < 2)
		return 0;
	fuzz_git_init();
	factor = data[0];
	flags = data[1] & 1 ? RANGEDIFF_NO_PATCH : 0;
	p = (const char *)data + 2;
	end = (const char *)data + size;
	a = xcalloc(1, sizeof(*a));
	b = xcalloc(1, sizeof(*b));
	cur = a;
	while (p < end) {
		const char *e = p, *next;

		/* the patch ends at a "%%%" line, the list at "===" */
		for (;;) {
			const char *nl = memchr(e, '\n', end - e);

			if (!nl) {
				e = next = end;
				break;
			}
			if (end - nl > 4 && (!memcmp(nl + 1, "%%%\n", 4) ||
					     !memcmp(nl + 1, "===\n", 4))) {
				e = nl + 1;
				next = e + 4;
				break;
			}
			e = nl + 1;
		}
		rangediff_fuzz_patch(cur, p, e);
		if (e < end && *e == '=')
			cur = b;
		p = next;
	}
	memset(&rd, 0, sizeof(rd));
	if (!rangediff_compute(a->p, a->nr, b->p, b->nr, factor, &rd)) {
		rangediff_fuzz_check(&rd);
		if (data[1] & 2) {
			rangediff_pair_by_title(&rd);
			rangediff_fuzz_check(&rd);
		}
		if (data[1] & 4)
			rangediff_fuzz_splits(&rd);
		rangediff_print(&rd, flags, &out);
	}
	rangediff_release(&rd);
	rangediff_fuzz_release(a);
	rangediff_fuzz_release(b);
	free(a);
	free(b);
	strbuf_release(&out);
	error_clear();
	return 0;
}
