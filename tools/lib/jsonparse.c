// SPDX-License-Identifier: GPL-2.0-or-later
#include "jsonparse.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *start, *p, *end;
	int depth;
};

static int parse_value(struct parser *ps, struct json_value *v);

/* Records "line L, column C: MESSAGE" for the current position. */
__attribute__((format(printf, 2, 3)))
static int fail(struct parser *ps, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	const char *q;
	unsigned line = 1, col = 1;
	va_list ap;

	for (q = ps->start; q < ps->p; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("line %u, column %u: %s", line, col, msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* What is at the current position, for messages. */
static const char *here(struct parser *ps)
{
	static char buf[16];
	unsigned char c;

	if (ps->p >= ps->end)
		return "the end of the text";
	c = (unsigned char)*ps->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, sizeof(buf), "'%c'", c);
	else
		snprintf(buf, sizeof(buf), "byte 0x%02x", c);
	return buf;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int hex4(struct parser *ps, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return fail(ps, "\\u wants four hex digits");
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail(ps, "\\u wants four hex digits");
	}
	ps->p += 4;
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/* At the opening quote; fills a JSON_STRING. */
static int parse_string(struct parser *ps, struct json_value *v)
{
	struct strbuf sb = STRBUF_INIT;

	ps->p++;
	for (;;) {
		unsigned char c;

		if (ps->p >= ps->end) {
			strbuf_release(&sb);
			return fail(ps, "the string never ends (no closing '\"')");
		}
		c = (unsigned char)*ps->p;
		if (c == '"') {
			ps->p++;
			break;
		}
		if (c < 0x20) {
			strbuf_release(&sb);
			return fail(ps, "control character 0x%02x in a string "
				    "(write it as an escape)", c);
		}
		if (c != '\\') {
			strbuf_addch(&sb, c);
			ps->p++;
			continue;
		}
		ps->p++;
		if (ps->p >= ps->end) {
			strbuf_release(&sb);
			return fail(ps, "the string never ends (no closing '\"')");
		}
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			strbuf_addch(&sb, c);
			break;
		case 'b': strbuf_addch(&sb, '\b'); break;
		case 'f': strbuf_addch(&sb, '\f'); break;
		case 'n': strbuf_addch(&sb, '\n'); break;
		case 'r': strbuf_addch(&sb, '\r'); break;
		case 't': strbuf_addch(&sb, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			if (hex4(ps, &cp) < 0)
				goto bad;
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				ps->p -= 6;
				fail(ps, "\\u%04x is half of a surrogate pair, "
				     "alone", cp);
				goto bad;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->end - ps->p < 2 || ps->p[0] != '\\' ||
				    ps->p[1] != 'u') {
					fail(ps, "\\u%04x wants a second "
					     "surrogate (\\udc00-\\udfff) "
					     "after it", cp);
					goto bad;
				}
				ps->p += 2;
				if (hex4(ps, &lo) < 0)
					goto bad;
				if (lo < 0xdc00 || lo > 0xdfff) {
					ps->p -= 6;
					fail(ps, "\\u%04x does not end the "
					     "surrogate pair \\u%04x", lo, cp);
					goto bad;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
			}
			add_utf8(&sb, cp);
			break;
		}
		default:
			ps->p--;
			fail(ps, "unknown escape '\\%c'", c >= 0x20 && c < 0x7f ?
			     c : '?');
			goto bad;
		}
	}
	v->type = JSON_STRING;
	v->len = sb.len;
	v->str = strbuf_detach(&sb, NULL);
	return 0;
bad:
	strbuf_release(&sb);
	return -1;
}

static int is_digit(const struct parser *ps)
{
	return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

static int parse_number(struct parser *ps, struct json_value *v)
{
	const char *s = ps->p;
	int integer = 1;
	char *copy, *end;

	if (*ps->p == '-')
		ps->p++;
	if (!is_digit(ps))
		return fail(ps, "a number wants a digit here, not %s", here(ps));
	if (*ps->p == '0') {
		ps->p++;
		if (is_digit(ps))
			return fail(ps, "numbers do not start with 0");
	} else {
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		integer = 0;
		ps->p++;
		if (!is_digit(ps))
			return fail(ps, "a digit must follow the '.'");
		while (is_digit(ps))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		integer = 0;
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!is_digit(ps))
			return fail(ps, "the exponent wants a digit");
		while (is_digit(ps))
			ps->p++;
	}
	/* the grammar is checked: strtod and strtoll see only it */
	copy = xstrndup(s, (size_t)(ps->p - s));
	v->type = JSON_NUMBER;
	v->number = strtod(copy, NULL);
	if (integer) {
		errno = 0;
		v->integer = strtoll(copy, &end, 10);
		v->is_int = !errno && !*end;
	}
	free(copy);
	return 0;
}

static int parse_literal(struct parser *ps, const char *word,
			 enum json_type type, struct json_value *v)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "expected a value, not %s", here(ps));
	ps->p += n;
	v->type = type;
	return 0;
}

