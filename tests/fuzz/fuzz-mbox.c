// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mbox and maildir reader.  The first byte picks how the rest is
 * read: bits 0-1 the format (auto, mboxrd, mboxo, one raw message);
 * bit 2 clear: from a buffer; set: from a file, mapped as mbox_open()
 * maps it, or (bits 0-2 all set) as a maildir whose messages are the
 * rest's pieces between "\n\n\n\n" lines, in cur/ and new/ of a
 * directory made once per process.
 */
#include "patches/mbox.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void mbox_fuzz_read(struct mbox *mb, const char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	struct mbox_msg msg;
	size_t n = 0;
	int r;

	while ((r = mbox_next(mb, &msg)) > 0) {
		n++;
		if (msg.number != n || !msg.data)
			abort();
		/* a message borrowed from the buffer lies inside it */
		if (buf && !msg.copied &&
		    (msg.data < buf || msg.len > len ||
		     (size_t)(msg.data - buf) > len - msg.len))
			abort();
		strbuf_reset(&sb);
		mbox_unescape(&sb, msg.data, msg.len, MBOX_RD, msg.crlf);
		strbuf_reset(&sb);
		mbox_unescape(&sb, msg.data, msg.len, MBOX_O, 1);
	}
	if (r >= 0 && mbox_count(mb) != n)
		abort();
	strbuf_release(&sb);
}

static char mbox_fuzz_dir[] = "/tmp/fuzz-mbox.XXXXXX";
static const char *const mbox_fuzz_names[] = {
	"cur/1700000000.1.host:2,S", "cur/1700000001.2.host:2,",
	"new/1700000002.3.host", "new/1700000003.4.host", "fuzz.mbox",
};
#define MBOX_FUZZ_NAMES (sizeof(mbox_fuzz_names) / sizeof(mbox_fuzz_names[0]))

static void mbox_fuzz_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", mbox_fuzz_dir, name);
}

static void mbox_fuzz_unlink(void)
{
	char path[128];
	size_t i;

	for (i = 0; i < MBOX_FUZZ_NAMES; i++) {
		mbox_fuzz_path(path, sizeof(path), mbox_fuzz_names[i]);
		unlink(path);
	}
}

static void mbox_fuzz_cleanup(void)
{
	char path[128];

	mbox_fuzz_unlink();
	mbox_fuzz_path(path, sizeof(path), "cur");
	rmdir(path);
	mbox_fuzz_path(path, sizeof(path), "new");
	rmdir(path);
	rmdir(mbox_fuzz_dir);
}

/* A directory with cur/ and new/, made once, removed at exit. */
static int mbox_fuzz_setup(void)
{
	static int made;
	char path[128];

	if (made)
		return made;
	made = -1;
	if (!mkdtemp(mbox_fuzz_dir))
		return made;
	atexit(mbox_fuzz_cleanup);
	mbox_fuzz_path(path, sizeof(path), "cur");
	if (mkdir(path, 0700) < 0)
		return made;
	mbox_fuzz_path(path, sizeof(path), "new");
	if (mkdir(path, 0700) < 0)
		return made;
	made = 1;
	return made;
}

static int mbox_fuzz_write(const char *name, const char *p, size_t len)
{
	char path[128];
	FILE *f;
	int r;

	mbox_fuzz_path(path, sizeof(path), name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	r = fwrite(p, 1, len, f) == len ? 0 : -1;
	if (fclose(f))
		r = -1;
	return r;
}

/* Up to four messages, split at "\n\n\n\n", as maildir files. */
static void mbox_fuzz_maildir(const char *p, size_t len)
{
	const char *end = p + len;
	struct mbox *mb;
	size_t i;

	for (i = 0; i < 4 && (p < end || !i); i++) {
		const char *sep = memmem(p, end - p, "\n\n\n\n", 4);
		const char *e = sep && i < 3 ? sep + 1 : end;

		if (mbox_fuzz_write(mbox_fuzz_names[i], p, e - p) < 0)
			return;
		p = sep && i < 3 ? sep + 4 : end;
	}
	if (!mbox_open(&mb, mbox_fuzz_dir, MBOX_AUTO))
		mbox_fuzz_read(mb, NULL, 0);
	mbox_free(mb);
}

/* The input as an mbox file (mapped, not read). */
static void mbox_fuzz_file(const char *p, size_t len, enum mbox_format fmt)
{
	char path[128];
	struct mbox *mb;

	if (mbox_fuzz_write("fuzz.mbox", p, len) < 0)
		return;
	mbox_fuzz_path(path, sizeof(path), "fuzz.mbox");
	if (!mbox_open(&mb, path, fmt))
		mbox_fuzz_read(mb, NULL, 0);
	mbox_free(mb);
}

FUZZ_TARGET(mbox)
{
	const char *buf = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;
	struct mbox *mb = NULL;

	if (!size)
		return 0;
	if (data[0] & 4) {
		/* the files: 4-6 an mbox file, 7 a maildir */
		if (mbox_fuzz_setup() < 0)
			return 0;
		if ((data[0] & 7) == 7)
			mbox_fuzz_maildir(buf, len);
		else
			mbox_fuzz_file(buf, len, (enum mbox_format)(data[0] & 3));
		mbox_fuzz_unlink();
	} else if (!mbox_open_buffer(&mb, buf, len, "fuzz.mbox",
				     (enum mbox_format)(data[0] & 3))) {
		mbox_fuzz_read(mb, buf, len);
	}
	mbox_free(mb);
	error_clear();
	return 0;
}
