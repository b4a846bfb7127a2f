// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/mailset.h"
#include "patches/mail.h"
#include "tools/lib/config.h"
#include "tools/lib/error.h"
#include "tools/lib/lore.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int mailset_source_open(git_repository *repo, const char *spec,
			int refresh, struct mail_source **out)
{
	struct mail_source_options o = { 0 };
	struct strbuf cache = STRBUF_INIT;
	char *lore, *nm;
	int r;

	*out = NULL;
	r = config_mail_limits(repo);
	if (r < 0)
		return r;
	lore = repo_lore_url(repo);
	nm = repo_config_string(repo, "respin.notmuch-path", NULL);
	o.lore_url = lore;
	o.notmuch_db = nm;
	o.lore_refresh = !!refresh;
	if (!lore_cache_dir(&cache))
		o.cache_dir = cache.buf;
	else
		error_clear();
	r = mail_source_open(out, spec, &o);
	free(lore);
	free(nm);
	strbuf_release(&cache);
	return r;
}

void mailset_init(struct mailset *ms, struct mail_source *src)
{
	memset(ms, 0, sizeof(*ms));
	ms->src = src;
	strbuf_init(&ms->notes, 0);
}

static void patch_release(struct ms_patch *p)
{
	struct ms_detail *d = p->d;

	if (!d)
		return;
	strbuf_release(&d->body);
	patchmail_release(&d->pm);
	free(d->replies);
	trailer_list_release(&d->reply_trailers);
	free(d->unreadable);
	free(d);
	p->d = NULL;
}

void mailset_release(struct mailset *ms)
{
	size_t i, k;

	free(ms->msgs);
	mem_pool_release(&ms->strings);
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];

		for (k = 0; k < (size_t)v->total; k++)
			patch_release(&v->patches[k]);
		patch_release(&v->cover_part);
		free(v->patches);
		free(v->title);
		free(v->from_addr);
		free(v->change_id);
		free(v->key);
	}
	free(ms->versions);
	for (i = 0; i < ms->nr_series; i++) {
		free(ms->series[i].versions);
		free(ms->series[i].title);
	}
	free(ms->series);
	strmap_release(&ms->by_id);
	strbuf_release(&ms->notes);
	memset(ms, 0, sizeof(*ms));
}

/* ---- scanning ---- */

/*
 * The strings of one scan thread.  Message-IDs come back in the
 * References of the mails after them, replies repeat a subject, and
 * authors write many mails: strings kept recently are looked up
 * before a new copy is made.
 */
#define RECENT 4096

struct scan_strings {
	struct mem_pool pool;
	char *recent[RECENT];
};

struct scan_state {
	struct ms_msg *msgs[2];
	size_t nr[2], alloc[2];
	struct scan_strings strings[2];
	struct strbuf notes[2];
	size_t bad[2];
};

