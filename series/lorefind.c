// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/lorefind.h"
#include "patches/mbox.h"
#include "tools/lib/config.h"
#include "tools/lib/error.h"
#include "tools/lib/http.h"
#include "tools/lib/limits.h"
#include "tools/lib/lore.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct lore_find_part {
	size_t first, end;	/* its messages' numbers in src: [first, end) */
	enum lore_found how;
	char *detail;		/* the change-ids asked, "v3" for a link */
};

/* What one query may hold: lore.kernel.org takes URLs of 8 KiB. */
#define QUERY_MAX	2000
#define QUERY_TERMS	24
#define TITLE_MAX	160

enum search_kind { Q_CHANGE_ID, Q_SUBJECT, Q_BACKLINK, Q_PATCH_ID, Q_KINDS };

static const enum lore_found kind_found[Q_KINDS] = {
	LORE_FOUND_CHANGE_ID, LORE_FOUND_SUBJECT, LORE_FOUND_BACKLINK,
	LORE_FOUND_PATCH_ID,
};
static const char *const kind_what[Q_KINDS] = {
	"searching by change-id", "searching by subject and author",
	"searching for mail that names the versions",
	"searching by patch-id",
};

struct link {
	char *msgid;		/* in the pool */
	int version;		/* the version that names it */
};

/* One round's requests, built from the versions known. */
struct round {
	struct strbuf query[Q_KINDS];
	size_t terms[Q_KINDS];
	struct strbuf detail;	/* the change-ids asked */
	struct link *links;
	size_t nr_links, alloc_links;
};

struct finder {
	struct lore_find *lf;
	const struct lore_find_options *o;
	const char *focus;
	char *cache_dir;	/* NULL: no cache */
	unsigned flags;
	struct strbuf all;	/* the thread and every answer */
	size_t nr_msgs;		/* messages in all */
	struct strmap asked;	/* keys in pool */
	struct mem_pool pool;
	long long deadline;	/* ms on the monotonic clock; 0: none */
	long timeout_ms;
	unsigned no_search:1, stop:1;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void note(struct finder *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct finder *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&f->lf->notes, fmt, ap);
	va_end(ap);
	strbuf_addch(&f->lf->notes, '\n');
}

/* ---- the mail put together ---- */

static size_t count_msgs(const char *buf, size_t len)
{
	struct mbox *mb;
	struct mbox_msg m;
	size_t n = 0;

	if (mbox_open_buffer(&mb, buf, len, "lore answer", MBOX_AUTO) < 0) {
		error_clear();
		return 0;
	}
	while (mbox_next(mb, &m) > 0)
		n++;
	mbox_free(mb);
	error_clear();
	return n;
}

static void add_part(struct lore_find *lf, size_t first, size_t end,
		     enum lore_found how, const char *detail)
{
	struct lore_find_part *p;

	ALLOC_GROW(lf->parts, lf->nr_parts, lf->alloc_parts);
	p = &lf->parts[lf->nr_parts++];
	p->first = first;
	p->end = end;
	p->how = how;
	p->detail = detail ? xstrdup(detail) : NULL;
}

/*
 * Appends an answer (an mbox) as the next part.  0, or -1 when all the
 * answers together would pass respin.maxMailSize (noted; nothing kept).
 */
static int append(struct finder *f, const struct strbuf *answer,
		  enum lore_found how, const char *detail)
{
	size_t n, max = mail_max_size();

	if (f->all.len + answer->len + 2 > max) {
		note(f, "lore search stopped: its answers together are "
		     "larger than %s (%zu MiB); only the versions found so "
		     "far", MAIL_MAX_SIZE_KEY, max >> 20);
		f->stop = 1;
		return -1;
	}
	n = count_msgs(answer->buf, answer->len);
	if (!n)
		return 0;
	/* a separator line must start a line after a blank one */
	if (f->all.len && f->all.buf[f->all.len - 1] != '\n')
		strbuf_addch(&f->all, '\n');
	if (f->all.len > 1 && f->all.buf[f->all.len - 2] != '\n')
		strbuf_addch(&f->all, '\n');
	strbuf_add(&f->all, answer->buf, answer->len);
	add_part(f->lf, f->nr_msgs + 1, f->nr_msgs + 1 + n, how, detail);
	f->nr_msgs += n;
	return 0;
}

