// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diffs not made by git (quilt, diff -up, diff -urN) and blank context
 * lines, rewritten as git writes them: the text, and the patch-id
 * libgit2 finds in it, which must be the one of git's own diff of the
 * same change (the git diffs below are what `git show` prints).
 */
#include "tap.h"
#include "patches/diffnorm.h"
#include "patches/patch.h"
#include "tools/lib/strbuf.h"

#include <git2.h>
#include <stdlib.h>

static const char git_mod[] =
	"diff --git a/mm/x.c b/mm/x.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -2,7 +2,7 @@ b\n"
	" b\n"
	" c\n"
	" d\n"
	"-e\n"
	"+E\n"
	" f\n"
	" g\n"
	"\n"			/* a blank context line, its space stripped */
	"diff --git a/mm/y.c b/mm/y.c\n"
	"new file mode 100644\n"
	"index 0000000..3333333\n"
	"--- /dev/null\n"
	"+++ b/mm/y.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n"
	"diff --git a/mm/z.c b/mm/z.c\n"
	"deleted file mode 100644\n"
	"index 4444444..0000000\n"
	"--- a/mm/z.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-gone\n";

static const char quilt[] =
	"Index: linux/mm/x.c\n"
	"===================================================================\n"
	"--- linux.orig/mm/x.c\t2023-01-31 10:00:00.000000000 +0100\n"
	"+++ linux/mm/x.c\t2023-01-31 10:00:01.000000000 +0100\n"
	"@@ -2,7 +2,7 @@\n"
	" b\n"
	" c\n"
	" d\n"
	"-e\n"
	"+E\n"
	" f\n"
	" g\n"
	" \n"
	"Index: linux/mm/y.c\n"
	"===================================================================\n"
	"--- /dev/null\t1970-01-01 00:00:00.000000000 +0000\n"
	"+++ linux/mm/y.c\t2023-01-31 10:00:01.000000000 +0100\n"
	"@@ -0,0 +1 @@\n"
	"+new\n"
	"Index: linux/mm/z.c\n"
	"===================================================================\n"
	"--- linux.orig/mm/z.c\t2023-01-31 10:00:00.000000000 +0100\n"
	"+++ /dev/null\t1970-01-01 00:00:00.000000000 +0000\n"
	"@@ -1 +0,0 @@\n"
	"-gone\n";

static const char diff_up[] =
	"diff -u -p a/mm/x.c b/mm/x.c\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -2,7 +2,7 @@ b\n"
	" b\n"
	" c\n"
	" d\n"
	"-e\n"
	"+E\n"
	" f\n"
	" g\n"
	"\n"
	"diff -urN old/mm/y.c new/mm/y.c\n"
	"--- old/mm/y.c 1970-01-01 00:00:00.000000000 +0000\n"
	"+++ new/mm/y.c 2023-01-31 10:00:01.000000000 +0100\n"
	"@@ -0,0 +1 @@\n"
	"+new\n"
	"--- a/mm/z.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-gone\n";

static int patch_id(const char *text, size_t len, git_oid *id)
{
	git_diff *diff = NULL;
	int r = git_diff_from_buffer(&diff, text, len);

	if (!r)
		r = git_diff_patchid(id, diff, NULL);
	if (r < 0)
		printf("# libgit2: %s\n", git_error_last()->message);
	git_diff_free(diff);
	return r;
}

static void same_change(const char *name, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	git_oid want, got;
	char w[GIT_OID_HEXSZ + 1], g[GIT_OID_HEXSZ + 1];

	ok(diff_normalize(text, strlen(text), &sb) == 1, "%s: rewritten", name);
	ok(!strstr(sb.buf, "Index:") && !strstr(sb.buf, "===") &&
	   !strstr(sb.buf, "linux.orig") && !strstr(sb.buf, "1970") &&
	   !strstr(sb.buf, "\n\n"),
	   "%s: no quilt lines, timestamps or blank lines left", name);
	ok(strstr(sb.buf, "diff --git a/mm/x.c b/mm/x.c\nindex 1111111..2222222 100644\n--- a/mm/x.c\n+++ b/mm/x.c\n") != NULL,
	   "%s: a git header, the first path component stripped", name);
	ok(strstr(sb.buf, "diff --git a/mm/y.c b/mm/y.c\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/mm/y.c\n") != NULL,
	   "%s: /dev/null before makes a new file", name);
	ok(strstr(sb.buf, "diff --git a/mm/z.c b/mm/z.c\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/mm/z.c\n+++ /dev/null\n") != NULL,
	   "%s: /dev/null after makes a deleted file", name);
	ok(!patch_id(git_mod, strlen(git_mod), &want) &&
	   !patch_id(sb.buf, sb.len, &got), "%s: libgit2 reads it", name);
	git_oid_tostr(w, sizeof(w), &want);
	git_oid_tostr(g, sizeof(g), &got);
	is_str(g, w, "%s: the patch-id of git's diff of the same change", name);
	strbuf_release(&sb);
}

/*
 * git's id of a diff text (git patch-id --stable, the installed git's,
 * written down here) against respin's for what libgit2 reads.
 */
static void id_is(const char *text, const char *want, const char *what)
{
	git_diff *diff = NULL;
	git_oid id;
	char got[GIT_OID_HEXSZ + 1] = "";

	if (!git_diff_from_buffer(&diff, text, strlen(text)) &&
	    !patch_diff_id(diff, &id))
		git_oid_tostr(got, sizeof(got), &id);
	else
		printf("# libgit2: %s\n", git_error_last()->message);
	is_str(got, want, "%s: git patch-id --stable's id", what);
	git_diff_free(diff);
}

/*
 * File sections with no hunk: an empty file added first, another
 * ("my file", a name with a blank) removed last, and a mode change
 * before a changed file.  git apply --numstat reads all of them.
 */
