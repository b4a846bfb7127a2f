// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Versions into series: linked by change-id, by the links a cover
 * letter gives to earlier versions, by title and author, and by the
 * patches they share (mailsetoverlap.c); kept apart, with a note, when
 * a link would join what cannot be one series.
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
 * What says that two versions are one series.  A change-id is the
 * author's word.  The others are checked against every version already
 * linked on either side (link_pair_ok()): one series has one version of
 * each number (a resend aside), numbered in the order of their dates,
 * and (title, overlap) for one stable tree.  Titles are linked before
 * references, and overlap last.
 */

/* Version `from` refers to version `to` (a Link:, an In-Reply-To). */
static void add_ref(struct linker *lk, long from, long to)
{
	ALLOC_GROW(lk->refs, lk->nr_refs, lk->alloc_refs);
	lk->refs[lk->nr_refs].from = from;
	lk->refs[lk->nr_refs++].to = to;
}

/* A lower number dated this much after a higher one is still in order. */
#define LINK_DATE_SLACK (24 * 60 * 60)

long ms_uf_find(long *parent, long x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* Joins the groups of a and b (each a ring: splicing them is a swap). */
static void uf_union(struct linker *lk, long a, long b)
{
	long ra = ms_uf_find(lk->parent, a), rb = ms_uf_find(lk->parent, b), t;

	if (ra == rb)
		return;
	lk->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
	t = lk->next[a];
	lk->next[a] = lk->next[b];
	lk->next[b] = t;
}

long mailset_version_head(const struct ms_version *v)
{
	long k;

	if (v->cover >= 0)
		return v->cover;
	for (k = 0; k < v->total; k++)
		if (v->patches[k].msg >= 0)
			return v->patches[k].msg;
	return -1;
}

long ms_count_present(const struct ms_version *v)
{
	long k, n = 0;

	for (k = 0; k < v->total; k++)
		n += v->patches[k].msg >= 0;
	return n;
}

/*
 * The stable tree a version is for: "6.1" in "[PATCH 6.1 v2 0/3]" (a
 * word of digits and dots), or NULL; *len is its length.
 */
static const char *stable_tree(const struct mailset *ms, long vi,
			       size_t *len)
{
	long head = mailset_version_head(&ms->versions[vi]);
	const char *p = head >= 0 ? ms->msgs[head].tags.prefix : NULL;

	while (p && *p) {
		size_t n = strcspn(p, " "), k, dots = 0;

		for (k = 0; k < n; k++) {
			if (p[k] == '.')
				dots++;
			else if (!isdigit((unsigned char)p[k]))
				break;
		}
		if (k == n && dots && isdigit((unsigned char)p[0])) {
			*len = n;
			return p;
		}
		p += n;
		p += strspn(p, " ");
	}
	return NULL;
}

/* Whether versions x and y are for two stable trees ("6.1", "5.15"). */
static int other_trees(const struct mailset *ms, long x, long y)
{
	size_t lx, ly;
	const char *tx = stable_tree(ms, x, &lx);
	const char *ty = stable_tree(ms, y, &ly);

	return tx && ty && (lx != ly || memcmp(tx, ty, lx));
}

/*
 * Whether versions x (of one group) and y (of the other) may be one
 * series when linked by kind; direct_full: x and y are the pair being
 * linked and all their patches are the same.
 */
static enum link_refusal link_pair_ok(const struct mailset *ms,
				      const struct linker *lk, long x, long y,
				      enum link_kind kind, int direct_full)
{
	const struct ms_version *vx = &ms->versions[x], *vy = &ms->versions[y];
	const struct ms_version *lo, *hi;

	if (kind >= LINK_TITLE && other_trees(ms, x, y))
		return REFUSED_TREE;
	if (vx->number == vy->number) {
		/* two different "[PATCH]"es, one in reply to the other */
		if (!strncmp(vx->key, "own ", 4) || !strncmp(vy->key, "own ", 4))
			return REFUSED_NUMBER;
		/*
		 * a resend: the same title, all the same patches, or as
		 * many patches again within two days; or a cover alone,
		 * its patches (another total) elsewhere
		 */
		if (direct_full || !ms_count_present(vx) || !ms_count_present(vy) ||
		    (lk->title[x] && lk->title[y] &&
		    !strcmp(lk->title[x], lk->title[y])) ||
		    (vx->total == vy->total &&
		    llabs(vx->date - vy->date) <= 2 * LINK_DATE_SLACK))
			return REFUSED_NONE;
		return REFUSED_NUMBER;
	}
	lo = vx->number < vy->number ? vx : vy;
	hi = lo == vx ? vy : vx;
	if (lo->date && hi->date && lo->date > hi->date + LINK_DATE_SLACK)
		return REFUSED_ORDER;
	return REFUSED_NONE;
}

void ms_link_note_apart(struct linker *lk, long a, long b, long x,
			long y, int common, enum link_kind kind,
			enum link_refusal why)
{
	struct link_apart *ap;

	ALLOC_GROW(lk->apart, lk->nr_apart, lk->alloc_apart);
	ap = &lk->apart[lk->nr_apart++];
	ap->a = a;
	ap->b = b;
	ap->x = x;
	ap->y = y;
	ap->common = common;
	ap->kind = kind;
	ap->why = why;
}

/*
 * Links versions a and b (of one author) unless a pair of their groups
 * disagrees; returns whether they are one group now.  What was refused
 * is kept for a note (common: the patches they share, for that note).
 */
int ms_version_link(const struct mailset *ms, struct linker *lk,
		    long a, long b, enum link_kind kind, int full,
		    int common)
{
	long x = a, y;

	if (ms_uf_find(lk->parent, a) == ms_uf_find(lk->parent, b))
		return 1;
	if (kind != LINK_CHANGE_ID) {
		do {
			y = b;
			do {
				enum link_refusal why = link_pair_ok(ms, lk,
					x, y, kind, full && x == a && y == b);

				if (why) {
					ms_link_note_apart(lk, a, b, x, y, common,
							   kind, why);
					return 0;
				}
				y = lk->next[y];
			} while (y != b);
			x = lk->next[x];
		} while (x != a);
	}
	uf_union(lk, a, b);
	return 1;
}

/* "change-id: X" in the raw text of the head message. */
static char *find_change_id(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le - p > 11 && !strncmp(p, "change-id: ", 11)) {
			const char *v = p + 11;
			const char *ve = le;

			while (ve > v && isspace((unsigned char)ve[-1]))
				ve--;
			if (ve > v)
				return xstrndup(v, (size_t)(ve - v));
		}
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

/*
 * The version holding message m that version vi refers to, or -1: one
 * of the same author, or (other) an earlier version of the same title
 * by another author (a series another maintainer took over).
 */
static long same_author_version(const struct mailset *ms,
				const struct linker *lk, long m, long vi,
				int other)
{
	long w;

	if (m < 0 || ms->msgs[m].version < 0)
		return -1;
	w = ms->msgs[m].version;
	if (w == vi)
		return -1;
	if (!strcmp(ms->msgs[m].from_addr, ms->versions[vi].from_addr))
		return other ? -1 : w;
	if (other && lk->title[w] && lk->title[vi] && *lk->title[vi] &&
	    !strcmp(lk->title[w], lk->title[vi]) &&
	    ms->versions[w].number < ms->versions[vi].number)
		return w;
	return -1;
}

/* Message-IDs named in URLs (Link: lines, "Link to v1: ...", lore). */
static void link_urls(struct mailset *ms, struct linker *lk, long vi,
		      const char *text, size_t len, int other)
{
	const char *p = text, *end = text + len;
	struct strbuf id = STRBUF_INIT;

	while ((p = memmem(p, (size_t)(end - p), "://", 3))) {
		const char *u = p + 3, *ue = u, *seg, *s;

		while (ue < end && !isspace((unsigned char)*ue) && *ue != '>' &&
		       *ue != '"' && *ue != ')')
			ue++;
		p = ue;
		/* the path segment holding '@' is the Message-ID */
		for (seg = s = u; s <= ue; s++) {
			long w;

			if (s < ue && *s != '/')
				continue;
			if (!memchr(seg, '@', (size_t)(s - seg))) {
				seg = s + 1;
				continue;
			}
			strbuf_reset(&id);
			strbuf_add(&id, seg, (size_t)(s - seg));
			w = same_author_version(ms, lk, mailset_find(ms, id.buf),
						vi, other);
			if (w >= 0)
				add_ref(lk, vi, w);
			break;
		}
	}
	strbuf_release(&id);
}

char *ms_norm_title(const char *t)
{
	struct strbuf sb = STRBUF_INIT;

	for (; t && *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (isspace(c)) {
			if (sb.len && sb.buf[sb.len - 1] != ' ')
				strbuf_addch(&sb, ' ');
		} else {
			strbuf_addch(&sb, (char)tolower(c));
		}
	}
	strbuf_rtrim(&sb);
	return strbuf_detach(&sb, NULL);
}

static const struct mailset *sort_ms;

static int cmp_by_date(const void *pa, const void *pb)
{
	const struct ms_version *x = &sort_ms->versions[*(const long *)pa];
	const struct ms_version *y = &sort_ms->versions[*(const long *)pb];

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return *(const long *)pa < *(const long *)pb ? -1 : 1;
}

/* The versions, oldest first: links are tried in the order mail came. */
static long *versions_by_date(const struct mailset *ms)
{
	long *order = xmalloc((ms->nr_versions + 1) * sizeof(*order));
	size_t i;

	for (i = 0; i < ms->nr_versions; i++)
		order[i] = (long)i;
	sort_ms = ms;
	qsort(order, ms->nr_versions, sizeof(*order), cmp_by_date);
	sort_ms = NULL;
	return order;
}

/*
 * Links version i to an earlier version with its title (prev[]: the
 * one before each, latest first): the one whose number comes closest
 * below i's (v3 follows v2, not a mistagged "v1" sent a minute
 * before), else the latest; if that one's series refuses, the others.
 */
static void link_title(const struct mailset *ms, struct linker *lk,
		       const long *prev, long i)
{
	int number = ms->versions[i].number;
	long best = prev[i], c;
	int steps;

	for (c = prev[i], steps = 0; c >= 0 && steps < 64; c = prev[c]) {
		int nc = ms->versions[c].number, nb = ms->versions[best].number;

		if (nc < number && (nb >= number || nc > nb))
			best = c;
		steps++;
	}
	if (ms_version_link(ms, lk, i, best, LINK_TITLE, 0, 0))
		return;
	for (c = prev[i], steps = 0; c >= 0 && steps < 64; c = prev[c]) {
		if (c != best && ms_version_link(ms, lk, i, c, LINK_TITLE, 0, 0))
			return;
		steps++;
	}
}

/*
 * Links by change-id, then by title (to the latest earlier version with
 * the same title from the same author), then by references to other
 * versions: when a series forks (a part split off as a series of its
 * own that links to the whole), the version with the title stays the
 * series.  focus_addr: only that author's head messages are read.
 */
static void link_versions(struct mailset *ms, struct linker *lk,
			  const long *order, const char *focus_addr)
{
	struct strmap by_key = STRMAP_INIT;
	struct mem_pool keys = MEM_POOL_INIT;
	struct strbuf raw = STRBUF_INIT, key = STRBUF_INIT;
	size_t n, other;
	long *prev;

	for (n = 0; n < ms->nr_versions; n++) {
		long i = order[n];
		struct ms_version *v = &ms->versions[i];
		long head = mailset_version_head(v), k;
		struct ms_msg *h;
		size_t nr;
		int cross;

		if (head < 0)
			continue;
		h = &ms->msgs[head];
		/* title and change-id from the cover, else patch 1 */
		free(v->title);
		v->title = xstrdup(h->tags.title ? h->tags.title : "");
		lk->title[i] = ms_norm_title(v->title);
		strbuf_reset(&raw);
		nr = lk->nr_refs;
		if (focus_addr && strcmp(focus_addr, v->from_addr)) {
			/* not the author asked about: no change-id, no links */
		} else if (!mailset_raw(ms, head, &raw)) {
			v->change_id = find_change_id(raw.buf, raw.len);
			link_urls(ms, lk, i, raw.buf, raw.len, 0);
		} else {
			error_clear();
		}
		if (v->change_id) {
			strbuf_reset(&key);
			strbuf_addf(&key, "change-id %s", v->change_id);
			if (strmap_get(&by_key, key.buf, &other))
				ms_version_link(ms, lk, i, (long)other,
						LINK_CHANGE_ID, 0, 0);
			else
				strmap_put(&by_key, mem_pool_strdup(&keys,
					   key.buf), (size_t)i);
		}
		/*
		 * sent in reply to (or with a Link: to) an earlier version:
		 * of the same author, else of the same title by another
		 */
		for (cross = 0; cross < 2 && nr == lk->nr_refs; cross++) {
			if (cross && raw.len)
				link_urls(ms, lk, i, raw.buf, raw.len, 1);
			for (k = -1; k < (long)h->nr_refs; k++) {
				const char *id = k < 0 ? h->irt : h->refs[k];
				long w = id ? same_author_version(ms, lk,
						mailset_find(ms, id), i,
						cross) : -1;

				if (w >= 0)
					add_ref(lk, i, w);
			}
		}
	}
	/* the same title from the same author */
	prev = xmalloc((ms->nr_versions + 1) * sizeof(*prev));
	for (n = 0; n < ms->nr_versions; n++) {
		long i = order[n];

		prev[i] = -1;
		if (!lk->title[i])
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "title %s %s", ms->versions[i].from_addr,
			    lk->title[i]);
		if (strmap_get(&by_key, key.buf, &other)) {
			prev[i] = (long)other;
			link_title(ms, lk, prev, i);
		}
		strmap_put(&by_key, mem_pool_strdup(&keys, key.buf), (size_t)i);
	}
	free(prev);
	for (n = 0; n < lk->nr_refs; n++) {
		long a = lk->refs[n].from, b = lk->refs[n].to;
		const struct ms_version *va = &ms->versions[a];
		const struct ms_version *vb = &ms->versions[b];
		int apart = ms_uf_find(lk->parent, a) != ms_uf_find(lk->parent, b);

		if (ms_version_link(ms, lk, a, b, LINK_REFERENCE, 0, 0) &&
		    apart && strcmp(va->from_addr, vb->from_addr))
			ms_note_add(ms, -1, a, b, "v%d of \"%s\" was sent by "
				    "%s, v%d by %s: one series", va->number,
				    va->title, va->from_addr, vb->number,
				    vb->from_addr);
	}
	mem_pool_release(&keys);
	strmap_release(&by_key);
	strbuf_release(&raw);
	strbuf_release(&key);
}

