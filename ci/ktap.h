/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KTAP_H
#define RESPIN_CI_KTAP_H

#include <stddef.h>

struct json;

/*
 * A KTAP / TAP parser for test output: kunit's KTAP (subtests indented
 * by four spaces), kselftest's TAP 13 (a test's own output nested
 * behind "# " by run_kselftest.sh), read from a file or from a serial
 * console full of kernel log lines.
 *
 * Before parsing, each line loses carriage returns, terminal escape
 * sequences (ESC [ ... m, ESC c, ...) and a printk timestamp
 * "[   12.345678] ".  Lines that are not KTAP are ignored.
 *
 * The output decides, never an exit code: a test printed "not ok" is
 * FAIL even if its program exited 0, and a test that printed "ok" for
 * each subtest but whose runner line says "not ok" is FAIL too.
 */

enum ktap_status {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_TODO,
	KTAP_XFAIL,
	KTAP_ERROR,	/* "# ERROR", missing, or cut off by a crash */
};

enum ktap_directive {
	KTAP_DIRECTIVE_NONE,
	KTAP_DIRECTIVE_SKIP,
	KTAP_DIRECTIVE_TODO,
	KTAP_DIRECTIVE_XFAIL,
	KTAP_DIRECTIVE_TIMEOUT,	/* a FAIL */
	KTAP_DIRECTIVE_ERROR,
	KTAP_DIRECTIVE_OTHER,	/* "# exit=1" and such: text only */
};

/* One test point, and its subtests if it has any. */
struct ktap_test {
	int number;		/* 0 if none was given */
	char *name;		/* the description, or NULL */
	enum ktap_status status;
	int ok;			/* the line said "ok" (not "not ok") */
	enum ktap_directive directive;
	char *directive_text;	/* after "# ": "SKIP reason", or NULL */
	char *diagnostic;	/* the "# ..." lines just before, or NULL */

	int plan;		/* N of "1..N", or -1 if none was seen */
	unsigned has_result:1;	/* its own result line was seen */
	unsigned missing:1;	/* planned but never reported */
	unsigned cut_off:1;	/* output ended inside it */
	unsigned bailed_out:1;	/* "Bail out!" inside it */
	unsigned plan_mismatch:1; /* more or fewer results than planned */
	char *bail_reason;	/* text after "Bail out!", or NULL */

	struct ktap_test **subtests;
	size_t nr_subtests, alloc_subtests;
};

enum ktap_verdict {
	KTAP_VERDICT_PASS,	/* everything passed or was skipped */
	KTAP_VERDICT_FAIL,	/* something failed */
	KTAP_VERDICT_ERROR,	/* the run broke: bail-out, crash, plan */
};

/* Leaf counts; error includes missing. */
struct ktap_counts {
	int pass, fail, skip, todo, xfail, error, missing;
};

struct ktap_result {
	struct ktap_test root;	/* the top level: no result line */
	int version;		/* 13 or 14 for TAP, 1 for KTAP, 0 none */
	size_t lines;		/* lines read */
	size_t ignored;		/* lines that were not KTAP */
	int found;		/* any KTAP line at all */
	int partial_line;	/* the last line had no newline */
	int unplanned;		/* results without a top-level plan */

	struct ktap_counts counts;
	enum ktap_verdict verdict;
	char *reason;		/* why ERROR or FAIL, or NULL */
};

/* One leaf of the tree, with its path ("vm/mremap_test/Expandable"). */
struct ktap_leaf {
	char *path;
	enum ktap_status status;
	const struct ktap_test *test;	/* borrowed from the result */
};

void ktap_result_init(struct ktap_result *r);
void ktap_result_release(struct ktap_result *r);

/*
 * Parses len bytes of text into out (which it initialises first, and
 * which the caller releases in all cases).  Returns 0, or
 * RESPIN_ENOTFOUND when the text holds no KTAP at all (out then says
 * ERROR).  A crash, bail-out or a plan not met is not an error of the
 * parser: it is in out->verdict and out->reason.
 */
int ktap_parse(const char *text, size_t len, struct ktap_result *out);

/*
 * The leaves, depth first, in output order: tests without subtests,
 * and also a test whose own line failed while none of its subtests
 * did (its runner saw the failure, e.g. a crash after the last
 * subtest).  Path components are test names joined with '/'; a
 * kselftest runner name "selftests: vm: mremap_test" becomes
 * "vm/mremap_test", a test without a name becomes "#N".  Returns the
 * count; *leaves is an array for ktap_leaves_free().
 */
size_t ktap_result_leaves(const struct ktap_result *r,
			  struct ktap_leaf **leaves);
void ktap_leaves_free(struct ktap_leaf *leaves, size_t nr);

/* "PASS", "FAIL", "SKIP", "TODO", "XFAIL", "ERROR". */
const char *ktap_status_name(enum ktap_status s);
const char *ktap_verdict_name(enum ktap_verdict v);

/* What to put in the JSON object. */
enum {
	KTAP_JSON_TREE = 1 << 0,	/* "tests": the nested tests */
	KTAP_JSON_LEAVES = 1 << 1,	/* "leaves": [{path, status}] */
	KTAP_JSON_DIAGNOSTICS = 1 << 2,	/* diagnostic lines in the tree */
};

/*
 * Writes one object: verdict, reason, counts, and what flags ask for.
 * Starts a value: call it where a value may go (after json_key(), in
 * an array, or at the top).
 */
void ktap_result_to_json(struct json *j, const struct ktap_result *r,
			 unsigned int flags);

#endif
