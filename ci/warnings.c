// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/warnings.h"
#include "tools/lib/json.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void warning_set_release(struct warning_set *ws)
{
	size_t i;

	for (i = 0; i < ws->nr; i++)
		free(ws->items[i]);
	free(ws->items);
	memset(ws, 0, sizeof(*ws));
}

static size_t find_pos(const struct warning_set *ws, const char *w, int *found)
{
	size_t lo = 0, hi = ws->nr;

	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(ws->items[mid], w);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void warning_set_add(struct warning_set *ws, const char *w)
{
	int found;
	size_t pos = find_pos(ws, w, &found);

	if (found)
		return;
	ALLOC_GROW(ws->items, ws->nr, ws->alloc);
	memmove(ws->items + pos + 1, ws->items + pos,
		(ws->nr - pos) * sizeof(*ws->items));
	ws->items[pos] = xstrdup(w);
	ws->nr++;
}

int warning_set_has(const struct warning_set *ws, const char *w)
{
	int found;

	find_pos(ws, w, &found);
	return found;
}

/* Drops a leading dir/ from path when it is there. */
static const char *strip_dir(const char *path, size_t *len, const char *dir)
{
	size_t dl = dir ? strlen(dir) : 0;

	while (dl && dir[dl - 1] == '/')
		dl--;
	if (dl && *len > dl && !strncmp(path, dir, dl) && path[dl] == '/') {
		path += dl + 1;
		*len -= dl + 1;
	}
	return path;
}

/*
 * Paths relative to the top of the tree: kbuild in an O= directory
 * prints sources as absolute paths (or ../), objects relative to O.
 */
static const char *relative(const char *path, size_t *len,
			    const char *build_dir, const char *src_dir)
{
	path = strip_dir(path, len, build_dir);
	path = strip_dir(path, len, src_dir);
	while (*len > 3 && !strncmp(path, "../", 3)) {
		path += 3;
		*len -= 3;
	}
	while (*len > 2 && !strncmp(path, "./", 2)) {
		path += 2;
		*len -= 2;
	}
	return path;
}

static void parse_line(struct warning_set *ws, struct warning_set *units,
		       const char *p, size_t len, const char *build_dir,
		       const char *src_dir)
{
	const char *w, *file, *q;
	struct strbuf sb = STRBUF_INIT;
	size_t flen;

	/* "  CC      mm/compaction.o" (kbuild's quiet output) */
	while (len && *p == ' ') {
		p++;
		len--;
	}
	if (units && len > 3 && !strncmp(p, "CC ", 3)) {
		const char *end = p + len;

		q = p + 3;
		while (q < end && *q == ' ')
			q++;
		if (q < end && *q == '[') {	/* "CC [M]  mm/x.o" */
			const char *rb = memchr(q, ']', (size_t)(end - q));

			q = rb ? rb + 1 : end;
			while (q < end && *q == ' ')
				q++;
		}
		if (q < p + len && len - (size_t)(q - p) > 2 &&
		    p[len - 2] == '.' && p[len - 1] == 'o') {
			flen = len - (size_t)(q - p);
			file = relative(q, &flen, build_dir, src_dir);
			strbuf_add(&sb, file, flen - 1);
			strbuf_addch(&sb, 'c');
			warning_set_add(units, sb.buf);
		}
		strbuf_release(&sb);
		return;
	}
	w = memmem(p, len, ": warning: ", 11);
	if (!w)
		return;
	/* file:line:col: or file:line: before the warning */
	q = w;
	while (q > p && (isdigit((unsigned char)q[-1]) || q[-1] == ':'))
		q--;
	if (q == w)
		return;
	flen = (size_t)(q - p);
	file = relative(p, &flen, build_dir, src_dir);
	strbuf_add(&sb, file, flen);
	strbuf_add(&sb, w, (size_t)(p + len - w));
	while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
		strbuf_setlen(&sb, sb.len - 1);
	warning_set_add(ws, sb.buf);
	strbuf_release(&sb);
}

/* What each line of a build's output goes to. */
struct line_sink {
	struct warning_set *ws, *units;
	const char *build_dir, *src_dir;
	int findings;		/* findings_parse(), not warnings_parse() */
};

static void parse_finding(struct warning_set *ws, const char *p, size_t len,
			  const char *build_dir, const char *src_dir);

/* Each line of text to sink: without its CR, cut at a NUL byte. */
static void parse_lines(const struct line_sink *sink, const char *text,
			size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t l = nl ? (size_t)(nl - text) : (size_t)(end - text);
		const char *nul = memchr(text, '\0', l);

		/* warnings are strings: a NUL byte in a log line ends it */
		if (nul)
			l = (size_t)(nul - text);
		if (l && text[l - 1] == '\r')
			l--;
		if (sink->findings)
			parse_finding(sink->ws, text, l, sink->build_dir,
				      sink->src_dir);
		else
			parse_line(sink->ws, sink->units, text, l,
				   sink->build_dir, sink->src_dir);
		text = nl ? nl + 1 : end;
	}
}

