// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/comments.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void comment_list_init(struct comment_list *l)
{
	memset(l, 0, sizeof(*l));
}

void comment_list_release(struct comment_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		strbuf_release(&l->items[i].quote);
		strbuf_release(&l->items[i].text);
		free(l->items[i].file);
		free(l->items[i].hunk);
	}
	free(l->items);
	comment_list_init(l);
}

static int blank(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)p[i]))
			return 0;
	return 1;
}

/* "Reviewed-by: X", "Acked-by: X", "Cc: X": a trailer line. */
static int trailer_line(const char *p, size_t n)
{
	size_t k;

	for (k = 0; k < n && (isalnum((unsigned char)p[k]) || p[k] == '-'); k++)
		;
	if (k == 0 || k + 1 >= n || p[k] != ':' || p[k + 1] != ' ')
		return 0;
	return (k > 3 && !strncasecmp(p + k - 3, "-by", 3)) ||
	       (k == 2 && !strncasecmp(p, "Cc", 2)) ||
	       (k == 5 && !strncasecmp(p, "Fixes", 5)) ||
	       (k == 6 && !strncasecmp(p, "Closes", 6));
}

/* Trims trailing blank lines of sb. */
static void trim_blank_tail(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		strbuf_setlen(sb, sb->len - 1);
	if (sb->len)
		strbuf_addch(sb, '\n');
}

/* Drops the last line of sb when it is an attribution ("... wrote:"). */
static void drop_attribution(struct strbuf *sb)
{
	size_t e, s;

	trim_blank_tail(sb);
	if (!sb->len)
		return;
	e = sb->len - 1;	/* the '\n' */
	s = e;
	while (s && sb->buf[s - 1] != '\n')
		s--;
	while (e > s && isspace((unsigned char)sb->buf[e - 1]))
		e--;
	if ((e - s >= 6 && !strncmp(sb->buf + e - 6, "wrote:", 6)) ||
	    (e - s >= 7 && !strncmp(sb->buf + e - 7, "writes:", 7))) {
		strbuf_setlen(sb, s);
		trim_blank_tail(sb);
	}
}

/* a and b the same but for blanks at their ends (mail loses them). */
static int same_line(const char *a, size_t an, const char *b, size_t bn)
{
	while (an && isspace((unsigned char)a[an - 1]))
		an--;
	while (bn && isspace((unsigned char)b[bn - 1]))
		bn--;
	return an == bn && !memcmp(a, b, an);
}

/* The file and hunk of the line of diff that equals line, if any. */
static void locate(const char *diff, size_t diff_len, const char *line,
		   size_t n, char **file, char **hunk)
{
	const char *p = diff, *end = diff + diff_len;
	const char *f = NULL, *fe = NULL, *h = NULL, *he = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le - p > 6 && !strncmp(p, "+++ b/", 6)) {
			f = p + 6;
			fe = le;
		} else if (le - p > 2 && !strncmp(p, "@@", 2)) {
			h = p;
			he = le;
		} else if (f && same_line(p, (size_t)(le - p), line, n)) {
			*file = xstrndup(f, (size_t)(fe - f));
			*hunk = h ? xstrndup(h, (size_t)(he - h)) : NULL;
			return;
		}
		p = nl ? nl + 1 : end;
	}
}

struct parse {
	struct comment_list *out;
	struct strbuf quote, text;
	char *file, *hunk;	/* as last quoted in this reply */
	int quote_in_diff;	/* the current quote has diff lines */
	int quote_has_hunk;	/* ... and an "@@" header of its own */
	const char *diff;
	size_t diff_len;
};

static int diff_line(const char *p, size_t n)
{
	return n && (*p == '+' || *p == '-' || (*p == ' ' && n > 1) ||
		     (n > 1 && !strncmp(p, "@@", 2)));
}

/*
 * Whether text is an acknowledgement alone ("Looks good to me.",
 * "Thanks!", "LGTM"): nothing to answer or address.  Every sentence of
 * a short text must be one of them.
 */
