// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = kselftest without processes: target names and their vm/mm
 * alias, a target's settings, the KTAP block of one target (programs
 * that did not build), the cell, and what changed from one position
 * to the next (tests new, gone, broken, fixed, flipped).
 */
#include "ci/checks.h"
#include "ci/kselftest.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

static void joined(const struct warning_set *ws, struct strbuf *out)
{
	size_t i;

	strbuf_reset(out);
	for (i = 0; i < ws->nr; i++)
		strbuf_addf(out, "%s%s", i ? "|" : "", ws->items[i]);
}

static int has_mm(const char *dir, void *data)
{
	(void)data;
	return !strcmp(dir, "mm") || !strcmp(dir, "kvm");
}

static int has_vm(const char *dir, void *data)
{
	(void)data;
	return !strcmp(dir, "vm");
}

static void test_names(void)
{
	const char *r;

	ok(kselftest_target_valid("vm") && kselftest_target_valid("net/forwarding") &&
	   kselftest_target_valid("user_events") && kselftest_target_valid("x86"),
	   "target names");
	ok(!kselftest_target_valid("") && !kselftest_target_valid("../vm") &&
	   !kselftest_target_valid("/vm") && !kselftest_target_valid("vm/") &&
	   !kselftest_target_valid("vm;rm") && !kselftest_target_valid("a b") &&
	   !kselftest_target_valid(".hidden") && !kselftest_target_valid("a/../b"),
	   "not target names: empty, .., absolute, shell syntax, spaces");
	r = kselftest_resolve("vm", has_mm, NULL);
	is_str(r ? r : "(null)", "mm", "vm in a tree that has mm: mm");
	r = kselftest_resolve("mm", has_vm, NULL);
	is_str(r ? r : "(null)", "vm", "mm in 6.1 (vm): vm");
	r = kselftest_resolve("vm", has_vm, NULL);
	is_str(r ? r : "(null)", "vm", "vm where it is: vm");
	ok(!kselftest_resolve("kvm", has_vm, NULL), "kvm not there: none");
	r = kselftest_resolve("kvm", has_mm, NULL);
	is_str(r ? r : "(null)", "kvm", "no alias, there: itself");
	ok(!kselftest_resolve("net", has_mm, NULL) && !kselftest_alias("net"),
	   "no alias for others");
}

static void test_settings(void)
{
	static const char s1[] = "timeout=45\n";
	static const char s2[] = "# comment\ntimeout=120\r\nother=1\n";
	static const char s3[] = "timeout=0\n";
	static const char s4[] = "timeout=abc\ntimeout=\n";
	static const char s5[] = "timeout=10\ntimeout=300";

	is_int(kselftest_settings_timeout(s1, strlen(s1)), 45, "timeout=45");
	is_int(kselftest_settings_timeout(s2, strlen(s2)), 120,
	       "timeout=120 among other lines, CRLF");
	is_int(kselftest_settings_timeout(s3, strlen(s3)), 0, "timeout=0");
	is_int(kselftest_settings_timeout(s4, strlen(s4)), KSELFTEST_TIMEOUT,
	       "not numbers: the default");
	is_int(kselftest_settings_timeout(s5, strlen(s5)), 300,
	       "the last line wins, no newline at the end");
	is_int(kselftest_settings_timeout("", 0), 45, "no settings: 45");
}

/* The runner's output for two programs, the second with subtests. */
static const char runner[] =
	"KTAP version 1\n"
	"1..2\n"
	"    # hello\n"
	"ok 1 prog_a\n"
	"    TAP version 13\n"
	"    1..3\n"
	"    ok 1 read\n"
	"    ok 2 write # SKIP no soft-dirty\n"
	"    ok 3 write\n"
	"ok 2 prog_b\n";

static void whole(struct strbuf *out, const char *ktap, const char *failed,
		  int ok)
{
	strbuf_reset(out);
	strbuf_addstr(out, "KTAP version 1\n1..1\n");
	kselftest_block(out, ktap, strlen(ktap), failed);
	strbuf_addf(out, "%sok 1 vm\n", ok ? "" : "not ");
}

