// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/mailset.h"
#include "patches/mail.h"
#include "tools/lib/config.h"
#include "tools/lib/error.h"
#include "tools/lib/lore.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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
}

/* A note about message msg and versions v, other (each -1 for none). */
static void note_add(struct mailset *ms, long msg, long v, long other,
		     const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void note_add(struct mailset *ms, long msg, long v, long other,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct ms_note *n;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(ms->notes, ms->nr_notes, ms->alloc_notes);
	n = &ms->notes[ms->nr_notes++];
	n->text = strbuf_detach(&sb, NULL);
	n->msg = msg;
	n->version = v;
	n->other = other;
}

static long series_of_version(const struct mailset *ms, long v)
{
	if (v < 0 || (size_t)v >= ms->nr_versions)
		return -1;
	while (ms->versions[v].superseded_by >= 0)
		v = ms->versions[v].superseded_by;
	return ms->versions[v].series;
}

int mailset_note_about(const struct mailset *ms, size_t n, long si)
{
	const struct ms_note *note = &ms->notes[n];

	if (si < 0)
		return 1;
	return series_of_version(ms, note->version) == si ||
	       series_of_version(ms, note->other) == si ||
	       (note->msg >= 0 && mailset_series_of(ms, note->msg) == si);
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
	bot_report_list_release(&d->bot_reports);
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
	for (i = 0; i < ms->nr_notes; i++)
		free(ms->notes[i].text);
	free(ms->notes);
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
	struct ms_note *notes[2];	/* msg: the index in its part */
	size_t nr_notes[2], alloc_notes[2];
	size_t bad[2];
};

/* A note about the message a scan thread is on. */
static void scan_note(struct scan_state *st, int part, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void scan_note(struct scan_state *st, int part, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct ms_note *n;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(st->notes[part], st->nr_notes[part], st->alloc_notes[part]);
	n = &st->notes[part][st->nr_notes[part]++];
	n->text = strbuf_detach(&sb, NULL);
	n->msg = (long)st->nr[part] - 1;
	n->version = n->other = -1;
}

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
		scan_note(st, part, "skipped: %s", error_last());
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
	m->cut = sm->truncated;
	/* only a subject with a tag can be a patch: the rest need no parse */
	if (strchr(m->subject, '['))
		keep_tags(ss, m);
	else
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
	if (!strmap_get(&ms->by_id, m->msgid, &first)) {
		strmap_put(&ms->by_id, m->msgid, i);
		return;
	}
	m->bad = 1;
	if (strcmp(m->subject, ms->msgs[first].subject))
		note_add(ms, (long)first, -1, -1, "message %zu (\"%s\") has "
			 "the Message-ID <%s> of message %zu (\"%s\"); "
			 "skipped", m->number, m->subject, m->msgid,
			 ms->msgs[first].number, ms->msgs[first].subject);
}

/*
 * What the scan saw in a message, noted once its number is final (the
 * second half of a large mbox is numbered from its own start at first).
 */
static void scan_notes(struct mailset *ms, const struct ms_msg *m)
{
	long mi = (long)(m - ms->msgs);

	if (m->tags.out_of_range)
		note_add(ms, mi, -1, -1, "message %zu <%s>: a version or a "
			 "counter out of range (v1-v%d; i/N with i <= N <= %d) "
			 "in \"%s\" is not read as a tag", m->number, m->msgid,
			 SUBJECT_MAX_VERSION, SUBJECT_MAX_TOTAL, m->subject);
	if (m->cut)
		note_add(ms, mi, -1, -1, "message %zu <%s> in %s ends in the "
			 "middle of a line: the mail looks cut off there",
			 m->number, m->msgid, mail_source_name(ms->src));
}

int mailset_scan(struct mailset *ms)
{
	struct scan_state *st = xcalloc(1, sizeof(*st));
	size_t n0, k, i, first = ms->nr_msgs, base[2];
	int r;

	/* GMime decodes encoded words in both threads: set it up first */
	mail_gmime_init();
	r = mail_source_scan(ms->src, scan_one, st, &n0);
	mem_pool_move(&ms->strings, &st->strings[0].pool);
	mem_pool_move(&ms->strings, &st->strings[1].pool);
	for (i = 0; i < st->nr[1]; i++)
		st->msgs[1][i].number += n0;
	base[0] = first;
	base[1] = first + st->nr[0];
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
		for (i = 0; i < st->nr_notes[k]; i++) {
			struct ms_note *n = &st->notes[k][i];

			ALLOC_GROW(ms->notes, ms->nr_notes, ms->alloc_notes);
			n->msg += (long)base[k];
			ms->notes[ms->nr_notes++] = *n;
		}
		free(st->notes[k]);
		ms->nr_bad += st->bad[k];
	}
	free(st);
	for (i = first; i < ms->nr_msgs; i++) {
		msg_index(ms, i);
		scan_notes(ms, &ms->msgs[i]);
	}
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

		note_add(ms, newer ? mi : *slot, vi, -1, "%d/%d of v%d was "
			 "sent twice (<%s> and <%s>); using the newer <%s>",
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
/* The cover m answers directly when it has the same version and total. */
static long direct_cover(struct mailset *ms, const struct ms_msg *m)
{
	long p = m->irt ? mailset_find(ms, m->irt) : -1;

	if (p >= 0 && ms->msgs[p].kind == MS_COVER &&
	    ms->msgs[p].tags.total == m->tags.total &&
	    ms->msgs[p].tags.version == m->tags.version)
		return p;
	return -1;
}

/*
 * A cover "[PATCH 0/5]" whose patches say "[PATCH v3 1/5]" (the cover
 * forgot its version), or "[PATCH v3 0/5]" with patches "[PATCH 1/5]"
 * (the patches forgot it).  Only when no patch of the cover's own
 * version answers it: a v2 without a cover sent in reply to v1's cover
 * is not v1.
 */
static long untagged_cover(struct mailset *ms, const struct ms_msg *m)
{
	long p = m->irt ? mailset_find(ms, m->irt) : -1;
	const struct ms_msg *c;

	if (p < 0)
		return -1;
	c = &ms->msgs[p];
	if (c->kind != MS_COVER || c->version < 0 ||
	    c->tags.has_version == m->tags.has_version ||
	    c->tags.total != m->tags.total ||
	    ms->versions[c->version].has_own_patches)
		return -1;
	return p;
}

static long cover_parent(struct mailset *ms, const struct ms_msg *m)
{
	size_t k;
	long p;

	p = direct_cover(ms, m);
	if (p < 0)
		p = untagged_cover(ms, m);
	if (p >= 0)
		return p;
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
		long c = ms->msgs[i].kind == MS_PATCH ?
			 direct_cover(ms, &ms->msgs[i]) : -1;

		if (c >= 0 && ms->msgs[c].version >= 0)
			ms->versions[ms->msgs[c].version].has_own_patches = 1;
	}
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		long c;

		if (m->kind != MS_PATCH)
			continue;
		strbuf_reset(&key);
		c = cover_parent(ms, m);
		if (c >= 0) {
			/* the version of a cover that forgot it */
			if (!ms->msgs[c].tags.has_version)
				ms->versions[ms->msgs[c].version].number =
					m->tags.version;
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

/*
 * What says that two versions are one series.  A change-id is the
 * author's word.  The others are checked against every version already
 * linked on either side (link_pair_ok()): one series has one version of
 * each number (a resend aside), numbered in the order of their dates,
 * and (title, overlap) for one stable tree.  Titles are linked before
 * references, and overlap last.
 */
enum link_kind {
	LINK_CHANGE_ID,
	LINK_REFERENCE,	/* a Link: or In-Reply-To to another version */
	LINK_TITLE,	/* the same cover (or patch 1) title, one author */
	LINK_OVERLAP,	/* enough patches in common, one author */
};

enum link_refusal {
	REFUSED_NONE,
	REFUSED_FEW,	/* too few patches in common */
	REFUSED_ORDER,	/* a lower version number dated after a higher */
	REFUSED_NUMBER,	/* one number, two different sets of patches */
	REFUSED_TREE,	/* backports to two stable trees */
};

/* Two versions of one author kept apart although something tied them. */
struct link_apart {
	long a, b;		/* the versions */
	long x, y;		/* the two that disagree, or -1 */
	int common;		/* patches of a also in b */
	enum link_kind kind;
	enum link_refusal why;
};

struct linker {
	long *parent;		/* union-find over the versions */
	long *next;		/* the versions of each group, as a ring */
	char **title;		/* normalised titles; NULL: no head */
	struct link_apart *apart;
	size_t nr_apart, alloc_apart;
	struct { long from, to; } *refs;	/* references, linked last */
	size_t nr_refs, alloc_refs;
};

/* Version `from` refers to version `to` (a Link:, an In-Reply-To). */
static void add_ref(struct linker *lk, long from, long to)
{
	ALLOC_GROW(lk->refs, lk->nr_refs, lk->alloc_refs);
	lk->refs[lk->nr_refs].from = from;
	lk->refs[lk->nr_refs++].to = to;
}

/* A lower number dated this much after a higher one is still in order. */
#define LINK_DATE_SLACK (24 * 60 * 60)

static long uf_find(long *parent, long x)
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
	long ra = uf_find(lk->parent, a), rb = uf_find(lk->parent, b), t;

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

static long count_present(const struct ms_version *v)
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
		/*
		 * a resend: the same title, all the same patches, or as
		 * many patches again within two days; or a cover alone,
		 * its patches (another total) elsewhere
		 */
		if (direct_full || !count_present(vx) || !count_present(vy) ||
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

static void link_note_apart(struct linker *lk, long a, long b, long x,
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
static int version_link(const struct mailset *ms, struct linker *lk,
			long a, long b, enum link_kind kind, int full,
			int common)
{
	long x = a, y;

	if (uf_find(lk->parent, a) == uf_find(lk->parent, b))
		return 1;
	if (kind != LINK_CHANGE_ID) {
		do {
			y = b;
			do {
				enum link_refusal why = link_pair_ok(ms, lk,
					x, y, kind, full && x == a && y == b);

				if (why) {
					link_note_apart(lk, a, b, x, y, common,
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

/* A version of the same author holding message m, or -1. */
static long same_author_version(const struct mailset *ms, long m, long vi)
{
	long w;

	if (m < 0 || ms->msgs[m].version < 0)
		return -1;
	w = ms->msgs[m].version;
	if (w == vi || strcmp(ms->msgs[m].from_addr,
			      ms->versions[vi].from_addr))
		return -1;
	return w;
}

/* Message-IDs named in URLs (Link: lines, "Link to v1: ...", lore). */
static void link_urls(struct mailset *ms, struct linker *lk, long vi,
		      const char *text, size_t len)
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
			w = same_author_version(ms, mailset_find(ms, id.buf),
						vi);
			if (w >= 0)
				add_ref(lk, vi, w);
			break;
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
	if (version_link(ms, lk, i, best, LINK_TITLE, 0, 0))
		return;
	for (c = prev[i], steps = 0; c >= 0 && steps < 64; c = prev[c]) {
		if (c != best && version_link(ms, lk, i, c, LINK_TITLE, 0, 0))
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

		if (head < 0)
			continue;
		h = &ms->msgs[head];
		/* title and change-id from the cover, else patch 1 */
		free(v->title);
		v->title = xstrdup(h->tags.title ? h->tags.title : "");
		lk->title[i] = norm_title(v->title);
		strbuf_reset(&raw);
		if (focus_addr && strcmp(focus_addr, v->from_addr)) {
			/* not the author asked about: no change-id, no links */
		} else if (!mailset_raw(ms, head, &raw)) {
			v->change_id = find_change_id(raw.buf, raw.len);
			link_urls(ms, lk, i, raw.buf, raw.len);
		} else {
			error_clear();
		}
		if (v->change_id) {
			strbuf_reset(&key);
			strbuf_addf(&key, "change-id %s", v->change_id);
			if (strmap_get(&by_key, key.buf, &other))
				version_link(ms, lk, i, (long)other,
					     LINK_CHANGE_ID, 0, 0);
			else
				strmap_put(&by_key, mem_pool_strdup(&keys,
					   key.buf), (size_t)i);
		}
		/* sent in reply to an earlier version */
		for (k = -1; k < (long)h->nr_refs; k++) {
			const char *id = k < 0 ? h->irt : h->refs[k];
			long w = id ? same_author_version(ms,
					mailset_find(ms, id), i) : -1;

			if (w >= 0)
				add_ref(lk, i, w);
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
	for (n = 0; n < lk->nr_refs; n++)
		version_link(ms, lk, lk->refs[n].from, lk->refs[n].to,
			     LINK_REFERENCE, 0, 0);
	mem_pool_release(&keys);
	strmap_release(&by_key);
	strbuf_release(&raw);
	strbuf_release(&key);
}

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
			t = norm_title(ms->msgs[p->msg].tags.title);
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
static void link_overlap(struct mailset *ms, struct linker *lk,
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
		present[i] = count_present(&ms->versions[i]);
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
			if (uf_find(lk->parent, vi) == uf_find(lk->parent, w))
				continue;
			if (!overlap_enough(m, present[vi], v->total,
					    ms->versions[w].total))
				m = count_common(ms, &o, vi, w, m);
			if (!overlap_enough(m, present[vi], v->total,
					    ms->versions[w].total))
				link_note_apart(lk, vi, w, -1, -1, (int)m,
						LINK_OVERLAP, REFUSED_FEW);
			else
				version_link(ms, lk, vi, w, LINK_OVERLAP,
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
			    ap->common, count_present(a),
			    count_present(a) == 1 ? "" : "es");
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
	note_add(ms, -1, ia, ib, "v%d of \"%s\" <%s> %s v%d of \"%s\" "
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
		long sa = series_of_version(ms, ap->a);
		long sb = series_of_version(ms, ap->b);

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

				note_add(ms, -1, s->versions[n - 1],
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
				note_add(ms, -1, (long)i, -1, "v%d of \"%s\" "
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
			note_add(ms, -1, (long)i, -1, "skipped: %s",
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
	lk.parent = xmalloc((ms->nr_versions + 1) * sizeof(*lk.parent));
	lk.next = xmalloc((ms->nr_versions + 1) * sizeof(*lk.next));
	lk.title = xcalloc(ms->nr_versions + 1, sizeof(*lk.title));
	for (i = 0; i < ms->nr_versions; i++)
		lk.parent[i] = lk.next[i] = (long)i;
	order = versions_by_date(ms);
	link_versions(ms, &lk, order, focus_addr);
	if (flags & MAILSET_PATCH_IDS)
		load_all(ms);
	link_overlap(ms, &lk, order, !!(flags & MAILSET_PATCH_IDS));
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
	/* what was kept as it was (an unknown charset, bad UTF-8) */
	{
		size_t w;

		for (w = 0; w < b.nr_warnings; w++)
			note_add(ms, p->msg, m->version, -1, "%s: %s", what.buf,
				 b.warnings[w]);
	}
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
	if (!r) {
		const struct ms_msg *m = &ms->msgs[mi];
		size_t k = into->bot_reports.nr;

		reply_parse(&into->reply_trailers, &into->bot_reports, b.text,
			    b.len, m->from_name, m->from_addr);
		for (; k < into->bot_reports.nr; k++)
			into->bot_reports.items[k].message_id = m->msgid;
	}
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
	bot_report_list_init(&d->bot_reports);
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
			note_add(ms, p->msg, vi, -1, "unreadable: %s",
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
		note_add(ms, v->cover, vi, -1, "unreadable: %s", error_last());
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
			note_add(ms, (long)i, vi, -1, "skipped reply: %s",
				 error_last());
			error_clear();
		}
	}
	return 0;
}
