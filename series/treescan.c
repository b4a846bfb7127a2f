// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/treescan.h"
#include "series/sent.h"
#include "series/treetext.h"
#include "series/treewalk.h"
#include "patches/patch.h"
#include "patches/subject.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/strmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One stored patch a key may name. */
struct cand {
	size_t si;		/* series, in the loaded list */
	size_t vi;		/* version index */
	size_t pi;		/* patch index */
	unsigned ev;
};

struct candlist {
	struct cand *c;
	size_t nr, alloc;
};

/* A multimap: key -> candidates (keys owned here). */
struct index {
	struct strmap map;
	char **keys;
	size_t nr, alloc;
	struct candlist *lists;
	size_t alloc_lists;
};

static void index_add(struct index *x, char *key, const struct cand *c)
{
	size_t slot;
	struct candlist *l;

	if (!strmap_get(&x->map, key, &slot)) {
		ALLOC_GROW(x->keys, x->nr + 1, x->alloc);
		ALLOC_GROW(x->lists, x->nr + 1, x->alloc_lists);
		slot = x->nr++;
		x->keys[slot] = key;
		memset(&x->lists[slot], 0, sizeof(x->lists[slot]));
		strmap_put(&x->map, key, slot);
	} else {
		free(key);
	}
	l = &x->lists[slot];
	ALLOC_GROW(l->c, l->nr + 1, l->alloc);
	l->c[l->nr++] = *c;
}

static const struct candlist *index_get(const struct index *x, const char *key)
{
	size_t slot;

	return strmap_get(&x->map, key, &slot) ? &x->lists[slot] : NULL;
}

static void index_release(struct index *x)
{
	size_t i;

	for (i = 0; i < x->nr; i++) {
		free(x->keys[i]);
		free(x->lists[i].c);
	}
	free(x->keys);
	free(x->lists);
	strmap_release(&x->map);
	memset(x, 0, sizeof(*x));
}

static char *keyf(const char *prefix, const char *a, const char *b)
{
	struct strbuf k = STRBUF_INIT;
	char *p;

	strbuf_addstr(&k, prefix);
	strbuf_addstr(&k, a);
	if (b) {
		strbuf_addch(&k, '\n');
		strbuf_addstr(&k, b);
	}
	for (p = k.buf + strlen(prefix); *p; p++)
		if (prefix[0] != 'm')	/* Message-IDs keep their case */
			*p = (char)tolower((unsigned char)*p);
	return strbuf_detach(&k, NULL);
}

struct loaded {
	git_repository *repo;
	struct series *s;
	size_t nr, alloc;
	int err;
};

static int load_one(const char *name, void *data)
{
	struct loaded *l = data;
	int r;

	ALLOC_GROW(l->s, l->nr + 1, l->alloc);
	r = series_load(l->repo, name, &l->s[l->nr], SERIES_LOAD_ALL);
	if (r < 0) {
		series_release(&l->s[l->nr]);
		l->err = r;
		return 1;
	}
	l->nr++;
	return 0;
}

/* Every stored patch under its patch-id, Message-ID, title and author. */
static int index_store(git_repository *repo, const struct loaded *l,
		       struct index *x)
{
	size_t si, vi, pi;

	for (si = 0; si < l->nr; si++) {
		const struct series *s = &l->s[si];

		for (vi = 0; vi < s->nr_versions; vi++) {
			const struct series_version *v = &s->versions[vi];

			for (pi = 0; pi < v->nr_patches; pi++) {
				const struct series_patch *p = &v->patches[pi];
				struct cand c = { si, vi, pi, 0 };
				char *title = subject_title(p->subject, 0);
				char *who = tree_patch_author(repo, p);

				if (!git_oid_is_zero(&p->patch_id)) {
					c.ev = TREE_BY_PATCH_ID;
					index_add(x, keyf("p:", oid_short(&p->patch_id, 40), NULL), &c);
				}
				if (p->message_id && *p->message_id) {
					c.ev = TREE_BY_LINK;
					index_add(x, keyf("m:", p->message_id, NULL), &c);
				}
				if (who && *title) {
					c.ev = TREE_BY_SUBJECT;
					index_add(x, keyf("s:", title, who), &c);
				}
				free(who);
				free(title);
			}
		}
	}
	return 0;
}

/* What one commit matches: its candidates, gathered. */
struct matches {
	const struct index *x;
	struct candlist got;
};

static void add_list(struct matches *m, const struct candlist *l)
{
	size_t i;

	for (i = 0; l && i < l->nr; i++) {
		ALLOC_GROW(m->got.c, m->got.nr + 1, m->got.alloc);
		m->got.c[m->got.nr++] = l->c[i];
	}
}