/* s in the pool (shared with an equal recent one); NULL stays NULL. */
static char *keep(struct scan_strings *ss, const char *s)
{
	unsigned h = 2166136261u;
	const char *p;
	char **slot;

	if (!s)
		return NULL;
	for (p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	slot = &ss->recent[h % RECENT];
	if (!*slot || strcmp(*slot, s))
		*slot = mem_pool_strdup(&ss->pool, s);
	return *slot;
}

static char *keep_lower(struct scan_strings *ss, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *r;
	size_t i;

	strbuf_addstr(&sb, s ? s : "");
	for (i = 0; i < sb.len; i++)
		sb.buf[i] = (char)tolower((unsigned char)sb.buf[i]);
	r = keep(ss, sb.buf);
	strbuf_release(&sb);
	return r;
}

/* The root and the nearest parents are all that is used. */
static void keep_refs(struct scan_strings *ss, struct ms_msg *m,
		      const struct mail_header *h)
{
	size_t n = h->nr_references, k;

	if (!n)
		return;
	m->nr_refs = n > 4 ? 4 : n;
	m->refs = mem_pool_alloc(&ss->pool, m->nr_refs * sizeof(*m->refs));
	m->refs[0] = keep(ss, h->references[0]);
	for (k = 1; k < m->nr_refs; k++)
		m->refs[k] = keep(ss, h->references[n - m->nr_refs + k]);
}

/* The tags into the pool; the title is most often the subject's end. */
static void keep_tags(struct scan_strings *ss, struct ms_msg *m)
{
	struct subject t;
	size_t ls = strlen(m->subject), lt;

	subject_init(&t);
	subject_parse(&t, m->subject);
	m->tags = t;
	lt = strlen(t.title);
	if (lt <= ls && !strcmp(m->subject + ls - lt, t.title))
		m->tags.title = m->subject + ls - lt;
	else
		m->tags.title = keep(ss, t.title);
	m->tags.prefix = keep(ss, t.prefix);
	subject_release(&t);
}

/* One message's headers into an ms_msg; runs in two threads at once. */
static int scan_one(const struct mail_source_msg *sm, int part, void *data)
{
	struct scan_state *st = data;
	struct scan_strings *ss = &st->strings[part];
	struct mail_header h;
	struct mail_where where = { sm->path, sm->number };
	struct ms_msg *m;

	ALLOC_GROW(st->msgs[part], st->nr[part], st->alloc[part]);
	m = &st->msgs[part][st->nr[part]++];
	memset(m, 0, sizeof(*m));
	m->number = sm->number;
	m->version = m->patch_of = -1;
	subject_init(&m->tags);
	mail_header_init(&h);
	if (mail_header_scan(&h, sm->data, sm->len, &where) < 0) {
		strbuf_addf(&st->notes[part], "skipped: %s\n", error_last());
		error_clear();
		mail_header_release(&h);
		m->bad = 1;
		m->msgid = keep(ss, "");
		st->bad[part]++;
		return 0;
	}
	if (h.message_id && *h.message_id)
		m->msgid = keep(ss, h.message_id);
	else
		m->missing_id = 1;	/* named once numbers are final */
	keep_refs(ss, m, &h);
	m->irt = keep(ss, h.in_reply_to);
	m->subject = keep(ss, h.subject ? h.subject : "");
	m->from_name = keep(ss, h.from.name);
	m->from_addr = keep_lower(ss, h.from.addr);
	m->date = h.date_valid ? h.date : 0;
	m->tz = h.date_valid ? h.date_tz : 0;
	mail_header_release(&h);
	/* only a subject with a tag can be a patch: the rest need no parse */
	if (strchr(m->subject, '[')) {
		keep_tags(ss, m);
		if (m->tags.out_of_range)
			strbuf_addf(&st->notes[part], "message %zu <%s>: a "
				    "version above v%d or a counter above "
				    "%d/%d in \"%s\" is not read as a tag\n",
				    sm->number, m->msgid ? m->msgid : "",
				    SUBJECT_MAX_VERSION, SUBJECT_MAX_TOTAL,
				    SUBJECT_MAX_TOTAL, m->subject);
	} else
		m->tags.is_reply = !strncasecmp(m->subject, "re:", 3);
	return 0;
}

/* Names a message without a Message-ID; puts message i in by_id. */
static void msg_index(struct mailset *ms, size_t i)
{
	struct ms_msg *m = &ms->msgs[i];
	size_t first;

	if (m->missing_id) {
		struct strbuf id = STRBUF_INIT;

		strbuf_addf(&id, "respin-no-message-id-%zu", m->number);
		m->msgid = mem_pool_strdup(&ms->strings, id.buf);
		strbuf_release(&id);
	}
	/* a message delivered twice: the first copy counts */
	if (m->bad)
		return;
	if (strmap_get(&ms->by_id, m->msgid, &first))
		m->bad = 1;
	else
		strmap_put(&ms->by_id, m->msgid, i);
}

int mailset_scan(struct mailset *ms)
{
	struct scan_state *st = xcalloc(1, sizeof(*st));
	size_t n0, k, i, first = ms->nr_msgs;
	int r;

	strbuf_init(&st->notes[0], 0);
	strbuf_init(&st->notes[1], 0);
	/* GMime decodes encoded words in both threads: set it up first */
	mail_gmime_init();
	r = mail_source_scan(ms->src, scan_one, st, &n0);
	mem_pool_move(&ms->strings, &st->strings[0].pool);
	mem_pool_move(&ms->strings, &st->strings[1].pool);
	for (i = 0; i < st->nr[1]; i++)
		st->msgs[1][i].number += n0;
	if (!ms->msgs) {
		/* the first part's array grows into the whole: no copy of it */
		ms->msgs = st->msgs[0];
		ms->nr_msgs = st->nr[0];
		st->msgs[0] = NULL;
		st->nr[0] = 0;
	}
	/* one array of the exact size: the peak is the scan's */
	ms->alloc_msgs = ms->nr_msgs + st->nr[0] + st->nr[1] + 1;
	ms->msgs = xrealloc(ms->msgs, ms->alloc_msgs * sizeof(*ms->msgs));
	for (k = 0; k < 2; k++) {
		if (st->nr[k])
			memcpy(ms->msgs + ms->nr_msgs, st->msgs[k],
			       st->nr[k] * sizeof(*ms->msgs));
		ms->nr_msgs += st->nr[k];
		free(st->msgs[k]);
		strbuf_add(&ms->notes, st->notes[k].buf, st->notes[k].len);
		strbuf_release(&st->notes[k]);
		ms->nr_bad += st->bad[k];
	}
	free(st);
	for (i = first; i < ms->nr_msgs; i++)
		msg_index(ms, i);
	return r < 0 ? r : 0;
}

long mailset_find(const struct mailset *ms, const char *msgid)
{
	struct strbuf id = STRBUF_INIT;
	size_t v;
	int found;

	while (*msgid == ' ' || *msgid == '<')
		msgid++;
	strbuf_addstr(&id, msgid);
	while (id.len && (id.buf[id.len - 1] == '>' || id.buf[id.len - 1] == ' '))
		strbuf_setlen(&id, id.len - 1);
	found = strmap_get(&ms->by_id, id.buf, &v);
	strbuf_release(&id);
	return found ? (long)v : -1;
}

int mailset_raw(struct mailset *ms, long msg, struct strbuf *out)
{
	return mail_source_get(ms->src, ms->msgs[msg].number, out);
}

/* ---- grouping into versions ---- */

static long version_new(struct mailset *ms, const struct ms_msg *m,
			const char *key)
{
	struct ms_version *v;
	long i;

	ALLOC_GROW(ms->versions, ms->nr_versions, ms->alloc_versions);
	v = &ms->versions[ms->nr_versions];
	memset(v, 0, sizeof(*v));
	v->number = m->tags.version;
	v->total = m->tags.total > 0 ? m->tags.total : 1;
	if (v->total > 999)
		v->total = 999;
	v->cover = -1;
	v->series = -1;
	v->superseded_by = -1;
	v->rfc = m->tags.is_rfc;
	v->patches = xcalloc((size_t)v->total, sizeof(*v->patches));
	for (i = 0; i < v->total; i++)
		v->patches[i].msg = -1;
	v->key = xstrdup(key);
	v->from_addr = xstrdup(m->from_addr);
	v->date = m->date;
	v->cover_part.msg = -1;
	return (long)ms->nr_versions++;
}

/* Puts message mi into version vi; a second copy of a slot: newest wins. */
static void version_put(struct mailset *ms, long vi, long mi)
{
	struct ms_version *v = &ms->versions[vi];
	struct ms_msg *m = &ms->msgs[mi];
	long *slot;

	if (m->kind == MS_COVER)
		slot = &v->cover;
	else if (m->tags.index >= 1 && m->tags.index <= v->total)
		slot = &v->patches[m->tags.index - 1].msg;
	else
		return;
	if (*slot >= 0) {
		struct ms_msg *old = &ms->msgs[*slot];
		int newer = m->date >= old->date;

		strbuf_addf(&ms->notes, "%d/%d of v%d was sent twice (<%s> "
			    "and <%s>); using the newer <%s>\n",
			    m->tags.index, v->total, v->number, old->msgid,
			    m->msgid, newer ? m->msgid : old->msgid);
		if (!newer)
			return;
		old->version = -1;
	}
	*slot = mi;
	m->version = vi;
	if (m->date && (!v->date || m->date < v->date))
		v->date = m->date;
}

/* A cover among the message's parents with the same version and total. */
static long cover_parent(struct mailset *ms, const struct ms_msg *m)
{
	size_t k;
	long p;

	if (m->irt) {
		p = mailset_find(ms, m->irt);
		if (p >= 0 && ms->msgs[p].kind == MS_COVER &&
		    ms->msgs[p].tags.version == m->tags.version &&
		    ms->msgs[p].tags.total == m->tags.total)
			return p;
	}
	for (k = m->nr_refs; k-- > 0;) {
		p = mailset_find(ms, m->refs[k]);
		if (p >= 0 && ms->msgs[p].kind == MS_COVER &&
		    ms->msgs[p].tags.version == m->tags.version &&
		    ms->msgs[p].tags.total == m->tags.total)
			return p;
	}
	return -1;
}

static void classify(struct mailset *ms)
{
	size_t i;

	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];

		if (m->bad)
			m->kind = MS_OTHER;
		else if (m->tags.is_patch && !m->tags.is_reply)
			m->kind = m->tags.is_cover ? MS_COVER : MS_PATCH;
		else if (m->irt || m->nr_refs || m->tags.is_reply)
			m->kind = MS_REPLY;
		else
			m->kind = MS_OTHER;
	}
	/*
	 * A message in reply to a patch with that patch's own tags (a build
	 * bot answering "[PATCH 1/2] x" under the same subject, without
	 * "Re:") is a reply, not the patch sent again.
	 */
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		const struct ms_msg *q;
		long p;

		if (m->kind != MS_PATCH || !m->irt)
			continue;
		p = mailset_find(ms, m->irt);
		if (p < 0 || (size_t)p == i)
			continue;
		q = &ms->msgs[p];
		if (!q->bad && q->tags.is_patch && !q->tags.is_reply &&
		    q->tags.version == m->tags.version &&
		    q->tags.index == m->tags.index &&
		    q->tags.total == m->tags.total &&
		    q->tags.title && m->tags.title &&
		    !strcmp(q->tags.title, m->tags.title))
			m->kind = MS_REPLY;
	}
}

