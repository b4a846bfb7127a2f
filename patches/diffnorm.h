/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_DIFFNORM_H
#define RESPIN_DIFFNORM_H

#include <stddef.h>

struct strbuf;

/*
 * A diff that `git apply` accepts rewritten as git writes one, so that
 * libgit2 reads it and its patch-id is git's for the same change:
 *
 * - a file section that is not git's (quilt's "Index:" + "====" +
 *   "--- linux.orig/x", `diff -up a/x b/x`, `diff -urN old new`) gets a
 *   "diff --git a/x b/x" header, its names with the first path
 *   component stripped (as `git apply -p1`) and no timestamps;
 *   /dev/null on one side makes a new or a deleted file (mode 100644);
 * - a blank line inside a hunk (a mailer stripped the leading space) is
 *   a context line;
 * - git diff -B's "dissimilarity index" line, which libgit2 refuses, is
 *   left out (as git show leaves it out of the same change).
 *
 * The diff is [p, p + len), whole lines as patchmail_split() delimits
 * it.  Returns 1 with the rewritten diff appended to out, 0 when the
 * diff is git's already (out untouched).
 */
int diff_normalize(const char *p, size_t len, struct strbuf *out);

#endif
