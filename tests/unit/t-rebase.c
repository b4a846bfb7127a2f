// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for respin rebase's pieces: the rebased marks in version
 * metadata (kept by a respin that does not know them), the state file
 * written and read back, a broken state refused.
 */
#include "series/rebase.h"
#include "series/storetext.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char meta[] =
	"version 3\n"
	"base 1111111111111111111111111111111111111111\n"
	"tip 2222222222222222222222222222222222222222\n"
	"recorded 1700000000\n"
	"source rebase of v2 onto mm-unstable (111111111111)\n"
	"rebased-from 2\n"
	"patch 3333333333333333333333333333333333333333 "
	"4444444444444444444444444444444444444444 mm: one\n"
	" rebased clean\n"
	"patch 5555555555555555555555555555555555555555 "
	"6666666666666666666666666666666666666666 mm: two\n"
	" rebased resolved\n";

static void test_marks(void)
{
	struct series_version v;
	struct strbuf out = STRBUF_INIT;

	memset(&v, 0, sizeof(v));
	strbuf_init(&v.extra, 0);
	v.number = 3;
	is_int(series_version_parse_meta(&v, meta, strlen(meta)), 0,
	       "metadata with the marks parses");
	is_int(rebase_version_from(&v), 2, "rebased from v2");
	is_int(v.nr_patches, 2, "two patches");
	ok(rebase_patch_how(&v.patches[0]) == REBASE_CLEAN, "1/2 clean");
	ok(rebase_patch_how(&v.patches[1]) == REBASE_RESOLVED,
	   "2/2 resolved");
	series_version_format(&v, &out);
	is_str(out.buf, meta, "written back as read: the store keeps the "
	       "lines as unknown ones");
	series_version_release(&v);

	memset(&v, 0, sizeof(v));
	strbuf_init(&v.extra, 0);
	strbuf_addstr(&v.extra, "not-rebased-from 4\n");
	is_int(rebase_version_from(&v), 0, "a key that only ends in the name "
	       "is not the mark");
	series_version_release(&v);
	strbuf_release(&out);
}

static git_repository *make_repo(char *dir)
{
	git_repository *repo = NULL;

	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 0) < 0)
		return NULL;
	return repo;
}

static void test_state(void)
{
	char dir[] = "/tmp/respin-t-rebase.XXXXXX";
	git_repository *repo = make_repo(dir);
	struct rebase_state st, back;
	struct strbuf path = STRBUF_INIT, cmd = STRBUF_INIT;
	FILE *f;
	int r;

	ok(repo != NULL, "test repository made");
	if (!repo)
		return;
	memset(&back, 0, sizeof(back));
	is_int(rebase_state_read(repo, "k", &back), RESPIN_ENOTFOUND,
	       "no state: not found, no message");
	rebase_state_init(&st, "k", 3);
	st.from = 2;
	st.to = 3;
	git_oid_fromstr(&st.meta, "1111111111111111111111111111111111111111");
	git_oid_fromstr(&st.onto, "2222222222222222222222222222222222222222");
	git_oid_fromstr(&st.current, "3333333333333333333333333333333333333333");
	st.onto_name = xstrdup("mm-unstable");
	st.base_ref = xstrdup("refs/heads/mm-unstable");
	st.branch = xstrdup("refs/heads/topic");
	git_oid_fromstr(&st.branch_old,
			"4444444444444444444444444444444444444444");
	st.next = 1;
	st.steps[0].how = REBASE_3WAY;
	st.steps[0].commit = st.current;
	st.steps[1].how = REBASE_CONFLICT;
	is_int(rebase_state_write(repo, &st), 0, "state written");
	is_int(rebase_state_read(repo, "k", &back), 0, "state read back");
	ok(back.from == 2 && back.to == 3 && back.next == 1 && back.nr == 3,
	   "numbers kept");
	ok(git_oid_equal(&back.meta, &st.meta) &&
	   git_oid_equal(&back.onto, &st.onto) &&
	   git_oid_equal(&back.current, &st.current), "ids kept");
	is_str(back.onto_name, "mm-unstable", "onto name kept");
	is_str(back.base_ref, "refs/heads/mm-unstable", "base ref kept");
	is_str(back.branch, "refs/heads/topic", "branch kept");
	ok(git_oid_equal(&back.branch_old, &st.branch_old),
	   "the branch's old tip kept");
	ok(back.steps[0].how == REBASE_3WAY &&
	   git_oid_equal(&back.steps[0].commit, &st.current) &&
	   back.steps[1].how == REBASE_CONFLICT &&
	   back.steps[2].how == REBASE_TODO, "steps kept");

	rebase_state_path(repo, "k", &path);
	strbuf_addf(&cmd, "%s.tmp", path.buf);
	ok(access(cmd.buf, F_OK) < 0, "no temporary file left");
	f = fopen(path.buf, "w");
	if (f) {
		fputs("respin-rebase 1\nseries k\nfrom 2\n", f);
		fclose(f);
	}
	r = rebase_state_read(repo, "k", &back);
	ok(r < 0 && strstr(error_last(), "is incomplete") != NULL,
	   "a cut state is refused: %s", error_last());
	error_clear();
	is_int(rebase_state_remove(repo, "k"), 0, "state removed");
	is_int(rebase_state_read(repo, "k", &back), RESPIN_ENOTFOUND,
	       "and gone");

	rebase_state_release(&st);
	rebase_state_release(&back);
	git_repository_free(repo);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd.buf))
		ok(0, "cleanup");
	strbuf_release(&cmd);
	strbuf_release(&path);
}

int main(void)
{
	git_libgit2_init();
	test_marks();
	test_state();
	git_libgit2_shutdown();
	return done_testing();
}
