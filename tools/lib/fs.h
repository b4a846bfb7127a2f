/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_FS_H
#define RESPIN_FS_H

#include <stddef.h>

/*
 * Makes the directory path and any parents it lacks (as mkdir -p);
 * 0, or <0 with a message naming the directory that could not be made.
 */
int mkdir_parents(const char *path);

/* The same for the directories that lead to path (a file's folder). */
int mkdir_leading(const char *path);

/*
 * rm -rf of a tree of respin's own, in process (symbolic links are
 * removed, never followed); 0 when nothing is left (nothing there is
 * fine), <0 with a message naming what could not be removed.
 */
int remove_tree(const char *path);

/*
 * Writes len bytes of data to path whole or not at all: into a new
 * temporary file (in tmp_dir, or beside path when tmp_dir is NULL; a
 * maildir delivers through its tmp/), flushed to disk, then renamed to
 * path, so that a reader, or a crash, sees the old file or the whole
 * new one.  The file gets mode less the umask.  0, or <0 with a message
 * naming the file; the temporary file is removed on a failure.
 */
int write_file_atomic(const char *path, const char *tmp_dir,
		      const char *data, size_t len, unsigned mode);

struct strbuf;
/*
 * A helper program of respin's own (BUILD/NAME or tools/NAME in the
 * build tree, PREFIX/libexec/respin/NAME installed), found beside the running
 * respin: 0 and its path in out; RESPIN_ENOTFOUND and NAME alone in out
 * (left to PATH) when neither is there.
 */
int respin_tool_path(const char *name, struct strbuf *out);

#endif