static void hunkless(void)
{
	static const char empty[] =
		"diff --git a/empty.h b/empty.h\n"
		"new file mode 100644\n"
		"index 0000000..e69de29\n"
		"diff --git a/x.c b/x.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,3 +1,4 @@\n"
		" a\n"
		" b\n"
		" c\n"
		"+d\n"
		"diff --git a/old.h b/old.h\n"
		"deleted file mode 100644\n"
		"index e69de29..0000000\n";
	static const char blank_name[] =
		"diff --git a/my file b/my file\n"
		"deleted file mode 100644\n";
	static const char mode[] =
		"diff --git a/run.sh b/run.sh\n"
		"old mode 100644\n"
		"new mode 100755\n"
		"diff --git a/x.c b/x.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,3 +1,4 @@\n"
		" a\n"
		" b\n"
		" c\n"
		"+d\n";
	static const char no_index[] =
		"diff --git a/tool.sh b/tool.sh\n"
		"new file mode 100755\n"
		"diff --git \"a/t\\303\\244.h\" \"b/t\\303\\244.h\"\n"
		"deleted file mode 100644\n";
	struct strbuf sb = STRBUF_INIT;
	git_diff *diff = NULL;

	ok(diff_normalize(empty, strlen(empty), &sb) == 1 &&
	   strstr(sb.buf, "index 0000000..e69de29\n--- /dev/null\n+++ b/empty.h\ndiff --git a/x.c") &&
	   strstr(sb.buf, "index e69de29..0000000\n--- a/old.h\n+++ /dev/null\n"),
	   "an empty file added and one removed: closed with ---/+++ lines");
	ok(!git_diff_from_buffer(&diff, sb.buf, sb.len) &&
	   git_diff_num_deltas(diff) == 3 &&
	   git_diff_get_delta(diff, 0)->status == GIT_DELTA_ADDED &&
	   git_diff_get_delta(diff, 2)->status == GIT_DELTA_DELETED &&
	   !strcmp(git_diff_get_delta(diff, 2)->old_file.path, "old.h"),
	   "libgit2 reads the three files, added and deleted");
	git_diff_free(diff);
	id_is(sb.buf, "81fbcd1335ae53c14286e2d40b9612371a21cf31",
	      "empty files added and removed");
	strbuf_reset(&sb);
	ok(diff_normalize(mode, strlen(mode), &sb) == 0,
	   "a mode change is git's already");
	id_is(mode, "7b6d27b99e31174f958031f32d91bfb2447c051c",
	      "a mode change before a changed file");
	id_is(mode + 61, "e6f456b419d46d1041fbd8460c1ec57c75d6f0f8",
	      "the changed file alone");
	ok(diff_normalize(blank_name, strlen(blank_name), &sb) == 1 &&
	   strstr(sb.buf, "--- a/my file\n+++ /dev/null\n"),
	   "a name with a blank: the header split where both halves agree");
	strbuf_reset(&sb);
	ok(diff_normalize(no_index, strlen(no_index), &sb) == 1 &&
	   !strcmp(sb.buf, "diff --git a/tool.sh b/tool.sh\n"
		   "new file mode 100755\n"
		   "index 0000000..e69de29\n"
		   "--- /dev/null\n"
		   "+++ b/tool.sh\n"
		   "diff --git \"a/t\\303\\244.h\" \"b/t\\303\\244.h\"\n"
		   "deleted file mode 100644\n"
		   "index e69de29..0000000\n"
		   "--- \"a/t\\303\\244.h\"\n"
		   "+++ /dev/null\n"),
	   "no index line: the empty blob's; quoted names kept quoted");
	ok(!git_diff_from_buffer(&diff, sb.buf, sb.len) &&
	   git_diff_num_deltas(diff) == 2 &&
	   git_diff_get_delta(diff, 0)->new_file.mode == 0100755,
	   "libgit2 reads them, the new file executable");
	git_diff_free(diff);
	strbuf_release(&sb);
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	static const char plain_git[] =
		"diff --git a/mm/y.c b/mm/y.c\n"
		"new file mode 100644\n"
		"index 0000000..3333333\n"
		"--- /dev/null\n"
		"+++ b/mm/y.c\n"
		"@@ -0,0 +1 @@\n"
		"+new\n"
		"\\ No newline at end of file\n";

	git_libgit2_init();
	ok(diff_normalize(plain_git, strlen(plain_git), &sb) == 0 && !sb.len,
	   "a git diff is left as it is");
	strbuf_reset(&sb);
	ok(diff_normalize(git_mod, strlen(git_mod), &sb) == 1 &&
	   strstr(sb.buf, " g\n \ndiff --git a/mm/y.c") != NULL,
	   "a blank line in a hunk is a context line");
	strbuf_reset(&sb);
	{
		static const char rewrite[] =
			"diff --git a/mm/w.c b/mm/w.c\n"
			"dissimilarity index 93%\n"
			"index 1111111..2222222 100644\n"
			"--- a/mm/w.c\n"
			"+++ b/mm/w.c\n"
			"@@ -1,2 +1,2 @@\n"
			"-old one\n"
			"-old two\n"
			"+new one\n"
			"+new two\n";
		git_oid id;

		ok(diff_normalize(rewrite, strlen(rewrite), &sb) == 1 &&
		   !strstr(sb.buf, "dissimilarity") &&
		   !patch_id(sb.buf, sb.len, &id),
		   "a rewrite (git diff -B) is read, its dissimilarity line left out");
	}
	strbuf_release(&sb);
	same_change("quilt", quilt);
	same_change("diff -up, -urN, plain", diff_up);
	hunkless();
	git_libgit2_shutdown();
	return done_testing();
}
