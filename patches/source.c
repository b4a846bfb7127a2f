// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/source.h"
#include "patches/mbox.h"
#include "tools/lib/error.h"
#include "tools/lib/limits.h"
#include "tools/lib/lore.h"
#include "tools/lib/nm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum source_kind { SRC_MBOX, SRC_MAILDIR, SRC_FILES };

struct msg_place {
	size_t offset, raw_len;	/* SRC_MBOX: the span in buf */
	unsigned crlf:1;
};

struct mail_source {
	enum source_kind kind;
	char *name;
	struct strbuf describe;
	/* SRC_MBOX: the whole mbox, mapped or in memory */
	const char *buf;
	size_t size;
	void *map;
	struct strbuf mem;
	struct mbox *mb;
	enum mbox_format fmt;
	int scanned;		/* read by mail_source_scan: nothing more */
	struct msg_place *places;
	size_t nr_places, alloc_places;
	/* SRC_MAILDIR and SRC_FILES: one file a message */
	char **files;
	size_t nr_files, alloc_files, next_file;
	struct strbuf cur;
};

static void add_file(struct mail_source *src, const char *path)
{
	ALLOC_GROW(src->files, src->nr_files, src->alloc_files);
	src->files[src->nr_files++] = xstrdup(path);
}

static int nm_collect(const char *path, void *data)
{
	add_file(data, path);
	return 0;
}

static int open_mbox_buffer(struct mail_source *src)
{
	int r = mbox_open_buffer(&src->mb, src->buf, src->size, src->name,
				 MBOX_AUTO);

	if (r < 0)
		return r;
	src->fmt = mbox_format_get(src->mb);
	return 0;
}

static int open_path(struct mail_source *src, const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return error_errno("cannot read mail from %s", path);
	if (S_ISDIR(st.st_mode)) {
		src->kind = SRC_MAILDIR;
		strbuf_addf(&src->describe, "maildir %s", path);
		return mbox_open(&src->mb, path, MBOX_AUTO);
	}
	src->kind = SRC_MBOX;
	strbuf_addf(&src->describe, "mbox %s", path);
	if (!S_ISREG(st.st_mode)) {
		/* a pipe (<(cmd), /dev/stdin), a device: read, not mapped */
		int r;

		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error_errno("cannot open %s", path);
		r = read_fd_max(&src->mem, fd, mail_max_size());
		close(fd);
		if (r < 0)
			return error_errno("cannot read %s", path);
		if (r > 0)
			return error_too_large(path, 0, mail_max_size());
		src->buf = src->mem.buf;
		src->size = src->mem.len;
		return open_mbox_buffer(src);
	}
	if ((uintmax_t)st.st_size > mail_max_size())
		return error_too_large(path, (size_t)st.st_size,
				       mail_max_size());
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return error_errno("cannot open %s", path);
	if (st.st_size > 0) {
		src->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
				fd, 0);
		if (src->map == MAP_FAILED) {
			src->map = NULL;
			close(fd);
			return error_errno("cannot map %s", path);
		}
		src->buf = src->map;
		src->size = (size_t)st.st_size;
		/* read front to back once: let the kernel read ahead */
		madvise(src->map, src->size, MADV_SEQUENTIAL | MADV_WILLNEED);
	} else {
		src->buf = "";
		src->size = 0;
	}
	close(fd);
	return open_mbox_buffer(src);
}

int mail_source_open(struct mail_source **out, const char *spec,
		     const struct mail_source_options *o)
{
	struct mail_source *src = xcalloc(1, sizeof(*src));
	int r;

	strbuf_init(&src->describe, 0);
	strbuf_init(&src->mem, 0);
	strbuf_init(&src->cur, 0);
	src->name = xstrdup(spec);
	*out = src;
	if (!strncmp(spec, "lore:", 5)) {
		if (!o || !o->lore_url)
			return error("no lore URL for %s", spec);
		src->kind = SRC_MBOX;
		strbuf_addf(&src->describe, "lore %s/%s", o->lore_url, spec + 5);
		r = lore_thread_fetch(o->lore_url, spec + 5, o->cache_dir,
				      o->lore_refresh ? LORE_REFRESH : 0,
				      &src->mem);
		if (r < 0)
			return r;
		src->buf = src->mem.buf;
		src->size = src->mem.len;
		return open_mbox_buffer(src);
	}
	if (!strncmp(spec, "notmuch:", 8)) {
		src->kind = SRC_FILES;
		strbuf_addf(&src->describe, "notmuch %s", spec + 8);
		if (!spec[8])
			return error_code(RESPIN_EUSAGE, "notmuch: needs a "
					  "query, such as notmuch:thread:{id:X}");
		return nm_query_files(o ? o->notmuch_db : NULL, spec + 8,
				      nm_collect, src);
	}
	if (!strcmp(spec, "-")) {
		src->kind = SRC_MBOX;
		strbuf_addstr(&src->describe, "mbox on standard input");
		r = read_fd_max(&src->mem, 0, mail_max_size());
		if (r < 0)
			return error_errno("cannot read standard input");
		if (r > 0)
			return error_too_large("the mail on standard input",
					       0, mail_max_size());
		src->buf = src->mem.buf;
		src->size = src->mem.len;
		return open_mbox_buffer(src);
	}
	return open_path(src, spec);
}

