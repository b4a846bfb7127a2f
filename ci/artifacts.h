/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_ARTIFACTS_H
#define RESPIN_CI_ARTIFACTS_H

#include <git2.h>

#include "ci/checks.h"
#include "tools/lib/strbuf.h"

/*
 * The built artifacts of each tree, kept by tree OID: a build check's
 * respin.check.NAME.artifacts (paths under the build directory, such as
 * arch/x86/boot/bzImage) are copied after each build that passed to
 *
 *	.git/respin/artifacts/<build check hash>/<tree OID>/<path>
 *
 * so that a bench alternating between the base and a patch runs each
 * side on its own tree's build without building it again.  A tree's
 * directory appears whole (copied aside, then renamed) or not at all.
 */

/*
 * Checks a configured list (paths separated by white space): each a
 * relative path inside the build directory.  0, or an error naming key.
 */
int artifacts_check_list(const char *key, const char *list);

/* The directory of tree's artifacts of build check b, into out. */
void artifacts_dir(git_repository *repo, const struct check *b,
		   const git_oid *tree, struct strbuf *out);
/* 1 when every artifact of b is kept for tree, else 0. */
int artifacts_have(git_repository *repo, const struct check *b,
		   const git_oid *tree);
/*
 * Keeps b's artifacts of tree from build_dir (which holds that tree's
 * build).  0, or an error naming an artifact the build did not make.
 */
int artifacts_keep(git_repository *repo, const struct check *b,
		   const git_oid *tree, const char *build_dir);

/*
 * The same, as sh for a node that built tree in "$RESPIN_BUILD" (a
 * chain of builds moves on before respin reads the step): appended to
 * out.
 */
void artifacts_keep_command(git_repository *repo, const struct check *b,
			    const git_oid *tree, struct strbuf *out);

#endif
