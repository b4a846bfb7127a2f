// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regressions found by fuzzing: the two crashes on list mail that were
 * known before the fuzzers existed (a malformed hunk header, a NUL in
 * a hunk line), checked for a clear error that names the message, and
 * every input stored in tests/fuzz/regress/NAME/, run through the same
 * calls as the fuzz target NAME (tests/fuzz/fuzz-NAME.c, included
 * here).  A crash, an ASan report or a leak fails the test program.
 */
#include "patches/mail.h"
#include "patches/patchmail.h"
#include "patches/source.h"
#include "series/mailset.h"
#include "tests/unit/tap.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/fuzz/fuzz-bench.c"
#include "tests/fuzz/fuzz-ktap.c"
#include "tests/fuzz/fuzz-lint.c"
#include "tests/fuzz/fuzz-mail.c"
#include "tests/fuzz/fuzz-mbox.c"
#include "tests/fuzz/fuzz-patchmail.c"
#include "tests/fuzz/fuzz-rangediff.c"
#include "tests/fuzz/fuzz-review.c"
#include "tests/fuzz/fuzz-subject.c"
#include "tests/fuzz/fuzz-trailers.c"
#include "tests/fuzz/fuzz-tree.c"
#include "tests/fuzz/fuzz-warnings.c"

static const struct {
	const char *name;
	int (*fn)(const uint8_t *data, size_t size);
} targets[] = {
	{ "bench", fuzz_bench },
	{ "ktap", fuzz_ktap },
	{ "lint", fuzz_lint },
	{ "mail", fuzz_mail },
	{ "mbox", fuzz_mbox },
	{ "patchmail", fuzz_patchmail },
	{ "review", fuzz_review },
	{ "rangediff", fuzz_rangediff },
	{ "subject", fuzz_subject },
	{ "trailers", fuzz_trailers },
	{ "tree", fuzz_tree },
	{ "warnings", fuzz_warnings },
};

static const char patch_head[] =
	"Change.\n"
	"\n"
	"Signed-off-by: A U Thor <author@example.org>\n"
	"---\n"
	"diff --git a/mm/f.c b/mm/f.c\n"
	"--- a/mm/f.c\n"
	"+++ b/mm/f.c\n";

/* patchmail_split() of patch_head + hunk (len bytes): its result. */
static int split(const char *hunk, size_t len)
{
	struct strbuf body = STRBUF_INIT;
	struct patchmail pm;
	int r;

	strbuf_addstr(&body, patch_head);
	strbuf_add(&body, hunk, len);
	patchmail_init(&pm);
	error_clear();
	r = patchmail_split(&pm, body.buf, body.len, "message <p@example.org>");
	patchmail_release(&pm);
	strbuf_release(&body);
	return r;
}

static int error_says(const char *a, const char *b)
{
	const char *e = error_last();

	return strstr(e, "<p@example.org>") && strstr(e, a) &&
	       (!b || strstr(e, b));
}

static void test_split(void)
{
	static const char good[] = "@@ -1 +1 @@\n-a\n+b\n";
	static const char bad_old[] = "@@ -x +1 @@\n+one\n";
	static const char bad_new[] = "@@ -1,1 +y,2 @@\n-a\n+b\n";
	static const char signed_count[] = "@@ -1,-1 +1 @@\n+b\n";
	static const char nul[] = "@@ -1 +1 @@\n-a\0b\n+c\n";

	is_int(split(good, sizeof(good) - 1), 0, "a valid hunk splits");
	is_int(split(bad_old, sizeof(bad_old) - 1), -1,
	       "\"@@ -x +1 @@\" is an error, not a crash");
	ok(error_says("line 4 of the diff", "not a valid hunk header"),
	   "which names the message and the line: %s", error_last());
	is_int(split(bad_new, sizeof(bad_new) - 1), -1,
	       "\"@@ -1,1 +y,2 @@\" is an error");
	is_int(split(signed_count, sizeof(signed_count) - 1), -1,
	       "a negative line count is an error");
	is_int(split(nul, sizeof(nul) - 1), -1,
	       "a NUL byte in a hunk line is an error");
	ok(error_says("line 5 of the diff has a NUL byte", NULL),
	   "which names the message and the line: %s", error_last());
}

static char tmpdir[] = "/tmp/t-regress.XXXXXX";

/*
 * A one-patch mbox through the path `respin thread` takes: scan,
 * group with patch-ids (which loads every version), load.  The body is
 * given raw or, with base64 set, base64-encoded.  Returns the
 * mailset's notes ("unreadable: ..."), or NULL if it failed to run.
 */
