// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/mbox.h"
#include "tools/lib/error.h"
#include "tools/lib/limits.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#include <immintrin.h>
#endif

struct mbox {
	char *path;
	enum mbox_format fmt;
	int crlf;		/* the file uses CRLF line ends */
	const char *buf;	/* the whole mbox (mapped or borrowed) */
	size_t size;
	void *map;		/* what to munmap, or NULL */
	size_t map_size;
	size_t pos;		/* start of the next separator line */
	size_t count;
	struct strbuf scratch;	/* unescaped copy of the current message */

	/* maildir */
	int maildir;
	char **files;		/* "cur/NAME" or "new/NAME" */
	size_t nr_files, next_file;
	struct strbuf file;
	struct strbuf file_path;
};

/*
 * A separator is a line starting with "From " that also carries a
 * time of day ("00:00"), as every mbox writer puts the date there: a
 * body line "From here on ..." that a careless writer left unescaped
 * does not split the message.
 */
static int is_from_line(const char *p, const char *end)
{
	const char *eol, *q;

	if (end - p < 5 || memcmp(p, "From ", 5))
		return 0;
	eol = memchr(p, '\n', end - p);
	if (!eol)
		eol = end;
	for (q = p + 5; q + 5 <= eol; q++) {
		if (q[2] != ':')
			continue;
		if (q[0] >= '0' && q[0] <= '9' && q[1] >= '0' && q[1] <= '9' &&
		    q[3] >= '0' && q[3] <= '9' && q[4] >= '0' && q[4] <= '9')
			return 1;
	}
	return 0;
}

/*
 * The next "\nF" or ">F" pair at or after p (returns the 'F'), or NULL:
 * the only places where a separator or an escaped ">From " line can
 * start.  Sixteen bytes at a time where SSE2 is there; most lines start
 * with another letter, so this skips the text at memory speed.
 */
#if defined(__x86_64__) && defined(__GNUC__)
/* The same search 32 bytes at a time, on processors that have AVX2. */
__attribute__((target("avx2")))
static const char *next_candidate_avx2(const char *p, const char *end)
{
	const __m256i nl = _mm256_set1_epi8('\n'), gt = _mm256_set1_epi8('>');
	const __m256i ef = _mm256_set1_epi8('F');

	while (end - p >= 33) {
		__m256i a = _mm256_loadu_si256((const __m256i *)p);
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + 1));
		__m256i m = _mm256_and_si256(_mm256_cmpeq_epi8(b, ef),
			_mm256_or_si256(_mm256_cmpeq_epi8(a, nl),
					_mm256_cmpeq_epi8(a, gt)));
		unsigned bits = (unsigned)_mm256_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz(bits) + 1;
		p += 32;
	}
	for (; p + 1 < end; p++)
		if ((p[0] == '\n' || p[0] == '>') && p[1] == 'F')
			return p + 1;
	return NULL;
}

/* Asked once, whichever thread comes first (the mbox threads share it). */
static pthread_once_t avx2_once = PTHREAD_ONCE_INIT;
static int avx2_known;

static void avx2_probe(void)
{
	__builtin_cpu_init();
	avx2_known = __builtin_cpu_supports("avx2") ? 1 : 0;
}

static int have_avx2(void)
{
	pthread_once(&avx2_once, avx2_probe);
	return avx2_known;
}
#else
#define have_avx2() 0
#define next_candidate_avx2(p, end) NULL
#endif

static const char *next_candidate(const char *p, const char *end)
{
	if (have_avx2())
		return next_candidate_avx2(p, end);
	{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), gt = _mm_set1_epi8('>');
	const __m128i ef = _mm_set1_epi8('F');

	while (end - p >= 17) {
		__m128i a = _mm_loadu_si128((const __m128i *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(p + 1));
		__m128i f = _mm_cmpeq_epi8(b, ef);
		__m128i m = _mm_and_si128(f, _mm_or_si128(_mm_cmpeq_epi8(a, nl),
							  _mm_cmpeq_epi8(a, gt)));
		int bits = _mm_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz(bits) + 1;
		p += 16;
	}
#endif
	for (; p + 1 < end; p++)
		if ((p[0] == '\n' || p[0] == '>') && p[1] == 'F')
			return p + 1;
	return NULL;
	}
}

/*
 * Finds the next separator line at or after p (which is inside the
 * message that starts at msg); sets *escaped when a line "^>+From " is
 * passed.  Returns end when there is none.
 */
static const char *find_separator(const char *buf, const char *msg,
				  const char *p, const char *end, int *escaped)
{
	/* the pair search looks one byte back: a line start at p itself */
	if (p < end && *p == 'F' && (p == buf || p[-1] == '\n') &&
	    is_from_line(p, end))
		return p;
	while (p < end) {
		const char *f = next_candidate(p, end);

		if (!f)
			return end;
		if (end - f >= 5 && f[1] == 'r' && f[2] == 'o' && f[3] == 'm' &&
		    f[4] == ' ') {
			if (f[-1] == '\n') {
				if (is_from_line(f, end))
					return f;
			} else {
				const char *q = f - 1;

				while (q > msg && q[-1] == '>')
					q--;
				if (q == msg || q[-1] == '\n')
					*escaped = 1;
			}
		}
		p = f;
	}
	return end;
}

