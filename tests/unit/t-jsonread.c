// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for reading JSON through json-c (tools/lib/jsonread.h):
 * what b4's tracking data needs of it, strictness, and errors that say
 * where.
 */
#include "tools/lib/jsonread.h"
#include "tools/lib/error.h"
#include "tap.h"

#include <json-c/json.h>

#include <string.h>

static int parse(const char *text, struct json_object **v)
{
	error_clear();
	return json_read(text, strlen(text), v);
}

/* The text must fail with a message containing want. */
static void bad(const char *text, const char *want, const char *what)
{
	struct json_object *v = NULL;
	int r = parse(text, &v);

	ok(r < 0 && !v && strstr(error_last(), want), "%s", what);
	if (r == 0 || !strstr(error_last(), want))
		printf("#   got: '%s'\n#  want: '%s'\n", r < 0 ?
		       error_last() : "(parsed)", want);
	json_object_put(v);
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *m = NULL;

	return json_object_object_get_ex(o, key, &m) ? m : NULL;
}

static void test_b4_tracking(void)
{
	const char *text =
		"{\n"
		"  \"series\": {\n"
		"    \"revision\": 3,\n"
		"    \"change-id\": \"20261130-lru-batch-6ed239b3fd62\",\n"
		"    \"base-branch\": null,\n"
		"    \"prefixes\": [],\n"
		"    \"history\": {\n"
		"      \"v1\": [\"a-v1-0-x@example.org\"],\n"
		"      \"v2\": [\"a-v2-0-y@example.org\", \"a-v2-0-z@example.org\"]\n"
		"    }\n"
		"  }\n"
		"}\n";
	struct json_object *v, *s, *h, *m;

	ok(!parse(text, &v), "b4's tracking JSON parses");
	s = member(v, "series");
	ok(json_object_is_type(s, json_type_object) &&
	   json_object_object_length(s) == 5, "an object of 5 members");
	m = member(s, "revision");
	ok(json_object_is_type(m, json_type_int) &&
	   json_object_get_int64(m) == 3, "revision is the integer 3");
	is_str(json_read_string(s, "change-id"),
	       "20261130-lru-batch-6ed239b3fd62", "change-id");
	m = member(s, "base-branch");
	ok(json_object_object_get_ex(s, "base-branch", &m) && !m &&
	   json_object_is_type(m, json_type_null), "null: there, as NULL");
	ok(!json_read_string(s, "base-branch"), "null is not a string");
	m = member(s, "prefixes");
	ok(json_object_is_type(m, json_type_array) &&
	   json_object_array_length(m) == 0, "an empty array");
	h = member(s, "history");
	m = member(h, "v2");
	ok(json_object_is_type(m, json_type_array) &&
	   json_object_array_length(m) == 2 &&
	   !strcmp(json_object_get_string(json_object_array_get_idx(m, 1)),
		   "a-v2-0-z@example.org"), "nested arrays");
	ok(!member(h, "v3") && !json_read_string(m, "v1"),
	   "missing members and non-objects give NULL");
	json_object_put(v);
}

static void test_values(void)
{
	struct json_object *v;

	ok(!parse(" -12.5e1 ", &v) && json_object_is_type(v, json_type_double) &&
	   json_object_get_double(v) == -125.0,
	   "a number with fraction and exponent, white space around");
	json_object_put(v);
	ok(!parse("\"\\u00e9\\u20ac\\ud83d\\ude00\"", &v) &&
	   !strcmp(json_object_get_string(v),
		   "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
	   "\\u escapes and a surrogate pair become UTF-8");
	json_object_put(v);
	ok(!parse("{\"k\": \"a\\u0000b\"}", &v) && !json_read_string(v, "k"),
	   "json_read_string refuses a string with a NUL in it");
	json_object_put(v);
	ok(!parse("{\"a\": 1, \"a\": 2}", &v) &&
	   json_object_get_int64(member(v, "a")) == 2,
	   "a repeated key: the last wins");
	json_object_put(v);
}

static void test_errors(void)
{
	char deep[200];
	size_t i;

	bad("", "line 1, column 1: the text ends", "empty text");
	bad("{\"a\": 1,}", "a trailing ','", "a trailing comma");
	bad("{\n  \"a\": 1,\n}", "line 3, column 1: a trailing ','",
	    "line and column");
	bad("[1, 2,]", "a trailing ','", "a trailing comma in an array");
	bad("\"abc", "the text ends", "an unterminated string");
	bad("{} x", "line 1, column 4", "garbage after the value");
	bad("# comment\n{}", "line 1, column 1", "no comments");
	for (i = 0; i < sizeof(deep) - 1; i++)
		deep[i] = '[';
	deep[i] = '\0';
	bad(deep, "nested deeper than 64", "nesting is limited");
}

int main(void)
{
	test_b4_tracking();
	test_values();
	test_errors();
	return done_testing();
}
