// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/subject.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void subject_init(struct subject *s)
{
	memset(s, 0, sizeof(*s));
	s->version = 1;
}

void subject_release(struct subject *s)
{
	free(s->title);
	free(s->prefix);
	subject_init(s);
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * A reply or forward prefix at p ("Re:", "RE :", "Re[2]:", "Aw:",
 * "Fwd:", "Fw:", "Sv:", "Antw:"): returns what follows, or NULL.
 */
static const char *reply_prefix(const char *p)
{
	static const char *const words[] = {
		"re", "aw", "fwd", "fw", "sv", "antw", "vs", "odp", "r", NULL,
	};
	int i;

	for (i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		const char *q = p + n;

		if (strncasecmp(p, words[i], n))
			continue;
		if (*q == '[') {	/* "Re[2]:" */
			q++;
			while (isdigit((unsigned char)*q))
				q++;
			if (*q != ']')
				continue;
			q++;
		}
		q = skip_space(q);
		if (*q == ':')
			return q + 1;
	}
	return NULL;
}

/*
 * The decimal number in [w, w + n): 0 and *v set when it is at most max,
 * 1 when it is larger (no wraparound: "4294967297" is not 1), -1 when a
 * character is not a digit.
 */
static int number_word(const char *w, size_t n, int max, int *v)
{
	long long x = 0;
	size_t i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)w[i]))
			return -1;
		if (x <= max)
			x = x * 10 + (w[i] - '0');
	}
	if (x > max)
		return 1;
	*v = (int)x;
	return 0;
}

/*
 * "v3" / "V3" -> 1 and 3; 0 when it is no version word.  A version
 * above SUBJECT_MAX_VERSION (or v0) sets *big and is no version word.
 */
static int version_word(const char *w, size_t n, int *v, int *big)
{
	int x, r;

	if (n < 2 || (w[0] != 'v' && w[0] != 'V'))
		return 0;
	r = number_word(w + 1, n - 1, SUBJECT_MAX_VERSION, &x);
	if (r < 0)
		return 0;
	if (r > 0 || x < 1) {
		*big = 1;
		return 0;
	}
	*v = x;
	return 1;
}

/*
 * "02/17" -> 1 and 2, 17; 0 when it is no counter.  Counters above
 * SUBJECT_MAX_TOTAL, a total of 0 or an index above the total set *big
 * and are no counter.
 */
static int counter_word(const char *w, size_t n, int *i, int *t, int *big)
{
	const char *slash = memchr(w, '/', n);
	size_t a;
	int x, y, r1, r2;

	if (!slash || slash == w || slash == w + n - 1)
		return 0;
	a = (size_t)(slash - w);
	r1 = number_word(w, a, SUBJECT_MAX_TOTAL, &x);
	r2 = number_word(slash + 1, n - a - 1, SUBJECT_MAX_TOTAL, &y);
	if (r1 < 0 || r2 < 0)
		return 0;
	if (r1 > 0 || r2 > 0 || y < 1 || x > y) {
		*big = 1;
		return 0;
	}
	*i = x;
	*t = y;
	return 1;
}

struct tag {
	int patch, rfc, resend, version, index, total;
	int has_version, has_counter;
	int out_of_range;
	struct strbuf prefix;
	struct strbuf *sent;	/* the words as written but vN and i/N */
};

/* Adds a word of a patch tag, as written, to what was sent. */
static void sent_word(struct strbuf *sent, const char *w, size_t n)
{
	if (!sent)
		return;
	if (sent->len)
		strbuf_addch(sent, ' ');
	strbuf_add(sent, w, n);
}

/*
 * Reads the words of one [...] group into t.  Returns 1 when it is a
 * patch tag (PATCH, RFC, RESEND, or only versions and counters), else 0.
 */
