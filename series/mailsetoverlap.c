// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Series identity by overlap: two versions whose patches' titles and
 * contents mostly match are one series, though the cover letters' titles
 * differ.
 */
#include "series/mailsetpriv.h"
#include "patches/mail.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/*
 * Patches shared between versions: each patch's keys (its title, and
 * its patch-id when loaded, both with the author) and, for each key,
 * the versions that have it.
 */
struct overlap {
	struct strmap by_key;
	struct mem_pool pool;
	long *key_head;		/* per key: its first occurrence */
	size_t nr_keys, alloc_keys;
	struct { long version, next; } *occ;
	size_t nr_occ, alloc_occ;
	long *patch_keys;	/* per (version, patch, title/id): a key */
	size_t *first_key;	/* per version: its patches' first slot */
};

static long overlap_key(struct overlap *o, const char *key, long vi)
{
	size_t id;
	long *head;

	if (!strmap_get(&o->by_key, key, &id)) {
		id = o->nr_keys;
		ALLOC_GROW(o->key_head, o->nr_keys, o->alloc_keys);
		o->key_head[o->nr_keys++] = -1;
		strmap_put(&o->by_key, mem_pool_strdup(&o->pool, key), id);
	}
	head = &o->key_head[id];
	/* a version naming one patch twice counts it once */
	if (*head < 0 || o->occ[*head].version != vi) {
		ALLOC_GROW(o->occ, o->nr_occ, o->alloc_occ);
		o->occ[o->nr_occ].version = vi;
		o->occ[o->nr_occ].next = *head;
		*head = (long)o->nr_occ++;
	}
	return (long)id;
}

static void overlap_build(struct overlap *o, struct mailset *ms, int ids)
{
	struct strbuf key = STRBUF_INIT;
	size_t i, slots = 0;

	memset(o, 0, sizeof(*o));
	o->first_key = xmalloc((ms->nr_versions + 1) * sizeof(*o->first_key));
	for (i = 0; i < ms->nr_versions; i++) {
		o->first_key[i] = slots;
		slots += 2 * (size_t)ms->versions[i].total;
	}
	o->patch_keys = xmalloc((slots + 1) * sizeof(*o->patch_keys));
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long *pk = o->patch_keys + o->first_key[i], k;

		for (k = 0; k < v->total; k++) {
			const struct ms_patch *p = &v->patches[k];
			char *t;

			pk[2 * k] = pk[2 * k + 1] = -1;
			if (p->msg < 0)
				continue;
			t = ms_norm_title(ms->msgs[p->msg].tags.title);
			strbuf_reset(&key);
			strbuf_addf(&key, "t %s %s", v->from_addr, t);
			free(t);
			pk[2 * k] = overlap_key(o, key.buf, (long)i);
			if (ids && p->d && p->d->has_patch_id) {
				char hex[GIT_OID_HEXSZ + 1];

				git_oid_tostr(hex, sizeof(hex),
					      &p->d->patch_id);
				strbuf_reset(&key);
				strbuf_addf(&key, "p %s %s", v->from_addr, hex);
				pk[2 * k + 1] = overlap_key(o, key.buf,
							    (long)i);
			}
		}
	}
	strbuf_release(&key);
}

static void overlap_release(struct overlap *o)
{
	strmap_release(&o->by_key);
	mem_pool_release(&o->pool);
	free(o->key_head);
	free(o->occ);
	free(o->patch_keys);
	free(o->first_key);
}

/* Whether patch k of version vi has a key (title, patch-id) that w has. */
static int patch_in(const struct overlap *o, long vi, long k, long w)
{
	const long *pk = o->patch_keys + o->first_key[vi] + 2 * k;
	int t;

	for (t = 0; t < 2; t++) {
		long e = pk[t] < 0 ? -1 : o->key_head[pk[t]];

		for (; e >= 0; e = o->occ[e].next)
			if (o->occ[e].version == w)
				return 1;
	}
	return 0;
}

struct word {
	const char *p;
	size_t n;
};

#define MAX_WORDS 48

/* The words (letters, digits, '_') of s, at most MAX_WORDS. */
static size_t title_words(const char *s, struct word *w)
{
	size_t n = 0;

	while (*s && n < MAX_WORDS) {
		size_t len = 0;

		while (*s && !isalnum((unsigned char)*s) && *s != '_')
			s++;
		while (isalnum((unsigned char)s[len]) || s[len] == '_')
			len++;
		if (!len)
			break;
		w[n].p = s;
		w[n++].n = len;
		s += len;
	}
	return n;
}

static int word_eq(const struct word *a, const struct word *b)
{
	return a->n == b->n && !strncasecmp(a->p, b->p, a->n);
}

/*
 * Whether two patch titles are one patch reworded: the same summary of
 * three words or more under another prefix ("powerpc/crash: add X" and
 * "powerpc: add X"), or most words the same (a Dice coefficient of
 * 0.85: "forward args to" and "forward arg to" in an eight-word title).
 */