void warnings_parse(struct warning_set *ws, struct warning_set *units,
		    const char *text, size_t len, const char *build_dir,
		    const char *src_dir)
{
	struct line_sink sink = { ws, units, build_dir, src_dir, 0 };

	parse_lines(&sink, text, len);
}

/* The severities findings_parse() takes, as the tools print them. */
static const char *const severities[] = {
	"warning: ", "error: ", "WARNING: ", "ERROR: ", "INFO: ",
};

/*
 * A message as a finding: "... on line 388" (Coccinelle says where the
 * other half is) becomes "... on line N", so that it too stays the same
 * finding when the lines move.
 */
static void add_without_line_numbers(struct strbuf *sb, const char *m,
				     size_t len)
{
	const char *start = m, *end = m + len;

	while (m < end) {
		const char *hit = memmem(m, (size_t)(end - m), "line ", 5);
		const char *d;

		if (!hit) {
			strbuf_add(sb, m, (size_t)(end - m));
			return;
		}
		d = hit + 5;
		strbuf_add(sb, m, (size_t)(d - m));
		m = d;
		while (d < end && isdigit((unsigned char)*d))
			d++;
		/* "line 388", not "timeline 3" nor "line 3x" */
		if (d > m && (d == end || !isalnum((unsigned char)*d)) &&
		    (hit == start || !isalnum((unsigned char)hit[-1]))) {
			strbuf_addch(sb, 'N');
			m = d;
		}
	}
}

/* "FILE:LINE[:COL[-COL]]: SEVERITY: MESSAGE", or nothing. */
static void parse_finding(struct warning_set *ws, const char *p, size_t len,
			  const char *build_dir, const char *src_dir)
{
	const char *end = p + len, *colon, *q, *file;
	struct strbuf sb = STRBUF_INIT;
	size_t flen, s;
	int range = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	/* the first ":DIGIT" ends the file name */
	for (colon = p; colon < end; colon++)
		if (*colon == ':' && colon + 1 < end &&
		    isdigit((unsigned char)colon[1]))
			break;
	if (colon == p || colon >= end)
		return;
	q = colon;
	while (q < end && (isdigit((unsigned char)*q) || *q == ':' ||
			   *q == '-')) {
		/* LINE:COL-COL is Coccinelle's: its message is the finding */
		range |= *q == '-';
		q++;
	}
	/* back to the ": " after the location */
	if (q < end && *q == ' ' && q[-1] == ':')
		q++;
	else
		return;
	for (s = 0; s < sizeof(severities) / sizeof(*severities); s++)
		if ((size_t)(end - q) > strlen(severities[s]) &&
		    !strncmp(q, severities[s], strlen(severities[s])))
			break;
	if (s == sizeof(severities) / sizeof(*severities) && !range)
		return;
	flen = (size_t)(colon - p);
	file = relative(p, &flen, build_dir, src_dir);
	strbuf_add(&sb, file, flen);
	strbuf_addstr(&sb, ": ");
	add_without_line_numbers(&sb, q, (size_t)(end - q));
	while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
		strbuf_setlen(&sb, sb.len - 1);
	warning_set_add(ws, sb.buf);
	strbuf_release(&sb);
}

void findings_parse(struct warning_set *ws, const char *text, size_t len,
		    const char *build_dir, const char *src_dir)
{
	struct line_sink sink = { ws, NULL, build_dir, src_dir, 1 };

	parse_lines(&sink, text, len);
}

void warning_file(struct strbuf *out, const char *w)
{
	const char *c = strstr(w, ": warning: ");

	strbuf_add(out, w, c ? (size_t)(c - w) : strlen(w));
}

static int listed(const char *lines, const char *path)
{
	size_t n = strlen(path);
	const char *p = lines;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l == n && !strncmp(p, path, n))
			return 1;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

void warnings_carry(struct warning_set *out, const struct warning_set *prev,
		    const struct warning_set *now,
		    const struct warning_set *units, const char *changed)
{
	struct strbuf file = STRBUF_INIT;
	size_t i;

	for (i = 0; prev && i < prev->nr; i++) {
		strbuf_reset(&file);
		warning_file(&file, prev->items[i]);
		if ((units && warning_set_has(units, file.buf)) ||
		    (changed && listed(changed, file.buf)))
			continue;
		warning_set_add(out, prev->items[i]);
	}
	for (i = 0; i < now->nr; i++)
		warning_set_add(out, now->items[i]);
	strbuf_release(&file);
}

void warning_set_format(const struct warning_set *ws, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < ws->nr; i++)
		strbuf_addf(out, "%s\n", ws->items[i]);
}

void warning_set_parse_lines(struct warning_set *ws, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char *w = xstrndup(p, l);

		if (l)
			warning_set_add(ws, w);
		free(w);
		p = nl ? nl + 1 : NULL;
	}
}

void warning_set_json(struct json *j, const char *key,
		      const struct warning_set *ws)
{
	size_t w;

	json_key(j, key);
	json_array_begin(j);
	for (w = 0; w < ws->nr; w++)
		json_string(j, ws->items[w]);
	json_array_end(j);
}
