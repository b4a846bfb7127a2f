// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trailers into a commit message, kernel order: after the ones there,
 * before the submitter's closing Signed-off-by; none twice.
 */
#include "patches/msgtrailers.h"
#include "tests/unit/tap.h"

#include <git2.h>

struct want {
	const char *what, *msg, *add, *submitter, *out;
	int added;
};

static const struct want cases[] = {
	{ "before the submitter's Signed-off-by",
	  "mm: x\n\nBody.\n\nSigned-off-by: A U Thor <a@example.org>\n",
	  "Reviewed-by|R Ev <r@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nReviewed-by: R Ev <r@example.org>\nSigned-off-by: A U Thor <a@example.org>\n", 1 },
	{ "after the last trailer when it is not the submitter's",
	  "mm: x\n\nBody.\n\nSigned-off-by: A U Thor <a@example.org>\nLink: https://x/\n",
	  "Acked-by|B <b@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nSigned-off-by: A U Thor <a@example.org>\nLink: https://x/\nAcked-by: B <b@example.org>\n", 1 },
	{ "a Signed-off-by of someone else last: after it",
	  "mm: x\n\nBody.\n\nSigned-off-by: A U Thor <a@example.org>\nSigned-off-by: M <m@example.org>\n",
	  "Tested-by|T <t@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nSigned-off-by: A U Thor <a@example.org>\nSigned-off-by: M <m@example.org>\nTested-by: T <t@example.org>\n", 1 },
	{ "a duplicate by address, whatever its case and name: not added",
	  "mm: x\n\nBody.\n\nReviewed-by: R <R@Example.ORG>\nSigned-off-by: A <a@example.org>\n",
	  "Reviewed-by|R Ev <r@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nReviewed-by: R <R@Example.ORG>\nSigned-off-by: A <a@example.org>\n", 0 },
	{ "the same address under another key is added",
	  "mm: x\n\nBody.\n\nReviewed-by: R <r@example.org>\nSigned-off-by: A <a@example.org>\n",
	  "Tested-by|R <r@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nReviewed-by: R <r@example.org>\nTested-by: R <r@example.org>\nSigned-off-by: A <a@example.org>\n", 1 },
	{ "given twice: once",
	  "mm: x\n\nBody.\n\nSigned-off-by: A <a@example.org>\n",
	  "Acked-by|B <b@example.org>|Acked-by|B Bee <B@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nAcked-by: B <b@example.org>\nSigned-off-by: A <a@example.org>\n", 1 },
	{ "no trailers: a block of its own",
	  "mm: x\n\nBody.\n",
	  "Acked-by|B <b@example.org>", "a@example.org",
	  "mm: x\n\nBody.\n\nAcked-by: B <b@example.org>\n", 1 },
};

static void split_add(const char *spec, struct trailer_list *tl)
{
	char buf[512], *save = NULL, *k, *v;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (k = strtok_r(buf, "|", &save); k; k = strtok_r(NULL, "|", &save)) {
		v = strtok_r(NULL, "|", &save);
		trailer_list_add(tl, k, strlen(k), v, strlen(v));
	}
}

int main(void)
{
	size_t i;

	git_libgit2_init();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i];
		struct trailer_list tl;
		struct strbuf out = STRBUF_INIT;
		size_t n;

		trailer_list_init(&tl);
		split_add(w->add, &tl);
		n = message_add_trailers(w->msg, &tl, w->submitter, &out);
		is_str(out.buf, w->out, "%s: the message", w->what);
		is_int((long long)n, w->added, "%s: how many", w->what);
		trailer_list_release(&tl);
		strbuf_release(&out);
	}
	git_libgit2_shutdown();
	return done_testing();
}
