/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_BASEPROBE_H
#define RESPIN_BISECT_BASEPROBE_H

#include "bisect/search.h"
#include "bisect/testprobe.h"

/*
 * The probe of respin bisect-base: position i is the i-th first-parent
 * base commit after --good (0 is --good itself).  A position where a
 * patch of the series does not apply is bad (a conflict, said with the
 * patch and the file); without a check one where it applies is good;
 * with a check the check on the series applied there decides, as
 * respin bisect's test probe does.
 */
struct base_probe {
	git_repository *repo;
	const struct series_version *v;
	git_oid *bases;		/* positions 0..m: 0 is --good */
	size_t m;
	struct engine *e;	/* NULL without --check */
	const struct check *c;
	const char *subtest;
	/* per position */
	unsigned char *ran, *conflict;
	size_t *failed_patch;	/* conflict: 0-based patch */
	struct strbuf *why;
};

/*
 * Sets up bp (all zero before) with the base commits between good and
 * bad (revisions: a usage error when one is not a commit here, an
 * error when good is not an ancestor of bad).  The version (v) and a
 * check to run (e, c, subtest) are the caller's to fill in.  Release
 * with base_probe_release(), also on failure.
 */
int base_probe_init(struct base_probe *bp, git_repository *repo,
		    const char *good, const char *bad);
void base_probe_release(struct base_probe *bp);

/* For struct bisect_probe. */
int base_probe_test(void *data, size_t i, int again,
		    enum bisect_outcome *out);

#endif
