// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a bench run prints that respin reads (its run may be in a
 * patched kernel): /proc/vmstat text and its deltas (ci/vmstat.c), and
 * the recipes' tool output, stress-ng's YAML and fio's JSON
 * (ci/recipe.c).  The first byte picks: 0 two vmstat reads (the rest
 * cut in two at its middle), 1 stress-ng's YAML, 2 fio's JSON.
 */
#include "ci/recipe.h"
#include "ci/vmstat.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <math.h>
#include <stdlib.h>

FUZZ_TARGET(bench)
{
	const char *text = (const char *)data + 1;
	size_t len = size ? size - 1 : 0, half = len / 2;
	struct vmstat a = VMSTAT_INIT, b = VMSTAT_INIT;
	struct strbuf sb = STRBUF_INIT;
	double v = 0;

	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		if (!vmstat_parse(&a, text, half) &&
		    !vmstat_parse(&b, text + half, len - half)) {
			vmstat_delta_lines(&sb, &a, &b, "all");
			vmstat_delta_lines(&sb, &a, &b, "compact_* nr_[a-f]*");
			vmstat_globs_unmatched(&sb, &b, "compact_* x?");
		}
		break;
	case 1:
		if (!recipe_parse_stress_ng_yaml(text, len, "vm", &v) &&
		    !(v > 0))
			abort();
		break;
	default:
		if (!recipe_parse_fio_json(text, len, "randread", &v) &&
		    !(v > 0 && isfinite(v)))
			abort();
		break;
	}
	vmstat_release(&a);
	vmstat_release(&b);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
