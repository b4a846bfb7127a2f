// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Range-diff: the patches' pairing and git range-diff's output.  The
 * text a patch becomes is rangediffpatch.c's (see rangediff.h).
 */
#include "series/rangediff.h"
#include "patches/patch.h"
#include "series/lsa.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* git's func_line buffer: longer function lines are cut */
#define FUNCNAME_MAX 80

static int count_hunk(const git_diff_delta *d, const git_diff_hunk *h,
		      void *data)
{
	(*(int *)data)++;
	return 0;
}

static int count_line(const git_diff_delta *d, const git_diff_hunk *h,
		      const git_diff_line *l, void *data)
{
	(*(int *)data)++;
	return 0;
}

int rangediff_diffsize(const char *a, size_t alen, const char *b,
		       size_t blen)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	int count = 0;

	opts.context_lines = 3;
	opts.flags = GIT_DIFF_FORCE_TEXT;
	if (git_diff_buffers(a, alen, NULL, b, blen, NULL, &opts, NULL, NULL,
			     count_hunk, count_line, &count) < 0) {
		error_git("cannot diff two patches");
		return LSA_COST_MAX;
	}
	return count;
}

static int same_diff(const struct rangediff_patch *x,
		     const struct rangediff_patch *y)
{
	return x->diff_hash == y->diff_hash &&
	       x->len - x->diff_offset == y->len - y->diff_offset &&
	       !memcmp(x->text + x->diff_offset, y->text + y->diff_offset,
		       x->len - x->diff_offset);
}

static void add_pair(struct rangediff *rd, size_t *alloc, int a, int b,
		     char status)
{
	ALLOC_GROW(rd->pairs, rd->nr_pairs, *alloc);
	rd->pairs[rd->nr_pairs].a = a;
	rd->pairs[rd->nr_pairs].b = b;
	rd->pairs[rd->nr_pairs].status = status;
	rd->pairs[rd->nr_pairs].by_title = 0;
	rd->nr_pairs++;
}

/*
 * The order git prints: the second list's order, with each dropped
 * patch of the first list shown once everything before it there has
 * been shown.
 */
static void order_pairs(struct rangediff *rd, const int *a2b,
			const int *b2a)
{
	size_t alloc = 0, i = 0, j = 0, na = rd->na, nb = rd->nb;
	char *shown = xcalloc(na ? na : 1, 1);

	while (i < na || j < nb) {
		while (i < na && shown[i])
			i++;
		if (i < na && a2b[i] < 0) {
			add_pair(rd, &alloc, (int)i, -1, '<');
			i++;
			continue;
		}
		while (j < nb && b2a[j] < 0) {
			add_pair(rd, &alloc, -1, (int)j, '>');
			j++;
		}
		if (j < nb) {
			int k = b2a[j];
			const struct rangediff_patch *x = &rd->a[k];
			const struct rangediff_patch *y = &rd->b[j];
			int same = x->len == y->len &&
				   !memcmp(x->text, y->text, x->len);

			add_pair(rd, &alloc, k, (int)j, same ? '=' : '!');
			shown[k] = 1;
			j++;
		}
	}
	free(shown);
}

/* What leaving a patch unpaired costs (kept far from overflowing). */
static int creation_cost(int diffsize, int creation_factor)
{
	long long c = (long long)diffsize * creation_factor / 100;

	return c > LSA_COST_MAX * 16 ? LSA_COST_MAX * 16 : (int)c;
}

