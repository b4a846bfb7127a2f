// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Jonker-Volgenant linear assignment.  Prices live on the columns: the
 * reduced cost of (col, row) is cost(col, row) - price[col], and the
 * solver keeps every assigned pair at the smallest reduced cost its row
 * can reach, so a full assignment found that way is optimal.
 */
#include "series/lsa.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct lsa {
	int n;
	const int *cost;
	int *col2row;
	int *row2col;
	int *price;
	int *queue;		/* rows without a column */
	int nr_queue;
	int git_compat;
	/* work space of the shortest path search */
	int *dist, *from, *order;
};

static inline int lsa_at(const struct lsa *s, int col, int row)
{
	return s->cost[col + (size_t)s->n * row];
}

static inline int lsa_reduced(const struct lsa *s, int col, int row)
{
	return lsa_at(s, col, row) - s->price[col];
}

/*
 * Each column, last to first, takes its cheapest row (the first such
 * row) and that cost as its price.  A row wanted by several columns
 * stays with the first of them (the highest column); the others are
 * left without a row.  shared[row] says the row was wanted twice.
 */
static void lsa_reduce_columns(struct lsa *s, char *shared)
{
	int col, row;

	for (col = s->n - 1; col >= 0; col--) {
		int best = 0;

		for (row = 1; row < s->n; row++)
			if (lsa_at(s, col, row) < lsa_at(s, col, best))
				best = row;
		s->price[col] = lsa_at(s, col, best);
		if (s->row2col[best] < 0) {
			s->row2col[best] = col;
			s->col2row[col] = best;
		} else {
			shared[best] = 1;
		}
	}
}

/*
 * A row that is the only one its column took can give that column's
 * price the slack to the row's second best choice.  Rows without a
 * column go into the queue.
 */
static void lsa_transfer(struct lsa *s, const char *shared)
{
	int row, col;

	for (row = 0; row < s->n; row++) {
		int mine = s->row2col[row], slack = INT_MAX;

		if (mine < 0) {
			s->queue[s->nr_queue++] = row;
			continue;
		}
		if (shared[row])
			continue;
		for (col = 0; col < s->n; col++)
			if (col != mine && lsa_reduced(s, col, row) < slack)
				slack = lsa_reduced(s, col, row);
		s->price[mine] -= slack;
	}
}

/*
 * The cheapest and second cheapest reduced cost in a row.  Scanning
 * left to right, a cost equal to the cheapest so far takes over as the
 * cheapest.
 */
static void lsa_two_best(const struct lsa *s, int row, int *c1, int *u1,
			 int *c2, int *u2)
{
	int col;

	*c1 = 0;
	*u1 = lsa_reduced(s, 0, row);
	*c2 = -1;
	*u2 = INT_MAX;
	for (col = 1; col < s->n; col++) {
		int r = lsa_reduced(s, col, row);

		if (r >= *u2)
			continue;
		if (r > *u1) {
			*u2 = r;
			*c2 = col;
		} else {
			*u2 = *u1;
			*c2 = *c1;
			*u1 = r;
			*c1 = col;
		}
	}
	if (*c2 < 0) {
		*c2 = *c1;
		*u2 = *u1;
	}
}

/*
 * Augmenting row reduction: a free row takes its cheapest column,
 * lowering that column's price to its second best so the row stays
 * content; the row it displaces is served next (when the price moved)
 * or queued for the next round (when it did not).
 */
static void lsa_row_reduction(struct lsa *s)
{
	int round;

	for (round = 0; round < 2; round++) {
		int todo = s->nr_queue, next = 0, k = 0;

		while (k < todo) {
			int row = s->queue[k++];
			int c1, u1, c2, u2, loser;

			lsa_two_best(s, row, &c1, &u1, &c2, &u2);
			loser = s->col2row[c1];
			if (u1 < u2) {
				s->price[c1] -= u2 - u1;
			} else if (loser >= 0) {
				/* a tie: take the second column instead */
				c1 = c2;
				loser = s->col2row[c1];
			}
			if (loser >= 0) {
				if (u1 < u2)
					s->queue[--k] = loser;
				else
					s->queue[next++] = loser;
			}
			s->row2col[row] = c1;
			s->col2row[c1] = row;
		}
		s->nr_queue = next;
	}
}

