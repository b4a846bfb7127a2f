// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkpatch.pl's "--terse --show-types --showfile" output: the
 * findings, the summary and the JSON that results store.
 */
#include "ci/lint.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>

FUZZ_TARGET(lint)
{
	struct lint_report lr = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct json j;
	size_t i;

	lint_parse(&lr, (const char *)data, size);
	if (lr.errors + lr.warnings + lr.checks != lr.nr)
		abort();
	for (i = 0; i < lr.nr; i++)
		if (!lr.items[i].severity || !lr.items[i].type ||
		    !lr.items[i].file || !lr.items[i].message)
			abort();
	lint_summary(&lr, &sb);
	strbuf_reset(&sb);
	json_init(&j, &sb, 0);
	lint_to_json(&lr, &j);
	fuzz_json_check(sb.buf, sb.len);
	lint_report_release(&lr);
	strbuf_release(&sb);
	return 0;
}
