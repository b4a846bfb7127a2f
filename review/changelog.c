// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/changelog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- section headers ---- */

/* Words a header may hold besides its versions. */
static const char *const header_words[] = {
	"changes", "change", "changed", "changelog", "changelogs", "log",
	"updates", "update", "updated", "notes", "note", "overview",
	"history", "revision", "revisions", "version", "versions", "patch",
	"patchset", "set", "series", "in", "since", "from", "to", "for",
	"against", "compared", "vs", "vs.", "versus", "->", NULL
};

/* Of those, the ones that say "what changed" before a version. */
static const char *const since_words[] = {
	"since", "from", "against", "compared", "vs", "vs.", "versus", NULL
};

/* A heading over the whole changelog: all its words from here ... */
static const char *const container_words[] = {
	"changes", "change", "changelog", "changelogs", "log", "history",
	"revision", "revisions", "version", "versions", "updates", NULL
};

/* ... and one of these. */
static const char *const container_nouns[] = {
	"changes", "changelog", "changelogs", "log", "history", "revisions",
	"updates", NULL
};

static int in_list(const char *w, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

/*
 * "v3", "V3", "-v3" or, after "version", "revision" or "set", "3": the
 * number, else 0.  "initial" and "rfc" are the first version.
 */
static int version_token(const char *w, int after_version)
{
	char *end;
	long n;

	if (!strcmp(w, "initial") || !strcmp(w, "rfc"))
		return 1;
	if (*w == '-' && w[1] == 'v')
		w++;
	if (*w == 'v' && isdigit((unsigned char)w[1]))
		w++;
	else if (!after_version || !isdigit((unsigned char)*w))
		return 0;
	n = strtol(w, &end, 10);
	if (*end || n < 1 || n > 999)
		return 0;
	return (int)n;
}

/* Whether s[0, len) holds a URL or a mail address: a reference. */
static int is_reference(const char *s, size_t len)
{
	return memmem(s, len, "://", 3) || memchr(s, '@', len);
}

/* Where the group opened at s[i] ends (its closing char), or 0. */
static size_t group_end(const char *s, size_t len, size_t i)
{
	char close = s[i] == '[' ? ']' : s[i] == '<' ? '>' : ')';
	const char *e = memchr(s + i + 1, close, len - i - 1);

	return e ? (size_t)(e - s) : 0;
}

/*
 * A group that is left out of a header: "[2]", "[msgid]", "<URL>",
 * "(URL)", "(2)"; a "(v6)" stays (its brackets become spaces).
 */
static size_t skipped_group(const char *s, size_t len, size_t i)
{
	size_t e, k;

	if (s[i] != '[' && s[i] != '<' && s[i] != '(')
		return 0;
	e = group_end(s, len, i);
	if (!e)
		return 0;
	if (s[i] == '[')
		return e;
	if (is_reference(s + i + 1, e - i - 1))
		return e;
	for (k = i + 1; k < e && isdigit((unsigned char)s[k]); k++)
		;
	return s[i] == '(' && k == e && e > i + 1 ? e : 0;
}

static int starts_url(const char *s, size_t len)
{
	while (len && (*s == '<' || *s == '(')) {
		s++;
		len--;
	}
	return (len >= 7 && !strncasecmp(s, "http://", 7)) ||
	       (len >= 8 && !strncasecmp(s, "https://", 8)) ||
	       (len >= 6 && !strncasecmp(s, "git://", 6));
}

/*
 * Splits a line into the header and the text on its own line: the
 * first ':' outside references ends the header ("v2: Fix x"), as does
 * the '.' of "v3. Rebase".  Appends the header, lower case and with
 * arrows as words, to norm; *text is where the rest starts (0: none).
 */
static void header_split(const char *line, size_t len, struct strbuf *norm,
			 size_t *text, int *colon)
{
	size_t i, e;

	*text = 0;
	*colon = 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((e = skipped_group(line, len, i))) {
			strbuf_addch(norm, ' ');
			i = e;
			continue;
		}
		if (c == ':') {
			*colon = 1;
			for (e = i + 1; e < len && isspace((unsigned char)line[e]);)
				e++;
			*text = e < len ? e : 0;
			return;
		}
		if (c == '.' && i + 1 < len && line[i + 1] == ' ' &&
		    (*norm->buf == 'v' || *norm->buf == '-') &&
		    version_token(norm->buf, 0) && !strchr(norm->buf, ' ')) {
			/* "v3. Rebase": the version ends the header */
			for (e = i + 1; e < len && isspace((unsigned char)line[e]);)
				e++;
			*text = e < len ? e : 0;
			return;
		}
		if ((c == '-' || c == '=') && i + 1 < len && line[i + 1] == '>') {
			strbuf_addstr(norm, " -> ");
			i++;
		} else if (c == '-' && i + 2 < len && line[i + 1] == '-' &&
			   line[i + 2] == '>') {
			strbuf_addstr(norm, " -> ");
			i += 2;
		} else if (c == '.' && i + 1 < len && line[i + 1] == '.') {
			strbuf_addstr(norm, " -> ");
			i++;
		} else if (c == '(' || c == ')' || c == ',') {
			strbuf_addch(norm, ' ');
		} else {
			strbuf_addch(norm, tolower(c));
		}
	}
}

