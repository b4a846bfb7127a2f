// SPDX-License-Identifier: GPL-2.0-or-later
#include "json.h"
#include "termsafe.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, struct strbuf *out, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
	j->first[0] = 1;
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	strbuf_addch(j->out, '\n');
	strbuf_addchars(j->out, ' ', (size_t)j->depth * 2);
}

/* Called before every value or key. */
static void separate(struct json *j)
{
	if (j->depth && j->first[j->depth] == 2) {
		/* value right after its key */
		j->first[j->depth] = 0;
		return;
	}
	if (!j->first[j->depth])
		strbuf_addch(j->out, ',');
	j->first[j->depth] = 0;
	if (j->depth)
		newline(j);
}

static void level_open(struct json *j, char c)
{
	separate(j);
	strbuf_addch(j->out, c);
	if (j->depth < (int)sizeof(j->first) - 1)
		j->depth++;
	j->first[j->depth] = 1;
}

static void level_close(struct json *j, char c)
{
	int empty = j->first[j->depth] == 1;

	if (j->depth)
		j->depth--;
	if (!empty)
		newline(j);
	strbuf_addch(j->out, c);
}

void json_object_begin(struct json *j) { level_open(j, '{'); }
void json_object_end(struct json *j) { level_close(j, '}'); }
void json_array_begin(struct json *j) { level_open(j, '['); }
void json_array_end(struct json *j) { level_close(j, ']'); }

void json_key(struct json *j, const char *key)
{
	separate(j);
	json_quote(j->out, key, strlen(key));
	strbuf_addstr(j->out, j->pretty ? ": " : ":");
	j->first[j->depth] = 2;
}

/* Length of the valid UTF-8 sequence at s, or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	return utf8_decode(s, avail, &cp);
}

void json_quote(struct strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_addch(out, '"');
	while (i < len) {
		unsigned char c = s[i];
		size_t n;

		switch (c) {
		case '"': strbuf_addstr(out, "\\\""); i++; continue;
		case '\\': strbuf_addstr(out, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(out, "\\n"); i++; continue;
		case '\t': strbuf_addstr(out, "\\t"); i++; continue;
		case '\r': strbuf_addstr(out, "\\r"); i++; continue;
		default:
			break;
		}
		if (c < 0x20) {
			strbuf_addf(out, "\\u%04x", c);
			i++;
			continue;
		}
		if (c == 0x7f) {
			strbuf_addstr(out, "\\u007f");
			i++;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			strbuf_addstr(out, "\\ufffd");
			i++;
			continue;
		}
		/*
		 * C1 controls and bidi overrides as \uXXXX: the same string
		 * to a JSON reader, nothing for a terminal to act on.
		 */
		if (!term_safe_clean((const char *)s + i, n, 0)) {
			unsigned cp = 0;

			utf8_decode(s + i, n, &cp);
			strbuf_addf(out, "\\u%04x", cp);
			i += n;
			continue;
		}
		strbuf_add(out, s + i, n);
		i += n;
	}
	strbuf_addch(out, '"');
}

void json_string_len(struct json *j, const char *s, size_t len)
{
	separate(j);
	json_quote(j->out, s, len);
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_string_len(j, s, strlen(s));
}

void json_int(struct json *j, int64_t v)
{
	separate(j);
	strbuf_addf(j->out, "%lld", (long long)v);
}

void json_double(struct json *j, double v)
{
	separate(j);
	if (isfinite(v))
		strbuf_addf(j->out, "%.17g", v);
	else
		strbuf_addstr(j->out, "null");
}

void json_bool(struct json *j, int v)
{
	separate(j);
	strbuf_addstr(j->out, v ? "true" : "false");
}

void json_null(struct json *j)
{
	separate(j);
	strbuf_addstr(j->out, "null");
}

void json_string_member(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_int_member(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_bool_member(struct json *j, const char *key, int v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_string_lines(struct json *j, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		json_string_len(j, p, len);
		p += len + (nl ? 1 : 0);
	}
}