static int acknowledgement(const char *text, size_t len)
{
	static const char *const acks[] = {
		"looks good to me", "looks good", "lgtm", "thanks",
		"thank you", "thanks a lot", "thanks for the fix",
		"thanks for fixing this", "nice", "nice work", "makes sense",
		"sounds good", "looks fine", "looks fine to me", "agreed",
		"good catch", "nice catch", "ok", "fine by me", "cheers",
		NULL
	};
	struct strbuf one = STRBUF_INIT;
	size_t i, k;
	int ok = len > 0 && len <= 80, any = 0;

	for (i = 0; ok && i <= len; i++) {
		char ch = i < len ? text[i] : '.';

		if (ch == '.' || ch == '!' || ch == ',' || ch == '\n' ||
		    ch == ';') {
			strbuf_rtrim(&one);
			if (!one.len)
				continue;
			for (k = 0; acks[k] && strcmp(one.buf, acks[k]); k++)
				;
			ok = acks[k] != NULL;
			any = 1;
			strbuf_setlen(&one, 0);
			continue;
		}
		if (!one.len && isspace((unsigned char)ch))
			continue;
		strbuf_addch(&one, (char)tolower((unsigned char)ch));
	}
	strbuf_release(&one);
	return ok && any;
}

static void flush(struct parse *ps)
{
	struct comment *c;

	trim_blank_tail(&ps->text);
	if (!ps->text.len) {
		return;
	}
	if (acknowledgement(ps->text.buf, ps->text.len)) {
		strbuf_setlen(&ps->text, 0);
		return;
	}
	ALLOC_GROW(ps->out->items, ps->out->nr, ps->out->alloc);
	c = &ps->out->items[ps->out->nr++];
	memset(c, 0, sizeof(*c));
	trim_blank_tail(&ps->quote);
	c->quote = ps->quote;
	c->text = ps->text;
	strbuf_init(&ps->quote, 0);
	strbuf_init(&ps->text, 0);
	if (ps->quote_has_hunk && ps->file && ps->hunk &&
	    (!ps->diff || memmem(ps->diff, ps->diff_len, ps->hunk,
				 strlen(ps->hunk)))) {
		/*
		 * The reviewer quoted the hunk's own header (a whole patch
		 * quoted): the nearest above the comment says where; the
		 * same line may be in several hunks.
		 */
		c->file = xstrdup(ps->file);
		c->hunk = xstrdup(ps->hunk);
	} else if (ps->quote_in_diff) {
		/*
		 * The quoted lines found in the patch's own diff say where
		 * (reviewers trim headers and cut "[...]"), the nearest to
		 * the comment first; the last quoted headers only when they
		 * are not found there.
		 */
		const char *start = c->quote.buf, *e = start + c->quote.len;

		while (ps->diff && e > start && !c->file) {
			const char *p = e, *le = e;
			size_t n;

			if (le > start && le[-1] == '\n')
				le--;
			p = le;
			while (p > start && p[-1] != '\n')
				p--;
			n = (size_t)(le - p);
			if (diff_line(p, n) && strncmp(p, "@@", 2) &&
			    !blank(p + 1, n - 1))
				locate(ps->diff, ps->diff_len, p, n, &c->file,
				       &c->hunk);
			e = p;
		}
		if (!c->file) {
			c->file = ps->file ? xstrdup(ps->file) : NULL;
			c->hunk = ps->hunk ? xstrdup(ps->hunk) : NULL;
		}
	}
	ps->quote_in_diff = ps->quote_has_hunk = 0;
}

