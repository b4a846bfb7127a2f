// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The linear assignment solver: optimal against brute force, and in
 * LSA_GIT_COMPAT mode the answers git's range-diff gets.
 */
#include "tap.h"
#include "series/lsa.h"

#include <stdlib.h>

static long long best;

static void brute(int n, const int *cost, int col, int *used, long long sum)
{
	int row;

	if (sum >= best)
		return;
	if (col == n) {
		best = sum;
		return;
	}
	for (row = 0; row < n; row++) {
		if (used[row])
			continue;
		used[row] = 1;
		brute(n, cost, col + 1, used, sum + cost[col + n * row]);
		used[row] = 0;
	}
}

static long long brute_min(int n, const int *cost)
{
	int used[16] = { 0 };

	best = 1LL << 60;
	brute(n, cost, 0, used, 0);
	return best;
}

/* Every column has a distinct row (or, in compat mode, none). */
static int one_to_one(int n, const int *col2row, int allow_free)
{
	int seen[64] = { 0 }, col;

	for (col = 0; col < n; col++) {
		int row = col2row[col];

		if (row < 0 && allow_free)
			continue;
		if (row < 0 || row >= n || seen[row]++)
			return 0;
	}
	return 1;
}

static int same_ints(const int *a, const int *b, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (a[k] != b[k])
			return 0;
	return 1;
}

static void show(const char *what, const int *a, int n)
{
	char line[256];
	int k, len;

	len = snprintf(line, sizeof(line), "%s:", what);
	for (k = 0; k < n && len < 200; k++)
		len += snprintf(line + len, sizeof(line) - len, " %d", a[k]);
	diag(line);
}

static void fixture(const char *name, int n, const int *cost,
		    unsigned flags, const int *want)
{
	int c2r[8], r2c[8];

	lsa_solve(n, cost, c2r, r2c, flags);
	if (!ok(same_ints(c2r, want, n), "%s", name)) {
		show("got ", c2r, n);
		show("want", want, n);
	}
}

int main(void)
{
	int c2r[16], r2c[16], iter, fails;

	is_int(lsa_solve(0, NULL, c2r, r2c, 0), 0, "n = 0 is fine");
	{
		int one[1] = { 42 };

		lsa_solve(1, one, c2r, r2c, 0);
		ok(c2r[0] == 0 && r2c[0] == 0, "n = 1 assigns the only pair");
	}
	ok(lsa_solve(-1, NULL, c2r, r2c, 0) < 0, "negative n fails");
	{
		/* cost[col + n * row] */
		int two[4] = { 5, 1, 1, 5 };

		lsa_solve(2, two, c2r, r2c, 0);
		ok(c2r[0] == 1 && c2r[1] == 0 && r2c[0] == 1 && r2c[1] == 0,
		   "2x2 takes the cross");
	}
	{
		int three[9] = { 4, 1, 3, 2, 0, 5, 3, 2, 2 };
		int want[3] = { 1, 0, 2 };

		lsa_solve(3, three, c2r, r2c, 0);
		ok(same_ints(c2r, want, 3), "3x3 textbook example");
		is_int(lsa_cost(3, three, c2r), 5, "3x3 costs 5");
	}
	{
		/* range-diff shaped: exact matches cost 0, the rest MAX */
		enum { M = LSA_COST_MAX };
		int rd[16] = { 0, M, 3, 3,
			       M, 0, 3, 3,
			       M, M, 0, 0,
			       M, M, 0, 0 };

		lsa_solve(4, rd, c2r, r2c, LSA_GIT_COMPAT);
		ok(c2r[0] == 0 && c2r[1] == 1, "exact matches stay paired");
	}

	/* Optimal against brute force, with many ties. */
	srand(1);
	fails = 0;
	for (iter = 0; iter < 3000; iter++) {
		int n = 2 + rand() % 6, cost[64], k, range = 2 + rand() % 20;

		for (k = 0; k < n * n; k++)
			cost[k] = rand() % range;
		lsa_solve(n, cost, c2r, r2c, 0);
		if (!one_to_one(n, c2r, 0) || !one_to_one(n, r2c, 0) ||
		    lsa_cost(n, cost, c2r) != brute_min(n, cost))
			fails++;
		for (k = 0; k < n; k++)
			if (r2c[c2r[k]] != k)
				fails++;
	}
	is_int(fails, 0, "3000 random matrices: optimal and consistent");

	/* A larger one against itself: cost is no more than the identity. */
	{
		enum { N = 60 };
		static int big[N * N];
		int big_c2r[N], big_r2c[N], k;
		long long diag_sum = 0;

		for (k = 0; k < N * N; k++)
			big[k] = rand() % 1000;
		for (k = 0; k < N; k++)
			diag_sum += big[k + N * k];
		lsa_solve(N, big, big_c2r, big_r2c, 0);
		ok(one_to_one(N, big_c2r, 0) &&
		   lsa_cost(N, big, big_c2r) <= diag_sum,
		   "60x60: a full assignment, no worse than the diagonal");
	}

	/* Compat mode stays one-to-one on the columns. */
	fails = 0;
	for (iter = 0; iter < 3000; iter++) {
		int n = 2 + rand() % 8, cost[100], k;

		for (k = 0; k < n * n; k++)
			cost[k] = rand() % 5;
		lsa_solve(n, cost, c2r, r2c, LSA_GIT_COMPAT);
		if (!one_to_one(n, c2r, 1))
			fails++;
	}
	is_int(fails, 0, "compat mode: no row given to two columns");

	/*
	 * What git 2.39's range-diff assignment returns for these (it was
	 * run on them): ties, and cases where it misses the optimum.
	 */
	{
		int zeros[16] = { 0 };
		int want_zeros[4] = { 2, 1, -1, 3 };
		int ones[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
		int want_ones[3] = { 2, 1, 0 };
		int blocks[16] = { 5, 5, 1, 1, 5, 5, 1, 1,
				   1, 1, 5, 5, 1, 1, 5, 5 };
		int want_blocks[4] = { 3, 2, 1, 0 };
		int odd[16] = { 5, 4, 0, 1, 4, 3, 2, 4,
				4, 3, 1, 5, 3, 2, 3, 2 };
		int want_odd_git[4] = { 1, 3, -1, 2 };
		int want_odd_best[4] = { 1, 3, 2, 0 };

		fixture("compat: 4x4 zeros as git", 4, zeros, LSA_GIT_COMPAT,
			want_zeros);
		fixture("compat: 3x3 ones as git", 3, ones, LSA_GIT_COMPAT,
			want_ones);
		fixture("compat: 4x4 blocks as git", 4, blocks,
			LSA_GIT_COMPAT, want_blocks);
		fixture("compat: a case git gets wrong, as git", 4, odd,
			LSA_GIT_COMPAT, want_odd_git);
		fixture("optimal: the same case solved", 4, odd, 0,
			want_odd_best);
		lsa_solve(4, odd, c2r, r2c, 0);
		is_int(lsa_cost(4, odd, c2r), 8, "optimal: it costs 8");
		is_int(brute_min(4, odd), 8, "brute force agrees");
	}
	return done_testing();
}