static struct json_value *grow(struct json_value **arr, size_t nr,
			       size_t *alloc)
{
	ALLOC_GROW(*arr, nr, *alloc);
	memset(&(*arr)[nr], 0, sizeof(**arr));
	return &(*arr)[nr];
}

/* At '[' or '{'; fills a JSON_ARRAY or JSON_OBJECT. */
static int parse_container(struct parser *ps, struct json_value *v)
{
	int object = *ps->p == '{';
	char close = object ? '}' : ']';
	size_t alloc = 0, kalloc = 0;

	if (++ps->depth > JSON_MAX_DEPTH)
		return fail(ps, "nested deeper than %d levels", JSON_MAX_DEPTH);
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		struct json_value *item;

		skip_space(ps);
		if (object) {
			struct json_value *key;

			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a key in quotes, "
					    "not %s", here(ps));
			key = grow(&v->keys, v->nr, &kalloc);
			if (parse_string(ps, key) < 0)
				goto partial;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "expected ':' after the key, not %s",
				     here(ps));
				goto partial;
			}
			ps->p++;
		}
		item = grow(&v->items, v->nr, &alloc);
		if (parse_value(ps, item) < 0) {
			/* count it, so that release frees what it holds */
			v->nr++;
			return -1;
		}
		v->nr++;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_space(ps);
			if (ps->p < ps->end && *ps->p == close)
				return fail(ps, "a trailing ',' before '%c'",
					    close);
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			break;
		}
		return fail(ps, "expected ',' or '%c', not %s", close,
			    here(ps));
	}
	ps->depth--;
	return 0;
partial:
	/* a key without its value: give it an empty one to release */
	grow(&v->items, v->nr, &alloc);
	v->nr++;
	return -1;
}

static int parse_value(struct parser *ps, struct json_value *v)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value, not the end of the text");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, v);
	case '"':
		return parse_string(ps, v);
	case 't':
		return parse_literal(ps, "true", JSON_TRUE, v);
	case 'f':
		return parse_literal(ps, "false", JSON_FALSE, v);
	case 'n':
		return parse_literal(ps, "null", JSON_NULL, v);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps, v);
		return fail(ps, "expected a value, not %s", here(ps));
	}
}

int json_parse(const char *buf, size_t len, struct json_value *out)
{
	struct parser ps = { buf, buf, buf + len, 0 };

	memset(out, 0, sizeof(*out));
	if (parse_value(&ps, out) < 0)
		return -1;
	skip_space(&ps);
	if (ps.p < ps.end)
		return fail(&ps, "%s after the end of the JSON value", here(&ps));
	return 0;
}

void json_value_release(struct json_value *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->nr; i++) {
		if (v->items)
			json_value_release(&v->items[i]);
		if (v->keys)
			json_value_release(&v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct json_value *json_member(const struct json_value *v,
				     const char *key)
{
	size_t i, klen = strlen(key);

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = v->nr; i > 0; i--) {
		const struct json_value *k = &v->keys[i - 1];

		if (k->len == klen && !memcmp(k->str, key, klen))
			return &v->items[i - 1];
	}
	return NULL;
}

const char *json_member_string(const struct json_value *v, const char *key)
{
	const struct json_value *m = json_member(v, key);

	if (!m || m->type != JSON_STRING || strlen(m->str) != m->len)
		return NULL;
	return m->str;
}

const char *json_type_name(enum json_type t)
{
	switch (t) {
	case JSON_NULL: return "null";
	case JSON_FALSE: case JSON_TRUE: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_STRING: return "a string";
	case JSON_ARRAY: return "an array";
	case JSON_OBJECT: return "an object";
	}
	return "?";
}
