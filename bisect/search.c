// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/search.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

void bisect_init(struct bisect *b, size_t n)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->at = xcalloc(n + 1, sizeof(*b->at));
}

void bisect_release(struct bisect *b)
{
	free(b->at);
	b->at = NULL;
}

const char *bisect_outcome_name(enum bisect_outcome o)
{
	static const char *const names[] = {
		[BISECT_UNKNOWN] = "unknown",
		[BISECT_GOOD] = "good",
		[BISECT_BAD] = "bad",
		[BISECT_SKIP] = "untestable",
	};

	return (size_t)o < sizeof(names) / sizeof(names[0]) ? names[o] : "?";
}

const char *bisect_answer_name(enum bisect_answer a)
{
	switch (a) {
	case BISECT_FOUND:
		return "found";
	case BISECT_NONE:
		return "none";
	case BISECT_BAD_AT_START:
		return "bad-at-start";
	case BISECT_UNTESTABLE:
		return "untestable";
	case BISECT_FLAKY:
		return "flaky";
	}
	return "?";
}

static int probe(struct bisect *b, const struct bisect_probe *p, size_t i)
{
	enum bisect_outcome o = BISECT_UNKNOWN;
	int r;

	if (b->at[i] != BISECT_UNKNOWN)
		return 0;
	r = p->test(p->data, i, 0, &o);
	if (r < 0)
		return r;
	if (o != BISECT_GOOD && o != BISECT_BAD)
		o = BISECT_SKIP;
	b->at[i] = o;
	b->tested++;
	return 0;
}

/* The first known bad, or n + 1. */
static size_t first_known_bad(const struct bisect *b)
{
	size_t i;

	for (i = 0; i <= b->n; i++)
		if (b->at[i] == BISECT_BAD)
			return i;
	return b->n + 1;
}

/* Of the positions strictly between lo and hi not yet known, the one
 * nearest the middle; hi when there is none. */
static size_t midpoint(const struct bisect *b, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, d;

	for (d = 0; d <= hi - lo; d++) {
		if (mid >= d && mid - d > lo && mid - d < hi &&
		    b->at[mid - d] == BISECT_UNKNOWN)
			return mid - d;
		if (mid + d > lo && mid + d < hi &&
		    b->at[mid + d] == BISECT_UNKNOWN)
			return mid + d;
	}
	return hi;
}

/* Tests position i again, times times; how many of them were bad. */
static int retest(struct bisect *b, const struct bisect_probe *p, size_t i,
		  int times, size_t *bad)
{
	int k, r;

	*bad = 0;
	for (k = 0; k < times; k++) {
		enum bisect_outcome o = BISECT_UNKNOWN;

		r = p->test(p->data, i, 1, &o);
		if (r < 0)
			return r;
		b->tested++;
		b->retried++;
		*bad += o == BISECT_BAD;
		if (o != BISECT_GOOD && o != BISECT_BAD)
			(*bad)++;	/* cannot tell: not a pass */
	}
	return 0;
}

int bisect_run(struct bisect *b, const struct bisect_probe *p)
{
	size_t bad, good, i;
	int r;

	/* the ends first, unless known: is there anything to find? */
	if (first_known_bad(b) > b->n && (r = probe(b, p, b->n)) < 0)
		return r;
	bad = first_known_bad(b);
	if (bad > b->n) {
		b->answer = b->at[b->n] == BISECT_GOOD ? BISECT_NONE
						       : BISECT_UNTESTABLE;
		b->last_good = 0;
		b->first_bad = b->n;
		return 0;
	}
	for (good = 0, i = 0; i < bad; i++)
		good |= b->at[i] == BISECT_GOOD;
	if (!good && (r = probe(b, p, 0)) < 0)
		return r;
	if (b->at[0] == BISECT_BAD) {
		b->answer = BISECT_BAD_AT_START;
		b->first_bad = 0;
		return 0;
	}
	for (;;) {
		size_t mid;

		bad = first_known_bad(b);
		good = 0;
		for (i = 0; i < bad; i++)
			if (b->at[i] == BISECT_GOOD)
				good = i;
		if (b->at[good] != BISECT_GOOD) {
			/* the base could not be tested: nothing below */
			b->answer = BISECT_UNTESTABLE;
			b->last_good = 0;
			b->first_bad = bad;
			return 0;
		}
		b->last_good = good;
		b->first_bad = bad;
		if (bad - good == 1)
			break;
		mid = midpoint(b, good, bad);
		if (mid == bad) {
			/* all between are untestable */
			b->answer = BISECT_UNTESTABLE;
			return 0;
		}
		if ((r = probe(b, p, mid)) < 0)
			return r;
	}
	for (i = b->first_bad + 1; i <= b->n; i++)
		if (b->at[i] == BISECT_GOOD) {
			b->good_again = i;
			break;
		}
	b->answer = BISECT_FOUND;
	if (b->retries > 0) {
		r = retest(b, p, b->first_bad, b->retries, &b->bad_at_bad_pos);
		if (!r)
			r = retest(b, p, b->last_good, b->retries,
				   &b->bad_at_good_pos);
		if (r < 0)
			return r;
		/* the first outcome counts as one of the runs */
		b->runs_bad_pos = b->runs_good_pos = (size_t)b->retries + 1;
		b->bad_at_bad_pos++;
		if (b->bad_at_bad_pos != b->runs_bad_pos || b->bad_at_good_pos)
			b->answer = BISECT_FLAKY;
	}
	return 0;
}
