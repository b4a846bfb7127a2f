// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Splits and squashes between two versions of a series, from the
 * changed lines of the patches' range-diff texts (see splits.h).
 */
#include "series/splits.h"
#include "tools/lib/hash.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A patch's changed lines: their hashes, sorted (a multiset). */
struct line_set {
	uint32_t *k;
	size_t nr, alloc;
};

/* " ## a/b.c ##", " ## x (new) ##", " ## x => y ##": the file (y). */
static void file_header(const char *s, size_t n, const char **path,
			size_t *len)
{
	const char *p = s + 4, *stop = s + n - 3, *c;
	const char *arrow = memmem(p, (size_t)(stop - p), " => ", 4);

	if (arrow)
		p = arrow + 4;
	c = memmem(p, (size_t)(stop - p), " (", 2);
	if (c && stop[-1] == ')')
		stop = c;
	*path = p;
	*len = (size_t)(stop - p);
}

/* The hash of one changed line, or 0 when it is too small to count. */
static uint32_t line_key(const char *path, size_t plen, const char *s,
			 size_t n)
{
	struct strbuf norm = STRBUF_INIT;
	uint32_t h = FNV1A32_INIT;
	size_t i, chars = 0;

	for (i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isspace(c)) {
			if (norm.len && norm.buf[norm.len - 1] != ' ')
				strbuf_addch(&norm, ' ');
			continue;
		}
		strbuf_addch(&norm, (char)c);
		chars++;
	}
	strbuf_rtrim(&norm);
	if (chars >= SPLITS_MIN_CHARS) {
		h = fnv1a32(h, path, plen);
		h = fnv1a32(h, s, 1);	/* the sign */
		h = fnv1a32(h, norm.buf, norm.len);
		if (!h)
			h = 1;
	} else {
		h = 0;
	}
	strbuf_release(&norm);
	return h;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static void line_set_add(struct line_set *ls, uint32_t k)
{
	ALLOC_GROW(ls->k, ls->nr, ls->alloc);
	ls->k[ls->nr++] = k;
}

static void patch_lines(const struct rangediff_patch *p, struct line_set *ls)
{
	const char *s = p->text + p->diff_offset, *end = p->text + p->len;
	const char *path = "";
	size_t plen = 0;

	memset(ls, 0, sizeof(*ls));
	while (p->diff_offset && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (n > 7 && !memcmp(s, " ## ", 4) &&
		    !memcmp(s + n - 3, " ##", 3)) {
			file_header(s, n, &path, &plen);
		} else if (n && (*s == '+' || *s == '-')) {
			uint32_t k = line_key(path, plen, s, n);

			if (k)
				line_set_add(ls, k);
		}
		s += n + 1;
	}
	if (ls->nr)
		qsort(ls->k, ls->nr, sizeof(*ls->k), cmp_u32);
}

/* How many lines two sets have in common (as multisets). */
static size_t common(const struct line_set *x, const struct line_set *y)
{
	size_t i = 0, j = 0, n = 0;

	while (i < x->nr && j < y->nr) {
		if (x->k[i] < y->k[j]) {
			i++;
		} else if (x->k[i] > y->k[j]) {
			j++;
		} else {
			n++;
			i++;
			j++;
		}
	}
	return n;
}

/* Takes the lines x and y have in common out of x; how many. */
static size_t take_common(struct line_set *x, const struct line_set *y)
{
	size_t i = 0, j = 0, out = 0, n = 0;

	while (i < x->nr) {
		if (j < y->nr && x->k[i] > y->k[j]) {
			j++;
		} else if (j < y->nr && x->k[i] == y->k[j]) {
			n++;
			i++;
			j++;
		} else {
			x->k[out++] = x->k[i++];
		}
	}
	x->nr = out;
	return n;
}

static void add_item(struct splits *out, enum splits_kind kind, int one,
		     const int *many, size_t nr)
{
	struct splits_item *it;

	ALLOC_GROW(out->items, out->nr, out->alloc);
	it = &out->items[out->nr++];
	it->kind = kind;
	it->one = one;
	it->nr = nr;
	it->many = xmalloc(nr * sizeof(*it->many));
	memcpy(it->many, many, nr * sizeof(*it->many));
}

/*
 * The view from one side: "one" is a patch of that side, "others" the
 * patches of the other side; ov[o][t] how many lines one o and other t
 * have in common.
 */
