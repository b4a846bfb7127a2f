// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The search of respin bisect (bisect/search.c) against synthetic
 * series: every fault position of series up to 40 patches is found,
 * with about log2(n) + 2 tests; stored outcomes are used, never tested
 * again; untestable positions are stepped around; a flaky boundary is
 * called flaky, not blamed.
 */
#include "bisect/search.h"
#include "tests/unit/tap.h"

#include <stdlib.h>

struct fake {
	size_t fault;		/* first bad position */
	size_t fixed;		/* good again from here (0: never) */
	size_t skip_from, skip_to;	/* untestable positions, if to > 0 */
	int flaky_at;		/* -1, or a position whose retries pass */
	size_t calls, again_calls;
	unsigned char *asked;	/* per position: tested (not retries) */
};

static int fake_test(void *data, size_t i, int again,
		     enum bisect_outcome *out)
{
	struct fake *f = data;

	if (again) {
		f->again_calls++;
		if (f->flaky_at >= 0 && (size_t)f->flaky_at == i) {
			*out = BISECT_GOOD;
			return 0;
		}
	} else {
		f->calls++;
		f->asked[i]++;
	}
	if (f->skip_to && i >= f->skip_from && i <= f->skip_to)
		*out = BISECT_SKIP;
	else if (i >= f->fault && (!f->fixed || i < f->fixed))
		*out = BISECT_BAD;
	else
		*out = BISECT_GOOD;
	return 0;
}

static int failing_test(void *data, size_t i, int again,
			enum bisect_outcome *out)
{
	(void)i;
	*out = BISECT_BAD;
	return -1;
}

static void setup(struct fake *f, size_t n, size_t fault)
{
	memset(f, 0, sizeof(*f));
	f->fault = fault;
	f->flaky_at = -1;
	f->asked = calloc(n + 1, 1);
}

int main(void)
{
	struct bisect b;
	struct fake f;
	struct bisect_probe p = { fake_test, &f };
	size_t n, fault, worst = 0, i, twice = 0;
	int all_found = 1;

	/* every fault of every length: found, in few tests */
	for (n = 1; n <= 40; n++)
		for (fault = 1; fault <= n; fault++) {
			setup(&f, n, fault);
			bisect_init(&b, n);
			if (bisect_run(&b, &p) < 0 || b.answer != BISECT_FOUND ||
			    b.first_bad != fault || b.last_good != fault - 1)
				all_found = 0;
			if (b.tested > worst && n == 16)
				worst = b.tested;
			for (i = 0; i <= n; i++)
				twice += f.asked[i] > 1;
			bisect_release(&b);
			free(f.asked);
		}
	ok(all_found, "every fault position of 1..40 patches is found");
	ok(!twice, "no position is tested twice");
	ok(worst <= 6, "16 patches: at most 6 tests (log2(16) + 2), not 17 "
	   "(worst %zu)", worst);

	/* 16 patches, the fault at 11: the figure for the bench */
	setup(&f, 16, 11);
	bisect_init(&b, 16);
	bisect_run(&b, &p);
	is_int((long long)b.first_bad, 11, "16 patches, fault at 11: 11");
	ok(b.tested <= 6, "in %zu tests", b.tested);
	bisect_release(&b);
	free(f.asked);

	/* stored outcomes are used: good at 5, bad at 7: only 6 tested */
	setup(&f, 10, 6);
	bisect_init(&b, 10);
	b.at[5] = BISECT_GOOD;
	b.at[7] = BISECT_BAD;
	bisect_run(&b, &p);
	is_int((long long)b.first_bad, 6, "stored good 5 and bad 7: 6");
	is_int((long long)f.calls, 1, "one test only");
	ok(f.asked[6] == 1 && !f.asked[5] && !f.asked[7] && !f.asked[0] &&
	   !f.asked[10], "the one tested is 6");
	bisect_release(&b);
	free(f.asked);

	/* nothing fails */
	setup(&f, 8, 99);
	bisect_init(&b, 8);
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "none", "the tip passes: none");
	is_int((long long)f.calls, 1, "one test: the tip");
	bisect_release(&b);
	free(f.asked);

	/* the base fails already */
	setup(&f, 8, 0);
	bisect_init(&b, 8);
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "bad-at-start",
	       "fails on the base: not blamed on a patch");
	bisect_release(&b);
	free(f.asked);

	/* untestable positions are stepped around */
	setup(&f, 12, 9);
	f.skip_from = 5;
	f.skip_to = 6;
	bisect_init(&b, 12);
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "found", "skips around: found");
	is_int((long long)b.first_bad, 9, "5-6 untestable: 9 found");
	bisect_release(&b);
	free(f.asked);

	/* ... unless the boundary is inside them */
	setup(&f, 12, 6);
	f.skip_from = 5;
	f.skip_to = 6;
	bisect_init(&b, 12);
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "untestable",
	       "the fault among untestable ones: untestable");
	ok(b.last_good == 4 && b.first_bad == 7,
	   "between the good 4 and the bad 7 (got %zu..%zu)", b.last_good,
	   b.first_bad);
	bisect_release(&b);
	free(f.asked);

	/* a failure that goes away is said */
	setup(&f, 10, 3);
	f.fixed = 8;
	bisect_init(&b, 10);
	b.at[9] = BISECT_GOOD;
	b.at[5] = BISECT_BAD;
	bisect_run(&b, &p);
	is_int((long long)b.first_bad, 3, "bad from 3 (stored bad at 5)");
	is_int((long long)b.good_again, 9, "and good again at 9 (stored)");
	bisect_release(&b);
	free(f.asked);

	/* retries: a steady fault stays found; a flaky one is not blamed */
	setup(&f, 8, 4);
	bisect_init(&b, 8);
	b.retries = 2;
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "found", "steady: found");
	is_int((long long)f.again_calls, 4, "2 retries at each side");
	ok(b.runs_bad_pos == 3 && b.bad_at_bad_pos == 3 && !b.bad_at_good_pos,
	   "3 of 3 runs bad at 4, 0 of 3 at 3");
	bisect_release(&b);
	free(f.asked);

	setup(&f, 8, 4);
	f.flaky_at = 4;
	bisect_init(&b, 8);
	b.retries = 2;
	bisect_run(&b, &p);
	is_str(bisect_answer_name(b.answer), "flaky", "flips on retry: flaky");
	ok(b.bad_at_bad_pos == 1 && b.runs_bad_pos == 3,
	   "1 of 3 runs bad at 4 (got %zu of %zu)", b.bad_at_bad_pos,
	   b.runs_bad_pos);
	bisect_release(&b);
	free(f.asked);

	/* a probe error stops it */
	{
		struct bisect_probe bad = { failing_test, NULL };

		bisect_init(&b, 4);
		ok(bisect_run(&b, &bad) < 0, "a probe error is returned");
		bisect_release(&b);
	}
	return done_testing();
}