static int titles_alike(const char *a, const char *b)
{
	struct word wa[MAX_WORDS], wb[MAX_WORDS];
	char used[MAX_WORDS];
	const char *sa = strrchr(a, ':'), *sb = strrchr(b, ':');
	size_t na, nb, i, j, common = 0;

	if (sa && sb) {
		na = title_words(sa + 1, wa);
		nb = title_words(sb + 1, wb);
		for (i = 0; i < na && i < nb && word_eq(&wa[i], &wb[i]); i++)
			;
		if (na >= 3 && na == nb && i == na)
			return 1;
	}
	na = title_words(a, wa);
	nb = title_words(b, wb);
	memset(used, 0, sizeof(used));
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (!used[j] && word_eq(&wa[i], &wb[j])) {
				used[j] = 1;
				common++;
				break;
			}
	return na + nb && 200 * common >= 85 * (na + nb);
}

/*
 * The patches of version vi that version w has too: `exact` have its
 * title or patch-id; the others count when w has a patch whose title
 * is alike, each of w's patches once.
 */
static long count_common(const struct mailset *ms, const struct overlap *o,
			 long vi, long w, long exact)
{
	const struct ms_version *v = &ms->versions[vi], *x = &ms->versions[w];
	char *taken = xcalloc((size_t)x->total + 1, 1);
	long k, kw, m = exact;

	for (kw = 0; kw < x->total; kw++)
		taken[kw] = x->patches[kw].msg < 0 || patch_in(o, w, kw, vi);
	for (k = 0; k < v->total; k++) {
		const char *t;

		if (v->patches[k].msg < 0 || patch_in(o, vi, k, w))
			continue;
		t = ms->msgs[v->patches[k].msg].tags.title;
		for (kw = 0; kw < x->total; kw++) {
			if (taken[kw] || !titles_alike(t,
			    ms->msgs[x->patches[kw].msg].tags.title))
				continue;
			taken[kw] = 1;
			m++;
			break;
		}
	}
	free(taken);
	return m;
}

/*
 * Whether a version with `small` patches here (of `small_total`), of
 * which `common` are in a version of `large_total`, is the same series
 * by its patches: at least half of the smaller version.  A version that
 * lost patches (merged, dropped) or grew is still the series, and so is
 * a two-patch series whose first patch (its title) was reworded; one
 * patch of four in common is a series reusing a patch, not a new
 * version.  A one-patch series is a version of another one-patch
 * series only: taken into a bigger series, it is that series' patch,
 * and goes on as its own (a series that shrank to one patch is linked
 * by title or links).  What passes here must still agree in numbers
 * and dates (link_pair_ok()).
 */
static int overlap_enough(long common, long small, long small_total,
			  long large_total)
{
	return common > 0 && 2 * common >= small &&
	       (small_total == 1) == (large_total == 1);
}

/*
 * Links one author's versions by the patches they have in common,
 * counted over the whole version (by title, or by patch-id when bodies
 * are loaded; reworded titles too once one patch is the same), and
 * keeps the pairs it did not link for notes.
 */
void ms_link_overlap(struct mailset *ms, struct linker *lk,
		     const long *order, int ids)
{
	struct overlap o;
	long *count = xcalloc(ms->nr_versions + 1, sizeof(*count));
	long *stamp = xcalloc(ms->nr_versions + 1, sizeof(*stamp));
	long *present = xmalloc((ms->nr_versions + 1) * sizeof(*present));
	long *touched = NULL, now = 0;
	size_t nr_touched = 0, alloc_touched = 0, n, i;

	overlap_build(&o, ms, ids);
	for (i = 0; i < ms->nr_versions; i++)
		present[i] = ms_count_present(&ms->versions[i]);
	for (n = 0; n < ms->nr_versions; n++) {
		long vi = order[n], k;
		const struct ms_version *v = &ms->versions[vi];
		const long *pk = o.patch_keys + o.first_key[vi];

		nr_touched = 0;
		for (k = 0; k < v->total; k++) {
			int t;

			now++;
			for (t = 0; t < 2; t++) {
				long e = pk[2 * k + t] < 0 ? -1 :
					 o.key_head[pk[2 * k + t]];

				for (; e >= 0; e = o.occ[e].next) {
					long w = o.occ[e].version;

					if (w == vi || stamp[w] == now)
						continue;
					stamp[w] = now;
					if (!count[w]++) {
						ALLOC_GROW(touched, nr_touched,
							   alloc_touched);
						touched[nr_touched++] = w;
					}
				}
			}
		}
		for (i = 0; i < nr_touched; i++) {
			long w = touched[i], m = count[w];

			count[w] = 0;
			/* each pair once, counted on the smaller side */
			if (present[vi] > present[w] ||
			    (present[vi] == present[w] && vi > w))
				continue;
			if (ms_uf_find(lk->parent, vi) == ms_uf_find(lk->parent, w))
				continue;
			if (!overlap_enough(m, present[vi], v->total,
					    ms->versions[w].total))
				m = count_common(ms, &o, vi, w, m);
			if (!overlap_enough(m, present[vi], v->total,
					    ms->versions[w].total))
				ms_link_note_apart(lk, vi, w, -1, -1, (int)m,
						   LINK_OVERLAP, REFUSED_FEW);
			else
				ms_version_link(ms, lk, vi, w, LINK_OVERLAP,
						m == present[vi] && m == present[w],
						(int)m);
		}
	}
	overlap_release(&o);
	free(touched);
	free(present);
	free(stamp);
	free(count);
}
