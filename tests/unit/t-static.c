// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The static analysis kinds without processes: the findings of each
 * tool's real output lines (sparse, gcc W=1, kernel-doc, Coccinelle)
 * without their line numbers, the paths respin gives a tool, and a
 * result's details: what a patch adds, removes and keeps, and back.
 */
#include "ci/static.h"
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

static void test_findings(void)
{
	/* lines as the tools print them (6.1 tree, under O=) */
	static const char out[] =
		"  CHECK   /src/k/mm/compaction.c\n"
		"/src/k/mm/compaction.c:3070:5: warning: symbol 'respin_helper' was not declared. Should it be static?\n"
		"/src/k/mm/compaction.c: note: in included file (through /src/k/include/linux/wait.h):\n"
		"/src/k/include/linux/spinlock.h:406:9: warning: context imbalance in 'isolate_freepages_block' - unexpected unlock\n"
		"/src/k/mm/x.c:12:9: warning: incorrect type in assignment (different base types)\n"
		"/src/k/mm/x.c:12:9:    expected int\n"
		"mm/compaction.c:3071: warning: Function parameter or member 'order' not described in 'respin_helper'\r\n"
		"/b/mm/y.c:7:5: warning: no previous prototype for 'f' [-Wmissing-prototypes]\n"
		"mm/compaction.c:3069:2-3: Unneeded semicolon\n"
		"warning: line 134: should no_llseek be a metavariable?\n"
		"mm/z.c:5:1-8: ERROR: missing put_device\n"
		"mm/e.c:4:2: error: expected ';' before 'return'\n"
		"mm/n.c:3: note: not a finding\n"
		"make[1]: Leaving directory '/b'\n";
	struct warning_set ws = { 0 };
	struct strbuf got = STRBUF_INIT;

	findings_parse(&ws, out, sizeof(out) - 1, "/b", "/src/k");
	joined(&ws, &got);
	is_str(got.buf,
	       "include/linux/spinlock.h: warning: context imbalance in 'isolate_freepages_block' - unexpected unlock|"
	       "mm/compaction.c: Unneeded semicolon|"
	       "mm/compaction.c: warning: Function parameter or member 'order' not described in 'respin_helper'|"
	       "mm/compaction.c: warning: symbol 'respin_helper' was not declared. Should it be static?|"
	       "mm/e.c: error: expected ';' before 'return'|"
	       "mm/x.c: warning: incorrect type in assignment (different base types)|"
	       "mm/y.c: warning: no previous prototype for 'f' [-Wmissing-prototypes]|"
	       "mm/z.c: ERROR: missing put_device",
	       "findings: sparse, kernel-doc, gcc, Coccinelle; no notes, no continuations");
	warning_set_release(&ws);
	/* the same finding on another line is the same finding */
	findings_parse(&ws, "mm/a.c:1:2: warning: w\nmm/a.c:99:3: warning: w\n",
		       46, NULL, NULL);
	is_int((long long)ws.nr, 1, "a finding that moved is one finding");
	warning_set_release(&ws);
	{
		static const char cocci[] =
			"mm/k.c:821:20-23: ERROR: reference preceded by free on line 819\n"
			"mm/k.c:900:20-23: ERROR: reference preceded by free on line 898\n"
			"mm/k.c:9:1: warning: timeline 12, line 3x, line 4\n";

		findings_parse(&ws, cocci, sizeof(cocci) - 1, NULL, NULL);
	}
	joined(&ws, &got);
	is_str(got.buf, "mm/k.c: ERROR: reference preceded by free on line N|"
	       "mm/k.c: warning: timeline 12, line 3x, line N",
	       "a line number inside the message is no part of the finding");
	warning_set_release(&ws);
	findings_parse(&ws, "mm/a.c:1:2: warning: w\0mm/b.c:1:2: warning: v\n",
		       46, NULL, NULL);
	is_int((long long)ws.nr, 1, "a NUL byte ends a line");
	warning_set_release(&ws);
	strbuf_release(&got);
}