int mail_source_open_mbox(struct mail_source **out, const char *name,
			  const char *describe, struct strbuf *mbox)
{
	struct mail_source *src = xcalloc(1, sizeof(*src));

	strbuf_init(&src->describe, 0);
	strbuf_init(&src->mem, 0);
	strbuf_init(&src->cur, 0);
	src->name = xstrdup(name);
	src->kind = SRC_MBOX;
	strbuf_addstr(&src->describe, describe);
	*out = src;
	src->mem = *mbox;
	strbuf_init(mbox, 0);
	src->buf = src->mem.buf;
	src->size = src->mem.len;
	return open_mbox_buffer(src);
}

static int read_one_file(struct mail_source *src, const char *path,
			 struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	size_t size = 0;
	int r = read_file_max(&raw, path, mail_max_size(), &size);

	if (r < 0) {
		strbuf_release(&raw);
		return error_errno("cannot read message file %s", path);
	}
	if (r > 0) {
		strbuf_release(&raw);
		return error_too_large(path, size, mail_max_size());
	}
	/* public-inbox and some tools put a "From " line first */
	if (!strncmp(raw.buf, "From ", 5)) {
		const char *nl = strchr(raw.buf, '\n');
		size_t skip = nl ? (size_t)(nl - raw.buf + 1) : raw.len;

		mbox_unescape(out, raw.buf + skip, raw.len - skip, MBOX_RD,
			      memchr(raw.buf, '\r', raw.len) != NULL);
	} else {
		mbox_unescape(out, raw.buf, raw.len, MBOX_ONE,
			      memchr(raw.buf, '\r', raw.len) != NULL);
	}
	strbuf_release(&raw);
	return 0;
}

int mail_source_next(struct mail_source *src, struct mail_source_msg *msg)
{
	struct mbox_msg m;
	int r;

	memset(msg, 0, sizeof(*msg));
	if (src->scanned)
		return 0;
	if (src->kind == SRC_FILES) {
		if (src->next_file >= src->nr_files)
			return 0;
		strbuf_reset(&src->cur);
		r = read_one_file(src, src->files[src->next_file], &src->cur);
		if (r < 0)
			return r;
		msg->path = src->files[src->next_file];
		msg->number = ++src->next_file;
		msg->data = src->cur.buf;
		msg->len = src->cur.len;
		return 1;
	}
	r = mbox_next(src->mb, &m);
	if (r <= 0)
		return r;
	msg->data = m.data;
	msg->len = m.len;
	msg->number = m.number;
	msg->path = m.path;
	msg->truncated = m.truncated;
	if (src->kind == SRC_MAILDIR) {
		ALLOC_GROW(src->files, src->nr_files, src->alloc_files);
		src->files[src->nr_files++] = xstrdup(m.path);
	} else {
		struct msg_place *p;

		ALLOC_GROW(src->places, src->nr_places, src->alloc_places);
		p = &src->places[src->nr_places++];
		p->offset = m.offset;
		p->raw_len = m.raw_len;
		p->crlf = m.crlf;
	}
	return 1;
}

/*
 * The pages of the mapped mbox around [off, off + len) leave respin's
 * memory once read: they count in its resident size as long as they
 * are mapped in, another copy of a big mail beside the one made of it.
 * The mapping is read-only and private, so a later read maps them in
 * again from the file (the page cache), unchanged.
 */
static void map_drop(struct mail_source *src, size_t off, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), start, end;

	if (!src->map || !len || off >= src->size)
		return;
	start = off - off % page;
	end = off + len < src->size ? off + len : src->size;
	madvise((char *)src->map + start, end - start, MADV_DONTNEED);
}

int mail_source_get(struct mail_source *src, size_t n, struct strbuf *out)
{
	const struct msg_place *p;
	size_t len;

	if (src->kind != SRC_MBOX) {
		if (!n || n > src->nr_files)
			return error("%s has no message #%zu", src->name, n);
		return read_one_file(src, src->files[n - 1], out);
	}
	if (!n || n > src->nr_places)
		return error("%s has no message #%zu", src->name, n);
	p = &src->places[n - 1];
	len = p->raw_len;
	if (len >= 2 && src->buf[p->offset + len - 1] == '\n' &&
	    src->buf[p->offset + len - 2] == '\n')
		len--;
	mbox_unescape(out, src->buf + p->offset, len, src->fmt, p->crlf);
	map_drop(src, p->offset, p->raw_len);
	return 0;
}

int mail_source_get_head(struct mail_source *src, size_t n,
			 struct strbuf *out)
{
	const struct msg_place *p;
	const char *start, *end, *lim;

