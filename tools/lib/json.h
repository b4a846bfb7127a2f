/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_JSON_H
#define RESPIN_JSON_H

#include "strbuf.h"
#include <stdint.h>

/*
 * A streaming JSON writer.  Objects and arrays nest; the writer puts
 * the commas.  Keys are given with json_key() inside an object, or
 * with the *_member() shorthands.  Strings are escaped as UTF-8 (bytes
 * that are not valid UTF-8 become U+FFFD).
 */
struct json {
	struct strbuf *out;
	int depth;
	unsigned char first[64];	/* per level: no member written yet */
	int pretty;
};

void json_init(struct json *j, struct strbuf *out, int pretty);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_string_len(struct json *j, const char *s, size_t len);
/* One string a line of text (no newlines kept), as array elements. */
void json_string_lines(struct json *j, const char *text);
void json_int(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, int v);
void json_null(struct json *j);

void json_string_member(struct json *j, const char *key, const char *s);
void json_int_member(struct json *j, const char *key, int64_t v);
void json_bool_member(struct json *j, const char *key, int v);

/* Appends s as a quoted, escaped JSON string. */
void json_quote(struct strbuf *out, const char *s, size_t len);

#endif