struct side {
	const struct line_set *ones, *others;
	size_t nones, nothers;
	const int *one_partner, *other_partner;	/* -1: unpaired */
	char *one_used, *other_used;
	const size_t *ov;	/* nones x nothers */
};

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return a < b ? -1 : a > b;
}

/*
 * The candidate pieces of one o (each mostly from it, carrying enough
 * of it, not another's partner), largest share first; how many.
 */
static size_t candidates(const struct side *s, size_t o, int *cand)
{
	size_t t, n = 0, size = s->ones[o].nr, k;

	for (t = 0; t < s->nothers; t++) {
		size_t c = s->ov[o * s->nothers + t];

		if (s->other_used[t] || !c ||
		    (s->other_partner[t] >= 0 && s->other_partner[t] != (int)o))
			continue;
		if (c < SPLITS_FROM * (double)s->others[t].nr ||
		    c < SPLITS_SHARE * (double)size)
			continue;
		/* insertion by share, larger first, then by position */
		for (k = n; k > 0 && s->ov[o * s->nothers + cand[k - 1]] < c; k--)
			cand[k] = cand[k - 1];
		cand[k] = (int)t;
		n++;
	}
	return n;
}

/*
 * The pieces of one o, taken largest first, each only for what it
 * carries that those before it do not (enough of o, and most of its
 * own share: a copy of lines already carried is no piece); how many
 * of o's lines they carry in all.
 */
static size_t pick_pieces(const struct side *s, size_t o, const int *cand,
			  size_t ncand, int *pieces, size_t *npieces)
{
	struct line_set left = { NULL, 0, 0 };
	size_t size = s->ones[o].nr, k, carried = 0;

	left.k = xmalloc((size + 1) * sizeof(*left.k));
	memcpy(left.k, s->ones[o].k, size * sizeof(*left.k));
	left.nr = left.alloc = size;
	*npieces = 0;
	for (k = 0; k < ncand; k++) {
		const struct line_set *piece = &s->others[cand[k]];
		size_t share = s->ov[o * s->nothers + cand[k]];
		size_t fresh = common(&left, piece);

		if (fresh < SPLITS_SHARE * (double)size ||
		    fresh < SPLITS_FROM * (double)share)
			continue;
		take_common(&left, piece);
		pieces[(*npieces)++] = cand[k];
		carried += fresh;
	}
	free(left.k);
	qsort(pieces, *npieces, sizeof(*pieces), cmp_int);
	return carried;
}

/* Looks for one patch of s cut into several of the other side. */
static void find_cuts(struct side *s, enum splits_kind kind,
		      struct splits *out)
{
	int *cand = xmalloc((s->nothers + 1) * sizeof(int));
	int *pieces = xmalloc((s->nothers + 1) * sizeof(int));
	size_t o, t, n, ncand;

	for (o = 0; o < s->nones; o++) {
		size_t size = s->ones[o].nr;
		int p = s->one_partner[o];

		if (s->one_used[o] || size < 2)
			continue;
		/* kept whole: its partner has its very lines */
		if (p >= 0 && s->ov[o * s->nothers + p] == size &&
		    s->others[p].nr == size)
			continue;
		ncand = candidates(s, o, cand);
		if (ncand < 2 ||
		    pick_pieces(s, o, cand, ncand, pieces, &n) <
		    SPLITS_COVER * (double)size || n < 2)
			continue;
		add_item(out, kind, (int)o, pieces, n);
		s->one_used[o] = 1;
		for (t = 0; t < n; t++)
			s->other_used[pieces[t]] = 1;
	}
	free(cand);
	free(pieces);
}

