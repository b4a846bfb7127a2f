// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mbox and maildir reader: the real mboxes of tests/data/mail, the
 * 14,688-message year of linuxppc-dev when it is there (optional, from
 * $RESPIN_SHARED or shared/ beside the checkout, unpacked once into the
 * cache), and bad input made here in a temporary directory.
 */
#include "patches/mail.h"
#include "patches/mbox.h"
#include "patches/patchmail.h"
#include "patches/subject.h"
#include "tests/unit/tap.h"
#include "tests/unit/testdata.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char tmpdir[] = "/tmp/t-mbox.XXXXXX";

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Runs argv with stdout into out_path; no shell. */
static int run_to_file(char *const argv[], const char *out_path)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r)
		return -1;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int year_missing;

/*
 * The year mbox, unpacked once into the cache through a temporary
 * file and a rename, so a half-unpacked file is never used.
 */
static const char *year_mbox(const char *shared)
{
	static char path[4096];
	char dir[4000], tmp[4200], xz[4200];
	const char *cache = getenv("RESPIN_CACHE"), *home = getenv("HOME");
	char *argv[] = { (char *)"xz", (char *)"-dc", xz, NULL };
	int fd;

	if (cache)
		snprintf(dir, sizeof(dir), "%s", cache);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/respin", home ? home : "/tmp");
	snprintf(path, sizeof(path), "%s/linuxppc-dev-2023.mbox", dir);
	if (exists(path))
		return path;
	snprintf(xz, sizeof(xz), "%s/mail/linuxppc-dev-2023.mbox.xz", shared);
	if (!exists(xz)) {
		year_missing = 1;
		return NULL;
	}
	snprintf(tmp, sizeof(tmp), "mkdir -p %s", dir);
	{
		char *mk[] = { (char *)"mkdir", (char *)"-p", dir, NULL };

		if (run_to_file(mk, "/dev/null") < 0)
			return NULL;
	}
	snprintf(tmp, sizeof(tmp), "%s/.linuxppc-dev-2023.mbox.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	close(fd);
	if (run_to_file(argv, tmp) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		return NULL;
	}
	return path;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

static char *tmp_path(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", tmpdir, name);
	return strbuf_detach(&sb, NULL);
}

static void test_real(const char *data)
{
	static const struct { const char *file; size_t count; } files[] = {
		{ "lru_gen-batch/v1.mbox", 4 }, { "lru_gen-batch/v2.mbox", 5 },
		{ "lru_gen-batch/v3.mbox", 4 }, { "spinlock-oops/v1.mbox", 15 },
		{ "spinlock-oops/v2.mbox", 9 }, { "spinlock-oops/v3.mbox", 6 },
		{ "spinlock-oops/v4.mbox", 5 },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct strbuf path = STRBUF_INIT;
		struct mbox_msg msg;
		struct mbox *mb;
		size_t ids = 0, bad = 0, zero_copy = 0;
		int r;

		strbuf_addf(&path, "%s/mail/%s", data, files[i].file);
		if (!ok(mbox_open(&mb, path.buf, MBOX_AUTO) == 0, "open %s", files[i].file)) {
			diag(error_last());
			strbuf_release(&path);
			continue;
		}
		is_int(mbox_format_get(mb), MBOX_RD, "%s is mboxrd", files[i].file);
		while ((r = mbox_next(mb, &msg)) > 0) {
			struct mail_where where = { path.buf, msg.number };
			struct mail_header h;

			mail_header_init(&h);
			if (mail_header_scan(&h, msg.data, msg.len, &where) < 0 ||
			    msg.truncated)
				bad++;
			if (h.message_id && h.subject && h.from.addr && h.date_valid)
				ids++;
			zero_copy += !msg.copied;
			mail_header_release(&h);
		}
		is_int(r, 0, "%s read to the end", files[i].file);
		is_int(mbox_count(mb), files[i].count, "%s has %zu messages",
		       files[i].file, files[i].count);
		is_int(ids, files[i].count, "%s: every message has Message-ID, Subject, From, Date",
		       files[i].file);
		is_int(bad, 0, "%s: no bad message", files[i].file);
		ok(zero_copy > 0, "%s: messages come without a copy", files[i].file);
		mbox_free(mb);
		strbuf_release(&path);
	}
}

/* 1 when `git apply --numstat` calls the text corrupt (exit 128). */
static int git_apply_rejects(const char *text, size_t len)
{
	char *path = tmp_path("broken.patch");
	char *argv[] = { (char *)"git", (char *)"apply", (char *)"--numstat",
			 path, NULL };
	int r;

	write_file(path, text, len);
	r = run_to_file(argv, "/dev/null");
	free(path);
	return r < 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_year(const char *shared)
{
	const char *path = year_mbox(shared);
	size_t headers_bad = 0, no_id = 0, parse_bad = 0, warned = 0;
	size_t patches = 0, split_bad = 0, with_diff = 0, truncated = 0;
	size_t git_rejects = 0;
	struct mbox_msg msg;
	struct mbox *mb;
	double t0, t_scan;
	int r;

	if (!path && year_missing) {
		skip("the year of mail is not here: no %s/mail/linuxppc-dev-2023.mbox.xz "
		     "(optional; set RESPIN_SHARED to the directory that has data/mail/)",
		     shared);
		return;
	}
	if (!ok(path != NULL, "the year mbox is unpacked in the cache")) {
		diag("xz -dc of mail/linuxppc-dev-2023.mbox.xz failed");
		return;
	}
	t0 = now_ms();
	if (!ok(mbox_open(&mb, path, MBOX_AUTO) == 0, "open the year mbox")) {
		diag(error_last());
		return;
	}
	while ((r = mbox_next(mb, &msg)) > 0)
		truncated += msg.truncated;
	t_scan = now_ms() - t0;
	is_int(r, 0, "the year mbox reads to the end");
	is_int(mbox_count(mb), 14688, "the year has 14,688 messages");
	is_int(truncated, 0, "no message of the year is truncated");
	mbox_free(mb);
	printf("# split in %.0f ms\n", t_scan);

	if (mbox_open(&mb, path, MBOX_AUTO) < 0)
		return;
	while ((r = mbox_next(mb, &msg)) > 0) {
		struct mail_where where = { path, msg.number };
		struct mail_header h;
		struct mail_body b;
		struct subject s;

		mail_header_init(&h);
		mail_body_init(&b);
		subject_init(&s);
		if (mail_header_scan(&h, msg.data, msg.len, &where) < 0) {
			headers_bad++;
			printf("# headers: %s\n", error_last());
		}
		no_id += !h.message_id;
		if (mail_body_parse(&b, msg.data, msg.len, &where) < 0) {
			parse_bad++;
			printf("# body: %s\n", error_last());
		} else {
			warned += b.nr_warnings > 0;
		}
		subject_parse(&s, h.subject ? h.subject : "");
		if (s.is_patch && !s.is_reply && !s.is_cover && b.text) {
			struct patchmail pm;
			struct strbuf what = STRBUF_INIT;

			patches++;
			patchmail_init(&pm);
			mail_describe(&what, h.message_id, &where);
			if (patchmail_split(&pm, b.text, b.len, what.buf) < 0) {
				split_bad++;
				printf("# split: %s\n", error_last());
				git_rejects += git_apply_rejects(b.text, b.len);
			}
			with_diff += pm.diff.len > 0;
			patchmail_release(&pm);
			strbuf_release(&what);
		}
		subject_release(&s);
		mail_body_release(&b);
		mail_header_release(&h);
	}
	is_int(r, 0, "the year reads to the end again");
	is_int(headers_bad, 0, "every header block of the year scans");
	is_int(no_id, 0, "every message of the year has a Message-ID");
	is_int(parse_bad, 0, "every message of the year parses with GMime");
	printf("# %zu messages with warnings (charsets, bytes kept)\n", warned);
	printf("# %zu patch mails, %zu with a diff, %zu that do not split\n",
	       patches, with_diff, split_bad);
	ok(patches > 5000, "the year has thousands of patch mails (%zu)", patches);
	ok(with_diff * 100 >= patches * 95,
	   "at least 95%% of the patch mails have a diff (%zu of %zu)",
	   with_diff, patches);
	ok(split_bad * 200 <= patches,
	   "at most 0.5%% of the patch mails have a broken diff (%zu)", split_bad);
	is_int(git_rejects, split_bad,
	       "git apply finds every diff we call broken corrupt too");
	mbox_free(mb);
}

static int read_all(const char *data, size_t len, enum mbox_format fmt,
		    struct strbuf *out, struct mbox_msg *last)
{
	struct mbox *mb;
	struct mbox_msg msg;
	int r, n = 0;

	if (mbox_open_buffer(&mb, data, len, "buffer", fmt) < 0)
		return -1;
	while ((r = mbox_next(mb, &msg)) > 0) {
		strbuf_add(out, msg.data, msg.len);
		strbuf_addstr(out, "|");
		*last = msg;
		n++;
	}
	mbox_free(mb);
	return r < 0 ? r : n;
}

static void test_escapes(void)
{
	const char *rd =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Subject: a\n\nFrom the start\n>From x\n>>From y\n> From z\n\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Subject: b\n\nplain\n\n";
	const char *o =
		"From someone@example.org Mon Jan  2 10:00:00 2023\n"
		"Subject: a\n\n>From x\n>>From y\n\n"
		"From someone@example.org Mon Jan  2 10:00:00 2023\n"
		"Subject: b\n\nplain\n";
	struct strbuf out = STRBUF_INIT;
	struct mbox_msg last;
	struct mbox *mb;
	struct mbox_msg m;

	is_int(read_all(rd, strlen(rd), MBOX_AUTO, &out, &last), 2,
	       "mboxrd: a body line without a time is no separator");
	is_str(out.buf, "Subject: a\n\nFrom the start\nFrom x\n>From y\n> From z\n|Subject: b\n\nplain\n|",
	       "mboxrd: one '>' less on >+From lines");
	strbuf_reset(&out);
	is_int(read_all(o, strlen(o), MBOX_AUTO, &out, &last), 2, "mboxo: two messages");
	is_str(out.buf, "Subject: a\n\nFrom x\n>>From y\n|Subject: b\n\nplain\n|",
	       "mboxo: >From unescaped, >>From kept");
	strbuf_reset(&out);
	is_int(read_all(o, strlen(o), MBOX_RD, &out, &last), 2, "mboxo read as mboxrd");
	is_str(out.buf, "Subject: a\n\nFrom x\n>From y\n|Subject: b\n\nplain\n|",
	       "mboxrd rules when asked");

	/* zero copy: data points into the buffer */
	mbox_open_buffer(&mb, rd, strlen(rd), "buffer", MBOX_AUTO);
	mbox_next(mb, &m);
	ok(m.copied, "an escaped message is copied");
	mbox_next(mb, &m);
	ok(!m.copied && m.data == rd + m.offset, "a plain message is not copied");
	is_int(m.number, 2, "message numbers count from 1");
	mbox_free(mb);

	/* CRLF */
	strbuf_reset(&out);
	{
		const char *crlf =
			"From x@y Mon Jan  2 10:00:00 2023\r\n"
			"Subject: a\r\n\r\nbody\r\n>From q\r\n\r\n"
			"From x@y Mon Jan  2 10:00:00 2023\r\n"
			"Subject: b\r\n\r\nbody b\r\n";

		is_int(read_all(crlf, strlen(crlf), MBOX_AUTO, &out, &last), 2,
		       "CRLF mbox: two messages");
		is_str(out.buf, "Subject: a\n\nbody\nFrom q\n|Subject: b\n\nbody b\n|",
		       "CRLF mbox: LF line ends, unescaped");
		ok(last.crlf && last.copied, "CRLF messages say so");
	}

	/* truncated */
	strbuf_reset(&out);
	{
		const char *cut =
			"From x@y Mon Jan  2 10:00:00 2023\n"
			"Subject: a\n\nbody\n\n"
			"From x@y Mon Jan  2 10:00:00 2023\n"
			"Message-ID: <cut@x>\nSubject: b\n\nbody is cu";

		is_int(read_all(cut, strlen(cut), MBOX_AUTO, &out, &last), 2,
		       "truncated mbox: both messages");
		ok(last.truncated, "the cut message is flagged truncated");
		is_str(out.buf, "Subject: a\n\nbody\n|Message-ID: <cut@x>\nSubject: b\n\nbody is cu|",
		       "the cut message keeps what is there");
	}
	{
		const char *cut = "From x@y Mon Jan  2 10:00:00 2023\nMessage-ID: <h@x>\nSubj";
		struct mail_header h;

		strbuf_reset(&out);
		is_int(read_all(cut, strlen(cut), MBOX_AUTO, &out, &last), 1,
		       "an mbox cut inside the headers: one message");
		mail_header_init(&h);
		is_int(mail_header_scan(&h, last.data, last.len, NULL), 0,
		       "its headers scan");
		ok(!h.has_body && h.body_offset == last.len, "it has no body");
		is_str(h.message_id, "h@x", "its Message-ID is read");
		mail_header_release(&h);
	}

	/* MBOX_ONE */
	strbuf_reset(&out);
	{
		const char *one = "Subject: x\n\nFrom here\n>From there\n";

		is_int(read_all(one, strlen(one), MBOX_ONE, &out, &last), 1,
		       "MBOX_ONE: one message");
		is_str(out.buf, "Subject: x\n\nFrom here\n>From there\n|",
		       "MBOX_ONE: nothing split or unescaped");
	}

	/* unescape helper */
	strbuf_reset(&out);
	mbox_unescape(&out, ">>>From a\n>Fromage\n", 20, MBOX_RD, 0);
	is_str(out.buf, ">>From a\n>Fromage\n", "mbox_unescape leaves >Fromage alone");
	strbuf_release(&out);
}

static void test_files(void)
{
	struct mbox_msg msg;
	struct mbox *mb;
	char *p;
	int r;

	/* not an mbox */
	p = tmp_path("not-an-mbox");
	write_file(p, "hello\nworld\n", 12);
	error_clear();
	ok(mbox_open(&mb, p, MBOX_AUTO) < 0 && !mb, "a text file is not an mbox");
	ok(strstr(error_last(), "not an mbox") && strstr(error_last(), p),
	   "the error names the file: %s", error_last());
	free(p);

	/* binary junk */
	p = tmp_path("junk");
	write_file(p, "\x7f" "ELF\x02\x01\x01\0\0\0", 10);
	ok(mbox_open(&mb, p, MBOX_AUTO) < 0, "a binary file is not an mbox");
	free(p);

	/* empty */
	p = tmp_path("empty");
	write_file(p, "", 0);
	ok(mbox_open(&mb, p, MBOX_AUTO) == 0, "an empty file opens");
	is_int(mbox_next(mb, &msg), 0, "an empty mbox has no message");
	mbox_free(mb);
	free(p);

	/* missing */
	p = tmp_path("missing");
	ok(mbox_open(&mb, p, MBOX_AUTO) < 0 && strstr(error_last(), "cannot open"),
	   "a missing file: %s", error_last());
	free(p);

	/* maildir */
	p = tmp_path("md");
	mkdir(p, 0755);
	free(p);
	p = tmp_path("md/cur");
	mkdir(p, 0755);
	free(p);
	p = tmp_path("md/new");
	mkdir(p, 0755);
	free(p);
	p = tmp_path("md/cur/2:2,S");
	write_file(p, "Message-ID: <2@x>\nSubject: two\n\nb\n", 34);
	free(p);
	p = tmp_path("md/cur/1:2,S");
	write_file(p, "Message-ID: <1@x>\r\nSubject: one\r\n\r\nb\r\n", 38);
	free(p);
	p = tmp_path("md/new/3");
	write_file(p, "Message-ID: <3@x>\nSubject: three\n\nFrom here\n", 44);
	free(p);
	p = tmp_path("md/new/.hidden");
	write_file(p, "junk", 4);
	free(p);
	p = tmp_path("md");
	if (ok(mbox_open(&mb, p, MBOX_AUTO) == 0, "a maildir opens")) {
		struct strbuf ids = STRBUF_INIT;

		while ((r = mbox_next(mb, &msg)) > 0) {
			struct mail_header h;

			mail_header_init(&h);
			mail_header_scan(&h, msg.data, msg.len, NULL);
			strbuf_addf(&ids, "%s ", h.message_id ? h.message_id : "-");
			if (msg.number == 1)
				ok(msg.crlf && !strchr(msg.data, '\r'),
				   "a CRLF maildir message comes with LF");
			if (msg.number == 3)
				ok(strstr(msg.path, "new/3") != NULL,
				   "the maildir message's path is its file");
			mail_header_release(&h);
		}
		is_int(r, 0, "the maildir reads to the end");
		is_str(ids.buf, "1@x 2@x 3@x ", "maildir messages in name order, no dot files");
		mbox_free(mb);
		strbuf_release(&ids);
	}
	free(p);

	p = tmp_path("plain-dir");
	mkdir(p, 0755);
	ok(mbox_open(&mb, p, MBOX_AUTO) < 0 && strstr(error_last(), "not a maildir"),
	   "a directory without cur/ or new/: %s", error_last());
	free(p);
}

static void cleanup(void)
{
	char *argv[] = { (char *)"rm", (char *)"-rf", tmpdir, NULL };

	run_to_file(argv, "/dev/null");
}

int main(int argc, char **argv)
{
	const char *data = test_data_dir();

	(void)argc;
	(void)argv;
	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return done_testing();
	}
	test_escapes();
	test_files();
	if (ok(data != NULL, "the real mail of tests/data is found (%s)",
	       data ? data : "set RESPIN_TEST_DATA to the checkout's tests/data"))
		test_real(data);
	if (getenv("RESPIN_SKIP_YEAR"))
		skip("the year of mail: RESPIN_SKIP_YEAR is set");
	else
		test_year(test_shared_dir());
	cleanup();
	return done_testing();
}