static char *thread_notes(const char *hunk, size_t len, int base64)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct strbuf body = STRBUF_INIT, mbox = STRBUF_INIT, path = STRBUF_INIT;
	struct mail_source *src = NULL;
	struct mailset ms;
	char *notes = NULL;
	size_t i;
	FILE *f;

	strbuf_addstr(&body, patch_head);
	strbuf_add(&body, hunk, len);
	strbuf_addstr(&mbox,
		      "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		      "From: A U Thor <author@example.org>\n"
		      "Subject: [PATCH] mm: change\n"
		      "Date: Tue, 14 Nov 2023 22:13:21 +0000\n"
		      "Message-Id: <p@example.org>\n");
	if (base64) {
		strbuf_addstr(&mbox, "MIME-Version: 1.0\n"
			      "Content-Type: text/plain; charset=utf-8\n"
			      "Content-Transfer-Encoding: base64\n\n");
		for (i = 0; i < body.len; i += 3) {
			unsigned v = (unsigned char)body.buf[i] << 16;
			size_t n = body.len - i < 3 ? body.len - i : 3;

			if (n > 1)
				v |= (unsigned char)body.buf[i + 1] << 8;
			if (n > 2)
				v |= (unsigned char)body.buf[i + 2];
			strbuf_addch(&mbox, b64[v >> 18 & 63]);
			strbuf_addch(&mbox, b64[v >> 12 & 63]);
			strbuf_addch(&mbox, n > 1 ? b64[v >> 6 & 63] : '=');
			strbuf_addch(&mbox, n > 2 ? b64[v & 63] : '=');
			if (i % 57 == 54)
				strbuf_addch(&mbox, '\n');
		}
		strbuf_addstr(&mbox, "\n\n");
	} else {
		strbuf_addstr(&mbox, "\n");
		strbuf_add(&mbox, body.buf, body.len);
		strbuf_addstr(&mbox, "\n");
	}
	strbuf_addf(&path, "%s/p.mbox", tmpdir);
	f = fopen(path.buf, "wb");
	if (f) {
		fwrite(mbox.buf, 1, mbox.len, f);
		fclose(f);
	}
	mailset_init(&ms, NULL);
	if (f && !mail_source_open(&src, path.buf, NULL)) {
		ms.src = src;
		if (!mailset_scan(&ms) &&
		    !mailset_group(&ms, MAILSET_PATCH_IDS, NULL)) {
			struct strbuf all = STRBUF_INIT;

			for (i = 0; i < ms.nr_notes; i++)
				strbuf_addf(&all, "%s\n", ms.notes[i].text);
			notes = strbuf_detach(&all, NULL);
		}
	}
	mailset_release(&ms);
	mail_source_free(src);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&mbox);
	strbuf_release(&body);
	error_clear();
	return notes;
}

static void test_thread(void)
{
	static const char good[] = "@@ -1 +1 @@\n-a\n+b\n";
	static const char bad[] = "@@ -x +1 @@\n+one\n";
	static const char nul[] = "@@ -1 +1 @@\n-a\0b\n+c\n";
	char *n;

	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp %s", tmpdir);
		return;
	}
	n = thread_notes(good, sizeof(good) - 1, 0);
	ok(n && !strstr(n, "unreadable"), "thread: a valid patch reads (%s)",
	   n ? n : "failed");
	free(n);
	n = thread_notes(bad, sizeof(bad) - 1, 0);
	ok(n && strstr(n, "unreadable: message <p@example.org>") &&
	   strstr(n, "not a valid hunk header"),
	   "thread: \"@@ -x +1 @@\" is noted unreadable, by Message-ID (%s)",
	   n ? n : "failed");
	free(n);
	n = thread_notes(nul, sizeof(nul) - 1, 0);
	ok(n && strstr(n, "unreadable: message <p@example.org>") &&
	   strstr(n, "NUL byte"),
	   "thread: a raw NUL in a hunk line is noted unreadable (%s)",
	   n ? n : "failed");
	free(n);
	n = thread_notes(good, sizeof(good) - 1, 1);
	ok(n && !strstr(n, "unreadable"),
	   "thread: a valid base64 patch reads (%s)", n ? n : "failed");
	free(n);
	n = thread_notes(nul, sizeof(nul) - 1, 1);
	ok(n && strstr(n, "unreadable: message <p@example.org>") &&
	   strstr(n, "NUL byte"),
	   "thread: a NUL inside base64 is noted unreadable (%s)",
	   n ? n : "failed");
	free(n);
	rmdir(tmpdir);
}

static int read_all(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	return strbuf_read_file(sb, path);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every stored input of every target; returns how many ran. */
static size_t test_stored(const char *top)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	size_t t, total = 0;

	for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		char **names = NULL;
		size_t nr = 0, alloc = 0, i;
		struct dirent *de;
		DIR *d;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", top, targets[t].name);
		d = opendir(path.buf);
		if (!d)
			continue;	/* no crash stored for it */
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "README"))
				continue;
			ALLOC_GROW(names, nr, alloc);
			names[nr++] = xstrdup(de->d_name);
		}
		closedir(d);
		qsort(names, nr, sizeof(*names), name_cmp);
		for (i = 0; i < nr; i++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s/%s", top, targets[t].name,
				    names[i]);
			if (read_all(path.buf, &data) < 0) {
				ok(0, "read %s: %s", path.buf, error_last());
			} else {
				is_int(targets[t].fn((const uint8_t *)data.buf,
						     data.len), 0,
				       "%s/%s (%zu bytes)", targets[t].name,
				       names[i], data.len);
				total++;
			}
			free(names[i]);
		}
		free(names);
	}
	strbuf_release(&path);
	strbuf_release(&data);
	return total;
}

int main(void)
{
	const char *src = getenv("RESPIN_SRCDIR");
	struct strbuf top = STRBUF_INIT;
	size_t n;

	fuzz_git_init();
	test_split();
	test_thread();
	strbuf_addf(&top, "%s/tests/fuzz/regress", src ? src : ".");
	n = test_stored(top.buf);
	/* the two known crashes are stored at least: none found is a bug */
	ok(n >= 2, "%zu stored inputs ran from %s", n, top.buf);
	strbuf_release(&top);
	return done_testing();
}