static void by_link(const char *id, void *d)
{
	struct matches *m = d;
	char *k = keyf("m:", id, NULL);

	add_list(m, index_get(m->x, k));
	free(k);
}

/* How well the commits match one version. */
struct vscore {
	size_t exact;		/* patches matched by patch-id */
	size_t any;		/* matched by anything */
	size_t links;		/* matched by a Link:/Message-Id */
	size_t missing;
	int sent;
};

/*
 * Whether a matches better than b: the most patches by patch-id, then
 * the most by any evidence, then the fewest missing, then the most by
 * Link: (the maintainer named that mail), then a version that was sent.
 */
static int vscore_better(const struct vscore *a, const struct vscore *b)
{
	if (a->exact != b->exact)
		return a->exact > b->exact;
	if (a->any != b->any)
		return a->any > b->any;
	if (a->missing != b->missing)
		return a->missing < b->missing;
	if (a->links != b->links)
		return a->links > b->links;
	return a->sent > b->sent;
}

static void vscore_of(const struct series_version *v, size_t si, size_t vi,
		      const struct candlist *per_commit, size_t nr,
		      struct vscore *sc)
{
	size_t np = v->nr_patches, i, k;
	unsigned char *hit = xcalloc(np + 1, 1);

	memset(sc, 0, sizeof(*sc));
	for (i = 0; i < nr; i++)
		for (k = 0; k < per_commit[i].nr; k++) {
			const struct cand *c = &per_commit[i].c[k];

			if (c->si != si || c->vi != vi)
				continue;
			if (!hit[c->pi])
				sc->any++;
			if (c->ev == TREE_BY_PATCH_ID && !(hit[c->pi] & 2)) {
				sc->exact++;
				hit[c->pi] |= 2;
			}
			if (c->ev == TREE_BY_LINK && !(hit[c->pi] & 4)) {
				sc->links++;
				hit[c->pi] |= 4;
			}
			hit[c->pi] |= 1;
		}
	free(hit);
	sc->missing = np - sc->any;
	sc->sent = series_version_sent(v);
}

/*
 * The version of series si the commits match best (vscore_better(),
 * then the newest), among those that were sent and those a commit
 * matches exactly (an unsent version is work in progress: it is in the
 * branch only when a commit is its patch as it is); its index, or -1.
 */
static long best_version(const struct loaded *l, size_t si,
			 struct candlist *per_commit, size_t nr,
			 struct vscore *best_sc)
{
	const struct series *s = &l->s[si];
	size_t vi;
	long best = -1;

	for (vi = 0; vi < s->nr_versions; vi++) {
		struct vscore sc;

		vscore_of(&s->versions[vi], si, vi, per_commit, nr, &sc);
		if (!sc.any || (!sc.sent && !sc.exact))
			continue;
		/* on a tie the newest: later versions come later */
		if (best < 0 || !vscore_better(best_sc, &sc)) {
			*best_sc = sc;
			best = (long)vi;
		}
	}
	return best;
}

/* found in the order of their first commits; commits follow. */
static void sort_found(struct tree_scan *t)
{
	struct tree_found *sorted;
	size_t *inv, i, k;

	if (t->nr_found < 2)
		return;
	sorted = xcalloc(t->nr_found, sizeof(*sorted));
	inv = xcalloc(t->nr_found, sizeof(*inv));
	/* a selection by first commit: there are few of them per run */
	for (k = 0; k < t->nr_found; k++) {
		size_t pos = 0;

		for (i = 0; i < t->nr_found; i++)
			if (t->found[i].first < t->found[k].first)
				pos++;
		inv[k] = pos;
		sorted[pos] = t->found[k];
	}
	for (i = 0; i < t->nr; i++)
		if (t->commits[i].found >= 0)
			t->commits[i].found = (int)inv[t->commits[i].found];
	free(t->found);
	t->found = sorted;
	t->alloc_found = t->nr_found;
	free(inv);
}

