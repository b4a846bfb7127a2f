// SPDX-License-Identifier: GPL-2.0-or-later
/* limits: sizes as git reads them, capped reads that stop at the cap. */
#include "tools/lib/error.h"
#include "tools/lib/limits.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	static const struct { const char *s; int r; size_t v; } sizes[] = {
		{ "0", 0, 0 }, { "4096", 0, 4096 }, { "1k", 0, 1024 },
		{ "1K", 0, 1024 }, { "256m", 0, (size_t)256 << 20 },
		{ "2G", 0, (size_t)2 << 30 }, { "12x", -1, 0 }, { "", -1, 0 },
		{ "-1", -1, 0 }, { " 1", -1, 0 }, { "1kb", -1, 0 },
		{ "99999999999999999999", -1, 0 },
		{ "99999999999999999g", -1, 0 },
	};
	char path[] = "/tmp/t-limits.XXXXXX";
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	size_t i, v, size = 0;
	int fd;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		v = 7;
		is_int(size_parse(sizes[i].s, &v), sizes[i].r, "parse '%s'",
		       sizes[i].s);
		if (!sizes[i].r)
			is_int((long long)v, (long long)sizes[i].v,
			       "value of '%s'", sizes[i].s);
	}
	strbuf_add_size(&name, 256u << 20);
	is_str(name.buf, "256 MiB", "256 MiB reads as such");
	strbuf_reset(&name);
	strbuf_add_size(&name, 1536);
	is_str(name.buf, "1.5 KiB", "1536 bytes");

	fd = mkstemp(path);
	ok(fd >= 0, "a temporary file");
	if (fd < 0)
		return done_testing();
	ok(write(fd, "0123456789", 10) == 10, "ten bytes written");
	close(fd);
	is_int(read_file_max(&sb, path, 10, &size), 0, "10 bytes, cap 10");
	is_str(sb.buf, "0123456789", "all of it");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "kept");
	is_int(read_file_max(&sb, path, 9, &size), 1, "10 bytes, cap 9");
	is_str(sb.buf, "kept", "nothing appended");
	is_int((long long)size, 10, "its size");
	fd = open(path, O_RDONLY);
	is_int(read_fd_max(&sb, fd, 9), 1, "a descriptor stops at the cap");
	close(fd);
	is_int(read_file_max(&sb, "/nonexistent/x", 9, NULL), -1,
	       "a missing file");
	mail_max_size_set(0);
	is_int((long long)mail_max_size(), (long long)MAIL_MAX_SIZE_DEFAULT,
	       "0 means the default");
	mail_max_size_set(SIZE_MAX);
	ok(mail_max_size() <= SIZE_MAX / 2, "no cap for max + 1 to wrap");
	unlink(path);
	strbuf_release(&sb);
	strbuf_release(&name);
	return done_testing();
}
