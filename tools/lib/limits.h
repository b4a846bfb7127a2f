/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_LIMITS_H
#define RESPIN_LIMITS_H

#include <stddef.h>

struct strbuf;

/*
 * How much mail respin reads at once: a file, standard input, one
 * maildir message, one HTTP answer and what a gzip answer inflates to
 * are each refused beyond it, before more than that is in memory.  Set
 * from git config respin.maxMailSize by the command layer (see
 * config.h); a year of a busy list (162 MB) fits in the default.
 */
#define MAIL_MAX_SIZE_DEFAULT	((size_t)256 << 20)
#define MAIL_MAX_SIZE_KEY	"respin.maxMailSize"

size_t mail_max_size(void);
void mail_max_size_set(size_t max);

/*
 * Parses a size the way git config does: a decimal number with an
 * optional k, m or g suffix (any case; powers of 1024).  0 or -1 for
 * something else (a sign, other letters, an overflow).
 */
int size_parse(const char *s, size_t *out);

/* Appends n in readable units: "512 bytes", "3.0 KiB", "256 MiB". */
void strbuf_add_size(struct strbuf *sb, size_t n);

/*
 * Appends the contents of path to sb, at most max bytes: 0, -1 with
 * errno set when it cannot be read, 1 when it is larger than max
 * (then sb is as it was and *size, when not NULL, is its size or at
 * least max + 1).
 */
int read_file_max(struct strbuf *sb, const char *path, size_t max,
		  size_t *size);
/* The same from an open descriptor (standard input). */
int read_fd_max(struct strbuf *sb, int fd, size_t max);

/*
 * Records the error for something too large: "WHAT is larger than
 * respin.maxMailSize (256 MiB, it has 3 GiB)" with a hint on raising
 * it.  size is WHAT's size when known, else 0.  Returns RESPIN_ERR.
 */
int error_too_large(const char *what, size_t size, size_t max);

#endif