int rangediff_compute(const struct rangediff_patch *a, size_t na,
		      const struct rangediff_patch *b, size_t nb,
		      int creation_factor, struct rangediff *rd)
{
	size_t n = na + nb, i, j;
	int *cost, *a2b, *b2a, *col2row, *row2col;
	int r;

	memset(rd, 0, sizeof(*rd));
	rd->a = a;
	rd->b = b;
	rd->na = na;
	rd->nb = nb;
	if (n > 1 << 14)
		return error("too many patches for a range-diff: %zu", n);
	if (creation_factor < 0)
		return error("creation factor must not be negative");

	a2b = xmalloc((na + 1) * sizeof(int));
	b2a = xmalloc((nb + 1) * sizeof(int));
	for (i = 0; i < na; i++)
		a2b[i] = -1;
	for (j = 0; j < nb; j++)
		b2a[j] = -1;

	/*
	 * Identical diffs pair first.  Among several equal candidates git
	 * (whose hash map puts the newest entry first) takes the last.
	 */
	for (j = 0; j < nb; j++)
		for (i = na; i-- > 0;)
			if (a2b[i] < 0 && same_diff(&a[i], &b[j])) {
				a2b[i] = (int)j;
				b2a[j] = (int)i;
				break;
			}

	/*
	 * Columns are the first list plus one "dropped" slot per patch of
	 * the second; rows the second list plus one "added" slot per
	 * patch of the first.
	 */
	cost = xmalloc((n ? n * n : 1) * sizeof(int));
	for (i = 0; i < na; i++) {
		int c;

		for (j = 0; j < nb; j++) {
			if (a2b[i] == (int)j)
				c = 0;
			else if (a2b[i] < 0 && b2a[j] < 0)
				c = rangediff_diffsize(a[i].text + a[i].diff_offset,
						       a[i].len - a[i].diff_offset,
						       b[j].text + b[j].diff_offset,
						       b[j].len - b[j].diff_offset);
			else
				c = LSA_COST_MAX;
			cost[i + n * j] = c;
		}
		c = a2b[i] < 0 ? creation_cost(a[i].diffsize, creation_factor) :
		    LSA_COST_MAX;
		for (j = nb; j < n; j++)
			cost[i + n * j] = c;
	}
	for (j = 0; j < nb; j++) {
		int c = b2a[j] < 0 ?
			creation_cost(b[j].diffsize, creation_factor) :
			LSA_COST_MAX;

		for (i = na; i < n; i++)
			cost[i + n * j] = c;
	}
	for (i = na; i < n; i++)
		for (j = nb; j < n; j++)
			cost[i + n * j] = 0;

	col2row = xmalloc((n + 1) * sizeof(int));
	row2col = xmalloc((n + 1) * sizeof(int));
	r = lsa_solve((int)n, cost, col2row, row2col, LSA_GIT_COMPAT);
	if (!r) {
		/*
		 * Identical diffs stay paired: the solver, erring as git's
		 * does, may give one of them another partner, and taking that
		 * too would pair a patch twice.
		 */
		for (i = 0; i < na; i++) {
			int k = col2row[i];

			if (a2b[i] < 0 && k >= 0 && (size_t)k < nb &&
			    b2a[k] < 0) {
				a2b[i] = k;
				b2a[k] = (int)i;
			}
		}
		order_pairs(rd, a2b, b2a);
	}
	free(cost);
	free(col2row);
	free(row2col);
	free(a2b);
	free(b2a);
	return r;
}

void rangediff_release(struct rangediff *rd)
{
	free(rd->pairs);
	memset(rd, 0, sizeof(*rd));
}

double rangediff_subject_similarity(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, longer;
	size_t *row;
	double sim;

	longer = la > lb ? la : lb;
	if (!longer)
		return 1.0;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best;

			best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	sim = 1.0 - (double)row[lb] / (double)longer;
	free(row);
	return sim;
}

/* The author's address in a patch text ("Author: Name <addr>"). */
static const char *text_author(const struct rangediff_patch *p, size_t *len)
{
	static const char head[] = " ## Metadata ##\nAuthor: ";
	const char *s, *nl, *lt, *gt;

	*len = 0;
	if (strncmp(p->text, head, sizeof(head) - 1))
		return "";
	s = p->text + sizeof(head) - 1;
	nl = strchr(s, '\n');
	if (!nl)
		nl = s + strlen(s);
	lt = memchr(s, '<', (size_t)(nl - s));
	gt = lt ? memchr(lt, '>', (size_t)(nl - lt)) : NULL;
	if (lt && gt) {
		*len = (size_t)(gt - lt - 1);
		return lt + 1;
	}
	*len = (size_t)(nl - s);
	return s;
}

static int same_author(const struct rangediff_patch *x,
		       const struct rangediff_patch *y)
{
	size_t lx, ly;
	const char *ax = text_author(x, &lx), *ay = text_author(y, &ly);

	return lx == ly && !strncasecmp(ax, ay, lx);
}

/*
 * Calls fn for each path a patch text's file headers name (" ## a ##",
 * " ## a (new) ##", " ## a => b ##": a and b); stops at a non-zero.
 */
static int each_file(const struct rangediff_patch *p,
		     int (*fn)(const char *path, size_t len, void *data),
		     void *data)
{
	const char *s = p->text + p->diff_offset, *end = p->text + p->len;

	while (p->diff_offset && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (n > 7 && !memcmp(s, " ## ", 4) &&
		    !memcmp(s + n - 3, " ##", 3)) {
			const char *path = s + 4, *stop = s + n - 3, *c;
			const char *arrow = memmem(path, (size_t)(stop - path),
						   " => ", 4);
			int r;

			/* " (new)", " (deleted)", " (mode change ...)" */
			c = memmem(path, (size_t)(stop - path), " (", 2);
			if (c && stop[-1] == ')' && (!arrow || c > arrow))
				stop = c;
			if (arrow) {
				r = fn(path, (size_t)(arrow - path), data);
				if (r)
					return r;
				path = arrow + 4;
			}
			r = fn(path, (size_t)(stop - path), data);
			if (r)
				return r;
		}
		s += n + 1;
	}
	return 0;
}

