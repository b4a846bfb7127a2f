// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int remove_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 &&
	    errno != ENOENT)
		return error_errno("cannot remove %s", path);
	return 0;
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

int respin_tool_path(const char *name, struct strbuf *out)
{
	static const char *const near[] = {
		"/",			/* a program built beside respin */
		"/../tools/",		/* the build tree: build/respin */
		"/../libexec/respin/",	/* installed: PREFIX/bin/respin */
	};
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t k;

	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (k = 0; k < sizeof(near) / sizeof(*near); k++) {
			strbuf_reset(out);
			strbuf_addf(out, "%s%s%s", exe, near[k], name);
			if (!access(out->buf, F_OK))
				return 0;
		}
	}
	strbuf_reset(out);
	strbuf_addstr(out, name);
	return RESPIN_ENOTFOUND;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file_atomic(const char *path, const char *tmp_dir,
		      const char *data, size_t len, unsigned mode)
{
	static unsigned long seq;
	struct strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	size_t stem;
	int fd = -1, i, r = 0;

	if (tmp_dir)
		strbuf_addf(&tmp, "%s/%s", tmp_dir, slash ? slash + 1 : path);
	else
		strbuf_addstr(&tmp, path);
	stem = tmp.len;
	/* a name of its own (O_EXCL): the open applies the umask */
	for (i = 0; i < 100 && fd < 0; i++) {
		strbuf_setlen(&tmp, stem);
		strbuf_addf(&tmp, ".tmp-%ld-%lu", (long)getpid(),
			    __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
		fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  (mode_t)mode);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = error_errno("cannot write %s", tmp.buf);
		goto out;
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		r = error_errno("cannot write %s", tmp.buf);
		close(fd);
	} else if (close(fd) < 0) {
		r = error_errno("cannot write %s", tmp.buf);
	} else if (rename(tmp.buf, path) < 0) {
		r = error_errno("cannot rename %s to %s", tmp.buf, path);
	}
	if (r < 0)
		unlink(tmp.buf);
out:
	strbuf_release(&tmp);
	return r;
}
