// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Splitting patch mails (message, trailers, notes, diff, signature)
 * and trailers in replies (more in t-reply.c): on every real mbox in tests/data/mail
 * (subjects, cover letters, replies, diffs checked with git apply),
 * and on small made-up bodies.
 */
#include "patches/mail.h"
#include "patches/mbox.h"
#include "patches/patchmail.h"
#include "patches/reply.h"
#include "patches/subject.h"
#include "tests/unit/tap.h"
#include "tests/unit/testdata.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char tmpdir[] = "/tmp/t-patchmail.XXXXXX";

/* `git apply --numstat FILE`: 0 when git reads the patch; no shell. */
static int git_apply_parses(const char *text, size_t len, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, outp = STRBUF_INIT;
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)"git", (char *)"apply", (char *)"--numstat",
			 NULL, NULL };
	int status = -1, r;
	pid_t pid;
	FILE *f;

	strbuf_addf(&path, "%s/p.patch", tmpdir);
	strbuf_addf(&outp, "%s/numstat", tmpdir);
	f = fopen(path.buf, "wb");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
	argv[3] = path.buf;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, outp.buf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (!r && waitpid(pid, &status, 0) > 0 && WIFEXITED(status))
		status = WEXITSTATUS(status);
	else
		status = -1;
	if (out)
		strbuf_read_file(out, outp.buf);
	strbuf_release(&path);
	strbuf_release(&outp);
	return status;
}

static int has_trailer(const struct trailer_list *tl, const char *key,
		       const char *value_part)
{
	size_t i;

	for (i = 0; i < tl->nr; i++)
		if (!strcmp(tl->items[i].key, key) &&
		    strstr(tl->items[i].value, value_part))
			return 1;
	return 0;
}

struct expect {
	const char *file;
	int version, covers, patches, replies;
	const char *titles[3];		/* of patches 1..3 */
	int reply_reviewed;		/* Reviewed-by trailers given in replies */
	int patch_reviewed;		/* patches carrying Reviewed-by */
};

static const struct expect expects[] = {
	{ "lru_gen-batch/v1.mbox", 1, 1, 3, 0,
	  { "mm, lru_gen: batch update counters on againg",
	    "mm, lru_gen: move pages in bulk when aging",
	    "mm, lru_gen: try to prefetch next page when canning LRU" }, 0, 0 },
	{ "lru_gen-batch/v2.mbox", 2, 1, 3, 1,
	  { "mm, lru_gen: batch update counters on againg",
	    "mm, lru_gen: move pages in bulk when aging",
	    "mm, lru_gen: try to prefetch next page when canning LRU" }, 0, 0 },
	{ "lru_gen-batch/v3.mbox", 3, 1, 3, 0,
	  { "mm, lru_gen: try to prefetch next page when scanning LRU",
	    "mm, lru_gen: batch update counters on aging",
	    "mm, lru_gen: move pages in bulk when aging" }, 0, 0 },
	{ "spinlock-oops/v1.mbox", 1, 1, 3, 11,
	  { "powerpc/spinlocks: Refactor SHARED_PROCESSOR",
	    "powerpc/spinlocks: Rename SPLPAR-only spinlocks",
	    "powerpc/spinlock: Fix oops in shared-processor spinlocks" }, 2, 0 },
	{ "spinlock-oops/v2.mbox", 2, 1, 3, 5,
	  { "powerpc/spinlocks: Refactor SHARED_PROCESSOR",
	    "powerpc/spinlocks: Rename SPLPAR-only spinlocks",
	    "powerpc/spinlocks: Fix oops in shared-processor spinlocks" }, 0, 2 },
	{ "spinlock-oops/v3.mbox", 3, 1, 3, 2,
	  { "powerpc/spinlocks: Refactor SHARED_PROCESSOR",
	    "powerpc/spinlocks: Rename SPLPAR-only spinlocks",
	    "powerpc/spinlocks: Fix oops in shared-processor spinlocks" }, 0, 2 },
	{ "spinlock-oops/v4.mbox", 4, 1, 3, 1,
	  { "powerpc/spinlocks: Refactor SHARED_PROCESSOR",
	    "powerpc/spinlocks: Rename SPLPAR-only spinlocks",
	    "powerpc/spinlocks: Fix oops in shared-processor spinlocks" }, 0, 2 },
};

