/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_THREAD_H
#define RESPIN_SERIES_THREAD_H

#include "series/lorefind.h"
#include "series/mailset.h"
#include "series/trailerdiff.h"

/* What respin thread shows of a thread or a mailbox. */
struct mail_thread {
	struct mailset ms;
	struct mail_source *src;
	struct lore_find lf;		/* with a search */
	int searched;
	long only;			/* the series asked for, or -1: all */
	struct trailerdiff *lost;	/* only's versions: what each lost */
	struct strbuf found;		/* how a search found each version */
};

struct mail_thread_opts {
	int refresh;		/* fetch lore: again, ignoring the cache */
	int search;		/* lore:MSGID: find the other versions too */
	/* before each lore request (progress), or NULL */
	void (*progress)(const char *what, void *data);
	/* patch-ids group a mailbox of up to 2000 messages (no want) */
	int patch_ids;
	/* the versions of want's series loaded, what each lost */
	int load;
};

/*
 * Opens mail source spec and groups it into series; with want (a
 * Message-ID) finds the series it is in (an error when none).  Release
 * t with mail_thread_release() whatever it returns.
 */
int mail_thread_open(git_repository *repo, const char *spec,
		     const char *want, const struct mail_thread_opts *o,
		     struct mail_thread *t);
void mail_thread_release(struct mail_thread *t);

/* The series (the one asked for, or all) as text, escaped for a terminal. */
void mail_thread_text(const struct mail_thread *t, struct strbuf *out);
/* The same as JSON, with the notes (all of them, or about the series). */
void mail_thread_json(const struct mail_thread *t, int all_notes,
		      struct strbuf *out);
/*
 * The notes to show, a line each (about the series asked for unless
 * all_notes); returns how many notes about other series were left out.
 * How a search found each version is in t->found.
 */
size_t mail_thread_notes(const struct mail_thread *t, int all_notes,
			 struct strbuf *notes);

#endif