static void make_versions(struct mailset *ms)
{
	struct strmap keys = STRMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	size_t i, vi;

	/* covers first: each opens a version under its own Message-ID */
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];

		if (m->kind != MS_COVER)
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "cover %s", m->msgid);
		vi = (size_t)version_new(ms, m, key.buf);
		strmap_put(&keys, ms->versions[vi].key, vi);
		version_put(ms, (long)vi, (long)i);
	}
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		long c;

		if (m->kind != MS_PATCH)
			continue;
		strbuf_reset(&key);
		c = cover_parent(ms, m);
		if (c >= 0) {
			strbuf_addf(&key, "cover %s", ms->msgs[c].msgid);
		} else if (m->irt || m->nr_refs) {
			/* threaded under 1/N or under an earlier version */
			strbuf_addf(&key, "thread %s v%d/%d%s",
				    m->nr_refs ? m->refs[0] : m->irt,
				    m->tags.version, m->tags.total,
				    m->tags.is_rfc ? " rfc" : "");
		} else if (m->tags.index == 1 || m->tags.total <= 1) {
			strbuf_addf(&key, "thread %s v%d/%d%s", m->msgid,
				    m->tags.version, m->tags.total,
				    m->tags.is_rfc ? " rfc" : "");
		} else {
			/* not threaded at all: by author, version, count */
			strbuf_addf(&key, "loose %s v%d/%d", m->from_addr,
				    m->tags.version, m->tags.total);
		}
		if (!strmap_get(&keys, key.buf, &vi)) {
			vi = (size_t)version_new(ms, m, key.buf);
			strmap_put(&keys, ms->versions[vi].key, vi);
		}
		version_put(ms, (long)vi, (long)i);
	}
	/* 2/N threaded under 1/N: join 1/N's version */
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		const char *root;
		long p;

		if (strncmp(v->key, "thread ", 7) || v->cover >= 0)
			continue;
		root = v->key + 7;
		strbuf_reset(&key);
		strbuf_add(&key, root, strcspn(root, " "));
		p = mailset_find(ms, key.buf);
		if (p < 0 || ms->msgs[p].version < 0 ||
		    ms->msgs[p].version == (long)i ||
		    ms->msgs[p].kind != MS_PATCH)
			continue;
		{
			long into = ms->msgs[p].version;
			struct ms_version *w = &ms->versions[into];
			long k;

			if (w->number != v->number || w->total != v->total)
				continue;
			for (k = 0; k < v->total; k++)
				if (v->patches[k].msg >= 0)
					version_put(ms, into, v->patches[k].msg);
			for (k = 0; k < v->total; k++)
				v->patches[k].msg = -1;
		}
	}
	strmap_release(&keys);
	strbuf_release(&key);
}