static int cmp_version(const struct mailset *ms, long a, long b)
{
	const struct ms_version *x = &ms->versions[a], *y = &ms->versions[b];

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return a < b ? -1 : a > b;
}

static const char *short_day(long long t)
{
	static char buf[2][16];
	static int which;
	time_t tt = (time_t)t;
	struct tm tm;

	which = !which;
	if (!t || !gmtime_r(&tt, &tm))
		return "an unknown day";
	strftime(buf[which], sizeof(buf[which]), "%Y-%m-%d", &tm);
	return buf[which];
}

/* Says why two versions that looked alike are two series. */
static void note_apart(struct mailset *ms, const struct link_apart *ap)
{
	/* patches in common: the later version shares them with the other */
	int swap = ap->kind == LINK_OVERLAP &&
		   ms->versions[ap->a].date < ms->versions[ap->b].date;
	long ia = swap ? ap->b : ap->a, ib = swap ? ap->a : ap->b;
	const struct ms_version *a = &ms->versions[ia];
	const struct ms_version *b = &ms->versions[ib];
	const struct ms_version *x = &ms->versions[ap->x >= 0 ? ap->x : ap->a];
	const struct ms_version *y = &ms->versions[ap->y >= 0 ? ap->y : ap->b];
	struct strbuf what = STRBUF_INIT, why = STRBUF_INIT;

	if (ap->kind == LINK_OVERLAP)
		strbuf_addf(&what, "shares %d of its %ld patch%s with",
			    ap->common, ms_count_present(a),
			    ms_count_present(a) == 1 ? "" : "es");
	else if (ap->kind == LINK_TITLE)
		strbuf_addstr(&what, "has the title of");
	else
		strbuf_addstr(&what, "refers to");
	switch (ap->why) {
	case REFUSED_ORDER:
		if (x->number > y->number) {
			const struct ms_version *t = x;

			x = y;
			y = t;
		}
		strbuf_addf(&why, "v%d (%s) would come after v%d (%s)",
			    x->number, short_day(x->date), y->number,
			    short_day(y->date));
		break;
	case REFUSED_NUMBER:
		strbuf_addf(&why, "both have a v%d, with other patches",
			    x->number);
		break;
	default:
		strbuf_addstr(&why, "too few in common");
		break;
	}
	ms_note_add(ms, -1, ia, ib, "v%d of \"%s\" <%s> %s v%d of \"%s\" "
		    "<%s>; kept as two series: %s", a->number, a->title,
		    ms->msgs[mailset_version_head(a)].msgid, what.buf, b->number,
		    b->title, ms->msgs[mailset_version_head(b)].msgid, why.buf);
	strbuf_release(&what);
	strbuf_release(&why);
}

