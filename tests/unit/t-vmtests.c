// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 6.1's run_vmtests.sh lines as KTAP subtests (ci/vmtests.c) and
 * run_kselftest.sh's output as a target's block (kselftest_translate()
 * in ci/kselftest.c): on small samples in its form, and on the real
 * output of the whole 6.1 vm target in a guest (tests/data/kselftest/,
 * see its README).
 */
#include "ci/kselftest.h"
#include "ci/ktap.h"
#include "ci/vmtests.h"
#include "tests/unit/tap.h"
#include "tests/unit/testdata.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

static void name_is(const char *command, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	vmtests_name(command, strlen(command), &sb);
	is_str(sb.buf, want, "the name of \"running %s\"", command);
	strbuf_release(&sb);
}

static void test_names(void)
{
	name_is("./compaction_test", "compaction_test");
	name_is("./map_fixed_noreplace", "map_fixed_noreplace");
	name_is("./gup_test -ct -F 0x1 0 19 0x1000", "gup_test -ct -F 0x1 0 19 0x1000");
	name_is("./hugepage-mremap ./huge/huge_mremap", "hugepage-mremap huge_mremap");
	name_is("sudo -u nobody ./on-fault-limit", "sudo -u nobody on-fault-limit");
	name_is("./userfaultfd hugetlb_shared:dev 128 32 ./huge/uffd-test",
		"userfaultfd hugetlb_shared:dev 128 32 uffd-test");
	name_is("  ./a#b  x/ ", "a_b");
}

/*
 * The leaves of a target's block made from run_kselftest.sh's output:
 * "PATH STATUS[ DIRECTIVE]" a line, and the verdict.
 */
static enum ktap_verdict leaves_of(const char *runner_out, const char *stopped,
				   const char *failed, struct strbuf *out)
{
	struct strbuf body = STRBUF_INIT, ktap = STRBUF_INIT;
	struct ktap_result kr;
	struct ktap_leaf *v;
	enum ktap_verdict verdict;
	size_t n, k;

	kselftest_translate(runner_out, strlen(runner_out), stopped, &body);
	strbuf_addstr(&ktap, "KTAP version 1\n1..1\n");
	kselftest_block(&ktap, body.buf, body.len, failed);
	strbuf_addf(&ktap, "%sok 1 vm\n", stopped || *failed ? "not " : "");
	if (ktap_parse(ktap.buf, ktap.len, &kr) < 0)
		error_clear();
	n = ktap_result_leaves(&kr, &v);
	for (k = 0; k < n; k++)
		strbuf_addf(out, "%s %s%s%s\n", v[k].path,
			    ktap_status_name(v[k].status),
			    v[k].test->directive_text ? " " : "",
			    v[k].test->directive_text ?
			    v[k].test->directive_text : "");
	verdict = kr.verdict;
	ktap_leaves_free(v, n);
	ktap_result_release(&kr);
	strbuf_release(&body);
	strbuf_release(&ktap);
	return verdict;
}

static const char sample[] =
	"TAP version 13\n"
	"1..2\n"
	"# selftests: vm: run_vmtests.sh\n"
	"# 2048 kB hugepages\n"
	"# -----------------------\n"
	"# running ./hugepage-mmap\n"
	"# -----------------------\n"
	"# Returned address is 0x7f0000000000\n"
	"# [PASS]\n"
	"# -----------------------------\n"
	"# running ./map_fixed_noreplace\n"
	"# -----------------------------\n"
	"# Error: mmap() succeeded when it shouldn't have\n"
	"# [FAIL]\n"
	"# --------------------------------------------\n"
	"# running ./hugepage-mremap ./huge/huge_mremap\n"
	"# --------------------------------------------\n"
	"# [SKIP]\n"
	"# NOTE: The above hugetlb tests provide minimal coverage.\n"
	"# -----------------------\n"
	"# running ./madv_populate\n"
	"# -----------------------\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# ok 1 MADV_POPULATE_READ\n"
	"# not ok 2 MADV_POPULATE_WRITE\n"
	"# # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0\n"
	"# [FAIL]\n"
	"not ok 1 selftests: vm: run_vmtests.sh # exit=1\n"
	"# selftests: vm: soft-dirty\n"
	"# TAP version 13\n"
	"# 1..1\n"
	"# ok 1 Test test_simple\n"
	"ok 2 selftests: vm: soft-dirty\n";