static int tag_parse(const char *p, const char *end, struct tag *t)
{
	int patchy = 0, other = 0;
	struct strbuf sent = STRBUF_INIT, *words = t->sent ? &sent : NULL;

	while (p < end) {
		const char *w, *we;
		size_t n;

		while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
			p++;
		if (p >= end)
			break;
		w = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		we = p;
		n = we - w;
		if (n >= 5 && !strncasecmp(w, "PATCH", 5)) {
			/* PATCH, PATCHv2, PATCH-v2 */
			const char *r = w + 5;
			int big = 0;

			t->patch = patchy = 1;
			if (r < we && *r == '-')
				r++;
			if (r < we && version_word(r, we - r, &t->version,
						   &big)) {
				t->has_version = 1;
				sent_word(words, w, 5);	/* "PATCHv2": PATCH */
				continue;
			}
			sent_word(words, w, n);
			if (r < we && big) {
				/* "PATCHv4294967297": kept, not read */
				t->out_of_range = 1;
				if (t->prefix.len)
					strbuf_addch(&t->prefix, ' ');
				strbuf_add(&t->prefix, w, n);
			} else if (r < we) {
				other = 1;	/* PATCHSET, PATCHES... */
			}
			continue;
		}
		if ((n == 3 && !strncasecmp(w, "RFC", 3)) ||
		    (n == 3 && !strncasecmp(w, "RFT", 3))) {
			if (w[2] == 'C' || w[2] == 'c')
				t->rfc = 1;
			patchy = 1;
			sent_word(words, w, n);
			continue;
		}
		if (n == 6 && !strncasecmp(w, "RESEND", 6)) {
			t->resend = 1;
			patchy = 1;
			sent_word(words, w, n);
			continue;
		}
		if (version_word(w, n, &t->version, &t->out_of_range)) {
			t->has_version = 1;
			continue;
		}
		if (counter_word(w, n, &t->index, &t->total,
				 &t->out_of_range)) {
			t->has_counter = 1;
			continue;
		}
		if (t->prefix.len)
			strbuf_addch(&t->prefix, ' ');
		strbuf_add(&t->prefix, w, n);
		sent_word(words, w, n);
		other = 1;
	}
	/* "[v2]" or "[2/3]" next to a [PATCH] tag */
	patchy = patchy || (!other && (t->has_version || t->has_counter));
	if (patchy && words && sent.len)
		sent_word(t->sent, sent.buf, sent.len);
	strbuf_release(&sent);
	return patchy;
}

static void parse(struct subject *s, const char *subject, struct strbuf *sent)
{
	const char *p = subject, *title, *stop = NULL;
	struct tag t;
	size_t n;

	subject_release(s);
	memset(&t, 0, sizeof(t));
	strbuf_init(&t.prefix, 0);
	t.version = 1;
	t.sent = sent;

	title = p = skip_space(p);
	for (;;) {
		const char *q;

		p = skip_space(p);
		/* "Re:" after the tag is part of the title */
		if (!t.patch && (q = reply_prefix(p))) {
			s->is_reply = 1;
			p = q;
			if (!stop)
				title = skip_space(p);
			continue;
		}
		if (*p == '[') {
			const char *close = strchr(p, ']');
			struct tag u;

			if (!close)
				break;
			u = t;
			strbuf_init(&u.prefix, 0);
			strbuf_add(&u.prefix, t.prefix.buf, t.prefix.len);
			if (tag_parse(p + 1, close, &u)) {
				strbuf_release(&t.prefix);
				t = u;
				p = close + 1;
				title = skip_space(p);
				stop = NULL;
				continue;
			}
			strbuf_release(&u.prefix);
			/*
			 * "[EXT] Re: [PATCH] x": look past a group that is no
			 * patch tag; the title starts at it when no tag follows.
			 */
			if (!stop)
				stop = title;
			p = close + 1;
			continue;
		}
		break;
	}
	if (stop)
		title = stop;

	s->is_patch = t.patch || t.rfc || t.resend ||
		      t.has_version || t.has_counter;
	s->is_rfc = t.rfc;
	s->is_resend = t.resend;
	s->version = t.version > 0 ? t.version : 1;
	s->has_version = t.has_version;
	s->has_counter = t.has_counter;
	s->out_of_range = !!t.out_of_range;
	if (t.has_counter) {
		s->index = t.index;
		s->total = t.total;
	} else if (s->is_patch) {
		s->index = s->total = 1;
	}
	s->is_cover = t.has_counter && t.index == 0;
	if (t.prefix.len)
		s->prefix = strbuf_detach(&t.prefix, NULL);
	strbuf_release(&t.prefix);

	n = strlen(title);
	while (n && isspace((unsigned char)title[n - 1]))
		n--;
	s->title = xstrndup(title, n);
}

void subject_parse(struct subject *s, const char *subject)
{
	parse(s, subject, NULL);
}

void subject_sent_prefix(const char *subject, struct strbuf *out)
{
	struct subject s;

	subject_init(&s);
	parse(&s, subject, out);
	subject_release(&s);
}

char *subject_title(const char *subject, int lower)
{
	struct subject sj;
	char *t, *p;

	subject_init(&sj);
	subject_parse(&sj, subject ? subject : "");
	t = xstrdup(sj.title ? sj.title : "");
	subject_release(&sj);
	for (p = t; lower && *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	return t;
}
