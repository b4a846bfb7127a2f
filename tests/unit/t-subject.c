// SPDX-License-Identifier: GPL-2.0-or-later
/* Subject tags: versions, counters, prefixes, reply prefixes, titles. */
#include "patches/subject.h"
#include "tests/unit/tap.h"
#include "tools/lib/strbuf.h"

struct want {
	const char *subject;
	int version, index, total;
	int patch, rfc, resend, reply, cover;
	const char *prefix, *title;
};

static const struct want cases[] = {
	{ "[PATCH v3 02/17] mm: do a thing", 3, 2, 17, 1, 0, 0, 0, 0, NULL, "mm: do a thing" },
	{ "[PATCH 0/3] mm, lru_gen: batch update pages when aging", 1, 0, 3, 1, 0, 0, 0, 1, NULL, "mm, lru_gen: batch update pages when aging" },
	{ "[RFC PATCH v2 1/9] x: y", 2, 1, 9, 1, 1, 0, 0, 0, NULL, "x: y" },
	{ "[PATCH mm-unstable v1 5/5] mm: z", 1, 5, 5, 1, 0, 0, 0, 0, "mm-unstable", "mm: z" },
	{ "[PATCH net-next v4 0/7] net: cover", 4, 0, 7, 1, 0, 0, 0, 1, "net-next", "net: cover" },
	{ "[PATCH v2] single", 2, 1, 1, 1, 0, 0, 0, 0, NULL, "single" },
	{ "[PATCH] single v1", 1, 1, 1, 1, 0, 0, 0, 0, NULL, "single v1" },
	{ "[PATCH RESEND v2 3/4] again", 2, 3, 4, 1, 0, 1, 0, 0, NULL, "again" },
	{ "[PATCHv2 1/3] glued", 2, 1, 3, 1, 0, 0, 0, 0, NULL, "glued" },
	{ "[PATCH V3 2/5] upper", 3, 2, 5, 1, 0, 0, 0, 0, NULL, "upper" },
	{ "[PATCH 2/2 v3] late version", 3, 2, 2, 1, 0, 0, 0, 0, NULL, "late version" },
	{ "[patch v5 10/12] lower case", 5, 10, 12, 1, 0, 0, 0, 0, NULL, "lower case" },
	{ "[RFC] idea", 1, 1, 1, 1, 1, 0, 0, 0, NULL, "idea" },
	{ "Re: [PATCH v2 1/3] powerpc: x", 2, 1, 3, 1, 0, 0, 1, 0, NULL, "powerpc: x" },
	{ "RE: [PATCH v2 1/3] x", 2, 1, 3, 1, 0, 0, 1, 0, NULL, "x" },
	{ "Aw: [PATCH 1/3] x", 1, 1, 3, 1, 0, 0, 1, 0, NULL, "x" },
	{ "AW: [PATCH 1/3] x", 1, 1, 3, 1, 0, 0, 1, 0, NULL, "x" },
	{ "Fwd: [PATCH 1/3] x", 1, 1, 3, 1, 0, 0, 1, 0, NULL, "x" },
	{ "Re: Re: [PATCH v4 3/3] x", 4, 3, 3, 1, 0, 0, 1, 0, NULL, "x" },
	{ "Re: [PATCH] Re: x", 1, 1, 1, 1, 0, 0, 1, 0, NULL, "Re: x" },
	{ "[EXT] Re: [PATCH v2 2/3] outlook", 2, 2, 3, 1, 0, 0, 1, 0, NULL, "outlook" },
	{ "[PATCH] [v2] split tags", 2, 1, 1, 1, 0, 0, 0, 0, NULL, "split tags" },
	{ "[PATCH for-6.5 v2 1/2] two words", 2, 1, 2, 1, 0, 0, 0, 0, "for-6.5", "two words" },
	{ "[PATCH bpf-next 1/2] x", 1, 1, 2, 1, 0, 0, 0, 0, "bpf-next", "x" },
	{ "Re: hello", 1, 0, 0, 0, 0, 0, 1, 0, NULL, "hello" },
	{ "[powerpc:next] BUILD SUCCESS 1234", 1, 0, 0, 0, 0, 0, 0, 0, NULL, "[powerpc:next] BUILD SUCCESS 1234" },
	{ "plain words", 1, 0, 0, 0, 0, 0, 0, 0, NULL, "plain words" },
	{ "", 1, 0, 0, 0, 0, 0, 0, 0, NULL, "" },
	{ "[PATCH v2 1/3]", 2, 1, 3, 1, 0, 0, 0, 0, NULL, "" },
	{ "[PATCH v2 1/3", 1, 0, 0, 0, 0, 0, 0, 0, NULL, "[PATCH v2 1/3" },
	{ "  [PATCH v7 04/11]   spaces  ", 7, 4, 11, 1, 0, 0, 0, 0, NULL, "spaces" },
};

/* The tag as sent, for format to write it again. */
static const char *const sent[][2] = {
	{ "[PATCH v3 02/17] mm: do a thing", "PATCH" },
	{ "[RFC PATCH v2 1/9] x: y", "RFC PATCH" },
	{ "[PATCH RFC v2 1/9] x: y", "PATCH RFC" },
	{ "[PATCH mm-unstable v3 1/7] mm: z", "PATCH mm-unstable" },
	{ "[PATCH net-next v4 0/7] net: cover", "PATCH net-next" },
	{ "[RFC PATCH net-next v4 02/17] net: foo", "RFC PATCH net-next" },
	{ "[PATCH 6.1 v2 0/7] Backport Build ID fixes", "PATCH 6.1" },
	{ "[PATCH v5 0/3 RESEND] sed-opal: keyrings", "PATCH RESEND" },
	{ "[PATCHv2 1/3] glued", "PATCH" },
	{ "[patch v5 10/12] lower case", "patch" },
	{ "[PATCH 2/2 v3] late version", "PATCH" },
	{ "[PATCH] [v2] split tags", "PATCH" },
	{ "[EXT] Re: [PATCH v2 2/3] outlook", "PATCH" },
	{ "Re: [PATCH for-6.5 v2 1/2] two words", "PATCH for-6.5" },
	{ "[RFC] idea", "RFC" },
	{ "[powerpc:next] BUILD SUCCESS 1234", "" },
	{ "plain words", "" },
};

static void test_sent_prefix(void)
{
	size_t i;

	for (i = 0; i < sizeof(sent) / sizeof(sent[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		subject_sent_prefix(sent[i][0], &sb);
		is_str(sb.buf, sent[i][1], "prefix as sent of \"%s\"",
		       sent[i][0]);
		strbuf_release(&sb);
	}
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i];
		struct subject s;
		int good;

		subject_init(&s);
		subject_parse(&s, w->subject);
		good = s.version == w->version && s.index == w->index &&
		       s.total == w->total && s.is_patch == w->patch &&
		       s.is_rfc == w->rfc && s.is_resend == w->resend &&
		       s.is_reply == w->reply && s.is_cover == w->cover;
		if (!ok(good, "tags of \"%s\"", w->subject))
			printf("#   got v%d %d/%d patch=%d rfc=%d resend=%d reply=%d cover=%d\n",
			       s.version, s.index, s.total, s.is_patch, s.is_rfc,
			       s.is_resend, s.is_reply, s.is_cover);
		is_str(s.prefix, w->prefix, "prefix of \"%s\"", w->subject);
		is_str(s.title, w->title, "title of \"%s\"", w->subject);
		subject_release(&s);
	}
	test_sent_prefix();
	return done_testing();
}