static int version_empty(const struct ms_version *v)
{
	long k;

	if (v->cover >= 0)
		return 0;
	for (k = 0; k < v->total; k++)
		if (v->patches[k].msg >= 0)
			return 0;
	return 1;
}

static void attach_replies(struct mailset *ms)
{
	size_t i;

	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		long p = -1;
		int steps;

		if (m->kind != MS_REPLY)
			continue;
		/* walk up the In-Reply-To chain to a patch or cover */
		p = m->irt ? mailset_find(ms, m->irt) : -1;
		for (steps = 0; p >= 0 && steps < 64; steps++) {
			struct ms_msg *q = &ms->msgs[p];

			if ((q->kind == MS_PATCH || q->kind == MS_COVER) &&
			    q->version >= 0)
				break;
			p = q->irt ? mailset_find(ms, q->irt) : -1;
		}
		if (p < 0 || steps == 64) {
			size_t k;

			p = -1;
			for (k = m->nr_refs; k-- > 0 && p < 0;) {
				long q = mailset_find(ms, m->refs[k]);

				if (q >= 0 && (ms->msgs[q].kind == MS_PATCH ||
					       ms->msgs[q].kind == MS_COVER) &&
				    ms->msgs[q].version >= 0)
					p = q;
			}
		}
		m->patch_of = p;
		if (p >= 0)
			ms->versions[ms->msgs[p].version].nr_replies++;
	}
}

