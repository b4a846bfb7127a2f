/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_QUILTREPLACE_H
#define RESPIN_SERIES_QUILTREPLACE_H

#include "series/quilt.h"
#include "series/replace.h"

/*
 * respin replace --quilt DIR: the stack read on rq->base as a branch,
 * the series' version in it swapped as replace swaps it in a branch,
 * and the result written back as patch files: the old version's files
 * replaced by the new version's (named as akpm names them, from the
 * title) at the old first patch's line of the series file, the later
 * patches after it kept (a file whose diff moved rewritten), obsolete
 * fixups' lines removed (with rq->drop_obsolete), comments kept.  With
 * rq->dry_run nothing is written; report says per file what was (or
 * would be) written or removed.
 */
struct quilt_replace {
	struct quilt_stack q;
	struct strbuf report;
};

int quilt_replace_run(git_repository *repo, const struct replace_request *rq,
		      const char *dir, struct replace_run *rr,
		      struct quilt_replace *qr);
void quilt_replace_release(struct quilt_replace *qr);

#endif