/* One note for each pair of series that something tied and was refused. */
static void notes_apart(struct mailset *ms, const struct linker *lk)
{
	struct strmap seen = STRMAP_INIT;
	struct mem_pool keys = MEM_POOL_INIT;
	struct strbuf key = STRBUF_INIT;
	size_t i;

	for (i = 0; i < lk->nr_apart; i++) {
		const struct link_apart *ap = &lk->apart[i];
		long sa = ms_series_of_version(ms, ap->a);
		long sb = ms_series_of_version(ms, ap->b);

		/* backports to two trees: two series, nothing to say */
		if (sa < 0 || sb < 0 || sa == sb || ap->why == REFUSED_TREE ||
		    other_trees(ms, ap->a, ap->b))
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%ld %ld", sa < sb ? sa : sb,
			    sa < sb ? sb : sa);
		if (!strmap_put(&seen, mem_pool_strdup(&keys, key.buf), 0))
			continue;
		note_apart(ms, ap);
	}
	strbuf_release(&key);
	mem_pool_release(&keys);
	strmap_release(&seen);
}

static void make_series(struct mailset *ms, long *parent)
{
	long *series_of_root = xmalloc((ms->nr_versions + 1) * sizeof(long));
	size_t i;

	for (i = 0; i < ms->nr_versions; i++)
		series_of_root[i] = -1;
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long root = ms_uf_find(parent, (long)i), si;
		struct ms_series *s;
		size_t k;

		if (ms_version_empty(v))
			continue;
		si = series_of_root[root];
		if (si < 0) {
			ALLOC_GROW(ms->series, ms->nr_series, ms->alloc_series);
			si = (long)ms->nr_series++;
			memset(&ms->series[si], 0, sizeof(ms->series[si]));
			series_of_root[root] = si;
		}
		s = &ms->series[si];
		v->series = si;
		/* insertion sort by version number, then date */
		ALLOC_GROW(s->versions, s->nr, s->alloc);
		for (k = s->nr; k > 0 && cmp_version(ms, s->versions[k - 1],
						     (long)i) > 0; k--)
			s->versions[k] = s->versions[k - 1];
		s->versions[k] = (long)i;
		s->nr++;
	}
	/* resends: the same version number twice, the newer wins */
	for (i = 0; i < ms->nr_series; i++) {
		struct ms_series *s = &ms->series[i];
		size_t k, n = 0;

		for (k = 0; k < s->nr; k++) {
			struct ms_version *v = &ms->versions[s->versions[k]];

			if (n && ms->versions[s->versions[n - 1]].number ==
				 v->number) {
				struct ms_version *old =
					&ms->versions[s->versions[n - 1]];

				ms_note_add(ms, -1, s->versions[n - 1],
					    s->versions[k], "v%d of \"%s\" was "
					    "sent more than once (<%s>, then "
					    "<%s>); using the newer", v->number,
					    v->title,
					    ms->msgs[mailset_version_head(old)].msgid,
					    ms->msgs[mailset_version_head(v)].msgid);
				old->superseded_by = s->versions[k];
				s->versions[n - 1] = s->versions[k];
				continue;
			}
			s->versions[n++] = s->versions[k];
		}
		s->nr = n;
		s->title = xstrdup(ms->versions[s->versions[n - 1]].title);
		ms_fill_rerolls(ms, s);
	}
	/* gaps */
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long k;

		if (v->series < 0 || v->superseded_by >= 0)
			continue;
		{
			struct strbuf gaps = STRBUF_INIT;
			long first = -1, nmiss = 0;

			/* one line a version: "patches 1-17, 20/32" */
			for (k = 0; k <= v->total; k++) {
				int miss = k < v->total && v->patches[k].msg < 0;

				if (miss && first < 0)
					first = k;
				if (!miss && first >= 0) {
					strbuf_addf(&gaps, "%s%ld", gaps.len ?
						    ", " : "", first + 1);
					if (k - 1 > first)
						strbuf_addf(&gaps, "-%ld", k);
					nmiss += k - first;
					first = -1;
				}
			}
			if (nmiss)
				ms_note_add(ms, -1, (long)i, -1, "v%d of \"%s\" "
					    "is missing patch%s %s/%d", v->number,
					    v->title, nmiss > 1 ? "es" : "",
					    gaps.buf, v->total);
			strbuf_release(&gaps);
		}
	}
	free(series_of_root);
}