/* ---- what may go into a query ---- */

/* Marks key asked; 1 if it was not asked before. */
static int ask(struct finder *f, const char *kind, const char *value)
{
	struct strbuf key = STRBUF_INIT;
	size_t dummy;
	int fresh;

	strbuf_addf(&key, "%s %s", kind, value);
	fresh = !strmap_get(&f->asked, key.buf, &dummy);
	if (fresh)
		strmap_put(&f->asked, mem_pool_strdup(&f->pool, key.buf), 1);
	strbuf_release(&key);
	return fresh;
}

static int was_asked(struct finder *f, const char *kind, const char *value)
{
	struct strbuf key = STRBUF_INIT;
	size_t dummy;
	int r;

	strbuf_addf(&key, "%s %s", kind, value);
	r = strmap_get(&f->asked, key.buf, &dummy);
	strbuf_release(&key);
	return r;
}

/* Only characters that stand for themselves in a phrase or a term. */
static int plain(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* A Message-ID a URL can carry and a phrase can quote. */
static int msgid_ok(const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	int ok = !strchr(id, '"') && !lore_msgid_escape(&sb, id);

	error_clear();
	strbuf_release(&sb);
	return ok;
}

/* Adds "TERM" to query kind k, joined with OR, within the bounds. */
static int add_term(struct round *rd, enum search_kind k, const char *term)
{
	struct strbuf *q = &rd->query[k];

	if (rd->terms[k] >= QUERY_TERMS ||
	    q->len + strlen(term) + 4 > QUERY_MAX)
		return 0;
	if (q->len)
		strbuf_addstr(q, " OR ");
	strbuf_addstr(q, term);
	rd->terms[k]++;
	return 1;
}

/* ---- facts of the versions known ---- */

static void percent_decode(struct strbuf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n &&
		    isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };

			strbuf_addch(out, (int)strtol(hex, NULL, 16));
			i += 2;
		} else {
			strbuf_addch(out, s[i]);
		}
	}
}

/*
 * The Message-IDs in URLs of text ("Link to v1: https://lore.../ID/",
 * "Link: https://lore.kernel.org/r/ID"): the path segment holding '@'
 * (the host is not one).  IDs the mailset has already are left out.
 */
static void find_links(struct finder *f, const struct mailset *ms,
		       struct round *rd, int version, const char *text,
		       size_t len)
{
	const char *p = text, *end = text + len;
	struct strbuf id = STRBUF_INIT;

	while ((p = memmem(p, (size_t)(end - p), "://", 3))) {
		const char *u = p + 3, *ue = u, *pe, *seg, *s = NULL;

		while (ue < end && !isspace((unsigned char)*ue) && *ue != '>' &&
		       *ue != '"' && *ue != ')' && *ue != ']' && *ue != '<')
			ue++;
		p = ue;
		seg = memchr(u, '/', (size_t)(ue - u));
		if (!seg)
			continue;
		for (pe = ++seg; pe < ue && *pe != '?' && *pe != '#'; pe++)
			;
		for (; seg < pe; seg = s + 1) {
			s = memchr(seg, '/', (size_t)(pe - seg));
			if (!s)
				s = pe;
			if (memchr(seg, '@', (size_t)(s - seg)))
				break;
		}
		if (seg >= pe)
			continue;
		strbuf_reset(&id);
		percent_decode(&id, seg, (size_t)(s - seg));
		if (mailset_find(ms, id.buf) >= 0 || !msgid_ok(id.buf) ||
		    was_asked(f, "link", id.buf))
			continue;
		ALLOC_GROW(rd->links, rd->nr_links, rd->alloc_links);
		rd->links[rd->nr_links].msgid = mem_pool_strdup(&f->pool, id.buf);
		rd->links[rd->nr_links++].version = version;
		ask(f, "link", id.buf);
	}
	strbuf_release(&id);
}

static void version_facts(struct finder *f, struct mailset *ms, long vi,
			  struct round *rd)
{
	struct ms_version *v = &ms->versions[vi];
	struct strbuf t = STRBUF_INIT, term = STRBUF_INIT;
	long head = mailset_version_head(v), k;

