// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scan of a mail set: each message's headers read once, what a
 * grouping needs kept (strings in a pool, one copy of a recent equal
 * one), the index by Message-ID.
 */
#include "series/mailsetpriv.h"
#include "patches/mail.h"
#include "tools/lib/error.h"
#include "tools/lib/hash.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>


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
	uint32_t h;
	char **slot;

	if (!s)
		return NULL;
	h = fnv1a32(FNV1A32_INIT, s, strlen(s));
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
		ms_note_add(ms, (long)first, -1, -1, "message %zu (\"%s\") has "
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
		ms_note_add(ms, mi, -1, -1, "message %zu <%s>: a version or a "
			    "counter out of range (v1-v%d; i/N with i <= N <= %d) "
			    "in \"%s\" is not read as a tag", m->number, m->msgid,
			    SUBJECT_MAX_VERSION, SUBJECT_MAX_TOTAL, m->subject);
	if (m->cut)
		ms_note_add(ms, mi, -1, -1, "message %zu <%s> in %s ends in the "
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
