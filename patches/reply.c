// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a reply gives: trailers on lines of their own, and bots'
 * reports (the rules are in reply.h).  One pass over the lines, with a
 * little state: the paragraph a line is in (for the tags right above a
 * pasted diff), a commit or patch being pasted, a bot's tag block.
 */
#include "patches/reply.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void bot_report_list_init(struct bot_report_list *l)
{
	memset(l, 0, sizeof(*l));
}

void bot_report_list_release(struct bot_report_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->items[i].who);
		free(l->items[i].what);
		free(l->items[i].link);
	}
	free(l->items);
	bot_report_list_init(l);
}

/* ---- lines ---- */

static int has_prefix(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - p) >= n && !memcmp(p, s, n);
}

static int has_prefix_ci(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - p) >= n && !strncasecmp(p, s, n);
}

static int contains_ci(const char *p, const char *e, const char *s)
{
	for (; p < e; p++)
		if (has_prefix_ci(p, e, s))
			return 1;
	return 0;
}

static int is_blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

/* The line is exactly s, give or take blanks at its end. */
static int line_is(const char *p, const char *e, const char *s)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return (size_t)(e - p) == strlen(s) && has_prefix(p, e, s);
}

/* [p, e) of the line at p, without its newline and a CR before it. */
static const char *line_stop(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	if (!e)
		e = end;
	if (e > p && e[-1] == '\r')
		e--;
	return e;
}