	if (head < 0)
		return;
	if (v->change_id && plain(v->change_id, "-._+") &&
	    !was_asked(f, "change-id", v->change_id)) {
		strbuf_addf(&term, "nq:\"change-id: %s\"", v->change_id);
		if (add_term(rd, Q_CHANGE_ID, term.buf)) {
			ask(f, "change-id", v->change_id);
			strbuf_addf(&rd->detail, "%s%s", rd->detail.len ?
				    ", " : "", v->change_id);
		}
	}
	lore_query_phrase(&t, v->title ? v->title : "", TITLE_MAX);
	if (t.len && v->from_addr &&
	    plain(v->from_addr, "-._+@=!#$%&'*/?^`{|}~")) {
		strbuf_reset(&term);
		strbuf_addf(&term, "%s %s", v->from_addr, t.buf);
		if (!was_asked(f, "subject", term.buf)) {
			struct strbuf q = STRBUF_INIT;

			strbuf_addf(&q, "(s:\"%s\" AND f:\"%s\")", t.buf,
				    v->from_addr);
			if (add_term(rd, Q_SUBJECT, q.buf))
				ask(f, "subject", term.buf);
			strbuf_release(&q);
		}
	}
	if (msgid_ok(ms->msgs[head].msgid) &&
	    !was_asked(f, "backlink", ms->msgs[head].msgid)) {
		strbuf_reset(&term);
		strbuf_addf(&term, "nq:\"%s\"", ms->msgs[head].msgid);
		if (add_term(rd, Q_BACKLINK, term.buf))
			ask(f, "backlink", ms->msgs[head].msgid);
	}
	if (mailset_load(ms, vi) < 0)
		error_clear();
	for (k = 0; k < v->total && v->loaded; k++) {
		char hex[GIT_OID_HEXSZ + 1];
		const struct ms_detail *d = v->patches[k].d;

		if (!d || !d->has_patch_id)
			continue;
		git_oid_tostr(hex, sizeof(hex), &d->patch_id);
		if (was_asked(f, "patch-id", hex))
			continue;
		strbuf_reset(&term);
		strbuf_addf(&term, "patchid:%s", hex);
		if (add_term(rd, Q_PATCH_ID, term.buf))
			ask(f, "patch-id", hex);
	}
	{
		struct strbuf raw = STRBUF_INIT;

		if (!mailset_raw(ms, head, &raw))
			find_links(f, ms, rd, v->number, raw.buf, raw.len);
		else
			error_clear();
		strbuf_release(&raw);
	}
	strbuf_release(&t);
	strbuf_release(&term);
}

/* ---- asking ---- */

static void progress(struct finder *f, const char *fmt, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	if (!f->o || !f->o->progress)
		return;
	strbuf_addf(&sb, "lore: request %zu: ", f->lf->requests + 1);
	strbuf_addf(&sb, fmt, what);
	f->o->progress(sb.buf, f->o->progress_data);
	strbuf_release(&sb);
}

/*
 * Before a request: may it go, within the bounds?  Sets the HTTP
 * deadline to what is left of respin.lore.timeout; the caller puts the
 * saved configuration back afterwards.
 */
static int before_request(struct finder *f, struct http_config *saved)
{
	*saved = *http_config_get();
	if (f->stop)
		return 0;
	if (f->lf->requests >= LORE_FIND_MAX_REQUESTS) {
		note(f, "lore search stopped after %d requests; only the "
		     "versions found so far", LORE_FIND_MAX_REQUESTS);
		f->stop = 1;
		return 0;
	}
	if (f->deadline) {
		struct http_config c = *saved;
		long long left = f->deadline - now_ms();

		if (left <= 0) {
			note(f, "lore search stopped: %s (%ld.%01ld s for "
			     "the whole search) spent; only the versions "
			     "found so far", HTTP_TIMEOUT_KEY,
			     f->timeout_ms / 1000, f->timeout_ms % 1000 / 100);
			f->stop = 1;
			return 0;
		}
		c.deadline_ms = (long)left;
		http_configure(&c);
	}
	f->lf->requests++;
	return 1;
}