/* Each commit's candidates: by patch-id, by its links, by title. */
static int commit_candidates(git_repository *repo, struct tree_scan *t,
			     struct index *x, struct candlist *per)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		struct matches m = { x, { NULL, 0, 0 } };
		git_commit *c = NULL;
		git_oid pid;
		char *key, *title, *who;

		if (git_commit_lookup(&c, repo, &t->commits[i].oid) < 0)
			return error_git("cannot read commit %s",
					 oid_short(&t->commits[i].oid, 12));
		if (git_commit_parentcount(c) == 1 &&
		    !patch_commit_id(repo, c, &pid)) {
			key = keyf("p:", oid_short(&pid, 40), NULL);
			add_list(&m, index_get(x, key));
			free(key);
		}
		error_clear();
		tree_message_ids(git_commit_message(c), by_link, &m);
		title = subject_title(t->commits[i].subject, 0);
		who = tree_commit_author(c);
		key = keyf("s:", title, who);
		add_list(&m, index_get(x, key));
		free(key);
		free(title);
		free(who);
		git_commit_free(c);
		per[i] = m.got;
	}
	return 0;
}

/* The series' version found first at commit i: taken out of l. */
static int found_new(struct tree_scan *t, struct loaded *l,
		     const struct cand *best, size_t i)
{
	struct tree_found *f;
	size_t np = l->s[best->si].versions[best->vi].nr_patches;

	ALLOC_GROW(t->found, t->nr_found + 1, t->alloc_found);
	f = &t->found[t->nr_found];
	memset(f, 0, sizeof(*f));
	f->s = l->s[best->si];
	series_init(&l->s[best->si], "");	/* moved */
	f->v = &f->s.versions[best->vi];
	f->at = xcalloc(np + 1, sizeof(*f->at));
	f->evidence = xcalloc(np + 1, sizeof(*f->evidence));
	f->first = f->last = i;
	f->newest = f->s.nr_versions ?
		    f->s.versions[f->s.nr_versions - 1].number : 0;
	return (int)t->nr_found++;
}

/* Commit i is patch best->pi of found f; what says so, combined. */
static void found_patch(struct tree_scan *t, int fi, const struct cand *best,
			const struct candlist *cands, long chosen, size_t i)
{
	struct tree_found *f = &t->found[fi];
	unsigned ev = 0;
	size_t k;

	if (f->at[best->pi])
		return;	/* the same patch twice */
	for (k = 0; k < cands->nr; k++)
		if (cands->c[k].si == best->si &&
		    (long)cands->c[k].vi == chosen &&
		    cands->c[k].pi == best->pi)
			ev |= cands->c[k].ev;
	f->at[best->pi] = i + 1;
	f->evidence[best->pi] = ev;
	f->nr_matched++;
	f->nr_changed += !(ev & TREE_BY_PATCH_ID);
	f->last = i;
	t->commits[i].found = fi;
	t->commits[i].patch = best->pi;
	t->commits[i].evidence = ev;
}

/* Per series the version found, if any; each commit placed in it. */
static void place_commits(struct tree_scan *t, struct loaded *l,
			  struct candlist *per)
{
	long *chosen = xcalloc(l->nr + 1, sizeof(*chosen));
	int *fi_of = xcalloc(l->nr + 1, sizeof(*fi_of));
	struct vscore *sc = xcalloc(l->nr + 1, sizeof(*sc));
	size_t i, k, si;

	for (si = 0; si < l->nr; si++) {
		chosen[si] = best_version(l, si, per, t->nr, &sc[si]);
		fi_of[si] = -1;
	}
	for (i = 0; i < t->nr; i++) {
		const struct cand *best = NULL;

		/*
		 * A commit two series match (a tracked branch and a mail
		 * import of it) goes to the one whose version matches
		 * best, whatever matched this commit: reported once.
		 */
		for (k = 0; k < per[i].nr; k++) {
			const struct cand *c = &per[i].c[k];

			if (chosen[c->si] != (long)c->vi)
				continue;
			if (!best ||
			    (c->si != best->si &&
			     vscore_better(&sc[c->si], &sc[best->si])) ||
			    (c->si == best->si && c->ev < best->ev))
				best = c;
		}
		if (!best)
			continue;
		if (fi_of[best->si] < 0)
			fi_of[best->si] = found_new(t, l, best, i);
		found_patch(t, fi_of[best->si], best, &per[i],
			    chosen[best->si], i);
	}
	free(chosen);
	free(fi_of);
	free(sc);
}

/* The found patches by "t:TITLE" and "t:SLUG", for their fixups. */
struct fixups {
	struct strmap map;
	char **keys;
	size_t *found, *patch;
	size_t nr, alloc_keys, alloc_found, alloc_patch;
};

