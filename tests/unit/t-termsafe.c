// SPDX-License-Identifier: GPL-2.0-or-later
/* termsafe: what a terminal would act on is escaped, the rest kept. */
#include "tools/lib/strbuf.h"
#include "tools/lib/termsafe.h"
#include "tests/unit/tap.h"

struct want {
	const char *in;
	unsigned flags;
	const char *out;
};

static const struct want cases[] = {
	{ "plain subject", 0, "plain subject" },
	{ "\x1b[2Jclear", 0, "\\e[2Jclear" },
	{ "title\x1b]0;pwned\x07", 0, "title\\e]0;pwned\\x07" },
	{ "two\nlines\r", 0, "two\\nlines\\r" },
	{ "two\nlines\ttab", TERM_SAFE_LINES, "two\nlines\ttab" },
	{ "cr\r\n", TERM_SAFE_LINES, "cr\\r\n" },
	{ "del\x7f", 0, "del\\x7f" },
	{ "c1 \xc2\x9b" "31m", 0, "c1 \\u009b31m" },
	{ "bidi \xe2\x80\xae" "txt", 0, "bidi \\u202etxt" },
	{ "isolate \xe2\x81\xa6x\xe2\x81\xa9", 0, "isolate \\u2066x\\u2069" },
	{ "caf\xc3\xa9 \xe2\x80\x94 ok", 0, "caf\xc3\xa9 \xe2\x80\x94 ok" },
	{ "bad \xff\xfe utf-8", 0, "bad \\xff\\xfe utf-8" },
	{ "overlong \xc0\xaf", 0, "overlong \\xc0\\xaf" },
	{ "cut \xe2\x80", 0, "cut \\xe2\\x80" },
	{ "back\\slash", 0, "back\\slash" },
	{ "", 0, "" },
};

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i];
		int clean = !strcmp(w->in, w->out);

		strbuf_reset(&sb);
		strbuf_add_term_safe(&sb, w->in, strlen(w->in), w->flags);
		is_str(sb.buf, w->out, "case %zu escaped", i);
		is_int(term_safe_clean(w->in, strlen(w->in), w->flags), clean,
		       "case %zu clean or not", i);
		if (!w->flags)
			is_str(term_safe(w->in), w->out,
			       "case %zu term_safe", i);
	}
	/* the ring: eight results at once stay valid */
	{
		const char *r[8];
		int k, good = 1;

		for (k = 0; k < 8; k++)
			r[k] = term_safe(k & 1 ? "\x1b" : "\n");
		for (k = 0; k < 8; k++)
			good &= !strcmp(r[k], k & 1 ? "\\e" : "\\n");
		ok(good, "eight term_safe() results at once");
	}
	is_str(term_safe(NULL), "", "NULL reads as empty");
	strbuf_release(&sb);
	return done_testing();
}