/* After a request that failed for good: says why, stops the search. */
static void request_failed(struct finder *f)
{
	if (f->deadline && now_ms() >= f->deadline - 100)
		note(f, "lore search stopped: no answer from %s within %s "
		     "(%ld.%01ld s for the whole search); only the versions "
		     "found so far", f->lf->url, HTTP_TIMEOUT_KEY,
		     f->timeout_ms / 1000, f->timeout_ms % 1000 / 100);
	else
		note(f, "lore search stopped: %s; only the versions found "
		     "so far", error_last());
	error_clear();
	f->stop = 1;
}

/* One search; 1 when it brought mail, 0 when not, never an error. */
static int search(struct finder *f, enum search_kind k, const char *query,
		  const char *detail)
{
	struct http_config saved;
	struct strbuf ans = STRBUF_INIT;
	int r, got = 0;

	if (f->no_search)
		return 0;
	progress(f, "%s", kind_what[k]);
	if (!before_request(f, &saved))
		return 0;
	r = lore_search_fetch(f->lf->url, query, f->cache_dir, f->flags, &ans);
	http_configure(&saved);
	if (!r) {
		got = !append(f, &ans, kind_found[k], detail);
	} else if (r == RESPIN_ENOTFOUND) {
		error_clear();	/* nothing found */
	} else if (r == LORE_ENOSEARCH) {
		if (f->lf->nr_parts > 1)
			note(f, "%s; only the versions found so far",
			     error_last());
		else
			note(f, "%s; only the versions in the thread of <%s>",
			     error_last(), f->lf->msgid);
		error_clear();
		f->no_search = 1;
	} else {
		request_failed(f);
	}
	strbuf_release(&ans);
	return got;
}

/* The thread a version links to; 1 when it brought mail. */
static int linked_thread(struct finder *f, const struct link *l)
{
	struct http_config saved;
	struct strbuf ans = STRBUF_INIT, detail = STRBUF_INIT;
	int r, got = 0;

	strbuf_addf(&detail, "v%d", l->version);
	progress(f, "fetching the thread %s links to", detail.buf);
	if (!before_request(f, &saved))
		return 0;
	r = lore_thread_fetch(f->lf->url, l->msgid, f->cache_dir, f->flags,
			      &ans);
	http_configure(&saved);
	if (!r) {
		got = !append(f, &ans, LORE_FOUND_LINK, detail.buf);
	} else if (r == RESPIN_ENOTFOUND) {
		note(f, "v%d links to <%s>, which %s does not have",
		     l->version, l->msgid, f->lf->url);
		error_clear();
	} else {
		request_failed(f);
	}
	strbuf_release(&ans);
	strbuf_release(&detail);
	return got;
}

/* ---- rounds ---- */

static void round_init(struct round *rd)
{
	size_t k;

	memset(rd, 0, sizeof(*rd));
	for (k = 0; k < Q_KINDS; k++)
		strbuf_init(&rd->query[k], 0);
	strbuf_init(&rd->detail, 0);
}

static void round_release(struct round *rd)
{
	size_t k;

	for (k = 0; k < Q_KINDS; k++)
		strbuf_release(&rd->query[k]);
	strbuf_release(&rd->detail);
	free(rd->links);
}

/*
 * The series of the focus in the mail so far; its versions' facts into
 * rd.  Returns the number of requests rd holds; -1 when the focus is in
 * no series (nothing to look for).
 */
static int plan_round(struct finder *f, struct round *rd)
{
	struct mail_source *src = NULL;
	struct strbuf copy = STRBUF_INIT;
	struct mailset ms;
	long si;
	size_t i, n = 0;
	int r;

	strbuf_add(&copy, f->all.buf, f->all.len);
	mailset_init(&ms, NULL);
	r = mail_source_open_mbox(&src, f->lf->msgid, "lore answers", &copy);
	ms.src = src;
	if (!r)
		r = mailset_scan(&ms);
	if (!r)
		r = mailset_group(&ms, 0, f->focus);
	si = r ? -1 : mailset_series_of(&ms, mailset_find(&ms, f->focus));
	error_clear();
	if (si >= 0) {
		for (i = 0; i < ms.series[si].nr; i++)
			version_facts(f, &ms, ms.series[si].versions[i], rd);
		for (i = 0; i < Q_KINDS; i++)
			n += rd->terms[i] > 0;
		n += rd->nr_links;
	}
	mailset_release(&ms);
	mail_source_free(src);
	strbuf_release(&copy);
	return si < 0 ? -1 : (int)n;
}

