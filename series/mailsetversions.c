// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Messages into versions: by their subject tags, a cover letter and
 * its patches (threaded, or by their tags alone), and each reply put
 * on the patch it answers.
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

		ms_note_add(ms, newer ? mi : *slot, vi, -1, "%d/%d of v%d was "
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

/*
 * A cover letter whose subject lacks "0/N" ("[PATCH v2] mm: x", or no
 * tag at all), found by its place in the thread: the first mail (no
 * In-Reply-To, no References, no "Re:"), with patches "[PATCH vN k/N]"
 * of its version as direct replies.  It becomes their version's cover.
 */
static void naked_covers(struct mailset *ms)
{
	size_t i;

	for (i = 0; i < ms->nr_msgs; i++) {
		const struct ms_msg *m = &ms->msgs[i];
		struct ms_msg *c;
		long p;

		if (m->kind != MS_PATCH || !m->tags.has_counter ||
		    m->tags.total < 2 || !m->irt)
			continue;
		p = mailset_find(ms, m->irt);
		if (p < 0 || (size_t)p == i)
			continue;
		c = &ms->msgs[p];
		if (c->bad || c->irt || c->nr_refs || c->tags.is_reply ||
		    c->tags.has_counter || c->tags.out_of_range ||
		    (c->kind != MS_PATCH && c->kind != MS_OTHER) ||
		    (c->tags.is_patch && c->tags.version != m->tags.version) ||
		    !*(c->tags.title ? c->tags.title : c->subject))
			continue;
		if (!c->tags.title)	/* no tag: the subject is the title */
			c->tags.title = c->subject;
		c->kind = MS_COVER;
		c->tags.is_patch = 1;
		c->tags.is_cover = 1;
		c->tags.index = 0;
		c->tags.total = m->tags.total;
		c->tags.version = m->tags.version;
		c->tags.has_version = m->tags.has_version;
		c->tags.is_rfc |= m->tags.is_rfc;
	}
}

/* A word of a tag saying the patch fixes up another ("07/23 fix"). */
static int fixup_tag(const char *prefix)
{
	static const char *const words[] = {
		"fix", "fixup", "fix-up", "fixed", "fixes", NULL,
	};
	const char *p = prefix;
	int i;

	while (p && *p) {
		size_t n = strcspn(p, " ");

		for (i = 0; words[i]; i++)
			if (n == strlen(words[i]) && !strncasecmp(p, words[i], n))
				return 1;
		p += n;
		p += strspn(p, " ");
	}
	return 0;
}

void ms_classify(struct mailset *ms)
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
	 * "[PATCH 35/34]" in the thread of a 0/34 (its tag not read, the
	 * scan noted it): kept apart, not a version of its own.
	 */
	for (i = 0; i < ms->nr_msgs; i++) {
		struct ms_msg *m = &ms->msgs[i];
		long p;

		if (m->kind != MS_PATCH || !m->tags.out_of_range || !m->irt)
			continue;
		p = mailset_find(ms, m->irt);
		if (p >= 0 && (size_t)p != i && !ms->msgs[p].tags.out_of_range &&
		    (ms->msgs[p].kind == MS_PATCH || ms->msgs[p].kind == MS_COVER))
			m->kind = MS_OTHER;
	}
	naked_covers(ms);
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
		else if (!q->bad && q->tags.is_patch && !q->tags.is_reply &&
			 q->tags.version == m->tags.version &&
			 q->tags.index == m->tags.index &&
			 q->tags.total == m->tags.total &&
			 m->tags.has_counter && fixup_tag(m->tags.prefix)) {
			/* "[PATCH v2 07/23 fix]": a reply to 07/23 */
			m->kind = MS_REPLY;
			ms_note_add(ms, (long)i, -1, -1, "message %zu <%s> "
				    "(\"%s\") is a fixup of %d/%d <%s>, not "
				    "%d/%d again", m->number, m->msgid,
				    m->subject, q->tags.index, q->tags.total,
				    q->msgid, q->tags.index, q->tags.total);
		}
	}
}

/*
 * Whether m, a patch without a counter, is another patch than the one
 * without a counter already in v's slot (another title): two different
 * "[PATCH]"es in one thread, not one sent twice.
 */
static int other_patch(const struct mailset *ms, const struct ms_version *v,
		       const struct ms_msg *m)
{
	const struct ms_msg *q;

	if (m->tags.has_counter || v->total != 1 || v->patches[0].msg < 0)
		return 0;
	q = &ms->msgs[v->patches[0].msg];
	return !q->tags.has_counter && q->tags.title && m->tags.title &&
	       strcmp(q->tags.title, m->tags.title);
}

void ms_make_versions(struct mailset *ms)
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
		if (strmap_get(&keys, key.buf, &vi) &&
		    other_patch(ms, &ms->versions[vi], m)) {
			/* "[PATCH] b" under "[PATCH] a": a version of its own */
			strbuf_reset(&key);
			strbuf_addf(&key, "own %s", m->msgid);
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

int ms_version_empty(const struct ms_version *v)
{
	long k;

	if (v->cover >= 0)
		return 0;
	for (k = 0; k < v->total; k++)
		if (v->patches[k].msg >= 0)
			return 0;
	return 1;
}

void ms_attach_replies(struct mailset *ms)
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