void splits_find(const struct rangediff *rd, struct splits *out)
{
	size_t na = rd->na, nb = rd->nb, i, j;
	struct line_set *la = xcalloc(na + 1, sizeof(*la));
	struct line_set *lb = xcalloc(nb + 1, sizeof(*lb));
	int *a2b = xmalloc((na + 1) * sizeof(int));
	int *b2a = xmalloc((nb + 1) * sizeof(int));
	char *used_a = xcalloc(na + 1, 1), *used_b = xcalloc(nb + 1, 1);
	size_t *ov = xmalloc((na * nb + 1) * sizeof(*ov));
	size_t *vo = xmalloc((na * nb + 1) * sizeof(*vo));
	struct side s;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < na; i++) {
		patch_lines(&rd->a[i], &la[i]);
		a2b[i] = -1;
	}
	for (j = 0; j < nb; j++) {
		patch_lines(&rd->b[j], &lb[j]);
		b2a[j] = -1;
	}
	for (i = 0; i < rd->nr_pairs; i++)
		if (rd->pairs[i].a >= 0 && rd->pairs[i].b >= 0) {
			a2b[rd->pairs[i].a] = rd->pairs[i].b;
			b2a[rd->pairs[i].b] = rd->pairs[i].a;
		}
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			vo[j * na + i] = ov[i * nb + j] = common(&la[i], &lb[j]);

	s = (struct side){ la, lb, na, nb, a2b, b2a, used_a, used_b, ov };
	find_cuts(&s, SPLITS_SPLIT, out);
	s = (struct side){ lb, la, nb, na, b2a, a2b, used_b, used_a, vo };
	find_cuts(&s, SPLITS_SQUASH, out);

	for (i = 0; i < na; i++)
		free(la[i].k);
	for (j = 0; j < nb; j++)
		free(lb[j].k);
	free(la);
	free(lb);
	free(a2b);
	free(b2a);
	free(used_a);
	free(used_b);
	free(ov);
	free(vo);
}

void splits_release(struct splits *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->items[i].many);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

const struct splits_item *splits_of(const struct splits *s, int side,
				    int index)
{
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		const struct splits_item *it = &s->items[i];
		int one_side = it->kind == SPLITS_SPLIT ? 0 : 1;

		if (side == one_side && it->one == index)
			return it;
		if (side != one_side)
			for (k = 0; k < it->nr; k++)
				if (it->many[k] == index)
					return it;
	}
	return NULL;
}

void splits_positions(struct strbuf *out, const struct splits_item *it,
		      size_t total)
{
	size_t k;

	for (k = 0; k < it->nr; k++)
		strbuf_addf(out, "%s%d/%zu", k ? ", " : "", it->many[k] + 1,
			    total);
}

void splits_pair_notes(const struct splits *sp, const struct rangediff *rd,
		       size_t k, struct strbuf *out)
{
	const struct rangediff_pair *p = &rd->pairs[k];
	const struct splits_item *ia = p->a >= 0 ? splits_of(sp, 0, p->a) : NULL;
	const struct splits_item *ib = p->b >= 0 ? splits_of(sp, 1, p->b) : NULL;

	if (ia && ia->kind == SPLITS_SPLIT) {
		strbuf_addstr(out, "    split into ");
		splits_positions(out, ia, rd->nb);
		strbuf_addch(out, '\n');
	} else if (ia && ib != ia) {
		strbuf_addf(out, "    squashed into %d/%zu\n", ia->one + 1,
			    rd->nb);
	}
	if (ib && ib->kind == SPLITS_SQUASH) {
		strbuf_addstr(out, "    squashed from ");
		splits_positions(out, ib, rd->na);
		strbuf_addch(out, '\n');
	} else if (ib && ia != ib) {
		strbuf_addf(out, "    split from %d/%zu\n", ib->one + 1, rd->na);
	}
}

void splits_to_json(const struct splits *sp, struct json *j)
{
	size_t i, k;

	json_array_begin(j);
	for (i = 0; i < sp->nr; i++) {
		const struct splits_item *it = &sp->items[i];
		int split = it->kind == SPLITS_SPLIT;

		json_object_begin(j);
		json_string_member(j, "kind", split ? "split" : "squash");
		json_key(j, split ? "old" : "new");
		json_array_begin(j);
		json_int(j, it->one + 1);
		json_array_end(j);
		json_key(j, split ? "new" : "old");
		json_array_begin(j);
		for (k = 0; k < it->nr; k++)
			json_int(j, it->many[k] + 1);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

int splits_pair_versions(const struct rangediff_patch *a, size_t na,
			 const struct rangediff_patch *b, size_t nb,
			 struct rangediff *rd, struct splits *sp)
{
	int r;

	memset(sp, 0, sizeof(*sp));
	r = rangediff_compute(a, na, b, nb, RANGEDIFF_CREATION_FACTOR, rd);
	if (r < 0)
		return r;
	splits_pair_computed(rd, 1, 1, sp);
	return 0;
}

void splits_pair_computed(struct rangediff *rd, int title_pairs,
			  int find_splits, struct splits *sp)
{
	memset(sp, 0, sizeof(*sp));
	if (title_pairs)
		rangediff_pair_by_title(rd);
	if (find_splits)
		splits_find(rd, sp);
}