/* ---- linking versions into series ---- */

static long uf_find(long *parent, long x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void uf_union(long *parent, long a, long b)
{
	a = uf_find(parent, a);
	b = uf_find(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

static long version_head(const struct ms_version *v)
{
	long k;

	if (v->cover >= 0)
		return v->cover;
	for (k = 0; k < v->total; k++)
		if (v->patches[k].msg >= 0)
			return v->patches[k].msg;
	return -1;
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

/* Message-IDs named in URLs (Link: lines, "Link to v1: ...", lore). */
static void link_urls(struct mailset *ms, long *parent, long vi,
		      const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct strbuf id = STRBUF_INIT;

	while ((p = memmem(p, (size_t)(end - p), "://", 3))) {
		const char *u = p + 3, *ue = u;

		while (ue < end && !isspace((unsigned char)*ue) && *ue != '>' &&
		       *ue != '"' && *ue != ')')
			ue++;
		p = ue;
		/* the path segment holding '@' is the Message-ID */
		{
			const char *seg = u, *s;

			for (s = u; s <= ue; s++) {
				if (s < ue && *s != '/')
					continue;
				if (memchr(seg, '@', (size_t)(s - seg))) {
					long m;

					strbuf_reset(&id);
					strbuf_add(&id, seg, (size_t)(s - seg));
					m = mailset_find(ms, id.buf);
					if (m >= 0 && ms->msgs[m].version >= 0 &&
					    ms->msgs[m].version != vi &&
					    !strcmp(ms->msgs[m].from_addr,
						    ms->versions[vi].from_addr))
						uf_union(parent, vi,
							 ms->msgs[m].version);
					break;
				}
				seg = s + 1;
			}
		}
	}
	strbuf_release(&id);
}

static char *norm_title(const char *t)
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

static void link_versions(struct mailset *ms, long *parent,
			  const char *focus_addr)
{
	struct strmap by_key = STRMAP_INIT;
	char **keys = xcalloc(ms->nr_versions * 2 + 1, sizeof(*keys));
	size_t nkeys = 0, i;
	struct strbuf raw = STRBUF_INIT, key = STRBUF_INIT;

	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long head = version_head(v), k;
		struct ms_msg *h;
		size_t other;

		if (head < 0)
			continue;
		h = &ms->msgs[head];
		/* title and change-id from the cover, else patch 1 */
		free(v->title);
		v->title = xstrdup(h->tags.title ? h->tags.title : "");
		strbuf_reset(&raw);
		if (focus_addr && strcmp(focus_addr, v->from_addr)) {
			/* not the author asked about: subject links only */
		} else if (!mailset_raw(ms, head, &raw)) {
			v->change_id = find_change_id(raw.buf, raw.len);
			link_urls(ms, parent, (long)i, raw.buf, raw.len);
		} else {
			error_clear();
		}
		if (v->change_id) {
			strbuf_reset(&key);
			strbuf_addf(&key, "change-id %s", v->change_id);
			if (strmap_get(&by_key, key.buf, &other))
				uf_union(parent, (long)i, (long)other);
			else {
				keys[nkeys] = strbuf_detach(&key, NULL);
				strmap_put(&by_key, keys[nkeys++], i);
			}
		}
		/* sent in reply to an earlier version */
		for (k = -1; k < (long)h->nr_refs; k++) {
			const char *id = k < 0 ? h->irt : h->refs[k];
			long m = id ? mailset_find(ms, id) : -1;

			if (m >= 0 && ms->msgs[m].version >= 0 &&
			    ms->msgs[m].version != (long)i &&
			    !strcmp(ms->msgs[m].from_addr, v->from_addr))
				uf_union(parent, (long)i, ms->msgs[m].version);
		}
		/* the same title from the same author */
		{
			char *t = norm_title(v->title);

			strbuf_reset(&key);
			strbuf_addf(&key, "title %s %s", v->from_addr, t);
			free(t);
			if (strmap_get(&by_key, key.buf, &other))
				uf_union(parent, (long)i, (long)other);
			else {
				keys[nkeys] = strbuf_detach(&key, NULL);
				strmap_put(&by_key, keys[nkeys++], i);
			}
		}
	}
	/* a patch subject shared by two versions of one author */
	{
		struct strmap by_patch = STRMAP_INIT;
		char **pkeys = NULL;
		size_t np = 0, ap = 0;

		for (i = 0; i < ms->nr_versions; i++) {
			struct ms_version *v = &ms->versions[i];
			long k;

			if (v->total < 2)
				continue;
			for (k = 0; k < v->total; k++) {
				struct ms_msg *m;
				size_t other;
				char *t;

				if (v->patches[k].msg < 0)
					continue;
				m = &ms->msgs[v->patches[k].msg];
				t = norm_title(m->tags.title);
				strbuf_reset(&key);
				strbuf_addf(&key, "%s %s", v->from_addr, t);
				free(t);
				if (strmap_get(&by_patch, key.buf, &other)) {
					uf_union(parent, (long)i, (long)other);
					continue;
				}
				ALLOC_GROW(pkeys, np, ap);
				pkeys[np] = strbuf_detach(&key, NULL);
				strmap_put(&by_patch, pkeys[np++], i);
			}
		}
		for (i = 0; i < np; i++)
			free(pkeys[i]);
		free(pkeys);
		strmap_release(&by_patch);
	}
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	strmap_release(&by_key);
	strbuf_release(&raw);
	strbuf_release(&key);
}

static void link_patch_ids(struct mailset *ms, long *parent)
{
	struct strmap by_id = STRMAP_INIT;
	char **keys = NULL;
	size_t nk = 0, ak = 0, i;

	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long k;

		if (mailset_load(ms, (long)i) < 0) {
			strbuf_addf(&ms->notes, "skipped: %s\n", error_last());
			error_clear();
			continue;
		}
		for (k = 0; k < v->total; k++) {
			char hex[GIT_OID_HEXSZ + 1];
			size_t other;

			if (!v->patches[k].d->has_patch_id)
				continue;
			git_oid_tostr(hex, sizeof(hex),
				      &v->patches[k].d->patch_id);
			if (strmap_get(&by_id, hex, &other)) {
				uf_union(parent, (long)i, (long)other);
				continue;
			}
			ALLOC_GROW(keys, nk, ak);
			keys[nk] = xstrdup(hex);
			strmap_put(&by_id, keys[nk++], i);
		}
	}
	for (i = 0; i < nk; i++)
		free(keys[i]);
	free(keys);
	strmap_release(&by_id);
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

static void make_series(struct mailset *ms, long *parent)
{
	long *series_of_root = xmalloc((ms->nr_versions + 1) * sizeof(long));
	size_t i;

	for (i = 0; i < ms->nr_versions; i++)
		series_of_root[i] = -1;
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];
		long root = uf_find(parent, (long)i), si;
		struct ms_series *s;
		size_t k;

		if (version_empty(v))
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

				strbuf_addf(&ms->notes, "v%d of \"%s\" was sent "
					    "more than once (<%s>, then <%s>); "
					    "using the newer\n", v->number,
					    v->title,
					    ms->msgs[version_head(old)].msgid,
					    ms->msgs[version_head(v)].msgid);
				old->superseded_by = s->versions[k];
				s->versions[n - 1] = s->versions[k];
				continue;
			}
			s->versions[n++] = s->versions[k];
		}
		s->nr = n;
		s->title = xstrdup(ms->versions[s->versions[n - 1]].title);
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
				strbuf_addf(&ms->notes, "v%d of \"%s\" is missing "
					    "patch%s %s/%d\n", v->number, v->title,
					    nmiss > 1 ? "es" : "", gaps.buf,
					    v->total);
			strbuf_release(&gaps);
		}
	}
	free(series_of_root);
}