struct file_probe {
	const char *path;
	size_t len;
};

static int file_is(const char *path, size_t len, void *data)
{
	const struct file_probe *f = data;

	return len == f->len && !memcmp(path, f->path, len);
}

static int file_in(const char *path, size_t len, void *data)
{
	struct file_probe f = { path, len };

	return each_file(data, file_is, &f);
}

static int share_file(const struct rangediff_patch *x,
		      const struct rangediff_patch *y)
{
	return each_file(x, file_in, (void *)y);
}

/*
 * How alike two leftovers are as the same patch: 2 for one subject,
 * the similarity for alike subjects on a file in common, else 0; 0
 * for two authors.
 */
static double title_score(const struct rangediff_patch *x,
			  const struct rangediff_patch *y)
{
	double sim;

	if (!same_author(x, y))
		return 0;
	if (!strcmp(x->subject, y->subject))
		return 2;
	sim = rangediff_subject_similarity(x->subject, y->subject);
	return sim >= RANGEDIFF_TITLE_ALIKE && share_file(x, y) ? sim : 0;
}

int rangediff_pair_by_title(struct rangediff *rd)
{
	size_t na = rd->na, nb = rd->nb, i, j, k;
	int *a2b = xmalloc((na + 1) * sizeof(int));
	int *b2a = xmalloc((nb + 1) * sizeof(int));
	char *title_b = xcalloc(nb + 1, 1);
	int made = 0;

	for (i = 0; i < na; i++)
		a2b[i] = -1;
	for (j = 0; j < nb; j++)
		b2a[j] = -1;
	for (k = 0; k < rd->nr_pairs; k++) {
		const struct rangediff_pair *p = &rd->pairs[k];

		if (p->a >= 0 && p->b >= 0) {
			a2b[p->a] = p->b;
			b2a[p->b] = p->a;
			title_b[p->b] = p->by_title;
		}
	}
	for (;;) {
		double best = 0;
		size_t bi = 0, bj = 0;

		for (i = 0; i < na; i++) {
			if (a2b[i] >= 0)
				continue;
			for (j = 0; j < nb; j++) {
				double sc;

				if (b2a[j] >= 0)
					continue;
				sc = title_score(&rd->a[i], &rd->b[j]);
				if (sc > best) {
					best = sc;
					bi = i;
					bj = j;
				}
			}
		}
		if (best <= 0)
			break;
		a2b[bi] = (int)bj;
		b2a[bj] = (int)bi;
		title_b[bj] = 1;
		made++;
	}
	if (made) {
		free(rd->pairs);
		rd->pairs = NULL;
		rd->nr_pairs = 0;
		order_pairs(rd, a2b, b2a);
		for (k = 0; k < rd->nr_pairs; k++)
			if (rd->pairs[k].b >= 0 && title_b[rd->pairs[k].b]) {
				rd->pairs[k].by_title = 1;
				rd->pairs[k].status = '!';
			}
	}
	free(a2b);
	free(b2a);
	free(title_b);
	return made;
}

/*
 * The function line range-diff shows in a hunk header of the diff of
 * two texts: " ## X ##" gives X, "@@ X" (after at most one other
 * character) gives X.
 */
static size_t section_name(const char *line, size_t len, const char **name)
{
	size_t start;

	if (len >= 7 && !memcmp(line, " ## ", 4) &&
	    !memcmp(line + len - 3, " ##", 3)) {
		start = 4;
		len -= 3;
	} else if (len >= 4 && !memcmp(line + 1, "@@ ", 3)) {
		start = 4;
	} else if (len >= 3 && !memcmp(line, "@@ ", 3)) {
		start = 3;
	} else {
		return 0;
	}
	*name = line + start;
	len -= start;
	if (len > FUNCNAME_MAX)
		len = FUNCNAME_MAX;
	while (len && isspace((unsigned char)(*name)[len - 1]))
		len--;
	return len;
}