static void run_rounds(struct finder *f)
{
	int round;

	for (round = 0; round < LORE_FIND_MAX_ROUNDS && !f->stop; round++) {
		struct round rd;
		int got = 0;
		size_t i;

		round_init(&rd);
		if (plan_round(f, &rd) <= 0) {
			round_release(&rd);
			break;
		}
		if (rd.terms[Q_CHANGE_ID])
			got |= search(f, Q_CHANGE_ID,
				      rd.query[Q_CHANGE_ID].buf,
				      rd.detail.buf);
		for (i = 0; i < rd.nr_links; i++)
			got |= linked_thread(f, &rd.links[i]);
		for (i = Q_SUBJECT; i < Q_KINDS; i++)
			if (rd.terms[i])
				got |= search(f, (enum search_kind)i,
					      rd.query[i].buf, NULL);
		round_release(&rd);
		if (!got)
			break;
	}
}

/* ---- the interface ---- */

static int open_thread(struct finder *f, git_repository *repo,
		       const char *msgid)
{
	struct strbuf cache = STRBUF_INIT;
	int r;

	r = config_mail_limits(repo);
	if (r < 0)
		return r;
	f->lf->url = repo_lore_url(repo);
	f->lf->msgid = xstrdup(msgid);
	if (!lore_cache_dir(&cache))
		f->cache_dir = strbuf_detach(&cache, NULL);
	else
		error_clear();
	strbuf_release(&cache);
	f->flags = f->o && f->o->refresh ? LORE_REFRESH : 0;
	r = lore_thread_fetch(f->lf->url, msgid, f->cache_dir, f->flags,
			      &f->all);
	if (r < 0)
		return r;
	f->nr_msgs = count_msgs(f->all.buf, f->all.len);
	add_part(f->lf, 1, f->nr_msgs + 1, LORE_FOUND_THREAD, NULL);
	return 0;
}

int lore_find_open(git_repository *repo, const char *msgid,
		   const struct lore_find_options *o, struct lore_find *lf)
{
	struct finder f;
	struct strbuf describe = STRBUF_INIT, name = STRBUF_INIT;
	int r;

	memset(lf, 0, sizeof(*lf));
	strbuf_init(&lf->notes, 0);
	memset(&f, 0, sizeof(f));
	f.lf = lf;
	f.o = o;
	f.focus = o && o->focus ? o->focus : msgid;
	strbuf_init(&f.all, 0);
	r = open_thread(&f, repo, msgid);
	if (!r) {
		f.timeout_ms = http_config_get()->deadline_ms;
		if (f.timeout_ms > 0)
			f.deadline = now_ms() + f.timeout_ms;
		run_rounds(&f);
		if (o && o->progress)
			o->progress(NULL, o->progress_data);
		strbuf_addf(&name, "lore:%s", msgid);
		strbuf_addf(&describe, "lore %s/%s", lf->url, msgid);
		if (lf->nr_parts > 1)
			strbuf_addf(&describe, " and %zu answer%s of lore "
				    "search", lf->nr_parts - 1,
				    lf->nr_parts == 2 ? "" : "s");
		r = mail_source_open_mbox(&lf->src, name.buf, describe.buf,
					  &f.all);
	}
	strbuf_release(&f.all);
	strmap_release(&f.asked);
	mem_pool_release(&f.pool);
	free(f.cache_dir);
	strbuf_release(&describe);
	strbuf_release(&name);
	return r;
}

static const struct lore_find_part *part_of(const struct lore_find *lf,
					    size_t number)
{
	size_t i;

	for (i = 0; i < lf->nr_parts; i++)
		if (number >= lf->parts[i].first && number < lf->parts[i].end)
			return &lf->parts[i];
	return NULL;
}