int mailset_group(struct mailset *ms, unsigned flags, const char *focus)
{
	const char *focus_addr = NULL;
	long *parent;
	size_t i;

	classify(ms);
	make_versions(ms);
	attach_replies(ms);
	if (focus) {
		long m = mailset_find(ms, focus);

		if (m >= 0 && ms->msgs[m].kind == MS_REPLY)
			m = ms->msgs[m].patch_of;
		if (m >= 0)
			focus_addr = ms->msgs[m].from_addr;
	}
	parent = xmalloc((ms->nr_versions + 1) * sizeof(*parent));
	for (i = 0; i < ms->nr_versions; i++)
		parent[i] = (long)i;
	link_versions(ms, parent, focus_addr);
	if (flags & MAILSET_PATCH_IDS)
		link_patch_ids(ms, parent);
	make_series(ms, parent);
	free(parent);
	return 0;
}

long mailset_series_of(const struct mailset *ms, long msg)
{
	const struct ms_msg *m;
	long v;

	if (msg < 0)
		return -1;
	m = &ms->msgs[msg];
	if (m->kind == MS_REPLY)
		m = m->patch_of >= 0 ? &ms->msgs[m->patch_of] : NULL;
	if (!m || m->version < 0)
		return -1;
	v = m->version;
	while (ms->versions[v].superseded_by >= 0)
		v = ms->versions[v].superseded_by;
	return ms->versions[v].series;
}