/* Line starts of a text: lines[k] is where line k (from 0) starts. */
static size_t *line_index(const char *text, size_t len, size_t *nr)
{
	size_t alloc = 64, n = 0, i;
	size_t *lines = xmalloc(alloc * sizeof(*lines));

	for (i = 0; i < len; i++) {
		if (i == 0 || text[i - 1] == '\n') {
			ALLOC_GROW(lines, n, alloc);
			lines[n++] = i;
		}
	}
	ALLOC_GROW(lines, n, alloc);
	lines[n] = len;
	*nr = n;
	return lines;
}

/* The diff of two patch texts, as range-diff shows it under a '!'. */
static int print_patch_diff(const struct rangediff_patch *x,
			    const struct rangediff_patch *y,
			    struct strbuf *out)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_patch *patch = NULL;
	size_t h, nr_hunks, nr_lines, *lines;

	opts.context_lines = 3;
	opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
	if (git_patch_from_buffers(&patch, x->text, x->len, "a", y->text,
				   y->len, "b", &opts) < 0)
		return error_git("cannot diff %s and %s", x->label, y->label);
	lines = line_index(x->text, x->len, &nr_lines);
	nr_hunks = git_patch_num_hunks(patch);
	for (h = 0; h < nr_hunks; h++) {
		const git_diff_hunk *hunk;
		const char *name = NULL;
		size_t k, count, namelen = 0;
		long first, l;

		if (git_patch_get_hunk(&hunk, &count, patch, h) < 0)
			goto fail;
		first = hunk->old_lines ? hunk->old_start - 1 : hunk->old_start;
		for (l = first - 1; l >= 0 && !namelen; l--)
			if ((size_t)l < nr_lines)
				namelen = section_name(x->text + lines[l],
						       lines[l + 1] - lines[l] - 1,
						       &name);
		strbuf_addstr(out, "    @@");
		if (namelen) {
			strbuf_addch(out, ' ');
			strbuf_add(out, name, namelen);
		}
		strbuf_addch(out, '\n');
		for (k = 0; k < count; k++) {
			const git_diff_line *line;
			size_t len;

			if (git_patch_get_line_in_hunk(&line, patch, h, k) < 0)
				goto fail;
			if (line->origin != GIT_DIFF_LINE_CONTEXT &&
			    line->origin != GIT_DIFF_LINE_ADDITION &&
			    line->origin != GIT_DIFF_LINE_DELETION)
				continue;
			len = line->content_len;
			if (len && line->content[len - 1] == '\n')
				len--;
			strbuf_addstr(out, "    ");
			strbuf_addch(out, line->origin);
			strbuf_add(out, line->content, len);
			strbuf_addch(out, '\n');
		}
	}
	free(lines);
	git_patch_free(patch);
	return 0;
fail:
	free(lines);
	git_patch_free(patch);
	return error_git("cannot read the diff of %s and %s", x->label,
			 y->label);
}

static int decimal_width(size_t n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

int rangediff_print(const struct rangediff *rd, unsigned flags,
		    struct strbuf *out)
{
	return rangediff_print_with(rd, flags, out, NULL, NULL);
}

int rangediff_print_with(const struct rangediff *rd, unsigned flags,
			 struct strbuf *out, rangediff_pair_fn *after_line,
			 void *data)
{
	int width = decimal_width(1 + (rd->na > rd->nb ? rd->na : rd->nb));
	struct strbuf dashes = STRBUF_INIT;
	size_t k;
	int r = 0;

	for (k = 0; k < rd->nr_pairs && !r; k++) {
		const struct rangediff_pair *pr = &rd->pairs[k];
		const struct rangediff_patch *x = pr->a >= 0 ? &rd->a[pr->a] : NULL;
		const struct rangediff_patch *y = pr->b >= 0 ? &rd->b[pr->b] : NULL;

		if (!dashes.len)
			strbuf_addchars(&dashes, '-',
					strlen(x ? x->label : y->label));
		if (x)
			strbuf_addf(out, "%*d:  %s ", width, pr->a + 1,
				    x->label);
		else
			strbuf_addf(out, "%*s:  %s ", width, "-", dashes.buf);
		strbuf_addch(out, pr->status);
		if (y)
			strbuf_addf(out, " %*d:  %s", width, pr->b + 1,
				    y->label);
		else
			strbuf_addf(out, " %*s:  %s", width, "-", dashes.buf);
		strbuf_addf(out, " %s%s\n", x ? x->subject : y->subject,
			    pr->by_title ? " (paired by title)" : "");
		if (after_line)
			r = after_line(rd, k, out, data);
		if (!r && pr->status == '!' && !(flags & RANGEDIFF_NO_PATCH))
			r = print_patch_diff(x, y, out);
	}
	strbuf_release(&dashes);
	return r;
}