static void test_real_file(const char *data, const struct expect *e)
{
	struct strbuf path = STRBUF_INIT;
	struct trailer_list replied;
	struct mbox_msg msg;
	struct mbox *mb;
	int covers = 0, patches = 0, replies = 0, reviewed = 0, seen[4] = { 0 };
	int r;

	trailer_list_init(&replied);
	strbuf_addf(&path, "%s/mail/%s", data, e->file);
	if (!ok(mbox_open(&mb, path.buf, MBOX_AUTO) == 0, "open %s", e->file)) {
		diag(error_last());
		return;
	}
	while ((r = mbox_next(mb, &msg)) > 0) {
		struct mail_where where = { path.buf, msg.number };
		struct strbuf what = STRBUF_INIT;
		struct mail_header h;
		struct mail_body b;
		struct patchmail pm;
		struct subject s;

		mail_header_init(&h);
		mail_body_init(&b);
		patchmail_init(&pm);
		subject_init(&s);
		mail_header_scan(&h, msg.data, msg.len, &where);
		subject_parse(&s, h.subject ? h.subject : "");
		mail_describe(&what, h.message_id, &where);
		if (mail_body_parse(&b, msg.data, msg.len, &where) < 0) {
			ok(0, "%s: %s", e->file, error_last());
			goto next;
		}
		if (s.is_reply) {
			replies++;
			patchmail_reply_trailers(&replied, b.text, b.len);
			goto next;
		}
		if (!s.is_patch || s.version != e->version || s.total != 3) {
			ok(0, "%s #%zu: unexpected subject %s", e->file, msg.number,
			   h.subject ? h.subject : "(none)");
			goto next;
		}
		if (s.is_cover) {
			covers++;
			ok(patchmail_split(&pm, b.text, b.len, what.buf) == 0 &&
			   !pm.diff.p && pm.message.len > 100,
			   "%s: the cover letter has a message and no diff", e->file);
			goto next;
		}
		patches++;
		if (s.index < 1 || s.index > 3 || seen[s.index]++) {
			ok(0, "%s: patch %d/3 seen twice or out of range", e->file, s.index);
			goto next;
		}
		is_str(s.title, e->titles[s.index - 1], "%s: title of %d/3",
		       e->file, s.index);
		if (!ok(patchmail_split(&pm, b.text, b.len, what.buf) == 0,
			"%s %d/3 splits", e->file, s.index)) {
			diag(error_last());
			goto next;
		}
		ok(pm.message.len > 20 && pm.diff.len > 0 && pm.nr_hunks > 0 &&
		   pm.nr_files > 0, "%s %d/3: message and diff (%u files, %u hunks)",
		   e->file, s.index, pm.nr_files, pm.nr_hunks);
		ok(pm.notes.p && strstr(pm.notes.p, " changed") &&
		   pm.notes.p < pm.diff.p, "%s %d/3: the diffstat is in the notes",
		   e->file, s.index);
		ok(has_trailer(&pm.trailers, "Signed-off-by", "@"),
		   "%s %d/3: Signed-off-by in the trailers", e->file, s.index);
		ok(!pm.message.len || !strstr(pm.message.p, "Signed-off-by:") ||
		   strstr(pm.message.p, "Signed-off-by:") >= pm.message.p + pm.message.len,
		   "%s %d/3: no trailer left in the message", e->file, s.index);
		reviewed += has_trailer(&pm.trailers, "Reviewed-by", "ajd@linux.ibm.com");
		ok(pm.signature.p != NULL, "%s %d/3: a signature", e->file, s.index);
		{
			struct strbuf numstat = STRBUF_INIT;

			is_int(git_apply_parses(pm.diff.p, pm.diff.len, &numstat), 0,
			       "%s %d/3: git apply reads the diff", e->file, s.index);
			ok(numstat.len > 0, "%s %d/3: numstat %.*s", e->file, s.index,
			   (int)strcspn(numstat.buf, "\n"), numstat.buf);
			strbuf_release(&numstat);
		}
next:
		subject_release(&s);
		patchmail_release(&pm);
		mail_body_release(&b);
		mail_header_release(&h);
		strbuf_release(&what);
	}
	is_int(r, 0, "%s reads to the end", e->file);
	is_int(covers, e->covers, "%s: cover letters", e->file);
	is_int(patches, e->patches, "%s: patches", e->file);
	is_int(replies, e->replies, "%s: replies", e->file);
	is_int(reviewed, e->patch_reviewed, "%s: patches with Reviewed-by", e->file);
	{
		size_t i;
		int n = 0;

		for (i = 0; i < replied.nr; i++) {
			printf("# %s reply trailer: %s: %s\n", e->file,
			       replied.items[i].key, replied.items[i].value);
			n += !strcmp(replied.items[i].key, "Reviewed-by") &&
			     !strcmp(replied.items[i].value,
				     "Andrew Donnellan <ajd@linux.ibm.com>");
		}
		is_int(n, e->reply_reviewed, "%s: Reviewed-by given in replies", e->file);
		if (!strcmp(e->file, "spinlock-oops/v3.mbox"))
			ok(!has_trailer(&replied, "Reported-by", "lkp@intel.com"),
			   "%s: the robot's Reported-by is its report's, not "
			   "given (t-reply)", e->file);
		if (!strcmp(e->file, "spinlock-oops/v4.mbox"))
			is_int(replied.nr, 0, "%s: quoted trailers are not taken", e->file);
	}
	trailer_list_release(&replied);
	mbox_free(mb);
	strbuf_release(&path);
}

