// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the series store: names, specs, formats, CAS. */
#include "series/store.h"
#include "series/storetext.h"
#include "series/range.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_names(void)
{
	ok(!series_name_check("mm-fix_2.v"), "a plain name is valid");
	ok(series_name_check("") < 0, "empty name is refused");
	ok(series_name_check("-x") < 0, "leading dash is refused");
	ok(series_name_check("a/b") < 0, "slash is refused");
	ok(series_name_check("a..b") < 0, "'..' is refused");
	ok(series_name_check("x.lock") < 0, "'.lock' suffix is refused");
	ok(series_name_check("a b") < 0, "space is refused");
	error_clear();
}

static void test_specs(void)
{
	char *name;
	int v;

	ok(!series_spec_parse("foo", &name, &v) && !strcmp(name, "foo") &&
	   v == 0, "NAME means the latest");
	free(name);
	ok(!series_spec_parse("foo@v3", &name, &v) && !strcmp(name, "foo") &&
	   v == 3, "NAME@v3");
	free(name);
	ok(!series_spec_parse("foo@12", &name, &v) && v == 12, "NAME@12");
	free(name);
	ok(series_spec_parse("foo@x", &name, &v) == RESPIN_EUSAGE,
	   "NAME@x is a usage error");
	free(name);
	is_int(series_version_parse("v0"), -1, "v0 is not a version");
	is_int(series_version_parse("V7"), 7, "V7 is 7");
	is_int(series_version_parse("3x"), -1, "3x is not a version");
	error_clear();
}

static void test_change_id(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	/* 2023-11-14 22:13:20 UTC */
	series_change_id_make(&sb, "MM: Fix/compaction", 1700000000);
	n = strlen("20231114-mm-fix-compaction-");
	ok(!strncmp(sb.buf, "20231114-mm-fix-compaction-", n) &&
	   sb.len == n + 12 && strspn(sb.buf + n, "0123456789abcdef") == 12,
	   "change-id is YYYYMMDD-slug-12hex: %s", sb.buf);
	strbuf_release(&sb);
}

static void test_format(void)
{
	struct series_version v, w;
	struct series_patch *p;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	memset(&v, 0, sizeof(v));
	memset(&w, 0, sizeof(w));
	v.number = 3;
	git_oid_fromstr(&v.base, "1111111111111111111111111111111111111111");
	git_oid_fromstr(&v.tip, "2222222222222222222222222222222222222222");
	v.base_ref = xstrdup("refs/heads/mm-unstable");
	v.source = xstrdup("git a..b\nwith a newline");
	v.recorded = 1700000000;
	p = series_version_add_patch(&v);
	git_oid_fromstr(&p->commit, "3333333333333333333333333333333333333333");
	git_oid_fromstr(&p->patch_id, "4444444444444444444444444444444444444444");
	p->subject = xstrdup("mm: a subject with  spaces");
	p->message_id = xstrdup("20231221.1234-1-x@example.org");
	p->author = xstrdup("A U Thor <author@example.org>");
	strbuf_addstr(&p->extra, " future-patch-key 1\n");
	v.message_id = xstrdup("20231221.1234-0-x@example.org");
	v.subject_prefix = xstrdup("RFC PATCH mm-unstable");
	v.sent_base = xstrdup("bd517a8442b6c6646a136421cd4c1b95bf4ce32b");
	v.sent_prereqs = xstrdup("b953231ea1102dee0e99a793e2b0a4cc3524d6e4\n"
				 "029435b7efc8ac3e9a49fd253c3a32c1ae6b625d\n");
	strbuf_addstr(&v.extra, "future-key some value\n");
	series_version_format(&v, &a);
	ok(!series_version_parse_meta(&w, a.buf, a.len), "metadata parses");
	series_version_format(&w, &b);
	is_str(b.buf, a.buf, "metadata round-trips, unknown lines kept");
	is_str(w.patches[0].subject, "mm: a subject with  spaces",
	       "subject kept exactly");
	ok(!strchr(w.source, '\n'), "newlines in values are folded");
	is_str(w.patches[0].message_id, "20231221.1234-1-x@example.org",
	       "a patch's Message-ID round-trips");
	is_str(w.patches[0].author, "A U Thor <author@example.org>",
	       "a patch's author round-trips");
	is_str(w.message_id, "20231221.1234-0-x@example.org",
	       "the version's Message-ID round-trips");
	is_str(w.subject_prefix, "RFC PATCH mm-unstable",
	       "the subject prefix as sent round-trips");
	is_str(w.sent_base, "bd517a8442b6c6646a136421cd4c1b95bf4ce32b",
	       "the base-commit as sent round-trips");
	is_str(w.sent_prereqs, v.sent_prereqs,
	       "the prerequisite-patch-ids round-trip, in order");
	ok(strstr(a.buf, "\nprerequisite-patch-id 029435b7efc8ac3e9a49fd253c3a32c1ae6b625d\n") != NULL,
	   "one line a prerequisite-patch-id");
	series_version_release(&w);
	memset(&w, 0, sizeof(w));
	ok(series_version_parse_meta(&w, "patch 12\n", 9) < 0,
	   "a short patch line is an error");
	series_version_release(&w);
	series_version_release(&v);
	strbuf_release(&a);
	strbuf_release(&b);
	error_clear();
}