int lore_find_how(const struct lore_find *lf, const struct mailset *ms,
		  long vi)
{
	long head = mailset_version_head(&ms->versions[vi]);
	const struct lore_find_part *p;

	if (head < 0)
		return -1;
	p = part_of(lf, ms->msgs[head].number);
	return p ? (int)p->how : -1;
}

const char *lore_found_name(int how)
{
	switch (how) {
	case LORE_FOUND_THREAD:
		return "thread";
	case LORE_FOUND_CHANGE_ID:
		return "change-id";
	case LORE_FOUND_SUBJECT:
		return "subject";
	case LORE_FOUND_BACKLINK:
	case LORE_FOUND_LINK:
		return "link";
	case LORE_FOUND_PATCH_ID:
		return "patch-id";
	default:
		return NULL;
	}
}

/* Which other version of the series the head of vi names, or 0. */
static int names_version(struct mailset *ms, long si, long vi)
{
	const struct ms_series *s = &ms->series[si];
	struct strbuf raw = STRBUF_INIT;
	long head = mailset_version_head(&ms->versions[vi]);
	int found = 0;
	size_t i;

	if (head < 0 || mailset_raw(ms, head, &raw) < 0) {
		error_clear();
		strbuf_release(&raw);
		return 0;
	}
	for (i = 0; i < s->nr && !found; i++) {
		long h = mailset_version_head(&ms->versions[s->versions[i]]);
		const char *id;

		if (s->versions[i] == vi || h < 0)
			continue;
		id = ms->msgs[h].msgid;
		if (*id && memmem(raw.buf, raw.len, id, strlen(id)))
			found = ms->versions[s->versions[i]].number;
	}
	strbuf_release(&raw);
	return found;
}

void lore_find_describe(const struct lore_find *lf, struct mailset *ms,
			long si, struct strbuf *out)
{
	const struct ms_series *s = &ms->series[si];
	size_t i, others = 0;

	strbuf_addstr(out, lf->notes.buf);
	for (i = 0; i < s->nr; i++) {
		long vi = s->versions[i];
		const struct ms_version *v = &ms->versions[vi];
		long head = mailset_version_head(v);
		const struct lore_find_part *p;
		int n;

		if (head < 0)
			continue;
		p = part_of(lf, ms->msgs[head].number);
		strbuf_addf(out, "v%d <%s>: ", v->number, ms->msgs[head].msgid);
		others += p && p->how != LORE_FOUND_THREAD;
		switch (p ? (int)p->how : -1) {
		case LORE_FOUND_THREAD:
			strbuf_addstr(out, "in the thread asked for\n");
			break;
		case LORE_FOUND_CHANGE_ID:
			strbuf_addf(out, "found by change-id %s\n",
				    v->change_id ? v->change_id : p->detail);
			break;
		case LORE_FOUND_SUBJECT:
			strbuf_addstr(out, "found by subject and author\n");
			break;
		case LORE_FOUND_BACKLINK:
			n = names_version(ms, si, vi);
			if (n)
				strbuf_addf(out, "found by its link to v%d\n",
					    n);
			else
				strbuf_addstr(out, "found by its link to "
					      "another version\n");
			break;
		case LORE_FOUND_LINK:
			strbuf_addf(out, "found by a link in %s\n", p->detail);
			break;
		case LORE_FOUND_PATCH_ID:
			strbuf_addstr(out, "found by patch-id\n");
			break;
		default:
			strbuf_addstr(out, "not from lore\n");
			break;
		}
	}
	if (!others)
		strbuf_addf(out, "no other versions of \"%s\" found at %s "
			    "(%zu request%s)\n", s->title ? s->title : "",
			    lf->url, lf->requests,
			    lf->requests == 1 ? "" : "s");
	else
		strbuf_addf(out, "%zu other version%s found at %s (%zu "
			    "request%s)\n", others, others == 1 ? "" : "s",
			    lf->url, lf->requests,
			    lf->requests == 1 ? "" : "s");
}

void lore_find_release(struct lore_find *lf)
{
	size_t i;

	mail_source_free(lf->src);
	for (i = 0; i < lf->nr_parts; i++)
		free(lf->parts[i].detail);
	free(lf->parts);
	free(lf->url);
	free(lf->msgid);
	strbuf_release(&lf->notes);
	memset(lf, 0, sizeof(*lf));
}
