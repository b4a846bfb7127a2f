// SPDX-License-Identifier: GPL-2.0-or-later
#include "limits.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t max_size = MAIL_MAX_SIZE_DEFAULT;

size_t mail_max_size(void)
{
	return max_size;
}

void mail_max_size_set(size_t max)
{
	/* no size_t wraps in max + 1 */
	if (max > SIZE_MAX / 2)
		max = SIZE_MAX / 2;
	max_size = max ? max : MAIL_MAX_SIZE_DEFAULT;
}

int size_parse(const char *s, size_t *out)
{
	uintmax_t v = 0, unit = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINTMAX_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uintmax_t)(*p - '0');
	}
	switch (*p) {
	case 'k': case 'K':
		unit = 1024;
		p++;
		break;
	case 'm': case 'M':
		unit = 1024 * 1024;
		p++;
		break;
	case 'g': case 'G':
		unit = 1024 * 1024 * 1024;
		p++;
		break;
	}
	if (*p || v > SIZE_MAX / unit)
		return -1;
	*out = (size_t)(v * unit);
	return 0;
}

void strbuf_add_size(struct strbuf *sb, size_t n)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double x = (double)n;
	int u = -1;

	if (n < 1024) {
		strbuf_addf(sb, "%zu byte%s", n, n == 1 ? "" : "s");
		return;
	}
	while (x >= 1024 && u < 3) {
		x /= 1024;
		u++;
	}
	if (x == (double)(size_t)x)
		strbuf_addf(sb, "%zu %s", (size_t)x, units[u]);
	else
		strbuf_addf(sb, "%.1f %s", x, units[u]);
}

int read_fd_max(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		/* never more than max + 1 bytes: one more says "too large" */
		size_t want = max - (sb->len - start) + 1;
		ssize_t n;

		if (want > 65536)
			want = 65536;
		strbuf_grow(sb, want);
		n = read(fd, sb->buf + sb->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			strbuf_setlen(sb, start);
			errno = e;
			return -1;
		}
		if (!n)
			return 0;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (sb->len - start > max) {
			strbuf_setlen(sb, start);
			return 1;
		}
	}
}

int read_file_max(struct strbuf *sb, const char *path, size_t max,
		  size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r, e;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > max) {
		close(fd);
		if (size)
			*size = (size_t)st.st_size;
		return 1;
	}
	r = read_fd_max(sb, fd, max);
	e = errno;
	close(fd);
	errno = e;
	if (r > 0 && size)
		*size = max + 1;
	return r;
}

int error_too_large(const char *what, size_t size, size_t max)
{
	struct strbuf cap = STRBUF_INIT, got = STRBUF_INIT;
	size_t more = max > ((size_t)1 << 40) ? max : max * 4;

	if (size > more)
		more = size;
	strbuf_add_size(&cap, max);
	if (size > max) {
		strbuf_addstr(&got, ", it has ");
		strbuf_add_size(&got, size);
	}
	error("%s is larger than %s (%s%s): not read", what,
	      MAIL_MAX_SIZE_KEY, cap.buf, got.buf);
	strbuf_release(&got);
	if (!(more & ((1u << 30) - 1)))
		error_hint("if it is real mail, raise the limit, e.g. "
			   "'git config %s %zug'", MAIL_MAX_SIZE_KEY,
			   more >> 30);
	else
		error_hint("if it is real mail, raise the limit, e.g. "
			   "'git config %s %zum'", MAIL_MAX_SIZE_KEY,
			   (more + (1 << 20) - 1) >> 20);
	strbuf_release(&cap);
	return RESPIN_ERR;
}
