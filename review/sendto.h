/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_SENDTO_H
#define RESPIN_REVIEW_SENDTO_H

#include <git2.h>
#include "review/format.h"
#include "review/recipients.h"
#include "series/store.h"

/*
 * Who a version goes to, for respin send and for the To:/Cc: lines
 * respin cover --edit offers.  In this order, each address once:
 *
 *   --to/--cc ("option"), the cover letter's own To:/Cc: lines ("cover
 *   letter"), git config respin.series.NAME.to/.cc ("config"), the
 *   tree's scripts/get_maintainer.pl on the patches, the recipients of
 *   every earlier version ("vN sent": what respin send sent, or the
 *   To:/Cc: of a version imported from the list; the newest first, at
 *   most SENDTO_MAX_EARLIER of them), the addresses of the patches'
 *   *-by:/Cc: trailers ("trailer"), everyone who replied to this
 *   version or an earlier one, a tag given or not ("replied to vN", as
 *   import recorded them), and the patches' authors ("author").
 *
 * Addresses respin cover --edit offered (vN/recipients-offered) that
 * the author deleted from the cover letter are left out of everything
 * but --to/--cc, and listed in rc->dropped.  The newest record decides:
 * v's own, else that of the nearest version before it (a deletion
 * holds for later versions until their own edit).
 */
/* How many earlier versions' recipients and repliers are read. */
#define SENDTO_MAX_EARLIER 32

struct sendto_options {
	const char *to, *cc;	/* from the command line, or NULL */
	int ran_get_maintainer;	/* out: get_maintainer.pl ran */
	int no_get_maintainer;	/* out: the tree has none */
	/* "vN sent", "replied to vN": rc's sources point here */
	char sources[SENDTO_MAX_EARLIER][24];
	char replied[SENDTO_MAX_EARLIER][32];
};

/*
 * Fills rc for the mails of res, written in dir (get_maintainer.pl
 * reads them there).  Returns 0; RESPIN_EUSAGE for --to/--cc that are
 * not addresses; another error for a To:/Cc: line of the cover letter
 * that is not one (named).
 */
int sendto_collect(git_repository *repo, const struct series *s,
		   const struct series_version *v,
		   const struct format_result *res, const char *dir,
		   struct sendto_options *o, struct recipients *rc);

/*
 * Writes the mails of res into a new folder of the repository's own
 * (.git/respin/send-XXXXXX), named in dir; sendto_remove_mails() takes
 * them away again.
 */
int sendto_write_mails(git_repository *repo, const struct format_result *res,
		       struct strbuf *dir);
void sendto_remove_mails(const char *dir, const struct format_result *res);

/*
 * For respin cover --edit: text (a cover text, maybe with To:/Cc: lines
 * above its title) gets, in their place, every recipient of the
 * version as To:/Cc: lines; offered gets what was offered (the older
 * offer and these), to store as vN/recipients-offered with the text.
 */
int sendto_offer(git_repository *repo, struct series *s,
		 struct series_version *v, struct strbuf *text,
		 struct strbuf *offered);

#endif