/* ---- full parse of one version ---- */

static int load_part(struct mailset *ms, struct ms_patch *p, int want_diff)
{
	struct strbuf raw = STRBUF_INIT, what = STRBUF_INIT;
	struct mail_body b;
	struct mail_where where;
	struct ms_msg *m = &ms->msgs[p->msg];
	struct ms_detail *d = p->d;
	int r;

	where.path = mail_source_name(ms->src);
	where.number = m->number;
	mail_body_init(&b);
	r = mailset_raw(ms, p->msg, &raw);
	if (!r)
		r = mail_body_parse(&b, raw.buf, raw.len, &where);
	if (r < 0)
		goto out;
	strbuf_reset(&d->body);
	strbuf_add(&d->body, b.text, b.len);
	mail_describe(&what, m->msgid, &where);
	patchmail_release(&d->pm);
	patchmail_init(&d->pm);
	r = patchmail_split(&d->pm, d->body.buf, d->body.len, what.buf);
	if (r < 0)
		goto out;
	if (want_diff && d->pm.diff.p) {
		git_diff *diff = NULL;

		if (git_diff_from_buffer(&diff, d->pm.diff.p,
					 d->pm.diff.len) < 0 ||
		    git_diff_patchid(&d->patch_id, diff, NULL) < 0) {
			r = error_git("cannot read the diff in %s", what.buf);
			git_diff_free(diff);
			goto out;
		}
		git_diff_free(diff);
		d->has_patch_id = 1;
	}
out:
	mail_body_release(&b);
	strbuf_release(&raw);
	strbuf_release(&what);
	return r;
}