static int split(struct patchmail *pm, const char *body)
{
	patchmail_init(pm);
	return patchmail_split(pm, body, strlen(body), "message <t@x>");
}

static int span_is(struct patchmail_span s, const char *want)
{
	if (!want)
		return !s.p;
	return s.p && s.len == strlen(want) && !memcmp(s.p, want, s.len);
}

static void test_made_up(void)
{
	struct patchmail pm;
	const char *full =
		"The first paragraph.\n\nThe second: with a colon.\n\n"
		"Fixes: 0123456789ab (\"mm: old\")\n"
		"Reported-by: A Person <a@x>\n"
		"Closes: https://lore.kernel.org/r/1@x\n"
		"[akpm@linux-foundation.org: fix the build]\n"
		"Signed-off-by: B Person <b@x>\n"
		"Acked-by: Some Body\n  <some@body.org>\n"
		"---\n"
		"v2: rebased\n\n"
		" mm/x.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
		"diff --git a/mm/x.c b/mm/x.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/mm/x.c\n+++ b/mm/x.c\n"
		"@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n"
		"\n"
		"base-commit: abcdef\n"
		"-- \n2.43.0\n";

	is_int(split(&pm, full), 0, "a full patch mail splits");
	ok(span_is(pm.message, "The first paragraph.\n\nThe second: with a colon."),
	   "message: %.*s", (int)pm.message.len, pm.message.p);
	is_int(pm.trailers.nr, 5, "five trailers, the [akpm] note is no trailer");
	if (pm.trailers.nr == 5) {
		is_str(pm.trailers.items[0].key, "Fixes", "first key");
		is_str(pm.trailers.items[4].value, "Some Body <some@body.org>",
		       "a folded trailer joined");
	}
	ok(span_is(pm.notes, "v2: rebased\n\n mm/x.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)"),
	   "notes: %.*s", (int)pm.notes.len, pm.notes.p);
	ok(span_is(pm.raw_diff, "diff --git a/mm/x.c b/mm/x.c\nindex 1111111..2222222 100644\n"
			    "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n"),
	   "diff (a blank context line counts): %.*s", (int)pm.raw_diff.len, pm.raw_diff.p);
	ok(span_is(pm.diff, "diff --git a/mm/x.c b/mm/x.c\nindex 1111111..2222222 100644\n"
			    "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n \n"),
	   "the diff read: the blank line is a context line: %.*s", (int)pm.diff.len, pm.diff.p);
	ok(span_is(pm.tail, "base-commit: abcdef"), "tail: %.*s", (int)pm.tail.len, pm.tail.p);
	ok(span_is(pm.signature, "2.43.0"), "signature");
	ok(pm.nr_files == 1 && pm.nr_hunks == 1, "one file, one hunk");
	patchmail_release(&pm);

	is_int(split(&pm, "Body.\n\nReviewed-by: Evil\x1b[31m\x7f <e@x.org>\n"
			  "Acked-by: A\x01" "B <a@x.org>\n"), 0, "trailers with controls");
	is_int(pm.trailers.nr, 2, "two trailers");
	if (pm.trailers.nr == 2) {
		/* trailers --apply writes these into commit messages */
		is_str(pm.trailers.items[0].value, "Evil [31m  <e@x.org>",
		       "an escape and a DEL in a trailer are blanks");
		is_str(pm.trailers.items[1].value, "A B <a@x.org>",
		       "another control character too");
	}
	patchmail_release(&pm);

	is_int(split(&pm, "Prose.\n\nNote: this line has a colon.\nAnd more prose.\n"), 0,
	       "no diff");
	is_int(pm.trailers.nr, 0, "a prose paragraph with a colon is no trailer block");
	ok(!pm.diff.p && !pm.notes.p && !pm.signature.p, "nothing else");
	patchmail_release(&pm);

	is_int(split(&pm, "Only a subject line, really.\n\nSigned-off-by: x <x@y>\n"
			  "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n x\n+y\n"), 0,
	       "a plain diff with no diff --git and no ---");
	ok(pm.diff.p && pm.nr_files == 1 && pm.trailers.nr == 1, "found the diff and the trailer");
	patchmail_release(&pm);

	is_int(split(&pm, "m\n---\nIndex: f\n===================\n--- f\n+++ f\n"
			  "@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\n"), 0,
	       "an Index: diff with a no-newline marker");
	ok(pm.raw_diff.p && !strncmp(pm.raw_diff.p, "Index: f", 8) &&
	   pm.raw_diff.p[pm.raw_diff.len - 1] == '\n' && strstr(pm.raw_diff.p, "\\ No newline"),
	   "the diff includes the marker");
	ok(pm.diff.p && !strncmp(pm.diff.p, "diff --git a/f b/f\n", 19) &&
	   strstr(pm.diff.p, "+y\n\\ No newline at end of file\n") &&
	   !strstr(pm.diff.p, "Index:"),
	   "the diff read is git's, the marker kept");
	patchmail_release(&pm);

	error_clear();
	is_int(split(&pm, "m\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n-b\n+c\n"),
	       -1, "a cut diff is an error");
	ok(strstr(error_last(), "<t@x>") && strstr(error_last(), "cut short"),
	   "it names the message: %s", error_last());
	patchmail_release(&pm);

	is_int(split(&pm, "m\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n\xc2\xa0" "a\n-b\n+c\n"),
	       -1, "a mangled context line is an error");
	patchmail_release(&pm);

	is_int(split(&pm, "diff --git a/bin b/bin\nnew file mode 100644\nindex 0000000..1111111\n"
			  "GIT binary patch\nliteral 3\nKcmZ?l\n\nliteral 0\nHcmV?d00001\n\n"), 0,
	       "a binary patch");
	ok(pm.diff.p && pm.nr_hunks == 0 && pm.nr_files == 1, "one binary file");
	patchmail_release(&pm);

	is_int(split(&pm, "Cover text.\n\nFoo (2):\n  a\n  b\n\n -- \n-- \nsig\n"), 0, "a cover letter");
	ok(span_is(pm.signature, "sig") && !pm.diff.p, "its signature");
	patchmail_release(&pm);

	is_int(split(&pm, ""), 0, "an empty body");
	ok(!pm.message.p && !pm.diff.p && !pm.trailers.nr, "nothing in it");
	patchmail_release(&pm);
}

