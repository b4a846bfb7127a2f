// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/diffnorm.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

static int has(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - p) >= n && !memcmp(p, s, n);
}

/* "@@ -a[,b] +c[,d] @@": the counts b and d (1 when left out). */
static int hunk_counts(const char *p, const char *e, long *old, long *new)
{
	const char *q = p + 4;
	long o = 1, n = 1;
	char *x;

	if (!has(p, e, "@@ -") || !isdigit((unsigned char)*q))
		return 0;
	strtol(q, &x, 10);
	if (*x == ',')
		o = strtol(x + 1, &x, 10);
	if (x[0] != ' ' || x[1] != '+' || !isdigit((unsigned char)x[2]))
		return 0;
	strtol(x + 2, &x, 10);
	if (*x == ',')
		n = strtol(x + 1, &x, 10);
	if (!has(x, e, " @@") || o < 0 || n < 0)
		return 0;
	*old = o;
	*new = n;
	return 1;
}

/*
 * The name on a "--- "/"+++ " line of a diff not made by git: up to a
 * tab or a timestamp ("  2023-01-31 10:00:00.000 +0100"), trailing
 * blanks dropped.  NULL for /dev/null, else the name without its first
 * path component (git apply -p1).
 */
static char *traditional_name(const char *p, const char *e)
{
	const char *s = p + 4, *t, *ts, *slash;

	for (t = s; t < e && *t != '\t' && *t != '\n' && *t != '\r'; t++)
		if (*t == ' ' && e - t > 11 && isdigit((unsigned char)t[1]) &&
		    isdigit((unsigned char)t[4]) && t[5] == '-' &&
		    isdigit((unsigned char)t[6]) && t[8] == '-')
			break;
	ts = t;
	while (ts < e && (*ts == '\t' || *ts == ' '))
		ts++;
	while (t > s && t[-1] == ' ')
		t--;
	if (t - s == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	/* diff -N's stand-in for a missing file: the epoch (git apply's rule) */
	if (has(ts, e, "1970-01-01 00:00:00") || has(ts, e, "1969-12-31 "))
		return NULL;
	slash = memchr(s, '/', t - s);
	if (slash && slash + 1 < t)
		s = slash + 1;
	return xstrndup(s, t - s);
}

/* "--- x" over "+++ y", as a file section not made by git starts. */
static int traditional_header(const char *p, const char *end)
{
	const char *n = next_line(p, end);

	return has(p, end, "--- ") && has(n, end, "+++ ");
}

static void add_header(struct strbuf *out, const char *p, const char *end)
{
	const char *n = next_line(p, end);
	char *old = traditional_name(p, n);
	char *new = traditional_name(n, next_line(n, end));
	const char *name = !old ? new : !new ? old :
		strlen(old) < strlen(new) ? old : new;

	if (!name)
		name = "dev/null";
	strbuf_addf(out, "diff --git a/%s b/%s\n", name, name);
	/*
	 * libgit2 prints a file's "---"/"+++" lines (and so hashes them
	 * into the patch-id, as git does) only when its index line names
	 * a mode and two different blobs: made-up ids, never looked up
	 * (the patch applies by path, and patch-ids skip index lines).
	 */
	if (!old)
		strbuf_addstr(out, "new file mode 100644\n"
			      "index 0000000..1111111\n");
	else if (!new)
		strbuf_addstr(out, "deleted file mode 100644\n"
			      "index 1111111..0000000\n");
	else
		strbuf_addstr(out, "index 1111111..2222222 100644\n");
	if (old)
		strbuf_addf(out, "--- a/%s\n", name);
	else
		strbuf_addstr(out, "--- /dev/null\n");
	if (new)
		strbuf_addf(out, "+++ b/%s\n", name);
	else
		strbuf_addstr(out, "+++ /dev/null\n");
	free(old);
	free(new);
}

/*
 * The two names of "diff --git A B" (the line from after "diff --git "
 * to before its newline): quoted names end at their closing quote;
 * unquoted ones are split where both halves name the same path after
 * their first component ("a/x y b/x y"), else at the first blank.
 */
static void git_names(const char *p, const char *e, const char **a,
		      size_t *alen, const char **b, size_t *blen)
{
	const char *q = p, *mid, *s1, *s2;
	size_t n = (size_t)(e - p), h = n / 2;

	s1 = memchr(p, '/', h);
	s2 = n % 2 ? memchr(p + h + 1, '/', n - h - 1) : NULL;
	if (*p == '"') {
		for (q = p + 1; q < e && *q != '"'; q++)
			if (*q == '\\' && q + 1 < e)
				q++;
		q = q < e ? q + 1 : e;
	} else if ((mid = memmem(p, n, " \"", 2)) != NULL) {
		q = mid;
	} else if (s1 && s2 && p[h] == ' ' && e - s2 == p + h - s1 &&
		   !memcmp(s1, s2, (size_t)(e - s2))) {
		q = p + h;	/* "a/x y b/x y": the same path twice */
	} else {
		q = memchr(p, ' ', n);
		if (!q)
			q = e;
	}
	*a = p;
	*alen = (size_t)(q - p);
	while (q < e && *q == ' ')
		q++;
	*b = q;
	*blen = (size_t)(e - q);
}

/* A line of git's extended header, between "diff --git" and the hunks. */
static int git_header_line(const char *p, const char *e)
{
	static const char *const heads[] = {
		"old mode ", "new mode ", "deleted file mode ",
		"new file mode ", "copy from ", "copy to ", "rename from ",
		"rename to ", "rename old ", "rename new ",
		"similarity index ", "dissimilarity index ", "index ",
		"--- ", "+++ ", "GIT binary patch", "Binary files ",
	};
	size_t i;

	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (has(p, e, heads[i]))
			return 1;
	return 0;
}

/*
 * A git file section ends with no hunk after its "new file mode",
 * "deleted file mode" or "index" line: an empty file added or removed
 * (or a diff -D deletion).  git apply takes it; libgit2 reads such a
 * section only when "---"/"+++" lines close it (and then reads no
 * hunk), so they are added, and an index line naming the empty blob
 * when there was none.  The header is [h, he).
 */
static void close_hunkless(struct strbuf *out, const char *h, const char *he,
			   int mode_line, int index_line)
{
	const char *nl = memchr(h, '\n', (size_t)(he - h)), *a, *b;
	size_t alen, blen;
	int added = mode_line == 'n', deleted = mode_line == 'd';

	if (!nl)
		nl = he;
	if (nl > h && nl[-1] == '\r')
		nl--;
	git_names(h + 11, nl, &a, &alen, &b, &blen);
	if (!index_line)
		strbuf_addstr(out, added ? "index 0000000..e69de29\n" :
			      deleted ? "index e69de29..0000000\n" : "");
	if (added)
		strbuf_addstr(out, "--- /dev/null\n");
	else
		strbuf_addf(out, "--- %.*s\n", (int)alen, a);
	if (deleted)
		strbuf_addstr(out, "+++ /dev/null\n");
	else
		strbuf_addf(out, "+++ %.*s\n", (int)blen, b);
}

int diff_normalize(const char *p, size_t len, struct strbuf *out)
{
	const char *end = p + len, *hdr = NULL;
	size_t start = out->len;
	long old = 0, new = 0;
	int git_header = 0, changed = 0;
	/* in a git header: 'n'/'d' after new/deleted file mode; its index */
	int mode_line = 0, index_line = 0, open = 0;

	while (p < end) {
		const char *n = next_line(p, end);

		if (old > 0 || new > 0) {
			char c = *p;

			if (c == '\n' || (c == '\r' && p + 1 < end && p[1] == '\n')) {
				strbuf_addch(out, ' ');	/* a stripped space */
				c = ' ';
				changed = 1;
			}
			if (c == ' ' || c == '-')
				old--;
			if (c == ' ' || c == '+')
				new--;
			strbuf_add(out, p, n - p);
			p = n;
			continue;
		}
		if (git_header && open && !git_header_line(p, n)) {
			/* the section ends with no "---": close it */
			close_hunkless(out, hdr, end, mode_line, index_line);
			changed = 1;
			open = 0;
		}
		if (hunk_counts(p, n, &old, &new)) {
			git_header = 0;
		} else if (has(p, n, "diff --git ")) {
			git_header = 1;
			hdr = p;
			mode_line = index_line = open = 0;
		} else if (git_header && has(p, n, "dissimilarity index ")) {
			/*
			 * git diff -B's rewrite mark, which libgit2 refuses;
			 * git show leaves it out of the same change
			 */
			changed = 1;
			p = n;
			continue;
		} else if (git_header && (has(p, n, "new file mode ") ||
					  has(p, n, "deleted file mode "))) {
			mode_line = *p;
			open = 1;
		} else if (git_header && has(p, n, "index ")) {
			index_line = open = 1;
		} else if (git_header && git_header_line(p, n)) {
			/* "---", a binary patch, a mode or a rename: not open */
			open = 0;
		} else if (!git_header &&
			   (has(p, n, "Index: ") || has(p, n, "====") ||
			    has(p, n, "diff "))) {
			changed = 1;	/* quilt's and diff's own lines */
			p = n;
			continue;
		} else if (!git_header && traditional_header(p, end)) {
			add_header(out, p, end);
			changed = 1;
			p = next_line(n, end);
			continue;
		}
		strbuf_add(out, p, n - p);
		p = n;
	}
	if (git_header && open) {
		if (out->len > start && out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
		close_hunkless(out, hdr, end, mode_line, index_line);
		changed = 1;
	}
	if (!changed) {
		strbuf_setlen(out, start);
		return 0;
	}
	return 1;
}