static void test_block_and_cell(void)
{
	struct strbuf out = STRBUF_INIT, cell = STRBUF_INIT;
	struct ktap_result kr;

	whole(&out, runner, "", 1);
	is_str(out.buf,
	       "KTAP version 1\n1..1\n"
	       "    KTAP version 1\n    1..2\n"
	       "        # hello\n    ok 1 prog_a\n"
	       "        TAP version 13\n        1..3\n"
	       "        ok 1 read\n        ok 2 write # SKIP no soft-dirty\n"
	       "        ok 3 write\n    ok 2 prog_b\n"
	       "ok 1 vm\n", "a target's block: the runner's KTAP, indented");
	ktap_result_init(&kr);
	ok(!ktap_parse(out.buf, out.len, &kr) &&
	   kr.verdict == KTAP_VERDICT_PASS, "it parses, PASS");
	kselftest_cell(&kr, &cell);
	is_str(cell.buf, "vm 3/4 (1 skip)", "the cell: subtests counted");
	ktap_result_release(&kr);

	whole(&out, runner, "prog_c\nprog_d\n", 0);
	ok(strstr(out.buf, "    1..4\n") &&
	   strstr(out.buf, "    not ok 3 prog_c # build failed\n") &&
	   strstr(out.buf, "    not ok 4 prog_d # build failed\n"),
	   "programs that did not build: not ok, after the run's");
	ktap_result_init(&kr);
	ok(!ktap_parse(out.buf, out.len, &kr) &&
	   kr.verdict == KTAP_VERDICT_FAIL, "FAIL");
	strbuf_reset(&cell);
	kselftest_cell(&kr, &cell);
	is_str(cell.buf, "vm 3/6 (1 skip), 2 failed", "counted as failed");
	ktap_result_release(&kr);

	whole(&out, "", "", 1);
	ok(strstr(out.buf, "    1..0 # SKIP no programs\n") != NULL,
	   "no programs: an empty plan that says so");
	ktap_result_init(&kr);
	ok(!ktap_parse(out.buf, out.len, &kr) &&
	   kr.verdict == KTAP_VERDICT_PASS, "and it is no failure");
	strbuf_reset(&cell);
	kselftest_cell(&kr, &cell);
	is_str(cell.buf, "vm 0/0", "0/0");
	ktap_result_release(&kr);

	whole(&out, "", "prog_a\n", 0);
	ktap_result_init(&kr);
	ok(!ktap_parse(out.buf, out.len, &kr), "nothing built parses");
	strbuf_reset(&cell);
	kselftest_cell(&kr, &cell);
	is_str(cell.buf, "vm 0/1, 1 failed", "nothing built: failed");
	ktap_result_release(&kr);
	strbuf_release(&out);
	strbuf_release(&cell);
}

static void changes(struct kselftest_changes *c, const char *a,
		    const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

	memset(c, 0, sizeof(*c));
	whole(&x, a, "", 1);
	whole(&y, b, "", 1);
	kselftest_changes_compute(c, x.buf, x.len, y.buf, y.len);
	strbuf_release(&x);
	strbuf_release(&y);
}