/* Addresses an HTML mailer turned into links, cleaned before judged. */
static void test_html_addresses(void)
{
	static const char *const cases[][2] = {
		{ "Jane Doe <jane@example.com<mailto:jane@example.com>>",
		  "Jane Doe <jane@example.com>" },
		{ "Jane Doe <mailto:jane@example.com>",
		  "Jane Doe <jane@example.com>" },
		{ "jane@example.com<mailto:jane@example.com>",
		  "jane@example.com" },
		{ "Jane Doe <jane@example.com<MAILTO:jane@example.com>>",
		  "Jane Doe <jane@example.com>" },
		{ "Jane Doe <jane@example.com>", "Jane Doe <jane@example.com>" },
		/* linuxppc-dev, June 2023, <CCFBB9B1-9B2E-4FF1-8025-6B40E01960DF@linux.ibm.com> */
		{ "Sachin Sant <sachinp@linux.ibm.com <mailto:sachinp@linux.ibm.com>>",
		  "Sachin Sant <sachinp@linux.ibm.com>" },
		{ "A <a@x.org<mailto:b@y.org>>", "A <a@x.org<mailto:b@y.org>>" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trailer_list tl;

		trailer_list_init(&tl);
		trailer_list_add(&tl, "Reviewed-by", 11, cases[i][0],
				 strlen(cases[i][0]));
		is_str(tl.items[0].value, cases[i][1], "HTML debris: %s",
		       cases[i][0]);
		trailer_list_release(&tl);
	}
}

/*
 * A last hunk one blank context line short at the very end of the
 * body: a mailer stripped the line, git am reads it back from the
 * blank line that ends a message in an mbox.  Only that one line, only
 * there.
 */
static void test_short_last_hunk(void)
{
	static const char head[] =
		"A change.\n---\n"
		"diff --git a/x.c b/x.c\n"
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		" a\n"
		"-b\n"
		"+c\n";
	struct patchmail pm;
	struct strbuf sb = STRBUF_INIT;

	is_int(split(&pm, head), 0, "one context line short at the end: read");
	ok(pm.diff.len > 4 && !memcmp(pm.diff.p + pm.diff.len - 5, "+c\n \n", 5),
	   "the line read as a blank context line: %.*s", (int)pm.diff.len, pm.diff.p);
	patchmail_release(&pm);
	strbuf_addf(&sb, "%s-- \n2.43.0\n", head);
	is_int(split(&pm, sb.buf), -1, "one line short, then a signature: cut short");
	error_clear();
	patchmail_release(&pm);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, head);
	strbuf_setlen(&sb, sb.len - 3);		/* "+c" gone too */
	is_int(split(&pm, sb.buf), -1, "two lines short: cut short");
	error_clear();
	patchmail_release(&pm);
	strbuf_release(&sb);
}

int main(void)
{
	const char *data = test_data_dir();
	size_t i;

	test_html_addresses();
	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return done_testing();
	}
	test_made_up();
	test_short_last_hunk();
	if (ok(data != NULL, "the real mail of tests/data is found (%s)",
	       data ? data : "set RESPIN_TEST_DATA to the checkout's tests/data"))
		for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
			test_real_file(data, &expects[i]);
	{
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/p.patch", tmpdir);
		unlink(p.buf);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/numstat", tmpdir);
		unlink(p.buf);
		strbuf_release(&p);
		rmdir(tmpdir);
	}
	return done_testing();
}
