/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_JSONPARSE_H
#define RESPIN_JSONPARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A small JSON reader (RFC 8259): parses a whole document into a tree
 * of values.  It is strict about the grammar (no comments, no trailing
 * commas, no bare control characters in strings, no lone surrogates)
 * and limits nesting, so untrusted input cannot exhaust the stack.
 * Errors name the line and column.  The writer is tools/lib/json.h.
 */

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

#define JSON_MAX_DEPTH 64

struct json_value {
	enum json_type type;
	/* JSON_NUMBER: the value; is_int when written as an integer
	 * (no fraction, no exponent) that fits in int64_t */
	double number;
	int64_t integer;
	int is_int;
	/* JSON_STRING: UTF-8, NUL-terminated; len counts bytes (a "\u0000"
	 * escape can put a NUL inside) */
	char *str;
	size_t len;
	/* JSON_ARRAY: items[0..nr); JSON_OBJECT: keys[i] (strings) and
	 * items[i], in document order, duplicates kept */
	struct json_value *items;
	struct json_value *keys;
	size_t nr;
};

/*
 * Parses buf[0..len) as one JSON value (whitespace around it allowed).
 * Returns 0, or -1 with a message ("line L, column C: ...") recorded
 * with error().  Release *out with json_value_release() either way.
 */
int json_parse(const char *buf, size_t len, struct json_value *out);
void json_value_release(struct json_value *v);

/*
 * The member KEY of an object (the last one if the key repeats, as
 * most readers do), or NULL when v is not an object or has no such
 * member.  Borrowed from v.
 */
const struct json_value *json_member(const struct json_value *v,
				     const char *key);
/*
 * The string member KEY of an object, or NULL when it is missing, not
 * a string or holds a NUL.  Borrowed from v.
 */
const char *json_member_string(const struct json_value *v, const char *key);

/* "null", "string", ... for messages. */
const char *json_type_name(enum json_type t);

#endif