static void test_paths(void)
{
	static const char *const good[] = {
		"mm/compaction.c", "drivers/net/wireless/ath/ath9k/hw.c",
		"include/linux/mm.h", "a.c", "fs/ext4/x+y,z-w_v.c",
	};
	static const char *const bad[] = {
		"", "-rf.c", "/etc/x.c", "mm/../x.c", "../x.c", "mm/./x.c",
		"mm//x.c", "mm/x.c/", "mm/we ird.c", "mm/$(touch x).c",
		"mm/a;b.c", "mm/a\nb.c", "mm/'q'.c", "mm/a\"b.c", "mm/a\\b.c",
		"mm/*.c", "mm/x=y.c", "mm/x:y.c", "mm/%.c", "mm/\xc3\xa9.c",
		"..", "mm/..",
	};
	size_t i;
	int all = 1;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++)
		all &= ok(static_path_ok(good[i]), "given: %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (static_path_ok(bad[i]))
			all = ok(0, "refused: '%s'", bad[i]);
	ok(all, "every path with syntax for make, xargs or sh is refused");
}

static void test_details(void)
{
	struct warning_set before = { 0 }, after = { 0 }, added = { 0 },
			   fixed = { 0 }, now = { 0 };
	struct strbuf d = STRBUF_INIT, got = STRBUF_INIT, sum = STRBUF_INIT;
	size_t a, f;

	warning_set_add(&before, "mm/a.c: warning: old");
	warning_set_add(&before, "mm/a.c: warning: gone");
	warning_set_add(&after, "mm/a.c: warning: old");
	warning_set_add(&after, "mm/a.c: warning: new one");
	warning_set_add(&after, "mm/b.c: warning: new two");
	static_details(&before, &after, &d, &a, &f);
	is_str(d.buf, "+ mm/a.c: warning: new one\n+ mm/b.c: warning: new two\n"
	       "- mm/a.c: warning: gone\n= mm/a.c: warning: old\n",
	       "details: added, removed, kept");
	ok(a == 2 && f == 1, "counted: 2 added, 1 removed");
	static_details_parse(d.buf, &added, &fixed, &now);
	joined(&added, &got);
	is_str(got.buf, "mm/a.c: warning: new one|mm/b.c: warning: new two",
	       "read back: added");
	joined(&fixed, &got);
	is_str(got.buf, "mm/a.c: warning: gone", "read back: removed");
	joined(&now, &got);
	is_str(got.buf, "mm/a.c: warning: new one|mm/a.c: warning: old|"
	       "mm/b.c: warning: new two", "read back: the findings after");
	static_details_parse(NULL, &added, NULL, NULL);
	ok(added.nr == 2, "no details: nothing more");
	static_summary(2, 1, &sum);
	strbuf_addch(&sum, ',');
	static_summary(0, 0, &sum);
	strbuf_addch(&sum, ',');
	static_summary(0, 3, &sum);
	strbuf_addch(&sum, ',');
	static_summary(1, 0, &sum);
	is_str(sum.buf, "+2 -1,ok,ok -3,+1", "the cells");
	warning_set_release(&before);
	warning_set_release(&after);
	warning_set_release(&added);
	warning_set_release(&fixed);
	warning_set_release(&now);
	strbuf_release(&d);
	strbuf_release(&got);
	strbuf_release(&sum);
}

static void test_table(void)
{
	ok(static_kind(CHECK_SPARSE) && static_kind(CHECK_W1) &&
	   static_kind(CHECK_KDOC) && static_kind(CHECK_COCCI) &&
	   !static_kind(CHECK_BUILD) && !static_kind(CHECK_LINT),
	   "a table entry for each static kind, none for the others");
	ok(check_kind_static(CHECK_COCCI) && !check_kind_static(CHECK_BENCH),
	   "check_kind_static");
	ok(!strcmp(check_kind_name(CHECK_COCCI), "coccicheck") &&
	   !strcmp(check_kind_name(CHECK_W1), "w1"), "their names");
}

int main(void)
{
	test_findings();
	test_paths();
	test_details();
	test_table();
	return done_testing();
}
