// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mkdir_parents(const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	const char *p = path;
	int r = 0;

	if (!*path)
		return error("no directory name given");
	/* each prefix that ends before a '/', then the whole path */
	do {
		p = strchr(p + 1, '/');
		strbuf_reset(&dir);
		strbuf_add(&dir, path, p ? (size_t)(p - path) : strlen(path));
		if (dir.len && mkdir(dir.buf, 0777) < 0 && errno != EEXIST) {
			r = error_errno("cannot make the directory %s", dir.buf);
			break;
		}
	} while (p && p[1]);
	strbuf_release(&dir);
	return r;
}

int mkdir_leading(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int r;

	if (!slash || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	r = mkdir_parents(dir);
	free(dir);
	return r;
}