int changelog_header_parse(const char *line, size_t len,
			   struct changelog_header *h)
{
	struct strbuf norm = STRBUF_INIT;
	int versions[2] = { 0, 0 }, nv = 0, words = 0, since = 0;
	int after_version = 0, was_v1_alias = 0, ok = 1, nouns = 0;
	int container = 1, colon, n;
	char *tok, *save;

	memset(h, 0, sizeof(*h));
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (!len || isspace((unsigned char)*line) || *line == '*' ||
	    (*line == '-' && !(len > 2 && line[1] == 'v' &&
			       isdigit((unsigned char)line[2]))))
		return 0;
	header_split(line, len, &norm, &h->text, &colon);
	if (norm.len > 60 || (h->text && starts_url(line + h->text,
						    len - h->text))) {
		strbuf_release(&norm);
		h->text = 0;
		return 0;
	}
	for (tok = strtok_r(norm.buf, " \t", &save); tok && ok;
	     tok = strtok_r(NULL, " \t", &save)) {
		int alias = !strcmp(tok, "initial") || !strcmp(tok, "rfc");

		n = version_token(tok, after_version);
		after_version = !strcmp(tok, "version") ||
				!strcmp(tok, "revision") || !strcmp(tok, "set");
		if (n && alias && was_v1_alias) {
			/* "initial RFC": one version */
		} else if (n) {
			if (nv == 2)
				ok = 0;
			else
				versions[nv++] = n;
		} else if (in_list(tok, header_words)) {
			words++;
			if (!nv && in_list(tok, since_words))
				since = 1;
			container &= in_list(tok, container_words);
			nouns += in_list(tok, container_nouns);
		} else {
			ok = 0;
		}
		was_v1_alias = alias;
	}
	strbuf_release(&norm);
	h->colon = colon;
	if (!ok || (!nv && !(container && nouns && !h->text))) {
		h->text = 0;
		return 0;
	}
	if (!nv) {
		h->version = CHANGELOG_CONTAINER;
		return h->version;
	}
	if (!words && !colon && !h->text)
		h->bare = 1;
	if (nv == 2)
		h->version = versions[0] > versions[1] ? versions[0] : versions[1];
	else
		h->version = since ? versions[0] + 1 : versions[0];
	return h->version;
}

int changelog_header_version(const char *line, size_t len)
{
	struct changelog_header h;

	if (changelog_header_parse(line, len, &h) <= 0 || h.bare || h.text)
		return 0;
	return h.version;
}

/* ---- lines ---- */