static int load_reply(struct mailset *ms, long mi, struct ms_detail *into)
{
	struct strbuf raw = STRBUF_INIT;
	struct mail_body b;
	struct mail_where where = { mail_source_name(ms->src),
				    ms->msgs[mi].number };
	int r;

	ALLOC_GROW(into->replies, into->nr_replies, into->alloc_replies);
	into->replies[into->nr_replies++] = mi;
	mail_body_init(&b);
	r = mailset_raw(ms, mi, &raw);
	if (!r)
		r = mail_body_parse(&b, raw.buf, raw.len, &where);
	if (!r)
		patchmail_reply_trailers(&into->reply_trailers, b.text, b.len);
	mail_body_release(&b);
	strbuf_release(&raw);
	return r;
}

static struct ms_detail *detail_new(void)
{
	struct ms_detail *d = xcalloc(1, sizeof(*d));

	strbuf_init(&d->body, 0);
	patchmail_init(&d->pm);
	trailer_list_init(&d->reply_trailers);
	return d;
}

int mailset_load(struct mailset *ms, long vi)
{
	struct ms_version *v = &ms->versions[vi];
	size_t i;
	long k;
	int r;

	if (v->loaded)
		return 0;
	v->loaded = 1;
	for (k = 0; k < v->total; k++) {
		struct ms_patch *p = &v->patches[k];

		p->d = detail_new();
		if (p->msg >= 0 && load_part(ms, p, 1) < 0) {
			/* keep going: the listing notes it, import refuses */
			strbuf_addf(&ms->notes, "unreadable: %s\n",
				    error_last());
			p->d->unreadable = xstrdup(error_last());
			error_clear();
			p->d->pm.diff.p = NULL;
			p->d->has_patch_id = 0;
		}
	}
	v->cover_part.d = detail_new();
	v->cover_part.msg = v->cover;
	if (v->cover >= 0 && load_part(ms, &v->cover_part, 0) < 0) {
		strbuf_addf(&ms->notes, "unreadable: %s\n", error_last());
		error_clear();
	}
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		struct ms_msg *target;

		if (m->kind != MS_REPLY || m->patch_of < 0)
			continue;
		target = &ms->msgs[m->patch_of];
		if (target->version != vi)
			continue;
		if (target->kind == MS_COVER)
			r = load_reply(ms, (long)i, v->cover_part.d);
		else
			r = load_reply(ms, (long)i,
				       v->patches[target->tags.index - 1].d);
		if (r < 0) {
			strbuf_addf(&ms->notes, "skipped reply: %s\n",
				    error_last());
			error_clear();
		}
	}
	return 0;
}