static void quoted_line(struct parse *ps, const char *p, size_t n)
{
	/* one level off: "> x" -> "x", ">x" -> "x" */
	p++;
	n--;
	if (n && *p == ' ') {
		p++;
		n--;
	}
	if (ps->text.len) {
		/* a new quote after some text: that comment is done */
		flush(ps);
		strbuf_setlen(&ps->quote, 0);
	}
	if (n > 11 && !strncmp(p, "diff --git ", 11)) {
		const char *b = memmem(p, n, " b/", 3);

		free(ps->file);
		ps->file = b ? xstrndup(b + 3, n - (size_t)(b + 3 - p)) : NULL;
		free(ps->hunk);
		ps->hunk = NULL;
		ps->quote_in_diff = 1;
	} else if (n > 6 && !strncmp(p, "+++ b/", 6)) {
		free(ps->file);
		ps->file = xstrndup(p + 6, n - 6);
		ps->quote_in_diff = 1;
	} else if (n > 2 && !strncmp(p, "@@", 2)) {
		free(ps->hunk);
		ps->hunk = xstrndup(p, n);
		ps->quote_in_diff = ps->quote_has_hunk = 1;
	} else if (ps->file && diff_line(p, n)) {
		ps->quote_in_diff = 1;
	} else if (!ps->file && ps->diff && n && (*p == '+' || *p == '-') &&
		   strncmp(p, "---", 3)) {
		ps->quote_in_diff = 1;
	}
	strbuf_add(&ps->quote, p, n);
	strbuf_addch(&ps->quote, '\n');
}