static void test_translate(void)
{
	struct strbuf sb = STRBUF_INIT, got = STRBUF_INIT;
	enum ktap_verdict v;

	is_int(vmtests_ktap("nothing\nhere\n", 13, "", NULL, &sb), 0,
	       "no running lines: not run_vmtests.sh");
	ok(!sb.len, "and nothing written");
	is_int(vmtests_ktap("running ./x\n[PASS]\n", 19, "", NULL, &sb), 0,
	       "a running line counts only after dashes");

	v = leaves_of(sample, NULL, "", &got);
	is_str(got.buf,
	       "vm/run_vmtests.sh/hugepage-mmap PASS\n"
	       "vm/run_vmtests.sh/map_fixed_noreplace FAIL\n"
	       "vm/run_vmtests.sh/hugepage-mremap huge_mremap SKIP SKIP\n"
	       "vm/run_vmtests.sh/madv_populate/MADV_POPULATE_READ PASS\n"
	       "vm/run_vmtests.sh/madv_populate/MADV_POPULATE_WRITE FAIL\n"
	       "vm/soft-dirty/Test test_simple PASS\n",
	       "each running line a subtest, a program's own KTAP below it, "
	       "run_kselftest.sh's names without 'selftests: vm: '");
	is_int(v, KTAP_VERDICT_FAIL, "a failed subtest: FAIL");

	strbuf_reset(&sb);
	vmtests_ktap("x\n---\nrunning ./a\n---\nout\n[PASS]\nafter\n", 39,
		     "  ", NULL, &sb);
	is_str(sb.buf, "  KTAP version 1\n  1..1\n  # x\n  # out\n  ok 1 a\n"
	       "  # after\n", "the test's lines nest, what follows it stays "
	       "a diagnostic, what came before the dashes too");

	strbuf_reset(&got);
	v = leaves_of("TAP version 13\n1..1\n# selftests: vm: run_vmtests.sh\n"
		      "# ----\n# running ./a\n# ----\n# [PASS]\n"
		      "# ----\n# running ./userfaultfd anon 20 16\n# ----\n"
		      "# nr_pages: 3\n#\n"
		      "not ok 1 selftests: vm: run_vmtests.sh # TIMEOUT 450 seconds\n",
		      NULL, "", &got);
	is_str(got.buf, "vm/run_vmtests.sh/a PASS\n"
	       "vm/run_vmtests.sh/userfaultfd anon 20 16 FAIL TIMEOUT 450 seconds\n",
	       "the runner's timeout ends the test it was in");
	is_int(v, KTAP_VERDICT_FAIL, "a timeout: FAIL (stored)");

	strbuf_reset(&got);
	v = leaves_of("TAP version 13\n1..2\n# selftests: vm: run_vmtests.sh\n"
		      "# ----\n# running ./a\n# ----\n# [PASS]\n"
		      "# ----\n# running ./b\n# ----\n# half\n",
		      "the guest stopped while the tests ran", "", &got);
	is_str(got.buf, "vm/run_vmtests.sh/a PASS\n"
	       "vm/run_vmtests.sh/b FAIL the guest stopped while the tests ran\n"
	       "vm/#2 ERROR\n",
	       "a guest that stopped: the test it was in, and the one that "
	       "never came");
	is_int(v, KTAP_VERDICT_FAIL, "under the target's not ok: FAIL");

	strbuf_reset(&got);
	leaves_of("TAP version 13\n1..1\n# selftests: mm: run_vmtests.sh\n"
		  "# TAP version 13\n# # ----\n# # running ./a\n# # ----\n"
		  "# # [PASS]\n# ok 1 a\n# 1..1\nok 1 selftests: mm: run_vmtests.sh\n",
		  NULL, "", &got);
	is_str(got.buf, "vm/run_vmtests.sh/a PASS\n",
	       "a newer run_vmtests.sh prints TAP itself: taken as it is");

	strbuf_reset(&got);
	leaves_of("TAP version 13\n1..1\n# selftests: vm: run_vmtests.sh\n"
		  "# ----\n# running ./a\n# ----\n# [PASS]\n"
		  "# ----\n# running ./delta\n# ----\n"
		  "# respin: delta did not build\n# [FAIL]\n"
		  "not ok 1 selftests: vm: run_vmtests.sh # exit=1\n",
		  NULL, "delta\n", &got);
	is_str(got.buf, "vm/run_vmtests.sh/a PASS\n"
	       "vm/run_vmtests.sh/delta FAIL\nvm/delta FAIL build failed\n",
	       "a program that did not build: its stub fails, and it is named");
	strbuf_release(&sb);
	strbuf_release(&got);
}

/*
 * The real output: 6.1's vm target, run_kselftest.sh -c vm in the
 * guest (tests/data/kselftest/README.md says how it was made).
 */
static void test_real(void)
{
	const char *dir = test_data_dir();
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT,
		      got = STRBUF_INIT, want = STRBUF_INIT;

	strbuf_addf(&path, "%s/kselftest/vm-6.1-run_kselftest.out",
		    dir ? dir : ".");
	if (strbuf_read_file(&text, path.buf) < 0) {
		ok(0, "read %s", path.buf);
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/kselftest/vm-6.1-leaves.txt", dir ? dir : ".");
	if (strbuf_read_file(&want, path.buf) < 0) {
		ok(0, "read %s", path.buf);
		goto out;
	}
	is_int(leaves_of(text.buf, NULL, "", &got), KTAP_VERDICT_FAIL,
	       "the real vm run: FAIL (4 of run_vmtests.sh's tests fail)");
	is_str(got.buf, want.buf, "every test and subtest of the real run, "
	       "by name and state");
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&got);
	strbuf_release(&want);
}

int main(void)
{
	test_names();
	test_translate();
	test_real();
	return done_testing();
}