struct line {
	const char *p;
	size_t len;
};

static size_t split_lines(const char *text, size_t len, struct line **out)
{
	struct line *l = NULL;
	size_t nr = 0, alloc = 0;
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);

		ALLOC_GROW(l, nr, alloc);
		l[nr].p = text;
		l[nr].len = n && text[n - 1] == '\r' ? n - 1 : n;
		nr++;
		text += n + (nl ? 1 : 0);
	}
	*out = l;
	return nr;
}

static int blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (!isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

static int starts(const struct line *l, const char *s)
{
	size_t n = strlen(s);

	return l->len >= n && !memcmp(l->p, s, n);
}

/*
 * A list item or its continuation: "- x", "* x", "o x", "1. x",
 * "2) x", "  more".
 */
static int item_line(const struct line *l)
{
	size_t i = 0;

	if (!l->len)
		return 0;
	if (l->p[0] == '-' || l->p[0] == '*' || l->p[0] == '+' ||
	    l->p[0] == ' ' || l->p[0] == '\t')
		return 1;
	if (l->len > 2 && l->p[0] == 'o' && l->p[1] == ' ')
		return 1;
	while (i < l->len && i < 3 && isdigit((unsigned char)l->p[i]))
		i++;
	return i && i + 1 < l->len && (l->p[i] == '.' || l->p[i] == ')') &&
	       l->p[i + 1] == ' ';
}

/* "-----", "=====", "~~~~", "****", "++++": a heading's underline. */
static int underline(const struct line *l)
{
	size_t i, n = l->len;

	while (n && isspace((unsigned char)l->p[n - 1]))
		n--;
	if (n < 2 || !strchr("-=~*+_^#", l->p[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (l->p[i] != l->p[0])
			return 0;
	return 1;
}

/* "- Link to v2: https://..." (b4 writes these; we make our own). */
static int link_item(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && (l->p[i] == '-' || l->p[i] == '*' ||
			      l->p[i] == ' '))
		i++;
	return l->len - i > 9 && !strncasecmp(l->p + i, "link to v", 9);
}

/* An item with nothing in it ("- "), as the editor's template leaves. */
static int empty_item(const struct line *l)
{
	size_t i;

	if (!l->len || (l->p[0] != '-' && l->p[0] != '*'))
		return 0;
	for (i = 1; i < l->len; i++)
		if (!isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

/* "Kairui Song (3):": a shortlog's author line. */
static int shortlog_head(const struct line *l)
{
	size_t n = l->len;

	if (n < 5 || isspace((unsigned char)l->p[0]) ||
	    l->p[n - 1] != ':' || l->p[n - 2] != ')')
		return 0;
	n -= 3;
	if (!isdigit((unsigned char)l->p[n]))
		return 0;
	while (n && isdigit((unsigned char)l->p[n]))
		n--;
	return n >= 1 && l->p[n] == '(' && l->p[n - 1] == ' ';
}

static int diffstat_summary(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && l->p[i] == ' ')
		i++;
	while (i < l->len && isdigit((unsigned char)l->p[i]))
		i++;
	return i < l->len && (l->len - i >= 13) &&
	       (!strncmp(l->p + i, " file changed", 13) ||
		!strncmp(l->p + i, " files changed", 14));
}

/*
 * Whether lines [from, nr) are only what git format-patch, git
 * send-email or b4 put under a cover letter's text.
 */
static int tail_only(const struct line *l, size_t from, size_t nr)
{
	size_t i;

	for (i = from; i < nr; i++) {
		if (l[i].len == 3 && !memcmp(l[i].p, "-- ", 3))
			return 1;	/* a signature: the rest is its */
		if (blank(&l[i]) || isspace((unsigned char)l[i].p[0]) ||
		    shortlog_head(&l[i]) || diffstat_summary(&l[i]) ||
		    starts(&l[i], "base-commit:") ||
		    starts(&l[i], "change-id:") ||
		    starts(&l[i], "prerequisite-") ||
		    (l[i].len == 3 && !memcmp(l[i].p, "---", 3)))
			continue;
		return 0;
	}
	return 1;
}

/* Where the tail (shortlog, diffstat, signature) starts. */
static size_t tail_start(const struct line *l, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		int candidate = shortlog_head(&l[i]) ||
			(l[i].len == 3 && !memcmp(l[i].p, "---", 3)) ||
			(l[i].len == 3 && !memcmp(l[i].p, "-- ", 3));

		if (candidate && (i == 0 || blank(&l[i - 1]) ||
				  l[i].p[0] == '-') && tail_only(l, i, nr))
			return i;
	}
	return nr;
}

static void add_line(struct strbuf *sb, const struct line *l)
{
	strbuf_add(sb, l->p, l->len);
	strbuf_addch(sb, '\n');
}

static struct changelog_section *section_for(struct cover_text *ct, int n)
{
	size_t i;

	for (i = 0; i < ct->nr; i++)
		if (ct->sections[i].version == n)
			return &ct->sections[i];
	ALLOC_GROW(ct->sections, ct->nr, ct->alloc);
	ct->sections[ct->nr].version = n;
	strbuf_init(&ct->sections[ct->nr].text, 0);
	return &ct->sections[ct->nr++];
}

/* Trims blank lines at both ends of sb. */
static void trim_blank_lines(struct strbuf *sb)
{
	size_t skip = 0;

	while (skip < sb->len && (sb->buf[skip] == '\n'))
		skip++;
	if (skip) {
		memmove(sb->buf, sb->buf + skip, sb->len - skip);
		strbuf_setlen(sb, sb->len - skip);
	}
	strbuf_rtrim(sb);
	if (sb->len)
		strbuf_addch(sb, '\n');
}

/* "Key-word: value" */
static int trailer_like(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && (isalnum((unsigned char)l->p[i]) || l->p[i] == '-'))
		i++;
	return i > 0 && i + 2 < l->len && l->p[i] == ':' && l->p[i + 1] == ' ';
}

/*
 * b4 keeps the recipients as "To:" and "Cc:" lines at the end of the
 * cover letter and takes them out when it sends; so do we.
 */
static void drop_recipient_trailers(struct strbuf *body)
{
	struct strbuf out = STRBUF_INIT;
	struct line *l;
	size_t nr = split_lines(body->buf, body->len, &l), start, i;
	int any = 0;

	start = nr;
	while (start > 0 && !blank(&l[start - 1]) && trailer_like(&l[start - 1]))
		start--;
	if (start < nr && (start == 0 || blank(&l[start - 1]))) {
		for (i = start; i < nr; i++)
			any |= starts(&l[i], "To: ") || starts(&l[i], "Cc: ");
	}
	if (any) {
		for (i = 0; i < nr; i++)
			if (i < start || !(starts(&l[i], "To: ") ||
					   starts(&l[i], "Cc: ")))
				add_line(&out, &l[i]);
		strbuf_release(body);
		*body = out;
		trim_blank_lines(body);
	} else {
		strbuf_release(&out);
	}
	free(l);
}

/*
 * The version line l[k] heads a section for, or 0.  A bare "v2" heads
 * one only when underlined or inside the changelog (under a
 * "Changelog:" or right after another section).
 */
static int section_header(const struct line *l, size_t k, size_t end,
			  int in_log, struct changelog_header *h)
{
	int v = changelog_header_parse(l[k].p, l[k].len, h);

	if (v <= 0)
		return 0;
	if (h->bare && !in_log && !(k + 1 < end && underline(&l[k + 1])))
		return 0;
	return v;
}

/* The section walk: what the author's changelog says, version by version. */
struct section_walk {
	struct cover_text *ct;
	struct changelog_section *cur;	/* NULL: in the body */
	size_t lines;			/* of cur's, so far */
	int inline_item;	/* cur began "v2: text": continue that item */
	int in_log;		/* inside the changelog: bare versions count */
};

static void section_add(struct section_walk *w, const char *p, size_t len)
{
	struct line one = { p, len };

	if (link_item(&one) || empty_item(&one))
		return;
	if (w->inline_item && !item_line(&one))
		strbuf_addstr(&w->cur->text, "  ");
	add_line(&w->cur->text, &one);
	w->lines++;
}

/* A section starts at l[i]; returns the last line it took (underlines). */
static size_t section_start(struct section_walk *w, const struct line *l,
			    size_t i, size_t end,
			    const struct changelog_header *h)
{
	w->cur = section_for(w->ct, h->version);
	w->lines = 0;
	w->inline_item = 0;
	w->in_log = 1;
	if (h->text) {
		struct strbuf item = STRBUF_INIT;
		const char *t = l[i].p + h->text;
		int bullet = *t == '-' || *t == '*' || *t == '+';

		if (!bullet)
			strbuf_addstr(&item, "- ");
		strbuf_add(&item, t, l[i].len - h->text);
		section_add(w, item.buf, item.len);
		w->inline_item = !bullet;
		strbuf_release(&item);
	}
	while (i + 1 < end && underline(&l[i + 1]))
		i++;
	return i;
}

/*
 * "Changelog:" (or underlined "Revisions") with version sections under
 * it: where the first section starts, else 0 (then it is body text).
 */
static size_t container_end(const struct line *l, size_t i, size_t end,
			    const struct changelog_header *h)
{
	struct changelog_header next;
	size_t k = i + 1;

	if (!h->colon && !(k < end && underline(&l[k])))
		/* "Changelog" alone: only right above a section */
		return k < end && section_header(l, k, end, 1, &next) ? k : 0;
	while (k < end && (blank(&l[k]) || underline(&l[k])))
		k++;
	return k < end && section_header(l, k, end, 1, &next) ? k : 0;
}

static void split_sections(struct cover_text *ct, const struct line *l,
			   size_t first, size_t end)
{
	struct section_walk w = { ct, NULL, 0, 0, 0 };
	struct changelog_header h;
	size_t i, k;

	for (i = first; i < end; i++) {
		int v = section_header(l, i, end, w.in_log, &h);

		if (!v && changelog_header_parse(l[i].p, l[i].len, &h) ==
		    CHANGELOG_CONTAINER && (k = container_end(l, i, end, &h))) {
			w.cur = NULL;
			w.in_log = 1;
			i = k - 1;
			continue;
		}
		if (v) {
			i = section_start(&w, l, i, end, &h);
			continue;
		}
		if (w.cur && blank(&l[i])) {
			/* a blank line ends the section unless items follow */
			if (!w.lines)
				continue;	/* nothing under the heading yet */
			for (k = i + 1; k < end && blank(&l[k]);)
				k++;
			if (k < end && item_line(&l[k]) &&
			    !section_header(l, k, end, 1, &h))
				continue;
			w.cur = NULL;
			w.in_log = k < end && section_header(l, k, end, 1, &h);
			add_line(&ct->body, &l[i]);
			continue;
		}
		if (w.cur) {
			section_add(&w, l[i].p, l[i].len);
			continue;
		}
		if (!blank(&l[i]))
			w.in_log = 0;
		add_line(&ct->body, &l[i]);
	}
}

void cover_text_parse(const char *text, size_t len, struct cover_text *ct)
{
	struct line *l;
	size_t nr, i, first = 0, end;

	memset(ct, 0, sizeof(*ct));
	strbuf_init(&ct->body, 0);
	strbuf_init(&ct->diffstat, 0);
	strbuf_init(&ct->to, 0);
	strbuf_init(&ct->cc, 0);
	nr = split_lines(text, len, &l);
	/* recipients for respin send, written above the title */
	for (;;) {
		while (first < nr && blank(&l[first]))
			first++;
		if (first < nr && (starts(&l[first], "To: ") ||
				   starts(&l[first], "Cc: "))) {
			struct strbuf *sb = l[first].p[0] == 'T' ? &ct->to : &ct->cc;

			strbuf_add(sb, l[first].p + 4, l[first].len - 4);
			strbuf_addch(sb, '\n');
			first++;
			continue;
		}
		break;
	}
	if (first < nr) {
		ct->title = xstrndup(l[first].p, l[first].len);
		first++;
	} else {
		ct->title = xstrdup("");
	}
	/* in-body headers git send-email puts first ("From: Author") */
	{
		size_t k = first;

		while (k < nr && blank(&l[k]))
			k++;
		if (k < nr && (starts(&l[k], "From: ") ||
			       starts(&l[k], "Date: ") ||
			       starts(&l[k], "Subject: "))) {
			while (k < nr && (starts(&l[k], "From: ") ||
					  starts(&l[k], "Date: ") ||
					  starts(&l[k], "Subject: ")))
				k++;
			if (k == nr || blank(&l[k]))
				first = k;
		}
	}
	end = first + tail_start(l + first, nr - first);
	for (i = end; i < nr; i++) {
		if (l[i].len == 3 && !memcmp(l[i].p, "-- ", 3))
			break;
		if ((l[i].len > 4 && l[i].p[0] == ' ' &&
		     memmem(l[i].p, l[i].len, " | ", 3)) ||
		    diffstat_summary(&l[i]))
			add_line(&ct->diffstat, &l[i]);
	}
	split_sections(ct, l, first, end);
	/* collapse the blank lines that removed sections leave behind */
	{
		struct strbuf b = STRBUF_INIT;
		struct line *bl;
		size_t bn = split_lines(ct->body.buf, ct->body.len, &bl), k;
		int prev_blank = 1;

		for (k = 0; k < bn; k++) {
			int bk = blank(&bl[k]);

			if (bk && prev_blank)
				continue;
			add_line(&b, &bl[k]);
			prev_blank = bk;
		}
		free(bl);
		strbuf_release(&ct->body);
		ct->body = b;
	}
	trim_blank_lines(&ct->body);
	/* b4 puts its changelog below a "---": without it, that line ends */
	if (ct->nr && ct->body.len >= 4 &&
	    !strcmp(ct->body.buf + ct->body.len - 4, "---\n") &&
	    (ct->body.len == 4 || ct->body.buf[ct->body.len - 5] == '\n')) {
		strbuf_setlen(&ct->body, ct->body.len - 4);
		trim_blank_lines(&ct->body);
	}
	drop_recipient_trailers(&ct->body);
	for (i = 0; i < ct->nr; i++)
		trim_blank_lines(&ct->sections[i].text);
	free(l);
}

void cover_text_release(struct cover_text *ct)
{
	size_t i;

	free(ct->title);
	strbuf_release(&ct->body);
	strbuf_release(&ct->diffstat);
	strbuf_release(&ct->to);
	strbuf_release(&ct->cc);
	for (i = 0; i < ct->nr; i++)
		strbuf_release(&ct->sections[i].text);
	free(ct->sections);
	memset(ct, 0, sizeof(*ct));
}

const struct changelog_section *cover_text_section(const struct cover_text *ct,
						   int n)
{
	size_t i;

	for (i = 0; i < ct->nr; i++)
		if (ct->sections[i].version == n && ct->sections[i].text.len)
			return &ct->sections[i];
	return NULL;
}

void cover_strip_comments(struct strbuf *text)
{
	struct strbuf out = STRBUF_INIT;
	struct line *l;
	size_t nr = split_lines(text->buf, text->len, &l), i;

	for (i = 0; i < nr; i++)
		if (!l[i].len || l[i].p[0] != '#')
			add_line(&out, &l[i]);
	free(l);
	strbuf_release(text);
	*text = out;
}
