// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/source.h"
#include "patches/mbox.h"
#include "tools/lib/error.h"
#include "tools/lib/lore.h"
#include "tools/lib/nm.h"

#include <errno.h>
#include <fcntl.h>
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
	if (mbox_open_buffer(&src->mb, src->buf, src->size, src->name,
			     MBOX_AUTO) < 0)
		return -1;
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
		for (;;) {
			ssize_t n;

			strbuf_grow(&src->mem, 65536);
			n = read(0, src->mem.buf + src->mem.len,
				 src->mem.alloc - src->mem.len - 1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return error_errno("cannot read standard input");
			if (!n)
				break;
			strbuf_setlen(&src->mem, src->mem.len + (size_t)n);
		}
		src->buf = src->mem.buf;
		src->size = src->mem.len;
		return open_mbox_buffer(src);
	}
	return open_path(src, spec);
}

static int read_one_file(struct mail_source *src, const char *path,
			 struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;

	if (strbuf_read_file(&raw, path) < 0) {
		strbuf_release(&raw);
		return error_errno("cannot read message file %s", path);
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
	return 0;
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