/*
 * Finds a shortest augmenting path from a free row to a free column
 * and flips it.  order[] holds the columns: [0, done) are finished
 * (their distance is final and below the current minimum),
 * [done, front) sit at the current minimum distance waiting to be
 * scanned, [front, n) are the rest.
 */
static void lsa_augment(struct lsa *s, int start)
{
	int n = s->n, *dist = s->dist, *from = s->from, *order = s->order;
	int done = 0, front = 0, finished = 0, end = -1, min = 0;
	int seen = -1;		/* the column looked at last */
	int col, row, k;

	for (col = 0; col < n; col++) {
		dist[col] = lsa_reduced(s, col, start);
		from[col] = start;
		order[col] = col;
	}

	while (end < 0) {
		if (done == front) {
			/* collect every column at the next smallest distance */
			finished = done;
			min = dist[order[front++]];
			for (k = front; k < n; k++) {
				int c = order[k], d = dist[c];

				seen = c;
				if (d > min)
					continue;
				if (d < min) {
					front = done;
					min = d;
				}
				order[k] = order[front];
				order[front++] = c;
			}
			for (k = done; k < front; k++)
				if (s->col2row[order[k]] < 0) {
					end = order[k];
					if (s->git_compat && seen >= 0)
						end = seen;
					break;
				}
			if (end >= 0)
				break;
		}

		/* scan the row behind one column at the minimum */
		col = order[done++];
		row = s->col2row[col];
		{
			int base = lsa_reduced(s, col, row) - min;

			for (k = front; k < n; k++) {
				int c = order[k];
				int d = lsa_reduced(s, c, row) - base;

				seen = c;
				if (d >= dist[c])
					continue;
				dist[c] = d;
				from[c] = row;
				if (d != min)
					continue;
				if (s->col2row[c] < 0) {
					end = c;
					break;
				}
				order[k] = order[front];
				order[front++] = c;
			}
		}
	}

	/* finished columns got cheaper: keep their rows content */
	for (k = 0; k < finished; k++) {
		col = order[k];
		s->price[col] += dist[col] - min;
	}

	/* flip the path from end back to start */
	col = end;
	do {
		int prev;

		row = from[col];
		s->col2row[col] = row;
		prev = s->row2col[row];
		s->row2col[row] = col;
		col = prev;
	} while (row != start);
}

int lsa_solve(int n, const int *cost, int *col2row, int *row2col,
	      unsigned flags)
{
	struct lsa s = { 0 };
	char *shared;
	int k;

	if (n < 0 || (size_t)n > SIZE_MAX / sizeof(int) / (n ? n : 1) ||
	    n > 1 << 15)
		return error("linear assignment: bad size %d", n);
	if (n == 0)
		return 0;
	if (n == 1) {
		col2row[0] = row2col[0] = 0;
		return 0;
	}

	s.n = n;
	s.cost = cost;
	s.col2row = col2row;
	s.row2col = row2col;
	s.git_compat = !!(flags & LSA_GIT_COMPAT);
	for (k = 0; k < n; k++)
		col2row[k] = row2col[k] = -1;
	s.price = xcalloc(n, sizeof(int));
	s.queue = xcalloc(n, sizeof(int));
	shared = xcalloc(n, 1);

	lsa_reduce_columns(&s, shared);
	lsa_transfer(&s, shared);
	free(shared);
	if (s.nr_queue)
		lsa_row_reduction(&s);
	if (s.nr_queue) {
		s.dist = xcalloc(n, sizeof(int));
		s.from = xcalloc(n, sizeof(int));
		s.order = xcalloc(n, sizeof(int));
		for (k = 0; k < s.nr_queue; k++)
			lsa_augment(&s, s.queue[k]);
		free(s.dist);
		free(s.from);
		free(s.order);
	}
	free(s.price);
	free(s.queue);
	return 0;
}

long long lsa_cost(int n, const int *cost, const int *col2row)
{
	long long sum = 0;
	int col;

	for (col = 0; col < n; col++)
		if (col2row[col] >= 0)
			sum += cost[col + (size_t)n * col2row[col]];
	return sum;
}
