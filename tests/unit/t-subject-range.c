// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Subject numbers are range-checked: a version or counter too large for
 * respin is not read as a tag (it stays in the prefix and out_of_range
 * says so); nothing wraps around.
 */
#include "patches/subject.h"
#include "tests/unit/tap.h"

struct want {
	const char *subject;
	int version, index, total, out_of_range;
	const char *prefix, *title;
};

static const struct want cases[] = {
	{ "[PATCH v4294967297 1/2] wraps", 1, 1, 2, 1, "v4294967297", "wraps" },
	{ "[PATCH v4294967296 1/2] wraps to 0", 1, 1, 2, 1, "v4294967296", "wraps to 0" },
	{ "[PATCHv99999999999999999999 1/2] glued", 1, 1, 2, 1, "PATCHv99999999999999999999", "glued" },
	{ "[PATCH v9999 1/2] the largest", 9999, 1, 2, 0, NULL, "the largest" },
	{ "[PATCH v10000 1/2] one more", 1, 1, 2, 1, "v10000", "one more" },
	{ "[PATCH v0 1/2] zero", 1, 1, 2, 1, "v0", "zero" },
	{ "[PATCH v2 4294967297/4294967298] counter", 2, 1, 1, 1, "4294967297/4294967298", "counter" },
	{ "[PATCH v2 1/4294967297] total", 2, 1, 1, 1, "1/4294967297", "total" },
	{ "[PATCH v2 999/999] the largest series", 2, 999, 999, 0, NULL, "the largest series" },
	{ "[PATCH v2 1/1000] too long a series", 2, 1, 1, 1, "1/1000", "too long a series" },
	{ "[PATCH v2 5/3] index above total", 2, 1, 1, 1, "5/3", "index above total" },
	{ "[PATCH v2 0/0] no patches", 2, 1, 1, 1, "0/0", "no patches" },
	{ "[PATCH v3 0/3] a cover", 3, 0, 3, 0, NULL, "a cover" },
	{ "[PATCH v2 02/17] leading zeros", 2, 2, 17, 0, NULL, "leading zeros" },
	{ "[PATCH v002 000000000000000000001/2] many zeros", 2, 1, 2, 0, NULL, "many zeros" },
};

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
		       s.total == w->total &&
		       s.out_of_range == w->out_of_range;
		if (!ok(good, "numbers of \"%s\"", w->subject))
			printf("#   got v%d %d/%d out_of_range=%d\n",
			       s.version, s.index, s.total, s.out_of_range);
		is_str(s.prefix, w->prefix, "prefix of \"%s\"", w->subject);
		is_str(s.title, w->title, "title of \"%s\"", w->subject);
		subject_release(&s);
	}
	return done_testing();
}