void mbox_unescape(struct strbuf *out, const char *data, size_t len,
		   enum mbox_format fmt, int crlf)
{
	const char *p = data, *end = data + len;

	strbuf_grow(out, len);
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *next = eol ? eol + 1 : end;
		size_t n = next - p;

		if (*p == '>' && fmt != MBOX_ONE) {
			const char *q = p;

			while (q < next && *q == '>')
				q++;
			if (next - q >= 5 && !memcmp(q, "From ", 5) &&
			    (fmt == MBOX_RD || q - p == 1)) {
				p++;
				n--;
			}
		}
		if (crlf && eol && n >= 2 && eol[-1] == '\r') {
			strbuf_add(out, p, n - 2);
			strbuf_addch(out, '\n');
		} else {
			strbuf_add(out, p, n);
		}
		p = next;
	}
}

static struct mbox *mbox_alloc(const char *path, enum mbox_format fmt)
{
	struct mbox *mb = xcalloc(1, sizeof(*mb));

	mb->path = xstrdup(path);
	mb->fmt = fmt;
	strbuf_init(&mb->scratch, 0);
	strbuf_init(&mb->file, 0);
	strbuf_init(&mb->file_path, 0);
	return mb;
}

void mbox_free(struct mbox *mb)
{
	size_t i;

	if (!mb)
		return;
	if (mb->map)
		munmap(mb->map, mb->map_size);
	for (i = 0; i < mb->nr_files; i++)
		free(mb->files[i]);
	free(mb->files);
	strbuf_release(&mb->scratch);
	strbuf_release(&mb->file);
	strbuf_release(&mb->file_path);
	free(mb->path);
	free(mb);
}

/* Checks the first line and settles MBOX_AUTO and CRLF. */
static int mbox_start(struct mbox *mb)
{
	const char *end = mb->buf + mb->size;
	const char *eol;

	if (!mb->size)
		return 0;
	eol = memchr(mb->buf, '\n', mb->size);
	mb->crlf = eol && eol > mb->buf && eol[-1] == '\r';
	if (mb->fmt == MBOX_ONE) {
		if (is_from_line(mb->buf, end))
			mb->pos = eol ? (size_t)(eol + 1 - mb->buf) : mb->size;
		return 0;
	}
	if (!is_from_line(mb->buf, end)) {
		error("%s is not an mbox: its first line is not a \"From \" separator",
		      mb->path);
		error_hint("give an mbox (as from lore's t.mbox.gz or git format-patch --stdout), or a maildir directory");
		return -1;
	}
	if (mb->fmt == MBOX_AUTO)
		mb->fmt = (mb->size >= 14 && !memcmp(mb->buf, "From mboxrd@z ", 14)) ?
			  MBOX_RD : MBOX_O;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	const char *x = *(const char * const *)a, *y = *(const char * const *)b;
	int c = strcmp(x + 4, y + 4);	/* skip "cur/" or "new/" */

	return c ? c : strcmp(x, y);
}

static int maildir_list(struct mbox *mb, const char *sub, size_t *alloc)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&dir, "%s/%s", mb->path, sub);
	d = opendir(dir.buf);
	if (!d) {
		int e = errno;

		strbuf_release(&dir);
		if (e == ENOENT)
			return 0;
		errno = e;
		return error_errno("cannot read the maildir folder %s/%s",
				   mb->path, sub);
	}
	while ((de = readdir(d))) {
		struct strbuf name = STRBUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(mb->files, mb->nr_files, *alloc);
		strbuf_addf(&name, "%s/%s", sub, de->d_name);
		mb->files[mb->nr_files++] = strbuf_detach(&name, NULL);
	}
	closedir(d);
	strbuf_release(&dir);
	return 1;
}

static int maildir_open(struct mbox *mb)
{
	size_t alloc = 0;
	int a, b;

	mb->maildir = 1;
	a = maildir_list(mb, "cur", &alloc);
	if (a < 0)
		return a;
	b = maildir_list(mb, "new", &alloc);
	if (b < 0)
		return b;
	if (!a && !b) {
		error("%s is a directory but not a maildir: it has no cur/ or new/",
		      mb->path);
		error_hint("give an mbox file or a maildir (a directory with cur/ and new/)");
		return -1;
	}
	if (mb->nr_files)
		qsort(mb->files, mb->nr_files, sizeof(*mb->files), name_cmp);
	return 0;
}

