/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_MAILSET_H
#define RESPIN_MAILSET_H

#include <git2.h>
#include "patches/patchmail.h"
#include "patches/reply.h"
#include "patches/source.h"
#include "patches/subject.h"
#include "tools/lib/mempool.h"
#include "tools/lib/strbuf.h"
#include "tools/lib/strmap.h"

/*
 * The series in a set of mail (a thread, a mailbox, a year of a list).
 *
 * mailset_scan() reads only the headers of every message;
 * mailset_group() puts patch mails into versions (a cover letter and
 * its patches: by In-Reply-To/References and the i/N counters, with or
 * without a cover letter), attaches every reply to the patch it
 * answers, and links versions into series: by change-id, by Link:s and
 * In-Reply-To to earlier versions, by the same title, and by the
 * patches they have in common (titles, and patch-ids when bodies are
 * loaded) when that is at least half of the smaller version; version
 * numbers that run against the dates keep two versions apart.
 * mailset_load() parses the bodies of one version in full (GMime):
 * messages, diffs, patch-ids, trailers in the patches and in replies.
 *
 * Messages, versions and series are referred to by index; -1 is none.
 */
enum ms_kind { MS_OTHER, MS_PATCH, MS_COVER, MS_REPLY };

/*
 * The strings of a message (tags included: not subject_release() them)
 * live in the mailset's pool, which mailset_release() frees; some are
 * shared, none may be written to.  There is one ms_msg for every
 * message of a year of a list: keep it small.
 */
struct ms_msg {
	char *msgid;		/* never NULL (made up when missing) */
	char *irt;
	char **refs;		/* the root and at most three nearest */
	char *subject;
	char *from_name, *from_addr;
	long long date;
	size_t number;		/* in the source */
	struct subject tags;
	int version;		/* patches and covers: their version */
	int patch_of;		/* replies: the patch or cover they answer */
	enum ms_kind kind;
	unsigned nr_refs:3;
	unsigned missing_id:1;
	unsigned bad:1;		/* could not be read; skipped */
	unsigned cut:1;		/* ends in the middle of a line */
	signed int tz:15;	/* date's zone, minutes east of UTC */
};

/* What mailset_load() reads for a patch or a cover letter. */
struct ms_detail {
	struct strbuf body;
	struct patchmail pm;
	git_oid patch_id;
	unsigned has_patch_id:1;
	long *replies;
	size_t nr_replies, alloc_replies;
	struct trailer_list reply_trailers;	/* given in replies */
	struct bot_report_list bot_reports;	/* bots' replies (reply.h) */
	char *unreadable;	/* why its diff could not be read, or NULL */
};

/*
 * A slot of a version.  A year of a list has thousands of versions
 * (some of hundreds of patches) and details are wanted for a few: the
 * slot stays two words until its version is loaded.
 */
struct ms_patch {
	long msg;		/* -1: this patch is missing */
	struct ms_detail *d;	/* NULL until mailset_load() */
};

struct ms_version {
	int number, total;
	long cover;
	struct ms_patch *patches;	/* total entries, patch i at [i-1] */
	char *title;
	char *from_addr;
	long long date;
	char *change_id;
	long series;
	long superseded_by;	/* a resend of the same version won */
	int rfc;
	char *key;		/* grouping key (owned) */
	struct ms_patch cover_part;	/* the cover's details and replies */
	size_t nr_replies;	/* replies to its cover and patches */
	unsigned loaded:1;
	unsigned has_own_patches:1;	/* patches of its cover's version */
};

struct ms_series {
	long *versions;		/* by number; superseded resends left out */
	size_t nr, alloc;
	char *title;
};

/*
 * A note about the mail (a resend, a gap, a message not read, two
 * series that share a patch), naming what it is about: a command that
 * shows one series shows only the notes about it.
 */
struct ms_note {
	char *text;		/* one line, no newline (owned) */
	long msg;		/* the message it is about, or -1 */
	long version, other;	/* the versions it is about, or -1 */
};

struct mailset {
	struct mail_source *src;	/* borrowed */
	struct ms_msg *msgs;
	size_t nr_msgs, alloc_msgs;
	struct mem_pool strings;	/* of the messages */
	struct strmap by_id;
	struct ms_version *versions;
	size_t nr_versions, alloc_versions;
	struct ms_series *series;
	size_t nr_series, alloc_series;
	struct ms_note *notes;
	size_t nr_notes, alloc_notes;
	size_t nr_bad;
};

/*
 * Opens a mail source the way commands do: lore: from respin.lore-url
 * (default https://lore.kernel.org/all), cached under respin's cache
 * directory; notmuch: from respin.notmuch-path (default: the user's
 * database).  repo may be NULL (config from ~/.gitconfig only).
 */
int mailset_source_open(git_repository *repo, const char *spec,
			int refresh, struct mail_source **out);

void mailset_init(struct mailset *ms, struct mail_source *src);
void mailset_release(struct mailset *ms);

int mailset_scan(struct mailset *ms);

enum mailset_group_flags {
	/* parse every patch and link versions by patch-ids too */
	MAILSET_PATCH_IDS = 1 << 0,
};
/*
 * focus, when not NULL, is the Message-ID the caller cares about: only
 * versions by that message's author are read for change-ids and links
 * (other authors' versions are still grouped, by subject only), which
 * keeps a lookup in a year of mail fast.
 */
int mailset_group(struct mailset *ms, unsigned flags, const char *focus);
/* The message with this Message-ID (with or without <>), or -1. */
long mailset_find(const struct mailset *ms, const char *msgid);
/* The series a message belongs to (patch, cover or reply), or -1. */
long mailset_series_of(const struct mailset *ms, long msg);
/* A version's head: its cover letter, else its first patch there; -1 none. */
long mailset_version_head(const struct ms_version *v);
/*
 * Whether note n is about series si: one of its versions, patches or
 * the replies to them.  Every note is about si = -1 (everything).
 */
int mailset_note_about(const struct mailset *ms, size_t n, long si);
/* Parses version v in full; idempotent. */
int mailset_load(struct mailset *ms, long v);

/* The raw text of a message, appended to out. */
int mailset_raw(struct mailset *ms, long msg, struct strbuf *out);
/* Its header alone (mail_source_get_head()). */
int mailset_raw_head(struct mailset *ms, long msg, struct strbuf *out);

#endif
