// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strbuf_next_word(): the words of a list such as a check's targets
 * ("vm, mm net") or --only's names ("a,,b"); strbuf_attach() taking a
 * buffer as its own.
 */
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>

/* The words of list, each followed by '|'. */
static void words(const char *list, const char *seps, struct strbuf *out)
{
	struct strbuf w = STRBUF_INIT;
	const char *p = list;

	strbuf_reset(out);
	while (strbuf_next_word(&w, &p, seps))
		strbuf_addf(out, "%s|", w.buf);
	strbuf_release(&w);
}

int main(void)
{
	struct strbuf out = STRBUF_INIT, w = STRBUF_INIT;
	const char *p = "";

	words(" vm,\tmm  net/forwarding, ", " \t,", &out);
	ok(!strcmp(out.buf, "vm|mm|net/forwarding|"), "separators of any kind "
	   "and number: '%s'", out.buf);
	words("a,,b c,", ",", &out);
	ok(!strcmp(out.buf, "a|b c|"), "only the separators given: '%s'",
	   out.buf);
	words(" , ", " ,", &out);
	ok(!out.len, "no word in separators alone");
	strbuf_addstr(&w, "old");
	ok(!strbuf_next_word(&w, &p, ",") && !w.len && !*p,
	   "the end: 0, the word empty");
	p = "one,two";
	ok(strbuf_next_word(&w, &p, ",") && !strcmp(w.buf, "one") &&
	   !strcmp(p, ",two"), "the pointer stops at the separator after it");
	strbuf_addstr(&out, "held before");
	strbuf_attach(&out, strdup("taken"), 5, 6);
	ok(out.len == 5 && !strcmp(out.buf, "taken"), "attach: the buffer "
	   "taken, what it held released: '%s'", out.buf);
	strbuf_addstr(&out, ", then grown");
	ok(!strcmp(out.buf, "taken, then grown"), "attach: grows as its own");
	strbuf_attach(&out, NULL, 0, 0);
	ok(!out.len && !out.alloc, "attach NULL: empty");
	strbuf_addstr(&out, "x");
	ok(!strcmp(out.buf, "x"), "attach NULL: usable after");
	strbuf_release(&out);
	strbuf_release(&w);
	return done_testing();
}