static void test_changes(void)
{
	static const char added[] =
		"KTAP version 1\n1..3\nok 1 prog_a\n"
		"    1..3\n    ok 1 read\n    ok 2 write # SKIP no soft-dirty\n"
		"    ok 3 write\nok 2 prog_b\n"
		"    1..2\n    ok 1 one\n    ok 2 two\nok 3 prog_new\n";
	static const char broken[] =
		"KTAP version 1\n1..3\nok 1 prog_a\n"
		"    1..3\n    ok 1 read\n    ok 2 write # SKIP no soft-dirty\n"
		"    not ok 3 write\nnot ok 2 prog_b\n"
		"    1..2\n    ok 1 one\n    ok 2 two\nok 3 prog_new\n";
	static const char gone[] =
		"KTAP version 1\n1..1\nok 1 prog_a\n";
	struct kselftest_changes c;
	struct strbuf got = STRBUF_INIT, text = STRBUF_INIT;

	changes(&c, runner, runner);
	kselftest_changes_text(&c, &text);
	is_str(text.buf, "", "the same: no change");
	kselftest_changes_release(&c);

	changes(&c, runner, added);
	joined(&c.new_tests, &got);
	is_str(got.buf, "vm/prog_new/one|vm/prog_new/two",
	       "a new program: its subtests are new");
	ok(!c.gone_tests.nr && !c.broken.nr && !c.fixed.nr && !c.flipped.nr,
	   "and nothing else");
	kselftest_changes_text(&c, &text);
	is_str(text.buf, ", 2 new", "the cell's words");
	kselftest_changes_release(&c);

	changes(&c, added, broken);
	joined(&c.broken, &got);
	is_str(got.buf, "vm/prog_b/write #2",
	       "the second of two subtests of one name broke");
	ok(!c.new_tests.nr && !c.gone_tests.nr && !c.fixed.nr,
	   "nothing new or gone");
	kselftest_changes_release(&c);

	changes(&c, broken, added);
	joined(&c.fixed, &got);
	is_str(got.buf, "vm/prog_b/write #2", "and back: fixed");
	kselftest_changes_release(&c);

	changes(&c, added, gone);
	joined(&c.gone_tests, &got);
	is_str(got.buf, "vm/prog_b/read|vm/prog_b/write|"
	       "vm/prog_b/write #2|vm/prog_new/one|vm/prog_new/two",
	       "removed programs: their subtests gone");
	ok(!c.new_tests.nr && !c.broken.nr, "the one left is no change");
	strbuf_reset(&text);
	kselftest_changes_text(&c, &text);
	is_str(text.buf, ", 5 gone", "the cell's words");
	kselftest_changes_release(&c);

	changes(&c, runner,
		"KTAP version 1\n1..2\nok 1 prog_a # SKIP\nok 2 prog_b\n"
		"    1..3\n    ok 1 read\n    ok 2 write # SKIP no soft-dirty\n"
		"    ok 3 write\n");
	joined(&c.flipped, &got);
	is_str(got.buf, "vm/prog_a", "PASS to SKIP: flipped");
	kselftest_changes_release(&c);
	strbuf_release(&got);
	strbuf_release(&text);
}

static void test_tests(void)
{
	struct kselftest_test t = KSELFTEST_TEST_INIT;
	struct strbuf err = STRBUF_INIT, all = STRBUF_INIT;
	const char *p = "vm:run_vmtests.sh -t mmap -t gup_test  mm:madv_populate";
	int r;

	while ((r = kselftest_tests_next(&p, &t, &err)) > 0)
		strbuf_addf(&all, "[%s|%s|%s]", t.collection.buf, t.test.buf,
			    t.args.buf);
	is_int(r, 0, "a list of tests, to its end");
	is_str(all.buf, "[vm|run_vmtests.sh|-t mmap -t gup_test][mm|madv_populate|]",
	       "each test with the words up to the next as its arguments");
	p = "-t mmap vm:run_vmtests.sh";
	is_int(kselftest_tests_next(&p, &t, &err), -1, "an argument first: no");
	is_str(err.buf, "'-t' comes before any COLLECTION:TEST (like "
	       "vm:run_vmtests.sh)", "and why");
	strbuf_reset(&err);
	p = "vm:../run_vmtests.sh";
	ok(kselftest_tests_next(&p, &t, &err) < 0 && strstr(err.buf, "is not "
	   "COLLECTION:TEST"), "a test with a directory: no");
	strbuf_reset(&err);
	p = "../vm:x";
	ok(kselftest_tests_next(&p, &t, &err) < 0, "a collection out of the "
	   "selftests: no");
	strbuf_reset(&err);
	p = "vm:x $(reboot)";
	ok(kselftest_tests_next(&p, &t, &err) < 0 && strstr(err.buf,
	   "'$(reboot)' (an argument of vm:x) has characters"),
	   "an argument with shell syntax: no");
	strbuf_reset(&all);
	kselftest_args_variable("run_vmtests.sh", &all);
	is_str(all.buf, "KSELFTEST_RUN_VMTESTS_SH_ARGS", "the variable "
	       "run_kselftest.sh's runner reads a test's arguments from");
	strbuf_reset(&all);
	kselftest_args_variable("cpu-on-off-test.sh", &all);
	is_str(all.buf, "KSELFTEST_CPU_ON_OFF_TEST_SH_ARGS", "its own example");
	kselftest_test_release(&t);
	strbuf_release(&err);
	strbuf_release(&all);
}

int main(void)
{
	test_tests();
	test_names();
	test_settings();
	test_block_and_cell();
	test_changes();
	ok(!strcmp(check_kind_name(CHECK_KSELFTEST), "kselftest"),
	   "the kind's name");
	return done_testing();
}