/* Builds a repository with one commit on top of another. */
static git_repository *make_repo(const char *dir, git_oid *base, git_oid *tip)
{
	git_repository *repo;
	git_signature *sig;
	git_treebuilder *tb;
	git_oid blob, tree;
	git_tree *t;
	git_commit *parent;
	const char *texts[] = { "one\n", "one\ntwo\n" };
	int i;

	if (git_repository_init(&repo, dir, 0) < 0)
		return NULL;
	git_signature_new(&sig, "T", "t@example.org", 1700000000, 0);
	for (i = 0; i < 2; i++) {
		git_blob_create_from_buffer(&blob, repo, texts[i], strlen(texts[i]));
		git_treebuilder_new(&tb, repo, NULL);
		git_treebuilder_insert(NULL, tb, "f", &blob, GIT_FILEMODE_BLOB);
		git_treebuilder_write(&tree, tb);
		git_treebuilder_free(tb);
		git_tree_lookup(&t, repo, &tree);
		parent = NULL;
		if (i)
			git_commit_lookup(&parent, repo, base);
		git_commit_create(i ? tip : base, repo, NULL, sig, sig, NULL,
				  i ? "patch\n" : "base\n", t, i ? 1 : 0,
				  (const git_commit **)&parent);
		git_commit_free(parent);
		git_tree_free(t);
	}
	git_signature_free(sig);
	return repo;
}