static const char *line_after(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

static int hex_run(const char *p, const char *e, const char **q)
{
	const char *s = p;

	while (p < e && isxdigit((unsigned char)*p))
		p++;
	*q = p;
	return (int)(p - s);
}

/* ---- what starts a pasted commit or patch ---- */

/* "commit <sha>" over "Author:" or "Merge:": git log or git show. */
static int commit_header(const char *p, const char *e, const char *end)
{
	const char *q, *n;
	int nr;

	if (!has_prefix(p, e, "commit "))
		return 0;
	nr = hex_run(p + 7, e, &q);
	if (nr < 7 || nr > 40 || (q < e && *q != ' '))
		return 0;
	n = line_after(p, end);
	return has_prefix(n, end, "Author:") || has_prefix(n, end, "Merge:");
}

/* "From <40 hex> Mon Sep 17 00:00:00 2001" (a mailer may put ' ' in front) */
static int format_patch_from(const char *p, const char *e)
{
	const char *q;

	if (p < e && *p == ' ')
		p++;
	return has_prefix(p, e, "From ") && hex_run(p + 5, e, &q) == 40 &&
	       q < e && *q == ' ';
}

/* "-- >8 --", "---8<---", "----- 8< -----": dashes and blanks round 8< or >8 */
static int scissors(const char *p, const char *e)
{
	int dashes = 0, cut = 0;

	for (; p < e; p++) {
		if (*p == '-')
			dashes++;
		else if (p + 1 < e && ((p[0] == '8' && p[1] == '<') ||
				       (p[0] == '>' && p[1] == '8'))) {
			cut++;
			p++;
		} else if (*p != ' ' && *p != '\t')
			return 0;
	}
	return cut == 1 && dashes >= 2;
}

/* git's "2.39.0" under the "-- " after a format-patch diff */
static int version_line(const char *p, const char *e)
{
	if (p >= e || !isdigit((unsigned char)*p) || e - p > 40)
		return 0;
	for (; p < e; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-')
			return 0;
	return 1;
}

/* ---- bots ---- */

int reply_from_bot(const char *name, const char *addr)
{
	const char *at, *host;
	size_t local;

	if (name && (strcasestr(name, "test robot") ||
		     !strcasecmp(name, "syzbot")))
		return 1;
	if (!addr || !(at = strchr(addr, '@')))
		return 0;
	local = (size_t)(at - addr);
	host = at + 1;
	if (!strcasecmp(addr, "lkp@intel.com") ||
	    !strcasecmp(host, "syzkaller.appspotmail.com") ||
	    !strncasecmp(addr, "syzbot", 6))
		return 1;
	/* pr-tracker-bot@, patchwork-bot+netdevbpf@ */
	return (local >= 4 && !strncasecmp(at - 4, "-bot", 4)) ||
	       memmem(addr, local, "-bot+", 5) != NULL;
}

/*
 * The line where a bot asks for its tags: the kernel test robot's "...
 * kindly add following tag(s)", syzbot's "IMPORTANT: if you fix the
 * issue, please add the following tag to the commit:".
 */
static int bot_asks(const char *p, const char *e)
{
	return contains_ci(p, e, "kindly add following tag") ||
	       (contains_ci(p, e, "if you fix the issue") &&
		contains_ci(p, e, "add the following tag"));
}

/* What the bot found, from lines such as lkp's and syzbot's; or NULL. */
static char *bot_what(const char *p, const char *e)
{
	static const struct { const char *line, *what; } fixed[] = {
		{ "[auto build test ERROR", "build errors" },
		{ "[auto build test WARNING", "build warnings" },
		{ "syzbot found the following", "a crash" },
		{ "syzbot has found a reproducer", "a crash" },
		{ "syzbot has tested the proposed patch", "the patch tested" },
		{ "syzbot has bisected", "a bisection" },
		{ NULL, NULL }
	};
	static const char noticed[] = "kernel test robot noticed ";
	const char *q;
	int i;

	for (i = 0; fixed[i].line; i++)
		if (has_prefix(p, e, fixed[i].line))
			return xstrdup(fixed[i].what);
	if (has_prefix(p, e, noticed)) {
		p += sizeof(noticed) - 1;
		if (has_prefix(p, e, "the following "))
			p += 14;
		while (e > p && (e[-1] == ':' || e[-1] == ' '))
			e--;
		if (e - p > 3 && !memcmp(e - 3, " on", 3))
			e -= 3;
		return e > p ? xstrndup(p, (size_t)(e - p)) : NULL;
	}
	/* "smatch warnings:", "sparse warnings:" */
	for (q = p; q < e && islower((unsigned char)*q); q++)
		;
	if (q > p && (has_prefix(q, e, " warnings:") ||
		      has_prefix(q, e, " errors:")))
		return xstrndup(p, (size_t)((const char *)memchr(q, ':', e - q) -
					    p));
	return NULL;
}

static void report_tag(struct bot_report *r, const char *key, size_t klen,
		       const char *v, const char *e)
{
	struct strbuf sb = STRBUF_INIT;

	/* a NUL in the mail ends the value: it is text */
	e = v + strnlen(v, (size_t)(e - v));
	while (e > v && isspace((unsigned char)e[-1]))
		e--;
	if (e == v)
		return;
	if (klen >= 11 && !strncasecmp(key, "Reported-", 9) &&
	    !strncasecmp(key + klen - 3, "-by", 3)) {
		if (r->who) {
			strbuf_addstr(&sb, r->who);
			strbuf_addstr(&sb, ", ");
			free(r->who);
		}
		strbuf_add(&sb, v, (size_t)(e - v));
		r->who = strbuf_detach(&sb, NULL);
	} else if ((klen == 6 && !strncasecmp(key, "Closes", 6)) ||
		   (klen == 4 && !strncasecmp(key, "Link", 4) && !r->link)) {
		free(r->link);
		r->link = xstrndup(v, (size_t)(e - v));
	}
	strbuf_release(&sb);
}

/* ---- the trailers a person gives ---- */

static int reply_trailer_ok(const char *key, size_t klen, const char *v,
			    const char *e)
{
	if (klen > 3 && !strncasecmp(key + klen - 3, "-by", 3)) {
		const char *lt = memchr(v, '<', e - v);

		/* a person: "Name <addr@host>" or a bare address */
		return (lt && memchr(lt, '@', e - lt) && memchr(lt, '>', e - lt)) ||
		       (memchr(v, '@', e - v) && !memchr(v, ' ', e - v));
	}
	if (klen == 5 && !strncasecmp(key, "Fixes", 5)) {
		const char *q;

		return hex_run(v, e, &q) >= 8 && (q == e || *q == ' ');
	}
	/* "Link: URL", and "Closes: URL" (the report a fix closes) */
	if ((klen == 4 && !strncasecmp(key, "Link", 4)) ||
	    (klen == 6 && !strncasecmp(key, "Closes", 6)))
		return e - v > 8 && (has_prefix(v, e, "http://") ||
				     has_prefix(v, e, "https://"));
	return 0;
}

/* Drops the trailers from index keep on: a pasted patch's. */
static void given_cut(struct trailer_list *tl, size_t keep)
{
	while (tl->nr > keep) {
		tl->nr--;
		free(tl->items[tl->nr].key);
		free(tl->items[tl->nr].value);
	}
}

/* ---- the scan ---- */

enum paste { PASTE_NONE, PASTE_HEAD, PASTE_BODY };

struct scan {
	struct trailer_list *given;
	struct bot_report_list reports;
	size_t para;		/* given->nr where the paragraph began */
	long sep_cut;		/* given->nr above a "---" line, or -1 */
	enum paste paste;
	int paste_indented;	/* -1 until its message's first line */
	int paste_tagged;	/* a tag line in its message so far */
	int bot_tags;		/* in a bot's tag block */
	/*
	 * An indented paragraph of tags alone ("    Acked-by: X") right
	 * under the reply's own words is a reviewer setting the tags off:
	 * they are held here until the paragraph ends.
	 */
	struct trailer_list held;
	int para_indented_tags;	/* every line so far an indented tag */
	int para_prose;		/* every line so far the reply's, at the margin */
	int prev_prose;		/* so was the paragraph before */
	int in_para;
	char *what;
};

static void paste_begin(struct scan *s)
{
	s->paste = PASTE_HEAD;
	s->paste_indented = -1;
	s->paste_tagged = 0;
}

/* A line of a pasted commit: 1 when it is the paste's, 0 when not. */
static int paste_line(struct scan *s, const char *p, const char *e)
{
	const char *key, *val;
	size_t klen;

	if (s->paste == PASTE_HEAD)
		return 1;
	if (s->paste_indented < 0)
		s->paste_indented = *p == ' ' || *p == '\t';
	if (s->paste_indented) {
		if (*p == ' ' || *p == '\t')
			return 1;
		s->paste = PASTE_NONE;
		return 0;
	}
	if (line_is(p, e, "---")) {
		s->paste = PASTE_NONE;
		return 1;
	}
	if (trailer_line_parse(p, e, &key, &klen, &val) &&
	    trailer_key_is_known(key, klen))
		s->paste_tagged = 1;
	return 1;
}

static void para_begin(struct scan *s)
{
	s->in_para = 1;
	s->para = s->given->nr;
	s->para_indented_tags = 1;
	s->para_prose = 1;
}

/* The end of a paragraph: its held tags are given, or dropped. */
static void para_end(struct scan *s)
{
	size_t i;

	if (!s->in_para)
		return;
	s->in_para = 0;
	/*
	 * A Signed-off-by among them: the patch's own tags, restated
	 * ("your patch says:"); no reviewer gives one in a reply.
	 */
	for (i = 0; i < s->held.nr; i++)
		if (!strcasecmp(s->held.items[i].key, "Signed-off-by"))
			s->para_indented_tags = 0;
	for (i = 0; i < s->held.nr; i++) {
		struct trailer *t = &s->held.items[i];

		if (s->para_indented_tags && s->prev_prose)
			trailer_list_add(s->given, t->key, strlen(t->key),
					 t->value, strlen(t->value));
	}
	trailer_list_release(&s->held);
	s->prev_prose = s->para_prose;
	s->para_indented_tags = 0;
	s->para_prose = 0;
}

static void blank_line(struct scan *s)
{
	s->bot_tags = 0;
	if (s->paste == PASTE_HEAD)
		s->paste = PASTE_BODY;
	else if (s->paste == PASTE_BODY && s->paste_indented <= 0 &&
		 s->paste_tagged)
		s->paste = PASTE_NONE;
}

static void bot_tag_line(struct scan *s, const char *p, const char *e)
{
	const char *key, *val;
	size_t klen;

	if (p < e && *p == '|')
		p++;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (!trailer_line_parse(p, e, &key, &klen, &val)) {
		s->bot_tags = 0;
		return;
	}
	report_tag(&s->reports.items[s->reports.nr - 1], key, klen, val, e);
}

static void bot_report_new(struct scan *s)
{
	ALLOC_GROW(s->reports.items, s->reports.nr, s->reports.alloc);
	memset(&s->reports.items[s->reports.nr++], 0,
	       sizeof(s->reports.items[0]));
}

/* A tag on a line of its own: given, or held when indented. */
static void tag_line(struct scan *s, const char *p, const char *e)
{
	const char *q = p, *key, *val;
	size_t klen;
	int ok;

	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	ok = trailer_line_parse(q, e, &key, &klen, &val) &&
	     reply_trailer_ok(key, klen, val, e);
	if (q == p) {
		s->para_indented_tags = 0;
		if (ok)
			trailer_list_add(s->given, key, klen, val,
					 (size_t)(e - val));
		return;
	}
	s->para_prose = 0;
	if (!ok)
		s->para_indented_tags = 0;
	else if (s->para_indented_tags)
		trailer_list_add(&s->held, key, klen, val, (size_t)(e - val));
}

/* A line not quoted, no part of a paste or a diff. */
static void reply_line(struct scan *s, const char *p, const char *e,
		       int starts_para)
{
	if (line_is(p, e, "---")) {
		/* right under a paragraph: the end of a pasted message */
		s->sep_cut = starts_para ? -1 : (long)s->para;
		s->para_indented_tags = 0;
		return;
	}
	if (bot_asks(p, e)) {
		bot_report_new(s);
		s->bot_tags = 1;
		s->para_indented_tags = 0;
		return;
	}
	if (s->bot_tags) {
		bot_tag_line(s, p, e);
		if (s->bot_tags)
			return;
	}
	if (!s->what)
		s->what = bot_what(p, e);
	tag_line(s, p, e);
}

static void scan_lines(struct scan *s, const char *body, const char *end)
{
	const char *p, *n;
	int prev_blank = 1, after_diff = 0;

	for (p = body; p < end; p = n) {
		const char *e = line_stop(p, end), *q = p;
		int blank = is_blank(p, e), starts_para = 0;

		n = line_after(p, end);
		if (!blank && prev_blank) {
			para_begin(s);
			starts_para = 1;
		}
		prev_blank = blank;
		if (line_is(p, e, "--") && has_prefix(p, e, "-- ")) {
			/* git's signature under a pasted patch, or the reply's */
			if (after_diff && version_line(n, line_stop(n, end))) {
				n = line_after(n, end);
				prev_blank = 1;
				continue;
			}
			break;
		}
		after_diff = 0;
		if (has_prefix(p, e, "-----Original Message-----"))
			break;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q < e && *q == '>') {
			para_end(s);
			s->prev_prose = 0;
			s->paste = PASTE_NONE;
			s->sep_cut = -1;
			s->bot_tags = 0;
			prev_blank = 1;
			continue;
		}
		if (blank) {
			para_end(s);
			blank_line(s);
			continue;
		}
		if (patchmail_diff_starts(p, end)) {
			s->para_indented_tags = s->para_prose = 0;
			para_end(s);
			if (s->paste == PASTE_NONE && s->sep_cut >= 0)
				given_cut(s->given, (size_t)s->sep_cut);
			else if (s->paste == PASTE_NONE && !starts_para)
				given_cut(s->given, s->para);
			n = patchmail_diff_skip(p, end);
			if (n <= p)
				n = line_after(p, end);
			s->paste = PASTE_NONE;
			s->sep_cut = -1;
			prev_blank = after_diff = 1;
			continue;
		}
		if (s->paste != PASTE_NONE && paste_line(s, p, e)) {
			s->para_indented_tags = s->para_prose = 0;
			continue;
		}
		if (commit_header(p, e, end) || format_patch_from(p, e) ||
		    scissors(p, e)) {
			s->para_indented_tags = s->para_prose = 0;
			para_end(s);
			paste_begin(s);
			continue;
		}
		reply_line(s, p, e, starts_para);
	}
	para_end(s);
}

/* All that a bot's mail tags is its report's. */
static void bot_sender_report(struct scan *s, size_t from)
{
	struct trailer_list *tl = s->given;
	struct bot_report *r;
	size_t i;

	if (tl->nr == from)
		return;
	bot_report_new(s);
	r = &s->reports.items[s->reports.nr - 1];
	for (i = from; i < tl->nr; i++) {
		const char *v = tl->items[i].value;

		report_tag(r, tl->items[i].key, strlen(tl->items[i].key), v,
			   v + strlen(v));
	}
	given_cut(tl, from);
}

static void reports_finish(struct scan *s, const char *name, const char *addr)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < s->reports.nr; i++) {
		struct bot_report *r = &s->reports.items[i];

		if (!r->what && s->what)
			r->what = xstrdup(s->what);
		if (r->who && *r->who)
			continue;
		free(r->who);
		strbuf_reset(&sb);
		if (name && *name && addr && *addr)
			strbuf_addf(&sb, "%s <%s>", name, addr);
		else
			strbuf_addstr(&sb, addr && *addr ? addr : "a bot");
		r->who = xstrdup(sb.buf);
	}
	strbuf_release(&sb);
}

int reply_parse(struct trailer_list *given, struct bot_report_list *reports,
		const char *body, size_t len, const char *from_name,
		const char *from_addr)
{
	struct scan s;
	size_t from = given->nr, i;

	memset(&s, 0, sizeof(s));
	s.given = given;
	trailer_list_init(&s.held);
	s.para = given->nr;
	s.sep_cut = -1;
	scan_lines(&s, body, body + len);
	if (reply_from_bot(from_name, from_addr))
		bot_sender_report(&s, from);
	reports_finish(&s, from_name, from_addr);
	for (i = 0; reports && i < s.reports.nr; i++) {
		ALLOC_GROW(reports->items, reports->nr, reports->alloc);
		reports->items[reports->nr++] = s.reports.items[i];
	}
	if (reports)
		s.reports.nr = 0;
	bot_report_list_release(&s.reports);
	free(s.what);
	return (int)(given->nr - from);
}

int patchmail_reply_trailers(struct trailer_list *out, const char *body,
			     size_t len)
{
	return reply_parse(out, NULL, body, len, NULL, NULL);
}