int mbox_open(struct mbox **out, const char *path, enum mbox_format fmt)
{
	struct mbox *mb;
	struct stat st;
	int fd, r = RESPIN_ERR;

	*out = NULL;
	mb = mbox_alloc(path, fmt);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot open %s", path);
		goto fail;
	}
	if (fstat(fd, &st) < 0) {
		error_errno("cannot stat %s", path);
		close(fd);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		r = maildir_open(mb);
		if (r < 0)
			goto fail;
		*out = mb;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		error("%s is not a regular file", path);
		goto fail;
	}
	if ((uintmax_t)st.st_size > mail_max_size()) {
		close(fd);
		error_too_large(path, (size_t)st.st_size, mail_max_size());
		goto fail;
	}
	mb->buf = "";	/* an empty file: no NULL + 0 in the scan */
	if (st.st_size > 0) {
		mb->map_size = st.st_size;
		mb->map = mmap(NULL, mb->map_size, PROT_READ,
			       MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (mb->map == MAP_FAILED) {
			mb->map = NULL;
			error_errno("cannot map %s", path);
			close(fd);
			goto fail;
		}
		madvise(mb->map, mb->map_size, MADV_SEQUENTIAL);
		mb->buf = mb->map;
		mb->size = mb->map_size;
	}
	close(fd);
	r = mbox_start(mb);
	if (r < 0)
		goto fail;
	*out = mb;
	return 0;
fail:
	mbox_free(mb);
	return r;
}

int mbox_open_buffer(struct mbox **out, const char *data, size_t len,
		     const char *name, enum mbox_format fmt)
{
	struct mbox *mb = mbox_alloc(name ? name : "(buffer)", fmt);
	int r;

	*out = NULL;
	mb->buf = data;
	mb->size = len;
	r = mbox_start(mb);
	if (r < 0) {
		mbox_free(mb);
		return r;
	}
	*out = mb;
	return 0;
}

static int has_crlf(const char *p, size_t len)
{
	const char *end = p + len, *r;

	while ((r = memchr(p, '\r', end - p))) {
		if (r + 1 < end && r[1] == '\n')
			return 1;
		p = r + 1;
	}
	return 0;
}

static int maildir_next(struct mbox *mb, struct mbox_msg *msg)
{
	const char *name;
	size_t size = 0;
	int r;

	if (mb->next_file >= mb->nr_files)
		return 0;
	name = mb->files[mb->next_file++];
	strbuf_reset(&mb->file_path);
	strbuf_addf(&mb->file_path, "%s/%s", mb->path, name);
	strbuf_reset(&mb->file);
	r = read_file_max(&mb->file, mb->file_path.buf, mail_max_size(),
			  &size);
	if (r < 0)
		return error_errno("cannot read message %zu of maildir %s (%s)",
				   mb->next_file, mb->path, name);
	if (r > 0)
		return error_too_large(mb->file_path.buf, size,
				       mail_max_size());
	memset(msg, 0, sizeof(*msg));
	msg->data = mb->file.buf;
	msg->len = mb->file.len;
	msg->raw_len = mb->file.len;
	msg->number = ++mb->count;
	msg->path = mb->file_path.buf;
	if (has_crlf(msg->data, msg->len)) {
		strbuf_reset(&mb->scratch);
		mbox_unescape(&mb->scratch, msg->data, msg->len, MBOX_ONE, 1);
		msg->data = mb->scratch.buf;
		msg->len = mb->scratch.len;
		msg->copied = msg->crlf = 1;
	}
	if (msg->len && msg->data[msg->len - 1] != '\n')
		msg->truncated = 1;
	return 1;
}

int mbox_next(struct mbox *mb, struct mbox_msg *msg)
{
	const char *buf = mb->buf, *end;
	const char *start, *next, *eol;
	size_t len;
	int escaped = 0;

	if (mb->maildir)
		return maildir_next(mb, msg);
	end = buf + mb->size;	/* a maildir has no buf */
	if (mb->pos >= mb->size)
		return 0;

	if (mb->fmt == MBOX_ONE) {
		start = buf + mb->pos;
		next = end;
	} else {
		/* pos is at a separator line: the message starts after it */
		eol = memchr(buf + mb->pos, '\n', mb->size - mb->pos);
		start = eol ? eol + 1 : end;
		next = find_separator(buf, start, start, end, &escaped);
	}

	memset(msg, 0, sizeof(*msg));
	msg->offset = start - buf;
	msg->raw_len = next - start;
	msg->number = ++mb->count;
	msg->path = mb->path;
	len = msg->raw_len;
	if (next == end) {
		if (len && start[len - 1] != '\n')
			msg->truncated = 1;
	}
	/* the blank line that mbox writers put before the next "From " */
	if (next != end || mb->fmt != MBOX_ONE) {
		if (mb->crlf && len >= 4 && !memcmp(start + len - 4, "\r\n\r\n", 4))
			len -= 2;
		else if (len >= 2 && start[len - 1] == '\n' && start[len - 2] == '\n')
			len--;
	}
	msg->data = start;
	msg->len = len;
	if (escaped || mb->crlf) {
		strbuf_reset(&mb->scratch);
		mbox_unescape(&mb->scratch, start, len,
			      escaped ? mb->fmt : MBOX_ONE, mb->crlf);
		msg->data = mb->scratch.buf;
		msg->len = mb->scratch.len;
		msg->copied = 1;
		msg->crlf = mb->crlf;
	}
	mb->pos = next - buf;
	return 1;
}

size_t mbox_count(const struct mbox *mb)
{
	return mb->count;
}

const char *mbox_path(const struct mbox *mb)
{
	return mb->path;
}

enum mbox_format mbox_format_get(const struct mbox *mb)
{
	return mb->fmt;
}