/* Parses every version (for patch-ids); a version that fails is noted. */
static void load_all(struct mailset *ms)
{
	size_t i;

	for (i = 0; i < ms->nr_versions; i++) {
		if (mailset_load(ms, (long)i) < 0) {
			ms_note_add(ms, -1, (long)i, -1, "skipped: %s",
				    error_last());
			error_clear();
		}
	}
}

int mailset_group(struct mailset *ms, unsigned flags, const char *focus)
{
	const char *focus_addr = NULL;
	struct linker lk = { 0 };
	long *order;
	size_t i;

	ms_classify(ms);
	ms_make_versions(ms);
	ms_attach_replies(ms);
	if (focus) {
		long m = mailset_find(ms, focus);

		if (m >= 0 && ms->msgs[m].kind == MS_REPLY)
			m = ms->msgs[m].patch_of;
		if (m >= 0)
			focus_addr = ms->msgs[m].from_addr;
	}
	lk.parent = xmalloc((ms->nr_versions + 1) * sizeof(*lk.parent));
	lk.next = xmalloc((ms->nr_versions + 1) * sizeof(*lk.next));
	lk.title = xcalloc(ms->nr_versions + 1, sizeof(*lk.title));
	for (i = 0; i < ms->nr_versions; i++)
		lk.parent[i] = lk.next[i] = (long)i;
	order = versions_by_date(ms);
	link_versions(ms, &lk, order, focus_addr);
	if (flags & MAILSET_PATCH_IDS)
		load_all(ms);
	ms_link_overlap(ms, &lk, order, !!(flags & MAILSET_PATCH_IDS));
	make_series(ms, lk.parent);
	notes_apart(ms, &lk);
	for (i = 0; i < ms->nr_versions; i++)
		free(lk.title[i]);
	free(lk.title);
	free(lk.apart);
	free(lk.refs);
	free(lk.next);
	free(lk.parent);
	free(order);
	return 0;
}
