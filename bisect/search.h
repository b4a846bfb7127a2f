/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_SEARCH_H
#define RESPIN_BISECT_SEARCH_H

#include <stddef.h>

/*
 * The search of a bisection, apart from what is tested: positions
 * 0..n (0 the base, i the tree after patch i; or base commits in
 * order), each good, bad or untestable, found by a probe.  Known
 * outcomes (stored results) are used and never tested again.  Like git
 * bisect: the first bad position whose predecessor is good, by binary
 * search between the last good and the first bad; an untestable one is
 * stepped around.  After that, the two positions at the boundary are
 * tested again (retries) so that a flaky test is called flaky instead
 * of blamed.
 */
enum bisect_outcome {
	BISECT_UNKNOWN = 0,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,		/* cannot be tested there (no build, error) */
};

struct bisect_probe {
	/*
	 * Tests position i: *out GOOD, BAD or SKIP; again is 1 for a retry
	 * (run it again, do not use what is stored).  <0 on an error,
	 * which stops the search.
	 */
	int (*test)(void *data, size_t i, int again,
		    enum bisect_outcome *out);
	void *data;
};

enum bisect_answer {
	BISECT_FOUND,		/* first_bad is bad, first_bad - 1 good */
	BISECT_NONE,		/* the last position is good */
	BISECT_BAD_AT_START,	/* position 0 is bad already */
	BISECT_UNTESTABLE,	/* the boundary is among untestable ones */
	BISECT_FLAKY,		/* a retry at the boundary disagreed */
};

struct bisect {
	size_t n;		/* positions 0..n */
	enum bisect_outcome *at;	/* n + 1 of them; fill in known ones */
	int retries;		/* tests again at the boundary (0: none) */

	/* results */
	enum bisect_answer answer;
	size_t first_bad;	/* FOUND/FLAKY: the position blamed or not */
	size_t last_good;	/* FOUND/UNTESTABLE: the good one below */
	size_t tested;		/* probes run, retries included */
	size_t retried;
	/* FLAKY: at first_bad and at last_good, runs and bad runs */
	size_t runs_bad_pos, bad_at_bad_pos, runs_good_pos, bad_at_good_pos;
	/* a known good above first_bad (the failure went away), or 0 */
	size_t good_again;
};

/* at gets n + 1 UNKNOWN outcomes. */
void bisect_init(struct bisect *b, size_t n);
void bisect_release(struct bisect *b);

/* Runs the search; 0 with b->answer set, <0 if a probe failed. */
int bisect_run(struct bisect *b, const struct bisect_probe *p);

/*
 * "good", "bad", "untestable", "unknown": a position's outcome, as the
 * docs, the text and --json of bisect and bisect-base name it.
 */
const char *bisect_outcome_name(enum bisect_outcome o);
/* "found", "none", "bad-at-start", "untestable", "flaky". */
const char *bisect_answer_name(enum bisect_answer a);

#endif
