// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/changelog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- section headers ---- */

static const char *const header_words[] = {
	"changes", "change", "changelog", "updates", "update", "updated",
	"in", "since", "from", "to", "for", "->", "version", NULL
};

static int is_header_word(const char *w)
{
	size_t i;

	for (i = 0; header_words[i]; i++)
		if (!strcmp(w, header_words[i]))
			return 1;
	return 0;
}

/* "v3", "V3" or, after "version", "3": the number, else 0. */
static int version_token(const char *w, int after_version)
{
	char *end;
	long n;

	if (*w == 'v' && isdigit((unsigned char)w[1]))
		w++;
	else if (!after_version || !isdigit((unsigned char)*w))
		return 0;
	n = strtol(w, &end, 10);
	if (*end || n < 1 || n > 999)
		return 0;
	return (int)n;
}

int changelog_header_version(const char *line, size_t len)
{
	struct strbuf norm = STRBUF_INIT;
	int versions[2] = { 0, 0 }, nv = 0, words = 0, since = 0;
	int after_version = 0, colon = 0, ok = 1, n;
	char *tok, *save;
	size_t i;

	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (!len || isspace((unsigned char)*line) || *line == '-' ||
	    *line == '*' || len > 60)
		return 0;
	if (line[len - 1] == ':') {
		colon = 1;
		len--;
	}
	/* lower case; arrows and ranges become one word; drop ( ) , */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c == '-' || c == '=') && i + 1 < len && line[i + 1] == '>') {
			strbuf_addstr(&norm, " -> ");
			i++;
		} else if (c == '.' && i + 1 < len && line[i + 1] == '.') {
			strbuf_addstr(&norm, " -> ");
			i++;
		} else if (c == '(' || c == ')' || c == ',') {
			strbuf_addch(&norm, ' ');
		} else {
			strbuf_addch(&norm, tolower(c));
		}
	}
	for (tok = strtok_r(norm.buf, " \t", &save); tok && ok;
	     tok = strtok_r(NULL, " \t", &save)) {
		n = version_token(tok, after_version);
		after_version = !strcmp(tok, "version");
		if (n) {
			if (nv == 2)
				ok = 0;
			else
				versions[nv++] = n;
		} else if (is_header_word(tok)) {
			words++;
			if (!nv && (!strcmp(tok, "since") || !strcmp(tok, "from")))
				since = 1;
		} else {
			ok = 0;
		}
	}
	strbuf_release(&norm);
	if (!ok || !nv || (!words && !(colon && nv == 1)))
		return 0;
	if (nv == 2)
		return versions[1];
	return since ? versions[0] + 1 : versions[0];
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

/* A list item or its continuation: "- x", "* x", "  more". */
static int item_line(const struct line *l)
{
	return l->len && (l->p[0] == '-' || l->p[0] == '*' || l->p[0] == '+' ||
			  l->p[0] == ' ' || l->p[0] == '\t');
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

void cover_text_parse(const char *text, size_t len, struct cover_text *ct)
{
	struct line *l;
	size_t nr, i, first = 0, end;
	struct changelog_section *cur = NULL;

	memset(ct, 0, sizeof(*ct));
	strbuf_init(&ct->body, 0);
	strbuf_init(&ct->diffstat, 0);
	nr = split_lines(text, len, &l);
	while (first < nr && blank(&l[first]))
		first++;
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
	for (i = first; i < end; i++) {
		int v = changelog_header_version(l[i].p, l[i].len);

		if (v) {
			cur = section_for(ct, v);
			continue;
		}
		if (cur && blank(&l[i])) {
			/* a blank line ends the section unless items follow */
			size_t k = i + 1;

			while (k < end && blank(&l[k]))
				k++;
			if (k < end && item_line(&l[k]) &&
			    !changelog_header_version(l[k].p, l[k].len))
				continue;
			cur = NULL;
			add_line(&ct->body, &l[i]);
			continue;
		}
		if (cur) {
			if (!link_item(&l[i]) && !empty_item(&l[i]))
				add_line(&cur->text, &l[i]);
			continue;
		}
		add_line(&ct->body, &l[i]);
	}
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
