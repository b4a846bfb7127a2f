// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Build warnings: the input is two build logs (split at the first
 * NUL byte, or one log twice), as after patch i-1 and patch i; each is
 * parsed, the second carried over the first as ci/ does, and the sets
 * written out and read back.
 */
#include "ci/warnings.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

static void warnings_fuzz_sorted(const struct warning_set *ws)
{
	size_t i;

	for (i = 1; i < ws->nr; i++)
		if (strcmp(ws->items[i - 1], ws->items[i]) >= 0)
			abort();
}

FUZZ_TARGET(warnings)
{
	const char *text = (const char *)data, *nul;
	struct warning_set prev = { 0 }, now = { 0 }, units = { 0 };
	struct warning_set out = { 0 }, back = { 0 };
	struct strbuf sb = STRBUF_INIT, file = STRBUF_INIT;
	size_t len1 = size, i;
	struct json j;

	nul = memchr(text, '\0', size);
	if (nul)
		len1 = nul - text;
	warnings_parse(&prev, NULL, text, len1, "/tmp/build", "/src/linux");
	if (nul)
		warnings_parse(&now, &units, nul + 1, size - len1 - 1,
			       "/tmp/build", "/src/linux");
	else
		warnings_parse(&now, &units, text, size, NULL, NULL);
	warnings_fuzz_sorted(&prev);
	warnings_fuzz_sorted(&now);
	warnings_fuzz_sorted(&units);
	warnings_carry(&out, &prev, &now, &units, "mm/vmscan.c\ninclude/linux/mm.h");
	warnings_fuzz_sorted(&out);
	for (i = 0; i < now.nr; i++) {
		if (!warning_set_has(&out, now.items[i]))
			abort();
		strbuf_reset(&file);
		warning_file(&file, now.items[i]);
	}
	/* one warning a line, and back: the same set */
	warning_set_format(&out, &sb);
	warning_set_parse_lines(&back, sb.buf);
	if (back.nr != out.nr)
		abort();
	for (i = 0; i < out.nr; i++)
		if (strcmp(back.items[i], out.items[i]))
			abort();
	strbuf_reset(&sb);
	json_init(&j, &sb, 0);
	json_object_begin(&j);
	warning_set_json(&j, "warnings", &out);
	json_object_end(&j);
	fuzz_json_check(sb.buf, sb.len);
	warning_set_release(&prev);
	warning_set_release(&now);
	warning_set_release(&units);
	warning_set_release(&out);
	warning_set_release(&back);
	strbuf_release(&sb);
	strbuf_release(&file);
	return 0;
}
