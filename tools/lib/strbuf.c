// SPDX-License-Identifier: GPL-2.0-or-later
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_empty[1];

static void oom(void)
{
	fputs("fatal: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_empty;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

void strbuf_attach(struct strbuf *sb, char *buf, size_t len, size_t alloc)
{
	strbuf_release(sb);
	if (!buf)
		return;
	sb->buf = buf;
	sb->len = len;
	sb->alloc = alloc;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *r;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	r = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want < sb->len)
		oom();
	if (want <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	sb->alloc = sb->alloc * 3 / 2 > want ? sb->alloc * 3 / 2 : want + 16;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (!sb->len)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (!len)
			return;
		strbuf_grow(sb, len);
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len] = (char)c;
	strbuf_setlen(sb, sb->len + 1);
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t n = sb->len;

	while (n && (sb->buf[n - 1] == ' ' || sb->buf[n - 1] == '\t' ||
		     sb->buf[n - 1] == '\n' || sb->buf[n - 1] == '\r'))
		n--;
	strbuf_setlen(sb, n);
}

int strbuf_next_word(struct strbuf *word, const char **p, const char *seps)
{
	size_t n;

	*p += strspn(*p, seps);
	n = strcspn(*p, seps);
	strbuf_reset(word);
	strbuf_add(word, *p, n);
	*p += n;
	return n > 0;
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	ssize_t n;

	for (;;) {
		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!n)
			return 0;
		strbuf_setlen(sb, sb->len + (size_t)n);
	}
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY), r, e;

	if (fd < 0)
		return -1;
	r = strbuf_read_fd(sb, fd);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

void strbuf_add_sq(struct strbuf *sb, const char *text)
{
	strbuf_addch(sb, '\'');
	for (; *text; text++) {
		if (*text == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *text);
	}
	strbuf_addch(sb, '\'');
}
