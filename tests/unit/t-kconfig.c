// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The options a small configuration needs for a series: from the
 * Makefile line that builds a touched file, and from a selftests config
 * fragment (6.1's mm/Makefile and tools/testing/selftests/vm/config
 * lines, as they are).
 */
#include "ci/kconfig.h"
#include "tests/unit/tap.h"

#include <string.h>

static const char makefile[] =
	"obj-y\t\t\t:= filemap.o mempool.o oom_kill.o fadvise.o \\\n"
	"\t\t\t   maccess.o page-writeback.o folio-compat.o \\\n"
	"\t\t\t   readahead.o swap.o truncate.o vmscan.o shmem.o \n"
	"obj-$(CONFIG_NUMA) \t+= mempolicy.o\n"
	"obj-$(CONFIG_SPARSEMEM)\t+= sparse.o\n"
	"obj-$(CONFIG_COMPACTION) += compaction.o\n"
	"obj-$(CONFIG_MIGRATION) += migrate.o \\\n"
	"\t\t\t migrate_device.o\n"
	"obj-$(CONFIG_KSM) += ksm.o\n"
	"obj-$(CONFIG_TEST$(shell x)) += evil.o\n";

static const char fragment[] =
	"CONFIG_SYSVIPC=y\n"
	"CONFIG_USERFAULTFD=y\n"
	"CONFIG_TEST_VMALLOC=m\n"
	"CONFIG_DEVICE_PRIVATE=y\n"
	"# CONFIG_FOO is not set\n"
	"CONFIG_TEST_HMM=m\n"
	"CONFIG_GUP_TEST=y\n"
	"CONFIG_BAD;NAME=y\n"
	"CONFIG_SYSVIPC=y";

static void wants(const char *object, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	kconfig_makefile_options(makefile, strlen(makefile), object, &out);
	ok(!strcmp(out.buf, want), "%s: '%s' (want '%s')", object, out.buf,
	   want);
	strbuf_release(&out);
}

int main(void)
{
	struct strbuf out = STRBUF_INIT;

	wants("compaction.o", "COMPACTION");
	wants("mempolicy.o", "NUMA");
	wants("vmscan.o", "");		/* obj-y: always built */
	wants("migrate_device.o", "MIGRATION");	/* a continued line */
	wants("migrate.o", "MIGRATION");
	wants("sparse.o", "SPARSEMEM");
	wants("parse.o", "");		/* not a part of a word */
	wants("evil.o", "");		/* not a plain name */

	kconfig_fragment_options(fragment, strlen(fragment), &out);
	ok(!strcmp(out.buf, "SYSVIPC USERFAULTFD DEVICE_PRIVATE GUP_TEST"),
	   "fragment: the =y options, each once: '%s'", out.buf);
	strbuf_release(&out);
	return done_testing();
}
