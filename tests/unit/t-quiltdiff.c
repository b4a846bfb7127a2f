// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for quilt_git_form(): a diff as akpm's quilt patch files
 * hold it ("--- a/f.c~name", "+++ a/f.c", /dev/null for a new file,
 * Index: lines) in git's form, one libgit2 parses; hunk lines that look
 * like file headers stay hunk lines.
 */
#include "series/quilt.h"
#include "tap.h"

#include <git2.h>
#include <string.h>

static void form_is(const char *in, const char *want, const char *what)
{
	struct strbuf out = STRBUF_INIT;

	quilt_git_form(in, &out);
	is_str(out.buf, want, "%s", what);
	strbuf_release(&out);
}

static void parses(const char *in, size_t files, const char *what)
{
	struct strbuf out = STRBUF_INIT;
	git_diff *d = NULL;

	quilt_git_form(in, &out);
	ok(!git_diff_from_buffer(&d, out.buf, out.len) &&
	   git_diff_num_deltas(d) == files, "libgit2 reads %s", what);
	git_diff_free(d);
	strbuf_release(&out);
}

/* as akpm writes it: the old side named "~patch-name" */
static const char akpm[] =
	"--- a/mm/vmscan.c~mm-vmscan-scan-less\n"
	"+++ a/mm/vmscan.c\n"
	"@@ -1,3 +1,3 @@\n"
	" one\n"
	"--- not a header\n"
	"+++ nor this\n"
	" three\n"
	"--- /dev/null\n"
	"+++ a/mm/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n";

static const char akpm_git[] =
	"diff --git a/mm/vmscan.c b/mm/vmscan.c\n"
	"--- a/mm/vmscan.c\n"
	"+++ b/mm/vmscan.c\n"
	"@@ -1,3 +1,3 @@\n"
	" one\n"
	"--- not a header\n"
	"+++ nor this\n"
	" three\n"
	"diff --git a/mm/new.c b/mm/new.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/mm/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n";

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

static const char quilt_git[] =
	"diff --git a/mm/a.c b/mm/a.c\n"
	"--- a/mm/a.c\n"
	"+++ b/mm/a.c\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n"
	"diff --git a/mm/old.c b/mm/old.c\n"
	"deleted file mode 100644\n"
	"--- a/mm/old.c\n"
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
	git_libgit2_init();
	form_is(akpm, akpm_git, "akpm's form, a hunk line like a header kept");
	parses(akpm, 2, "akpm's form");
	form_is(quilt, quilt_git, "quilt's form: Index:, timestamps, a deleted file");
	parses(quilt, 2, "quilt's form");
	form_is(git, git, "a git diff as it is");
	git_libgit2_shutdown();
	return done_testing();
}
