/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_REVIEW_H
#define RESPIN_REVIEW_REVIEW_H

#include "patches/reply.h"
#include "review/comments.h"
#include "series/mailset.h"
#include "series/store.h"

/*
 * respin review's findings: the replies to a version, each placed on
 * the patch it answers (0: the cover letter), with its comments and
 * the state of each.
 */
enum review_state {
	REVIEW_OPEN,		/* nobody acted on it yet */
	REVIEW_ANSWERED,	/* the author replied under it */
	REVIEW_ADDRESSED,	/* the next version changed that part */
	REVIEW_DONE,		/* the author marked it done */
};

/* "open", "answered", "addressed", "done". */
const char *review_state_name(enum review_state s);

/* One reply with its comments, placed. */
struct review_reply {
	long msg;		/* the reply in ms */
	size_t target;		/* 0 the cover letter, else the patch */
	struct comment_list comments;
	enum review_state *states;
	char **why;		/* per comment: the answer's Message-ID, ... */
	struct trailer_list trailers;
	struct bot_report_list bots;	/* a bot's report: no comments */
};

struct review {
	struct mailset ms;		/* the mail the replies are in */
	struct mail_source *src;
	struct strbuf done;		/* "MSGID:N" / "MSGID:*" lines */
	struct review_reply *items;
	size_t nr, alloc;
};

void review_init(struct review *rv);
void review_release(struct review *rv);

/*
 * The replies to version v of s in mail source source (NULL: where the
 * version's trailers come from by default), each comment's state
 * against the next version of s and what is marked done.
 */
int review_load(git_repository *repo, struct series *s,
		struct series_version *v, const char *source, int refresh,
		struct review *rv);

/*
 * Marks comment spec ("MSGID:N", or "MSGID" for all of a reply's) of
 * the loaded review done and saves s; *id is the Message-ID marked
 * (allocated).
 */
int review_mark_done(git_repository *repo, struct series *s,
		     struct series_version *v, struct review *rv,
		     const char *spec, char **id);

#endif