	if (src->kind != SRC_MBOX || !n || n > src->nr_places)
		return mail_source_get(src, n, out);
	p = &src->places[n - 1];
	start = src->buf + p->offset;
	lim = start + p->raw_len;
	/* up to the blank line that ends the header, that line kept */
	for (end = start; (end = memchr(end, '\n', (size_t)(lim - end)));) {
		end++;
		if (end < lim && *end == '\n') {
			end++;
			break;
		}
		if (lim - end >= 2 && end[0] == '\r' && end[1] == '\n') {
			end += 2;
			break;
		}
	}
	if (!end)
		end = lim;
	mbox_unescape(out, start, (size_t)(end - start), src->fmt, p->crlf);
	map_drop(src, p->offset, (size_t)(end - start));
	return 0;
}

/* Below this an mbox is read in one thread: not worth a second. */
#define SCAN_SPLIT_MIN (16u << 20)

struct scan_part {
	struct mail_source *src;
	struct mbox *mb;
	size_t base;			/* where the part starts in src->buf */
	struct msg_place *places;
	size_t nr, alloc;
	int (*fn)(const struct mail_source_msg *, int, void *);
	void *data;
	int part, r;
};

static void *scan_part_run(void *arg)
{
	struct scan_part *sp = arg;
	struct mbox_msg m;
	int r;

	while ((r = mbox_next(sp->mb, &m)) > 0) {
		struct mail_source_msg msg = { 0 };

		ALLOC_GROW(sp->places, sp->nr, sp->alloc);
		sp->places[sp->nr].offset = sp->base + m.offset;
		sp->places[sp->nr].raw_len = m.raw_len;
		sp->places[sp->nr].crlf = m.crlf;
		sp->nr++;
		msg.data = m.data;
		msg.len = m.len;
		msg.number = m.number;
		msg.path = m.path;
		msg.truncated = m.truncated;
		r = sp->fn(&msg, sp->part, sp->data);
		if (r)
			break;
	}
	sp->r = r;
	return NULL;
}

/* Where the second half starts: a separator line after the middle. */
static size_t split_point(const struct mail_source *src)
{
	const char *mid = src->buf + src->size / 2, *p;

	p = memmem(mid, (size_t)(src->buf + src->size - mid), "\n\nFrom ", 7);
	return p ? (size_t)(p + 2 - src->buf) : 0;
}

int mail_source_scan(struct mail_source *src,
		     int (*fn)(const struct mail_source_msg *msg, int part,
			       void *data),
		     void *data, size_t *first_part_count)
{
	struct scan_part part[2];
	pthread_t thread;
	size_t split = 0, k;
	int r, threaded = 0;

	*first_part_count = 0;
	/* RESPIN_SCAN_THREADS=1 reads in one thread (to compare, to debug) */
	if (src->kind == SRC_MBOX && !src->nr_places &&
	    src->size >= SCAN_SPLIT_MIN && src->fmt != MBOX_ONE &&
	    !(getenv("RESPIN_SCAN_THREADS") &&
	      !strcmp(getenv("RESPIN_SCAN_THREADS"), "1")))
		split = split_point(src);
	memset(part, 0, sizeof(part));
	if (split) {
		for (k = 0; k < 2; k++) {
			part[k].src = src;
			part[k].base = k ? split : 0;
			part[k].fn = fn;
			part[k].data = data;
			part[k].part = (int)k;
		}
		if (mbox_open_buffer(&part[0].mb, src->buf, split, src->name,
				     src->fmt) < 0 ||
		    mbox_open_buffer(&part[1].mb, src->buf + split,
				     src->size - split, src->name,
				     src->fmt) < 0) {
			/* not a clean cut after all: one thread */
			error_clear();
			mbox_free(part[0].mb);
			mbox_free(part[1].mb);
			split = 0;
		}
	}
	if (!split) {
		struct mail_source_msg msg;
		size_t n = 0;

		while ((r = mail_source_next(src, &msg)) > 0) {
			n++;
			if ((r = fn(&msg, 0, data)))
				break;
		}
		*first_part_count = n;
		map_drop(src, 0, src->size);
		return r < 0 ? r : 0;
	}
	threaded = !pthread_create(&thread, NULL, scan_part_run, &part[1]);
	scan_part_run(&part[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		scan_part_run(&part[1]);
	for (k = 0; k < 2; k++) {
		size_t i;

		for (i = 0; i < part[k].nr; i++) {
			ALLOC_GROW(src->places, src->nr_places,
				   src->alloc_places);
			src->places[src->nr_places++] = part[k].places[i];
		}
		free(part[k].places);
		mbox_free(part[k].mb);
	}
	src->scanned = 1;
	map_drop(src, 0, src->size);
	*first_part_count = part[0].nr;
	r = part[0].r < 0 ? part[0].r : part[1].r < 0 ? part[1].r : 0;
	return r;
}

const char *mail_source_describe(const struct mail_source *src)
{
	return src->describe.buf;
}

const char *mail_source_name(const struct mail_source *src)
{
	return src->name;
}

void mail_source_free(struct mail_source *src)
{
	size_t i;

	if (!src)
		return;
	mbox_free(src->mb);
	if (src->map)
		munmap(src->map, src->size);
	for (i = 0; i < src->nr_files; i++)
		free(src->files[i]);
	free(src->files);
	free(src->places);
	free(src->name);
	strbuf_release(&src->describe);
	strbuf_release(&src->mem);
	strbuf_release(&src->cur);
	free(src);
}