/* The series blob and the summary "respin list" reads, without git. */
static void test_series_text(void)
{
	struct series s, t;
	struct series_version *v;
	struct series_summary sm;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	series_init(&s, "lru");
	s.change_id = xstrdup("20240101-lru-0123456789ab");
	s.base_ref = xstrdup("refs/heads/mm-unstable");
	s.created = 1700000000;
	strbuf_addstr(&s.extra, "future-key 1\n");
	series_text_format(&s, &a);
	series_init(&t, NULL);
	ok(!series_text_parse(&t, a.buf, a.len), "the series blob parses");
	series_text_format(&t, &b);
	is_str(b.buf, a.buf, "the series blob round-trips, unknown lines kept");

	series_version_add(&s, 1);
	v = series_version_add(&s, 2);
	v->loaded = 1;
	series_version_add_patch(v)->subject = xstrdup("one");
	series_version_add_patch(v)->subject = xstrdup("two");
	strbuf_addstr(&v->extra, "rebased-from 1\n");
	strbuf_reset(&a);
	series_summary_format(&s, "respin: rebase lru\n\n", &a);
	memset(&sm, 0, sizeof(sm));
	series_summary_parse(&sm, a.buf, a.len);
	ok(!strncmp(a.buf, "respin: rebase lru\n\nSeries: lru\n", 32),
	   "the summary follows the message");
	ok(sm.latest == 2 && sm.versions == 2 && sm.patches == 2 &&
	   sm.rebased_from == 1, "the summary's numbers read back");
	ok(sm.base_ref && !strcmp(sm.base_ref, s.base_ref) && sm.change_id &&
	   !strcmp(sm.change_id, s.change_id), "its base ref and change-id");
	free(sm.base_ref);
	free(sm.change_id);
	series_release(&s);
	series_release(&t);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void test_save_cas(void)
{
	char dir[] = "/tmp/respin-t-store.XXXXXX";
	git_repository *repo;
	git_commit *base, *tip;
	git_oid b, t, first;
	struct series s, s2 = { 0 };
	struct series_version *v;
	int r;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	repo = make_repo(dir, &b, &t);
	ok(repo != NULL, "test repository made");
	if (!repo)
		return;
	git_commit_lookup(&base, repo, &b);
	git_commit_lookup(&tip, repo, &t);

	series_init(&s, "cas");
	s.base_ref = xstrdup("refs/heads/main");
	v = series_version_add(&s, 1);
	strbuf_init(&v->extra, 0);
	is_int(series_range_collect(repo, base, tip, "base", "tip", v), 0,
	       "range collected");
	is_int((long long)v->nr_patches, 1, "one patch");
	v->loaded = 1;
	series_version_attach(v, "cover", "Subject\n\nbody\n", 14);
	is_int(series_save(repo, &s, &v->tip, "first\n"), 0, "first save");
	git_oid_cpy(&first, &s.meta);
	{
		struct strbuf cover = STRBUF_INIT;

		series_release(&s2);
		series_load(repo, "cas", &s2, SERIES_LOAD_ALL);
		is_int(series_version_attachment(repo, &s2, &s2.versions[0],
						 "cover", &cover), 0,
		       "an attachment is stored");
		is_str(cover.buf, "Subject\n\nbody\n", "with its text");
		is_int(series_version_attachment(repo, &s2, &s2.versions[0],
						 "nothing", &cover),
		       RESPIN_ENOTFOUND, "a missing attachment is ENOTFOUND");
		/* saving the version again keeps the attachment */
		free(s2.versions[0].source);
		s2.versions[0].source = xstrdup("changed");
		is_int(series_save(repo, &s2, NULL, "again\n"), 0, "resave");
		series_release(&s2);
		series_load(repo, "cas", &s2, SERIES_LOAD_ALL);
		strbuf_reset(&cover);
		ok(!series_version_attachment(repo, &s2, &s2.versions[0],
					      "cover", &cover) &&
		   !strcmp(cover.buf, "Subject\n\nbody\n") &&
		   !strcmp(s2.versions[0].source, "changed"),
		   "a later save keeps attachments");
		series_release(&s2);
		strbuf_release(&cover);
		/* reload s so the next saves start from the newest state */
		series_release(&s);
		series_load(repo, "cas", &s, SERIES_LOAD_ALL);
		git_oid_cpy(&first, &s.meta);
	}

	/* someone else moves the ref after we loaded */
	r = series_load(repo, "cas", &s2, SERIES_LOAD_ALL);
	is_int(r, 0, "load");
	is_int(series_save(repo, &s2, NULL, "other writer\n"), 0,
	       "another writer saves");
	is_int(series_save(repo, &s, NULL, "stale\n"), -1,
	       "a save from a stale load fails");
	ok(strstr(error_last(), "changed by someone else") != NULL,
	   "and says why: %s", error_last());
	error_clear();
	series_release(&s2);
	r = series_load(repo, "cas", &s2, SERIES_LOAD_ALL);
	ok(!r && !git_oid_equal(&s2.meta, &first), "the other write stands");
	series_release(&s2);

	is_int(series_range_collect(repo, tip, base, "tip", "base", v), -1,
	       "reversed range: base not an ancestor");
	is_int(series_range_collect(repo, tip, tip, "tip", "tip", v), -1,
	       "empty range");
	error_clear();

	series_release(&s);
	git_commit_free(base);
	git_commit_free(tip);
	git_repository_free(repo);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("could not remove the test repository");
	}
}

int main(void)
{
	git_libgit2_init();
	test_names();
	test_specs();
	test_change_id();
	test_format();
	test_series_text();
	test_save_cas();
	git_libgit2_shutdown();
	return done_testing();
}