static void fixups_add(struct fixups *fx, char *key, size_t found,
		       size_t patch)
{
	size_t dummy;

	if (strmap_get(&fx->map, key, &dummy)) {
		free(key);
		return;
	}
	ALLOC_GROW(fx->keys, fx->nr + 1, fx->alloc_keys);
	ALLOC_GROW(fx->found, fx->nr + 1, fx->alloc_found);
	ALLOC_GROW(fx->patch, fx->nr + 1, fx->alloc_patch);
	fx->keys[fx->nr] = key;
	fx->found[fx->nr] = found;
	fx->patch[fx->nr] = patch;
	strmap_put(&fx->map, key, fx->nr);
	fx->nr++;
}

static void fixups_index(const struct tree_scan *t, struct fixups *fx)
{
	size_t k, pi;

	for (k = 0; k < t->nr_found; k++) {
		const struct series_version *v = t->found[k].v;

		for (pi = 0; pi < v->nr_patches; pi++) {
			char *title = subject_title(v->patches[pi].subject, 0);
			char *slug = tree_slug(title), *p;

			fixups_add(fx, keyf("t:", title, NULL), k, pi);
			fixups_add(fx, keyf("t:", slug, NULL), k, pi);
			/* and "_" made "-" too, as fixes named by hand are */
			for (p = slug; *p; p++)
				if (*p == '_')
					*p = '-';
			fixups_add(fx, keyf("t:", slug, NULL), k, pi);
			free(slug);
			free(title);
		}
	}
}

static void fixups_release(struct fixups *fx)
{
	size_t i;

	for (i = 0; i < fx->nr; i++)
		free(fx->keys[i]);
	free(fx->keys);
	free(fx->found);
	free(fx->patch);
	strmap_release(&fx->map);
}

/* Commits not placed: "<title or slug of a found patch>-fix" ones. */
static void place_fixups(struct tree_scan *t, const struct fixups *fx)
{
	size_t i, slot;

	for (i = 0; i < t->nr; i++) {
		struct tree_commit *tc = &t->commits[i];
		struct tree_found *f;
		char *target, *title, *key;

		if (tc->found >= 0)
			continue;
		target = tree_fixup_target(tc->subject);
		title = target ? subject_title(target, 0) : NULL;
		key = title ? keyf("t:", title, NULL) : NULL;
		if (key && strmap_get(&fx->map, key, &slot)) {
			f = &t->found[fx->found[slot]];
			tc->found = (int)fx->found[slot];
			tc->patch = fx->patch[slot];
			tc->fixup = 1;
			f->nr_fixups++;
			if (i < f->first)
				f->first = i;
			if (i > f->last)
				f->last = i;
		} else {
			t->nr_unmatched++;
		}
		free(key);
		free(title);
		free(target);
	}
}

int tree_scan(git_repository *repo, const char *branch, const char *base,
	      size_t max, struct tree_scan *t)
{
	struct loaded l = { repo, NULL, 0, 0, 0 };
	struct index x = { STRMAP_INIT, NULL, 0, 0, NULL, 0 };
	struct candlist *per = NULL;
	struct fixups fx = { STRMAP_INIT, NULL, NULL, NULL, 0, 0, 0, 0 };
	size_t i;
	int r;

	if ((r = tree_walk(repo, branch, base, max, t)) < 0)
		return r;
	r = series_foreach_name(repo, load_one, &l);
	if (r < 0 || l.err < 0) {
		r = r < 0 ? r : l.err;
		goto out;
	}
	index_store(repo, &l, &x);
	per = xcalloc(t->nr + 1, sizeof(*per));
	r = commit_candidates(repo, t, &x, per);
	if (r < 0)
		goto out;
	place_commits(t, &l, per);
	fixups_index(t, &fx);
	place_fixups(t, &fx);
	sort_found(t);
out:
	for (i = 0; per && i < t->nr; i++)
		free(per[i].c);
	free(per);
	fixups_release(&fx);
	index_release(&x);
	for (i = 0; i < l.nr; i++)
		series_release(&l.s[i]);
	free(l.s);
	return r;
}

void tree_scan_release(struct tree_scan *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->commits[i].subject);
	for (i = 0; i < t->nr_found; i++) {
		series_release(&t->found[i].s);
		free(t->found[i].at);
		free(t->found[i].evidence);
	}
	free(t->commits);
	free(t->found);
	free(t->branch);
	memset(t, 0, sizeof(*t));
}

const struct tree_found *tree_scan_find(const struct tree_scan *t,
					const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_found; i++)
		if (!strcmp(t->found[i].s.name, name))
			return &t->found[i];
	return NULL;
}

const char *tree_evidence_name(unsigned ev)
{
	return ev & TREE_BY_PATCH_ID ? "patch-id" :
	       ev & TREE_BY_LINK ? "link" :
	       ev & TREE_BY_SUBJECT ? "subject and author" : "none";
}
