// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP and TAP test output (kunit, kselftest, a serial console): the
 * parse, the leaves, the counts and the JSON that results store.
 */
#include "ci/ktap.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>

FUZZ_TARGET(ktap)
{
	struct ktap_result r;
	struct ktap_leaf *leaves = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct json j;
	size_t nr, i;

	ktap_parse((const char *)data, size, &r);
	nr = ktap_result_leaves(&r, &leaves);
	for (i = 0; i < nr; i++)
		if (!leaves[i].path || !leaves[i].test ||
		    !ktap_status_name(leaves[i].status))
			abort();
	ktap_leaves_free(leaves, nr);
	if (!ktap_verdict_name(r.verdict))
		abort();
	/* what ci/engine.c stores reads back */
	json_init(&j, &sb, 0);
	ktap_result_to_json(&j, &r, KTAP_JSON_LEAVES);
	fuzz_json_check(sb.buf, sb.len);
	strbuf_reset(&sb);
	json_init(&j, &sb, 1);
	ktap_result_to_json(&j, &r, KTAP_JSON_TREE | KTAP_JSON_LEAVES |
			    KTAP_JSON_DIAGNOSTICS);
	ktap_result_release(&r);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
