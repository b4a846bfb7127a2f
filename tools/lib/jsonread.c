// SPDX-License-Identifier: GPL-2.0-or-later
#include "jsonread.h"
#include "error.h"

#include <json-c/json.h>

#include <limits.h>
#include <string.h>

/* The last character before at that is not white space, or 0. */
static char before(const char *text, size_t at)
{
	while (at > 0) {
		char c = text[--at];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return c;
	}
	return 0;
}

/* "line L, column C: WHAT" for a failure at text[at]. */
static int read_error(const char *text, size_t len, size_t at,
		      enum json_tokener_error e)
{
	size_t line = 1, col = 1, i;
	const char *what = json_tokener_error_desc(e);

	for (i = 0; i < at && i < len; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (e == json_tokener_continue || at >= len)
		what = "the text ends before the value does";
	else if (e == json_tokener_error_depth)
		what = "nested deeper than 64";
	else if ((text[at] == '}' || text[at] == ']') &&
		 before(text, at) == ',')
		what = "a trailing ','";
	return error("line %zu, column %zu: %s", line, col, what);
}

int json_read(const char *text, size_t len, struct json_object **out)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	size_t end;
	int r = 0;

	*out = NULL;
	if (len > INT_MAX)
		return error("JSON text of %zu bytes is too big", len);
	tok = json_tokener_new_ex(JSON_READ_MAX_DEPTH);
	if (!tok)
		return error("out of memory reading JSON");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	*out = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (*out && e == json_tokener_success) {
		/* white space may follow the value, nothing else */
		while (end < len && strchr(" \t\r\n", text[end]))
			end++;
		if (end < len)
			e = json_tokener_error_parse_unexpected;
	}
	if (!*out || e != json_tokener_success) {
		json_object_put(*out);
		*out = NULL;
		r = read_error(text, len, end, e);
	}
	json_tokener_free(tok);
	return r;
}

void json_read_free(struct json_object *v)
{
	json_object_put(v);
}

const char *json_read_string(struct json_object *o, const char *key)
{
	struct json_object *m;
	const char *s;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_string))
		return NULL;
	s = json_object_get_string(m);
	if (strlen(s) != (size_t)json_object_get_string_len(m))
		return NULL;
	return s;
}
