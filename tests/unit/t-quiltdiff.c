// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A quilt patch file's diff as quilt reads it, through the one rewrite
 * respin has for diffs not made by git (diff_normalize(), which quilt
 * --quilt stacks share with mail): akpm's form ("--- a/f.c~name" over
 * "+++ a/f.c", /dev/null for a new file, "diff -puN" lines, the "_"
 * that ends his files) and quilt's own (Index:, timestamps, a deleted
 * file).  Hunk lines that look like file headers stay hunk lines.
 */
#include "patches/diffnorm.h"
#include "tools/lib/strbuf.h"
#include "tap.h"

#include <git2.h>
#include <string.h>

/* diff read as quilt.c reads it: the deltas, "status path" a line */
static void reads_as(const char *in, const char *want, const char *what)
{
	struct strbuf out = STRBUF_INIT, got = STRBUF_INIT;
	git_diff *d = NULL;
	size_t i;

	if (!diff_normalize(in, strlen(in), &out))
		strbuf_addstr(&out, in);
	if (git_diff_from_buffer(&d, out.buf, out.len) < 0)
		strbuf_addf(&got, "libgit2: %s\n", git_error_last()->message);
	for (i = 0; d && i < git_diff_num_deltas(d); i++) {
		const git_diff_delta *x = git_diff_get_delta(d, i);
		git_patch *p = NULL;
		size_t ctx = 0, add = 0, del = 0;

		git_patch_from_diff(&p, d, i);
		git_patch_line_stats(&ctx, &add, &del, p);
		strbuf_addf(&got, "%c %s +%zu -%zu\n",
			    git_diff_status_char(x->status),
			    x->status == GIT_DELTA_DELETED ? x->old_file.path :
			    x->new_file.path, add, del);
		git_patch_free(p);
	}
	is_str(got.buf, want, "%s", what);
	git_diff_free(d);
	strbuf_release(&out);
	strbuf_release(&got);
}

/* as akpm writes it: the old side named "~patch-name" */
static const char akpm[] =
	"diff -puN mm/vmscan.c~mm-vmscan-scan-less mm/vmscan.c\n"
	"--- a/mm/vmscan.c~mm-vmscan-scan-less\n"
	"+++ a/mm/vmscan.c\n"
	"@@ -1,3 +1,3 @@\n"
	" one\n"
	"--- not a header\n"
	"+++ nor this\n"
	" three\n"
	"diff -puN /dev/null mm/new.c\n"
	"--- /dev/null\n"
	"+++ a/mm/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n"
	"_\n";

/* quilt's own with Index: lines, timestamps and a deleted file */
static const char quilt[] =
	"Index: linux/mm/a.c\n"
	"===================================================================\n"
	"--- linux.orig/mm/a.c\t2023-11-14 10:00:00.000000000 +0000\n"
	"+++ linux/mm/a.c\t2023-11-14 10:00:01.000000000 +0000\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n"
	"Index: linux/mm/old.c\n"
	"===================================================================\n"
	"--- linux.orig/mm/old.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-old\n";

static const char git[] =
	"diff --git a/x b/x\n"
	"index 1111111..2222222 100644\n"
	"--- a/x\n"
	"+++ b/x\n"
	"@@ -1 +1 @@\n"
	"-x\n"
	"+y\n";

int main(void)
{
	struct strbuf sb = STRBUF_INIT;

	git_libgit2_init();
	reads_as(akpm, "M mm/vmscan.c +1 -1\nA mm/new.c +1 -0\n",
		 "akpm's form: ~name gone, a hunk line like a header kept, \"_\" left");
	reads_as(quilt, "M mm/a.c +1 -1\nD mm/old.c +0 -1\n",
		 "quilt's form: Index:, timestamps, a deleted file");
	reads_as(git, "M x +1 -1\n", "a git diff");
	ok(diff_normalize(git, strlen(git), &sb) == 0 && !sb.len,
	   "a git diff is taken as it is");
	strbuf_release(&sb);
	git_libgit2_shutdown();
	return done_testing();
}
