/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_LSA_H
#define RESPIN_SERIES_LSA_H

/*
 * Linear sum assignment on a square cost matrix: pick one row for every
 * column so that no row is used twice and the sum of the chosen costs
 * is as small as possible.  The solver is the shortest augmenting path
 * method of Jonker and Volgenant (Computing 38, 1987): column
 * reduction, reduction transfer, two rounds of augmenting row
 * reduction, then a Dijkstra-like search for every row still free.
 *
 * Ties are broken the way range-diff has always broken them (columns
 * are reduced from the last to the first, the later of two equally
 * cheap columns wins), so the pairing a range-diff gets from it is the
 * pairing git gets.
 */

/* A cost that no real pairing should ever be chosen for. */
#define LSA_COST_MAX (1 << 16)

enum lsa_flags {
	/*
	 * git's range-diff (linear-assignment.c, at least up to git 2.45)
	 * ends a shortest path search that finds a free column while
	 * collecting the columns at a new minimum distance at the column
	 * it looked at last rather than at the free column it found.  The
	 * assignment it returns is then not always the cheapest, and may
	 * leave row2col disagreeing with col2row.  With this flag the
	 * solver does the same, so range-diff pairs as git does; col2row is
	 * still one-to-one.  Without it the result is optimal.
	 */
	LSA_GIT_COMPAT = 1 << 0,
};

/*
 * n columns, n rows; cost[col + n * row] is the cost of giving row to
 * col.  Costs must lie in [-LSA_COST_MAX * 16, LSA_COST_MAX * 16].
 * Fills col2row[n] and row2col[n] (caller's arrays).  Returns 0, or
 * -1 with a message recorded if n is negative or too large.
 */
int lsa_solve(int n, const int *cost, int *col2row, int *row2col,
	      unsigned flags);

/* The total cost of an assignment (for tests and sanity checks). */
long long lsa_cost(int n, const int *cost, const int *col2row);

#endif