size_t comments_parse(struct comment_list *out, const char *body, size_t len,
		      const char *diff, size_t diff_len)
{
	struct parse ps;
	const char *p = body, *end = body + len;
	size_t before = out->nr;

	memset(&ps, 0, sizeof(ps));
	ps.out = out;
	ps.diff = diff;
	ps.diff_len = diff_len;
	strbuf_init(&ps.quote, 0);
	strbuf_init(&ps.text, 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n && p[n - 1] == '\r')
			n--;
		if ((n == 3 && !memcmp(p, "-- ", 3)) || (n == 2 && !memcmp(p, "--", 2)))
			break;	/* the signature */
		if (n && *p == '>') {
			/* the attribution line above a quote is not a comment */
			if (!ps.quote.len || ps.text.len)
				drop_attribution(&ps.text);
			quoted_line(&ps, p, n);
		} else if (trailer_line(p, n)) {
			/* trailers are listed as trailers */
		} else if ((n == 5 && !memcmp(p, "[...]", 5)) ||
			   (n == 6 && !memcmp(p, "<snip>", 6)) ||
			   (n == 3 && !memcmp(p, "...", 3))) {
			/* a cut in the quote */
		} else if (blank(p, n)) {
			if (ps.text.len)
				strbuf_addch(&ps.text, '\n');
		} else {
			strbuf_add(&ps.text, p, n);
			strbuf_addch(&ps.text, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	flush(&ps);
	strbuf_release(&ps.quote);
	strbuf_release(&ps.text);
	free(ps.file);
	free(ps.hunk);
	return out->nr - before;
}

/* Whether the non-blank line l (n bytes) is one of the lines of text. */
static int has_line(const struct strbuf *text, const char *l, size_t n)
{
	const char *p = text->buf, *end = text->buf + text->len;

	while (n && isspace((unsigned char)l[n - 1]))
		n--;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t m = (size_t)((nl ? nl : end) - p);

		while (m && isspace((unsigned char)p[m - 1]))
			m--;
		if (m == n && !memcmp(p, l, n))
			return 1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int comment_answered_by(const struct comment *c, const struct comment_list *reply)
{
	size_t i;

	for (i = 0; i < reply->nr; i++) {
		const struct strbuf *q = &reply->items[i].quote;
		const char *p = q->buf, *end = q->buf + q->len;

		if (!reply->items[i].text.len)
			continue;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = (size_t)((nl ? nl : end) - p);

			if (!blank(p, n) && has_line(&c->text, p, n))
				return 1;
			p = nl ? nl + 1 : end;
		}
	}
	return 0;
}

/* The +/- lines of file's section of diff (all of it when file is NULL). */
static void changed_lines(const char *diff, const char *file, struct strbuf *out)
{
	const char *p = diff, *end = diff + strlen(diff);
	int in = !file;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n > 11 && !strncmp(p, "diff --git ", 11)) {
			const char *b = memmem(p, n, " b/", 3);

			in = !file || (b && (size_t)(p + n - (b + 3)) == strlen(file) &&
				       !memcmp(b + 3, file, strlen(file)));
		} else if (in && n && (*p == '+' || *p == '-') &&
			   !(n >= 4 && (!strncmp(p, "+++ ", 4) ||
					!strncmp(p, "--- ", 4)))) {
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/* The lines of text, each trimmed, one a line, into out. */
static void trimmed_lines(const char *text, struct strbuf *out)
{
	const char *p = text, *end = text ? text + strlen(text) : NULL;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		while (p < e && isspace((unsigned char)*p))
			p++;
		while (e > p && isspace((unsigned char)e[-1]))
			e--;
		if (e > p) {
			strbuf_add(out, p, (size_t)(e - p));
			strbuf_addch(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/* The context lines (" x") of diff in file (any file when NULL). */
static void context_lines(const char *diff, const char *file,
			  struct strbuf *out)
{
	const char *p = diff, *end = diff + strlen(diff);
	int in = !file, hunk = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n > 11 && !strncmp(p, "diff --git ", 11)) {
			const char *b = memmem(p, n, " b/", 3);

			in = !file || (b && (size_t)(p + n - (b + 3)) == strlen(file) &&
				       !memcmp(b + 3, file, strlen(file)));
			hunk = 0;
		} else if (n > 2 && !strncmp(p, "@@", 2)) {
			hunk = 1;
		} else if (in && hunk && n > 1 && *p == ' ') {
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/* A quoted message line this short says too little to be looked up. */
#define MESSAGE_LINE_MIN 8

int comment_addressed(const struct comment *c, const char *old_msg,
		      const char *old_diff, const char *new_msg,
		      const char *new_diff)
{
	struct strbuf was = STRBUF_INIT, now = STRBUF_INIT, ctx = STRBUF_INIT;
	struct strbuf msg_was = STRBUF_INIT, msg_now = STRBUF_INIT;
	struct strbuf minus = STRBUF_INIT;
	const char *p = c->quote.buf, *end = p + c->quote.len;
	int changed = 0;

	if (old_diff) {
		changed_lines(old_diff, c->file, &was);
		context_lines(old_diff, c->file, &ctx);
	}
	if (new_diff)
		changed_lines(new_diff, c->file, &now);
	trimmed_lines(old_msg, &msg_was);
	trimmed_lines(new_msg, &msg_now);
	/* the lines it answers, one by one: is each still there? */
	while (p < end && !changed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *t = p, *e = p + n;

		if (n > 1 && (*p == '+' || *p == '-') && has_line(&was, p, n)) {
			/* a line the patch adds or removes: still so? */
			changed = !has_line(&now, p, n);
		} else if (n > 1 && *p == ' ' && has_line(&ctx, p, n)) {
			/* a line it leaves alone: does the next change it? */
			strbuf_reset(&minus);
			strbuf_addch(&minus, '-');
			strbuf_add(&minus, p + 1, n - 1);
			changed = has_line(&now, minus.buf, minus.len);
		} else {
			/* a line of the commit message: still in it? */
			while (t < e && isspace((unsigned char)*t))
				t++;
			while (e > t && isspace((unsigned char)e[-1]))
				e--;
			if ((size_t)(e - t) >= MESSAGE_LINE_MIN &&
			    has_line(&msg_was, t, (size_t)(e - t)))
				changed = !has_line(&msg_now, t, (size_t)(e - t));
		}
		p = nl ? nl + 1 : end;
	}
	strbuf_release(&was);
	strbuf_release(&now);
	strbuf_release(&ctx);
	strbuf_release(&msg_was);
	strbuf_release(&msg_now);
	strbuf_release(&minus);
	return changed;
}

size_t comment_holds(const struct comment *c, const char *diff)
{
	struct strbuf changed = STRBUF_INIT, ctx = STRBUF_INIT;
	const char *p = c->quote.buf, *end = p + c->quote.len;
	size_t score = 0;

	if (!diff)
		return 0;
	changed_lines(diff, c->file, &changed);
	context_lines(diff, c->file, &ctx);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n > 1 && (((*p == '+' || *p == '-') &&
			       has_line(&changed, p, n)) ||
			      (*p == ' ' && has_line(&ctx, p, n))))
			score += 2;
		p = nl ? nl + 1 : end;
	}
	if (c->file && (changed.len || ctx.len))
		score++;
	strbuf_release(&changed);
	strbuf_release(&ctx);
	return score;
}
