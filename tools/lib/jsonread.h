/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_JSONREAD_H
#define RESPIN_JSONREAD_H

#include <stddef.h>

/*
 * Reading JSON, through json-c: strict RFC 8259 (no comments, no
 * trailing commas, nothing after the value), nesting limited to
 * JSON_READ_MAX_DEPTH so that untrusted input cannot exhaust the stack.
 * The value is json-c's: a reader includes <json-c/json.h> and walks it
 * with json_object_object_get_ex(), json_object_get_type() and the
 * like.  (This header does not include it: json-c's names, json_bool
 * among them, would clash with those of the writer, tools/lib/json.h.)
 */
struct json_object;

#define JSON_READ_MAX_DEPTH 64

/*
 * Parses text[0..len) as one JSON value; 0 with *out set, or <0 with
 * a message "line L, column C: WHAT" and *out NULL.
 */
int json_read(const char *text, size_t len, struct json_object **out);
/* Frees what json_read() gave (NULL too). */
void json_read_free(struct json_object *v);

/*
 * The string member key of object o, or NULL when it is missing, not a
 * string, or holds a NUL.  Borrowed from o.
 */
const char *json_read_string(struct json_object *o, const char *key);

#endif
