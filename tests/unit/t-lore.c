// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lore: what from mail goes into a public-inbox URL goes in
 * percent-encoded, and a subject becomes a phrase that cannot end its
 * quotes early.
 */
#include "tools/lib/error.h"
#include "tools/lib/lore.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

/* Test names show the wanted text: the input may hold newlines. */
static void search_url(const char *base, const char *query, const char *want)
{
	struct strbuf url = STRBUF_INIT;
	int r = lore_search_url(&url, base, query);

	is_int(r, 0, "a search URL");
	is_str(url.buf, want, "  is %s", want);
	strbuf_release(&url);
}

static void phrase(const char *in, size_t max, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "x");	/* appends: what is there stays */
	lore_query_phrase(&sb, in, max);
	is_str(sb.buf + 1, want, "phrase (max %zu): '%s'", max, want);
	is_int(sb.buf[0], 'x', "  the buffer's start is kept");
	strbuf_release(&sb);
}

static void msgid(const char *in, const char *want, int code)
{
	struct strbuf sb = STRBUF_INIT;
	int r = lore_msgid_escape(&sb, in);

	is_int(r, code, "Message-ID '%s': code %d", in, code);
	if (!code)
		is_str(sb.buf, want, "  escaped as %s", want);
	error_clear();
	strbuf_release(&sb);
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT;

	search_url("http://h/list", "s:\"a b\" AND f:\"x@y\"",
		   "http://h/list/?q=s%3A%22a%20b%22%20AND%20f%3A%22x%40y%22"
		   "&x=m&t=1");
	/* what would end the query, start another key or a fragment */
	search_url("http://h/list/", "a&x=A#b+c%d;e=f?g/h",
		   "http://h/list/?q=a%26x%3DA%23b%2Bc%25d%3Be%3Df%3Fg%2Fh"
		   "&x=m&t=1");
	search_url("https://lore.kernel.org/all//", "$(touch pwned) `id` 'q'",
		   "https://lore.kernel.org/all/?q=%24%28touch%20pwned%29%20"
		   "%60id%60%20%27q%27&x=m&t=1");
	/* bytes of UTF-8, control characters, unreserved characters */
	search_url("http://h/l", "caf\xc3\xa9\n\r\t-._~",
		   "http://h/l/?q=caf%C3%A9%0A%0D%09-._~&x=m&t=1");
	is_int(lore_search_url(&sb, "http://h/l", ""), RESPIN_EUSAGE,
	       "an empty search is refused");
	error_clear();
	is_int(lore_search_url(&sb, "///", "q"), RESPIN_EUSAGE,
	       "an empty URL is refused");
	error_clear();
	is_int((long long)sb.len, 0, "  and nothing appended");

	phrase("mm: frob the widget", 160, "mm: frob the widget");
	phrase("odd: 100% \"sure\" & #1", 160, "odd: 100% sure & #1");
	phrase("  two\t\tblanks \r\n folded  ", 160, "two blanks folded");
	phrase("\"\"\"", 160, "");
	phrase("--- :: ---", 160, "");
	phrase("one two three", 9, "one two");
	phrase("one two three", 7, "one two");
	phrase("onetwothree", 5, "");
	phrase("caf\xc3\xa9 au lait", 6, "caf\xc3\xa9");
	phrase("esc\x1b[2J seq", 160, "esc [2J seq");

	msgid("<a/b@example.org>", "a%2Fb@example.org", 0);
	msgid("201908120917.L7bXpUsz%lkp@intel.com",
	      "201908120917.L7bXpUsz%25lkp@intel.com", 0);
	msgid("a b@example.org", NULL, RESPIN_EUSAGE);
	msgid("../x@example.org", NULL, RESPIN_EUSAGE);
	msgid("x\"@example.org", "x%22@example.org", 0);
	strbuf_release(&sb);
	return done_testing();
}
