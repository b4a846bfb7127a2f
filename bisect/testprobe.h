/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_TESTPROBE_H
#define RESPIN_BISECT_TESTPROBE_H

#include "bisect/search.h"
#include "ci/engine.h"

/*
 * The probe of respin bisect for tests: the outcome of one check (a
 * build, ktap or command check) at a position of a version, from the
 * results store, running the check through the engine only when
 * nothing is stored (or, for a retry, again).  With a subtest pattern
 * (fnmatch(3) on KTAP leaf paths like "vm/mremap_test/Expandable"), the
 * matching subtests alone decide: any failing is bad, all passing or skipped
 * is good, none there is untestable.  A position whose build failed is
 * untestable.
 */
struct test_probe {
	struct engine *e;	/* checks: c and the builds it needs */
	const struct check *c;
	const char *subtest;
	/* per position 0..n: how it was found, what decided */
	unsigned char *ran;	/* 1 ran here, 0 stored */
	struct strbuf *why;	/* "FAIL: vm/x/y" and such */
	size_t n;
};

void test_probe_init(struct test_probe *tp, struct engine *e,
		     const struct check *c, const char *subtest);
void test_probe_release(struct test_probe *tp);

/*
 * The outcome at i from what is stored alone: UNKNOWN when nothing
 * is; <0 on a database error.
 */
int test_probe_stored(struct test_probe *tp, size_t i,
		      enum bisect_outcome *out);

/* For struct bisect_probe. */
int test_probe_test(void *data, size_t i, int again,
		    enum bisect_outcome *out);

#endif
