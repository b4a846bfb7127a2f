/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_KCONFIG_H
#define RESPIN_CI_KCONFIG_H

#include "tools/lib/strbuf.h"

#include <git2.h>

/*
 * tools/kernel-config-tiny.sh's format (its "respin-tiny-config N"):
 * in the build's definition, so that results from a script that made
 * another .config are not reused.  Bump the two together.
 */
#define KCONFIG_TINY_FORMAT 5

/*
 * The kernel options a series wants in a small configuration
 * (respin.check.build.kconfig = tiny-qemu): for each .c file the series
 * touches, the option its directory's Makefile builds it under
 * ("obj-$(CONFIG_COMPACTION) += compaction.o"), and the options the
 * tree's mm selftests ask for (tools/testing/selftests/{mm,vm}/config,
 * the =y ones: a tinyconfig has no modules).  Names only, without
 * CONFIG_, each [A-Za-z0-9_]: a name from the tree that is not is left
 * out.  Space-separated into out, each once, in the order found.
 */
int kconfig_wanted(git_repository *repo, git_tree *base, git_tree *tip,
		   struct strbuf *out);

/* The options a Makefile's text builds name.o under, into out. */
void kconfig_makefile_options(const char *makefile, size_t len,
			      const char *object, struct strbuf *out);
/* The =y options of a config fragment's text, into out. */
void kconfig_fragment_options(const char *text, size_t len,
			      struct strbuf *out);

#endif
