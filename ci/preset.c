// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/preset.h"
#include "tools/lib/strbuf.h"

#include <string.h>

/*
 * mm: what an mm contributor runs on each patch, besides the built-in
 * build and checkpatch: the build in a tinyconfig that boots under
 * QEMU with the options the touched files and the mm selftests need,
 * sparse, W=1 and kernel-doc on the touched files, and the tree's own
 * mm selftests (vm in 6.1), the whole target as mm developers run it
 * (installed, run_kselftest.sh with run_vmtests.sh and the rest) in
 * the patch's kernel with the host's userspace.
 */
static const struct preset_setting mm[] = {
	{ "respin.check.build.kconfig", "tiny-qemu" },
	{ "respin.check.sparse.kind", "sparse" },
	{ "respin.check.w1.kind", "w1" },
	{ "respin.check.kdoc.kind", "kdoc" },
	{ "respin.check.selftests.kind", "kselftest" },
	{ "respin.check.selftests.targets", "mm" },
	/* (the whole target in a guest: 5 min under TCG on a busy 2-core) */
	{ "respin.check.selftests.timeout", "1800" },
};

static const struct preset presets[] = {
	{ "mm", "an mm series: a QEMU tinyconfig build, checkpatch, sparse, "
	  "W=1, kernel-doc and the whole mm selftests target in the patch's "
	  "kernel", mm,
	  sizeof(mm) / sizeof(*mm) },
};

const struct preset *preset_find(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(presets) / sizeof(*presets); k++)
		if (!strcmp(presets[k].name, name))
			return &presets[k];
	return NULL;
}

void preset_names(struct strbuf *out)
{
	size_t k;

	for (k = 0; k < sizeof(presets) / sizeof(*presets); k++)
		strbuf_addf(out, "%s%s", k ? ", " : "", presets[k].name);
}
