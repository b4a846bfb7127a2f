// SPDX-License-Identifier: GPL-2.0-or-later
#include "termsafe.h"
#include "strbuf.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t utf8_decode(const unsigned char *s, size_t avail, unsigned *cp)
{
	size_t n, i;
	unsigned c;

	if (!avail)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		c = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		c = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are no UTF-8 */
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* A code point a terminal acts on rather than shows. */
static int cp_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Byte c < 0x20 or DEL: escaped, or as it is when flags keep it. */
static void add_control(struct strbuf *sb, unsigned char c, unsigned flags)
{
	switch (c) {
	case '\n':
		if (flags & TERM_SAFE_LINES)
			strbuf_addch(sb, c);
		else
			strbuf_addstr(sb, "\\n");
		return;
	case '\t':
		if (flags & TERM_SAFE_LINES)
			strbuf_addch(sb, c);
		else
			strbuf_addstr(sb, "\\t");
		return;
	case '\r':
		strbuf_addstr(sb, "\\r");
		return;
	case 0x1b:
		strbuf_addstr(sb, "\\e");
		return;
	default:
		strbuf_addf(sb, "\\x%02x", c);
	}
}

void strbuf_add_term_safe(struct strbuf *sb, const char *str, size_t len,
			  unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		const unsigned char *run = s + i;
		unsigned cp;
		size_t n;

		/* the common case: a run of printable ASCII */
		while (i < len && s[i] >= 0x20 && s[i] < 0x7f)
			i++;
		if (s + i > run)
			strbuf_add(sb, run, (size_t)(s + i - run));
		if (i >= len)
			break;
		if (s[i] < 0x20 || s[i] == 0x7f) {
			add_control(sb, s[i], flags);
			i++;
			continue;
		}
		n = utf8_decode(s + i, len - i, &cp);
		if (!n) {
			strbuf_addf(sb, "\\x%02x", s[i]);
			i++;
		} else if (cp_unsafe(cp)) {
			strbuf_addf(sb, "\\u%04x", cp);
			i += n;
		} else {
			strbuf_add(sb, s + i, n);
			i += n;
		}
	}
}

int term_safe_clean(const char *str, size_t len, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned cp;
		size_t n;

		if (s[i] >= 0x20 && s[i] < 0x7f) {
			i++;
			continue;
		}
		if ((flags & TERM_SAFE_LINES) &&
		    (s[i] == '\n' || s[i] == '\t')) {
			i++;
			continue;
		}
		n = utf8_decode(s + i, len - i, &cp);
		if (!n || cp < 0x20 || cp == 0x7f || cp_unsafe(cp))
			return 0;
		i += n;
	}
	return 1;
}

#define RING 8

/* Each thread its own ring, freed when the thread ends. */
struct ring {
	struct strbuf sb[RING];
	unsigned next;
};

static pthread_key_t ring_key;
static pthread_once_t ring_once = PTHREAD_ONCE_INIT;
static struct ring main_ring;	/* the main thread's: lives to the end */

static void ring_free(void *p)
{
	struct ring *r = p;
	size_t i;

	for (i = 0; i < RING; i++)
		strbuf_release(&r->sb[i]);
	free(r);
}

static void ring_key_make(void)
{
	if (pthread_key_create(&ring_key, ring_free))
		abort();
}

static struct ring *ring_get(void)
{
	struct ring *r;

	if (gettid() == getpid())
		return &main_ring;
	if (pthread_once(&ring_once, ring_key_make))
		abort();
	r = pthread_getspecific(ring_key);
	if (!r) {
		r = xcalloc(1, sizeof(*r));
		pthread_setspecific(ring_key, r);
	}
	return r;
}

const char *term_safe(const char *s)
{
	struct ring *ring;
	struct strbuf *sb;
	size_t len;

	if (!s)
		return "";
	len = strlen(s);
	if (term_safe_clean(s, len, 0))
		return s;
	ring = ring_get();
	sb = &ring->sb[ring->next++ % RING];
	if (!sb->buf)
		strbuf_init(sb, 0);
	strbuf_reset(sb);
	strbuf_add_term_safe(sb, s, len, 0);
	return sb->buf;
}

void fputs_term_safe(FILE *f, const char *s, size_t len, unsigned flags)
{
	struct strbuf safe = STRBUF_INIT;

	strbuf_add_term_safe(&safe, s, len, flags);
	fputs(safe.buf, f);
	strbuf_release(&safe);
}
