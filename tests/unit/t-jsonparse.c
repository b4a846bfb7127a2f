// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the JSON reader. */
#include "tools/lib/jsonparse.h"
#include "tools/lib/error.h"
#include "tap.h"

#include <string.h>

static int parse(const char *text, struct json_value *v)
{
	error_clear();
	return json_parse(text, strlen(text), v);
}

/* The text must fail with a message containing want. */
static void bad(const char *text, const char *want, const char *what)
{
	struct json_value v;
	int r = parse(text, &v);

	ok(r < 0 && strstr(error_last(), want), "%s", what);
	if (r == 0 || !strstr(error_last(), want))
		printf("#   got: '%s'\n#  want: '%s'\n", r < 0 ?
		       error_last() : "(parsed)", want);
	json_value_release(&v);
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
	struct json_value v;
	const struct json_value *s, *h, *m;

	ok(!parse(text, &v), "b4's tracking JSON parses");
	s = json_member(&v, "series");
	ok(s && s->type == JSON_OBJECT && s->nr == 5, "an object of 5 members");
	m = json_member(s, "revision");
	ok(m && m->type == JSON_NUMBER && m->is_int && m->integer == 3,
	   "revision is the integer 3");
	is_str(json_member_string(s, "change-id"),
	       "20261130-lru-batch-6ed239b3fd62", "change-id");
	m = json_member(s, "base-branch");
	ok(m && m->type == JSON_NULL, "null");
	ok(!json_member_string(s, "base-branch"), "null is not a string");
	m = json_member(s, "prefixes");
	ok(m && m->type == JSON_ARRAY && m->nr == 0, "an empty array");
	h = json_member(s, "history");
	m = json_member(h, "v2");
	ok(m && m->type == JSON_ARRAY && m->nr == 2 &&
	   !strcmp(m->items[1].str, "a-v2-0-z@example.org"), "nested arrays");
	ok(!json_member(h, "v3") && !json_member(m, "v1"),
	   "missing members and non-objects give NULL");
	json_value_release(&v);
}

static void test_scalars(void)
{
	struct json_value v;

	ok(!parse(" -12.5e1 ", &v) && v.type == JSON_NUMBER &&
	   v.number == -125.0 && !v.is_int, "a number with fraction and exponent");
	json_value_release(&v);
	ok(!parse("0", &v) && v.is_int && v.integer == 0, "zero");
	json_value_release(&v);
	ok(!parse("-9223372036854775808", &v) && v.is_int &&
	   v.integer == INT64_MIN, "the smallest int64");
	json_value_release(&v);
	ok(!parse("9223372036854775808", &v) && !v.is_int &&
	   v.number > 9e18, "too big for int64: only a double");
	json_value_release(&v);
	ok(!parse("true", &v) && v.type == JSON_TRUE, "true");
	json_value_release(&v);
	ok(!parse("[false, null]", &v) && v.nr == 2 &&
	   v.items[0].type == JSON_FALSE && v.items[1].type == JSON_NULL,
	   "false and null");
	json_value_release(&v);
}

static void test_strings(void)
{
	struct json_value v;

	ok(!parse("\"a\\\"b\\\\c\\/d\\n\\t\\b\\f\\r\"", &v) &&
	   !strcmp(v.str, "a\"b\\c/d\n\t\b\f\r"), "simple escapes");
	json_value_release(&v);
	ok(!parse("\"\\u00e9\\u20ac\\ud83d\\ude00\"", &v) &&
	   !strcmp(v.str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
	   "\\u escapes and a surrogate pair become UTF-8");
	json_value_release(&v);
	ok(!parse("\"caf\xc3\xa9\"", &v) && v.len == 5, "raw UTF-8 is kept");
	json_value_release(&v);
	ok(!parse("{\"k\": \"a\\u0000b\"}", &v) && v.items[0].len == 3 &&
	   !json_member_string(&v, "k"), "an embedded NUL is kept, but "
	   "json_member_string refuses it");
	json_value_release(&v);
	ok(!parse("{\"a\": 1, \"a\": 2}", &v) &&
	   json_member(&v, "a")->integer == 2, "a repeated key: the last wins");
	json_value_release(&v);
}

static void test_errors(void)
{
	char deep[200];
	size_t i;

	bad("", "line 1, column 1: expected a value, not the end", "empty text");
	bad("{\"a\": 1,}", "trailing ','", "a trailing comma");
	bad("[1 2]", "expected ',' or ']', not '2'", "a missing comma");
	bad("{\n  \"a\" 1}", "line 2, column 7: expected ':'", "line and column");
	bad("{a: 1}", "expected a key in quotes", "a bare key");
	bad("\"abc", "never ends", "an unterminated string");
	bad("\"a\nb\"", "control character 0x0a", "a raw newline in a string");
	bad("\"\\x\"", "unknown escape '\\x'", "an unknown escape");
	bad("\"\\u12g4\"", "four hex digits", "a bad \\u escape");
	bad("\"\\ude00\"", "alone", "a lone low surrogate");
	bad("\"\\ud83dx\"", "wants a second surrogate", "a lone high surrogate");
	bad("\"\\ud83d\\u0041\"", "does not end the surrogate pair",
	    "a high surrogate followed by a non-surrogate");
	bad("01", "do not start with 0", "a leading zero");
	bad("1.", "a digit must follow", "a bare decimal point");
	bad("1e", "exponent wants a digit", "a bare exponent");
	bad("-", "wants a digit", "a bare minus");
	bad("nul", "expected a value", "a cut literal");
	bad("{} x", "'x' after the end", "garbage after the value");
	bad("{\"a\": [1, {\"b\": tru", "expected a value",
	    "an error deep inside is reported and nothing leaks");
	for (i = 0; i < sizeof(deep) - 1; i++)
		deep[i] = '[';
	deep[i] = '\0';
	bad(deep, "nested deeper than 64", "nesting is limited");
	bad("# comment\n{}", "expected a value, not '#'", "no comments");
}

int main(void)
{
	test_b4_tracking();
	test_scalars();
	test_strings();
	test_errors();
	return done_testing();
}
