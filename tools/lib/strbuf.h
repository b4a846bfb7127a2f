/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_STRBUF_H
#define RESPIN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated byte string.  STRBUF_INIT is an
 * empty buffer that owns nothing; strbuf_release() frees the contents
 * and leaves an empty buffer behind.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hands the string to the caller (free() it); leaves sb empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/*
 * sb takes buf (malloc'ed, len bytes and a NUL, alloc bytes in all) as
 * its own, releasing what it held; NULL leaves it empty.
 */
void strbuf_attach(struct strbuf *sb, char *buf, size_t len, size_t alloc);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb) { strbuf_setlen(sb, 0); }

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/* text single-quoted for sh ('it'\''s'): one word whatever it holds */
void strbuf_add_sq(struct strbuf *sb, const char *text);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_rtrim(struct strbuf *sb);
/*
 * The next word of a list: skips the separator characters seps at *p,
 * copies the word up to the next one into word (reset first) and moves
 * *p past it.  1 when there was a word, 0 at the end of the list.
 */
int strbuf_next_word(struct strbuf *word, const char **p, const char *seps);
/* Reads a whole file; returns 0 or -1 with errno set. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Appends everything read from fd until its end; 0 or -1 (errno). */
int strbuf_read_fd(struct strbuf *sb, int fd);

/* Allocation that never returns NULL (aborts on out-of-memory). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#define ALLOC_GROW(arr, nr, alloc) do { \
	if ((nr) >= (alloc)) { \
		(alloc) = (alloc) ? (alloc) * 2 : 8; \
		if ((alloc) <= (nr)) (alloc) = (nr) + 1; \
		(arr) = xrealloc((arr), (alloc) * sizeof(*(arr))); \
	} \
} while (0)

#endif
