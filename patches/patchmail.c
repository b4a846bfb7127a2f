// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/patchmail.h"
#include "patches/diffnorm.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- lines ---- */

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl : end;
}

static const char *line_next(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

static int starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* The line at p is exactly s, give or take trailing blanks / CR. */
static int line_is(const char *p, const char *end, const char *s)
{
	const char *e = line_end(p, end);
	size_t n = strlen(s);

	while (e > p + n && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return (size_t)(e - p) == n && !memcmp(p, s, n);
}

static int line_blank(const char *p, const char *end)
{
	const char *e = line_end(p, end);

	for (; p < e; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

/* ---- trailers ---- */

void trailer_list_init(struct trailer_list *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void trailer_list_release(struct trailer_list *tl)
{
	size_t i;

	for (i = 0; i < tl->nr; i++) {
		free(tl->items[i].key);
		free(tl->items[i].value);
	}
	free(tl->items);
	trailer_list_init(tl);
}

int trailer_key_is_known(const char *key, size_t len)
{
	static const char *const keys[] = {
		"Cc", "Link", "Fixes", "Closes", "Change-Id", "BugLink",
		"Message-ID", NULL,
	};
	int i;

	if (len > 3 && !strncasecmp(key + len - 3, "-by", 3))
		return 1;
	for (i = 0; keys[i]; i++)
		if (strlen(keys[i]) == len && !strncasecmp(key, keys[i], len))
			return 1;
	return 0;
}

/*
 * An address an HTML mailer made a link of, cleaned in place:
 * "x@y.org<mailto:x@y.org>" -> "x@y.org" (the link after the same
 * address), "<mailto:x@y.org>" -> "<x@y.org>".  A link to another
 * address than the one before it is left as it is.
 */
static void unmailto(char *v)
{
	char *p = v, *gt, *a, *b;

	while ((p = strchr(p, '<'))) {
		size_t alen;

		if (strncasecmp(p + 1, "mailto:", 7) ||
		    !(gt = strchr(p + 8, '>'))) {
			p++;
			continue;
		}
		a = p + 8;
		alen = gt - a;
		for (b = p; b > v && b[-1] == ' '; b--)
			;
		if ((size_t)(b - v) >= alen && !strncasecmp(b - alen, a, alen)) {
			p = b;
			/*
			 * "x@y.org<mailto:x@y.org>": the link goes
			 * ("<x@y.org<mailto:x@y.org>>" keeps its outer >)
			 */
			memmove(p, gt + 1, strlen(gt + 1) + 1);
		} else if (p == v || p[-1] == ' ') {
			/* "<mailto:x@y.org>": the address stays */
			memmove(p + 1, a, strlen(a) + 1);
			p++;
		} else {
			p++;
		}
	}
}

void trailer_list_add(struct trailer_list *tl, const char *key, size_t klen,
		      const char *value, size_t vlen)
{
	struct trailer *t;
	size_t i;

	ALLOC_GROW(tl->items, tl->nr, tl->alloc);
	t = &tl->items[tl->nr++];
	t->key = xstrndup(key, klen);
	/* "reviewed-BY" -> "Reviewed-by", "CC" -> "Cc" */
	if (klen > 3 && !strncasecmp(key + klen - 3, "-by", 3)) {
		t->key[0] = toupper((unsigned char)t->key[0]);
		for (i = 1; i < klen; i++)
			t->key[i] = tolower((unsigned char)t->key[i]);
	} else if (klen == 2 && !strncasecmp(key, "cc", 2)) {
		strcpy(t->key, "Cc");
	}
	while (vlen && isspace((unsigned char)value[vlen - 1]))
		vlen--;
	t->value = xstrndup(value, vlen);
	/*
	 * A control character from mail would go into a commit message
	 * (trailers --apply) and the mail after it: a blank instead.
	 */
	for (i = 0; i < vlen; i++)
		if ((unsigned char)t->value[i] < 0x20 || t->value[i] == 0x7f)
			t->value[i] = ' ';
	if (strchr(t->value, '<'))
		unmailto(t->value);
}

/* A "Key: value" line (patchmail.h). */
int trailer_line_parse(const char *p, const char *e, const char **key,
		       size_t *klen, const char **val)
{
	const char *q = p;

	if (q >= e || !isalnum((unsigned char)*q))
		return 0;
	while (q < e && (isalnum((unsigned char)*q) || *q == '-' || *q == '_'))
		q++;
	if (q >= e || *q != ':' || q + 1 >= e ||
	    (q[1] != ' ' && q[1] != '\t'))
		return 0;
	*key = p;
	*klen = q - p;
	q++;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	*val = q;
	return 1;
}

/*
 * Finds the trailer block at the end of the message [p, end): the last
 * paragraph, when at least one known trailer is in it and trailers
 * are at least a quarter of its lines (git's rule; the rest may be
 * "[akpm: ...]" notes or "# 6.1.x" comments).  Returns its start, or
 * end when there is none.
 */
static const char *trailer_block_find(const char *p, const char *end,
				      struct trailer_list *tl)
{
	const char *para = p, *q, *e;
	unsigned nr = 0, known = 0, other = 0;
	struct trailer_list found;

	/* the start of the last paragraph */
	for (q = p; q < end; q = line_next(q, end))
		if (line_blank(q, end) && line_next(q, end) < end)
			para = line_next(q, end);
	trailer_list_init(&found);
	for (q = para; q < end; q = line_next(q, end)) {
		const char *key, *val;
		size_t klen;

		e = line_end(q, end);
		if (e > q && e[-1] == '\r')
			e--;
		if (q < e && (*q == ' ' || *q == '\t') && found.nr) {
			/* a folded value */
			struct trailer *t = &found.items[found.nr - 1];
			struct strbuf sb = STRBUF_INIT;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			strbuf_addstr(&sb, t->value);
			strbuf_addch(&sb, ' ');
			strbuf_add(&sb, q, e - q);
			free(t->value);
			t->value = strbuf_detach(&sb, NULL);
			continue;
		}
		if (trailer_line_parse(q, e, &key, &klen, &val)) {
			nr++;
			known += trailer_key_is_known(key, klen);
			trailer_list_add(&found, key, klen, val, e - val);
		} else if (q < e) {
			other++;
		}
	}
	if (!known || nr * 4 < (nr + other)) {
		trailer_list_release(&found);
		return end;
	}
	*tl = found;
	return para;
}

/* ---- the diff ---- */

static int diff_start_at(const char *p, const char *end)
{
	const char *n;

	if (starts(p, end, "diff --git ") || starts(p, end, "Index: "))
		return 1;
	/* "diff -up a/x b/x" over "--- a/x" over "+++ b/x" */
	if (starts(p, end, "diff -") && !starts(p, end, "diff --git"))
		p = line_next(p, end);
	if (!starts(p, end, "--- ") || line_is(p, end, "---"))
		return 0;
	n = line_next(p, end);
	return starts(n, end, "+++ ");
}

size_t patchmail_find_diff(const char *body, size_t len)
{
	const char *p = body, *end = body + len;

	for (; p < end; p = line_next(p, end))
		if ((*p == 'd' || *p == 'I' || *p == '-') && diff_start_at(p, end))
			return p - body;
	return len;
}

/* A line count or start of a hunk header: digits only, no sign or blanks. */
static int hunk_number(const char *p, const char *e, const char **q, long *out)
{
	long n = 0;

	if (p >= e || !isdigit((unsigned char)*p))
		return 0;
	for (; p < e && isdigit((unsigned char)*p); p++) {
		if (n > (LONG_MAX - 9) / 10)
			return 0;
		n = n * 10 + (*p - '0');
	}
	*q = p;
	*out = n;
	return 1;
}

/*
 * "@@ -a[,b] +c[,d] @@": 1 with *old = b and *new = d (1 when left
 * out), 0 when the line is no hunk header; the outputs are set only
 * for a valid header.
 */
static int hunk_header(const char *p, const char *e, long *old, long *new)
{
	const char *q;
	long start, o = 1, n = 1;

	if (e - p < 8 || memcmp(p, "@@ -", 4))
		return 0;
	if (!hunk_number(p + 4, e, &q, &start))
		return 0;
	if (q < e && *q == ',' && !hunk_number(q + 1, e, &q, &o))
		return 0;
	if (e - q < 2 || q[0] != ' ' || q[1] != '+')
		return 0;
	if (!hunk_number(q + 2, e, &q, &start))
		return 0;
	if (q < e && *q == ',' && !hunk_number(q + 1, e, &q, &n))
		return 0;
	if (e - q < 3 || memcmp(q, " @@", 3))
		return 0;
	*old = o;
	*new = n;
	return 1;
}

static int header_line(const char *p, const char *end)
{
	static const char *const heads[] = {
		"diff ", "index ", "--- ", "+++ ", "old mode ", "new mode ",
		"deleted file mode ", "new file mode ", "similarity index ",
		"dissimilarity index ", "rename from ", "rename to ",
		"copy from ", "copy to ", "Binary files ", "GIT binary patch",
		"literal ", "delta ", "Index: ", "====", NULL,
	};
	int i;

	for (i = 0; heads[i]; i++)
		if (starts(p, end, heads[i]))
			return 1;
	return 0;
}

static void diff_error(const char *what, const char *fmt, size_t line,
		       const char *p, const char *end)
{
	struct strbuf sb = STRBUF_INIT;
	const char *e = p ? line_end(p, end) : end;
	size_t i;

	strbuf_addf(&sb, "%s: ", what ? what : "a patch mail");
	strbuf_addf(&sb, fmt, line);
	if (p && p < end) {
		strbuf_addstr(&sb, " at \"");
		for (i = 0; p + i < e && i < 60; i++)
			strbuf_addch(&sb, isprint((unsigned char)p[i]) ? p[i] : '?');
		strbuf_addch(&sb, '"');
	}
	error("%s", sb.buf);
	error_hint("the mail was cut or its lines rewrapped on the way; fetch it again (lore's /raw) or ask the sender to resend");
	strbuf_release(&sb);
}

/*
 * One line of a hunk, by its first character, counted against the
 * lines its header promised; -1 for a line no hunk has.
 */
static int hunk_take(char c, long *old, long *new)
{
	switch (c) {
	case ' ':
		(*old)--;
		(*new)--;
		return 0;
	case '-':
		(*old)--;
		return 0;
	case '+':
		(*new)--;
		return 0;
	case '\\':		/* "\ No newline at end of file" */
		return 0;
	default:
		return -1;
	}
}

/*
 * Walks the diff from p; returns where it ends (after its last hunk or
 * header line), or NULL after recording an error for a hunk cut short.
 */
static const char *diff_walk(struct patchmail *pm, const char *p,
			     const char *end, const char *what, int *short_one)
{
	const char *start = p, *last = p, *hunk = NULL, *nul;
	long old = 0, new = 0;
	size_t lineno = 0, hunk_line = 0;
	unsigned git_files = 0, plain_files = 0;
	int binary = 0;

	for (; p < end; p = line_next(p, end)) {
		const char *e = line_end(p, end);

		lineno++;
		if (old > 0 || new > 0) {
			char c = p < e ? *p : ' ';

			if (c == '\r')
				c = ' ';
			if (hunk_take(c, &old, &new) < 0 || old < 0 || new < 0)
				break;
			last = line_next(p, end);
			continue;
		}
		if (*p == '\\') {		/* "\ No newline at end of file" */
			last = line_next(p, end);
			continue;
		}
		if (hunk_header(p, e, &old, &new)) {
			pm->nr_hunks++;
			hunk = p;
			hunk_line = lineno;
			binary = 0;
			last = line_next(p, end);
			continue;
		}
		if (starts(p, end, "@@ ")) {
			diff_error(what, "line %zu of the diff is not a valid hunk header (\"@@ -a,b +c,d @@\")",
				   lineno, p, end);
			return NULL;
		}
		if (starts(p, end, "diff --git "))
			git_files++;
		else if (starts(p, end, "+++ "))
			plain_files++;
		if (header_line(p, end)) {
			if (starts(p, end, "GIT binary patch"))
				binary = 1;
			last = line_next(p, end);
			continue;
		}
		if (binary && !line_blank(p, end)) {
			last = line_next(p, end);
			continue;
		}
		if (binary) {			/* a blank line inside binary data */
			last = line_next(p, end);
			continue;
		}
		break;
	}
	pm->nr_files = git_files ? git_files : plain_files;
	/*
	 * The body ends one context line short of the last hunk: a mailer
	 * that strips trailing blanks took a blank context line, and git
	 * am reads it back from the blank line that ends a message in an
	 * mbox.  respin reads it so too (the caller adds it).
	 */
	*short_one = p >= end && old == 1 && new == 1;
	if (*short_one)
		old = new = 0;
	if (old > 0 || new > 0 || old < 0 || new < 0) {
		diff_error(what, "the diff is cut short: the hunk at line %zu of the diff has fewer lines than its @@ header says",
			   hunk_line, hunk, end);
		return NULL;
	}
	/* libgit2's diff parser reads past the end of a line holding a NUL */
	nul = memchr(start, '\0', last - start);
	if (nul) {
		for (p = start, lineno = 1; line_next(p, end) <= nul; lineno++)
			p = line_next(p, end);
		diff_error(what, "line %zu of the diff has a NUL byte", lineno,
			   p, end);
		return NULL;
	}
	return last;
}

/*
 * The same walk for a diff pasted into a reply, which nobody applies:
 * it never fails.  A hunk ends when its counts say or at the first line
 * that cannot be one of its lines (a diff cut short with "[...]"); a
 * line left empty by a mailer counts as context when a hunk line
 * follows it.
 */
int patchmail_diff_starts(const char *p, const char *end)
{
	long old, new;

	return diff_start_at(p, end) ||
	       hunk_header(p, line_end(p, end), &old, &new);
}

static int hunk_body_line(const char *p, const char *end)
{
	return p < end && (*p == ' ' || *p == '-' || *p == '+' || *p == '\\');
}

const char *patchmail_diff_skip(const char *p, const char *end)
{
	long old = 0, new = 0;
	int binary = 0;

	for (; p < end; p = line_next(p, end)) {
		const char *e = line_end(p, end);
		const char *n = line_next(p, end);

		if (e > p && e[-1] == '\r')
			e--;
		if (old > 0 || new > 0) {
			char c = p < e ? *p : ' ';

			if (p == e && !hunk_body_line(n, end))
				break;
			if (hunk_take(c, &old, &new) < 0)
				break;
			continue;
		}
		old = new = 0;
		if (*p == '\\')
			continue;
		if (hunk_header(p, e, &old, &new)) {
			binary = 0;
			continue;
		}
		if (header_line(p, end)) {
			binary |= starts(p, end, "GIT binary patch");
			continue;
		}
		if (binary && (!line_blank(p, end) ||
			       starts(n, end, "literal ") ||
			       starts(n, end, "delta ")))
			continue;
		break;
	}
	return p;
}

/* ---- the whole body ---- */

void patchmail_init(struct patchmail *pm)
{
	memset(pm, 0, sizeof(*pm));
}

void patchmail_release(struct patchmail *pm)
{
	trailer_list_release(&pm->trailers);
	free(pm->diff_buf);
	patchmail_init(pm);
}

static struct patchmail_span span_trim(const char *p, const char *e)
{
	struct patchmail_span s = { NULL, 0 };

	while (p < e && (*p == '\n' || *p == '\r'))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	if (e > p) {
		s.p = p;
		s.len = e - p;
	}
	return s;
}

/* The signature separator "-- " (or "--" as some mailers strip it). */
static int sig_line(const char *p, const char *end, int loose)
{
	return line_is(p, end, "--") && (loose || starts(p, end, "-- "));
}

int patchmail_split(struct patchmail *pm, const char *body, size_t len,
		    const char *what)
{
	const char *end = body + len, *p, *d, *sig = NULL, *sep = NULL;
	const char *msg_end, *tb;

	patchmail_release(pm);
	d = body + patchmail_find_diff(body, len);
	if (d < end) {
		int short_one = 0;
		const char *de = diff_walk(pm, d, end, what, &short_one);

		if (!de)
			return -1;
		pm->diff.p = d;
		pm->diff.len = de - d;
		pm->raw_diff = pm->diff;
		{
			struct strbuf sb = STRBUF_INIT;

			if (short_one && !diff_normalize(d, de - d, &sb))
				strbuf_add(&sb, d, de - d);
			if (short_one) {
				if (sb.len && sb.buf[sb.len - 1] != '\n')
					strbuf_addch(&sb, '\n');
				strbuf_addstr(&sb, " \n");
			}
			if (sb.len || diff_normalize(d, de - d, &sb)) {
				pm->diff.len = sb.len;
				pm->diff_buf = strbuf_detach(&sb, NULL);
				pm->diff.p = pm->diff_buf;
			}
			strbuf_release(&sb);
		}
		for (p = de; p < end; p = line_next(p, end))
			if (sig_line(p, end, 1)) {
				sig = p;
				break;
			}
		pm->tail = span_trim(de, sig ? sig : end);
	} else {
		for (p = body; p < end; p = line_next(p, end))
			if (sig_line(p, end, 0))
				sig = p;
	}
	if (sig)
		pm->signature = span_trim(line_next(sig, end), end);

	msg_end = d < end ? d : (sig ? sig : end);
	for (p = body; p < msg_end; p = line_next(p, end))
		if (line_is(p, end, "---")) {
			sep = p;
			break;
		}
	if (sep) {
		pm->notes = span_trim(line_next(sep, end), msg_end);
		msg_end = sep;
	}
	tb = trailer_block_find(body, msg_end, &pm->trailers);
	if (tb < msg_end)
		pm->trailer_block = span_trim(tb, msg_end);
	pm->message = span_trim(body, tb);
	return 0;
}
