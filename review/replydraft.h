/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REPLYDRAFT_H
#define RESPIN_REVIEW_REPLYDRAFT_H

#include <git2.h>
#include <stdint.h>
#include "review/reply.h"
#include "tools/lib/strbuf.h"

/* What respin reply answers, and how. */
struct reply_request {
	const char *source;	/* an mbox, a maildir, lore:, notmuch: */
	const char *msgid;	/* the message, without <> */
	int refresh;		/* fetch lore: again, ignoring the cache */
	int results;		/* add the stored results of its patch */
	const char *trailer;	/* "Reviewed-by", or NULL */
	const char *name, *addr;	/* who replies (addr required) */
	int64_t date;
};

/*
 * The reply draft to message rq->msgid of rq->source (quoted,
 * threaded, with the results block and the trailer asked for) into
 * draft, its own Message-ID into id.
 */
int reply_make(git_repository *repo, const struct reply_request *rq,
	       struct strbuf *draft, struct strbuf *id);

#endif
