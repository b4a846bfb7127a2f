/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_STORE_H
#define RESPIN_SERIES_STORE_H

#include <git2.h>
#include <stdint.h>
#include "tools/lib/strbuf.h"

/*
 * The series store: one ref per series, refs/respin/series/NAME,
 * pointing at a chain of metadata commits.  Each metadata commit's tree
 * holds a "series" blob (name, change-id, base ref) and one folder per
 * version, "vN/meta" (base, tip, patches).  Its parents are the
 * previous metadata commit and the tip of the version it added, so
 * every version's patches stay reachable and git gc keeps them.  A save
 * writes objects first and then moves the ref with compare-and-swap,
 * so a crash leaves the old state and a concurrent writer fails
 * instead of being lost.
 */

#define SERIES_REF_PREFIX "refs/respin/series/"

struct series_patch {
	git_oid commit;		/* zero for a version known only from mail */
	git_oid patch_id;
	char *subject;
	char *message_id;	/* as sent or received, without <> */
	char *author;		/* "Name <email>" when known from mail */
	/* continuation lines this respin does not know, kept as they are */
	struct strbuf extra;
};

/*
 * A named text stored beside a version's metadata (vN/NAME): the cover
 * letter, a patch's mail ("mail-0001").  Set with series_version_attach;
 * read with series_version_attachment.
 */
struct series_attachment {
	char *name;
	struct strbuf text;
};

struct series_version {
	int number;
	git_oid base;		/* the base commit it was recorded on */
	git_oid tip;
	char *base_ref;		/* the base ref's name at the time */
	int64_t recorded;
	char *source;		/* where it came from, free text */
	char *message_id;	/* the cover letter's (or 1/N's) Message-ID */
	/*
	 * As the version was sent, when it came from mail: the subject's
	 * tag without version and counter ("PATCH mm-unstable", "RFC
	 * PATCH"), the base-commit: it named (hex, as written) and its
	 * prerequisite-patch-id: lines (the ids, one a line), or NULL.
	 */
	char *subject_prefix;
	char *sent_base;
	char *sent_prereqs;
	struct series_patch *patches;
	size_t nr_patches, alloc_patches;
	/* lines this version of respin does not know, kept as they are */
	struct strbuf extra;
	int loaded;		/* meta read (versions may load lazily) */
	/* texts to write beside the metadata on the next save */
	struct series_attachment *attach;
	size_t nr_attach, alloc_attach;
};

struct series {
	char *name;
	char *change_id;
	char *base_ref;
	int64_t created;
	struct strbuf extra;
	git_oid meta;		/* current metadata commit; zero if new */
	int64_t updated;	/* its commit time */
	git_tree *tree;		/* its tree, for lazy version loads */
	struct series_version *versions;	/* ascending by number */
	size_t nr_versions, alloc_versions;
};

enum series_load_flags {
	SERIES_LOAD_ALL = 0,		/* every version's metadata */
	SERIES_LOAD_LATEST = 1 << 0,	/* only the newest version's */
};

/* A valid series name: [A-Za-z0-9][A-Za-z0-9._-]*, at most 100 bytes. */
int series_name_check(const char *name);

/*
 * Loads series NAME.  Returns 0, RESPIN_ENOTFOUND (with a message) if
 * there is no such series, or another negative code.  Release with
 * series_release().
 */
int series_load(git_repository *repo, const char *name, struct series *s,
		unsigned flags);
/* Loads a version's metadata if it was skipped by SERIES_LOAD_LATEST. */
int series_version_ensure(git_repository *repo, struct series *s,
			  struct series_version *v);
void series_init(struct series *s, const char *name);
void series_release(struct series *s);

/*
 * What "respin list" shows, read from the metadata commit's message
 * alone (series_save writes it there with the tree, so it is as
 * current): one object a series.
 */
struct series_summary {
	char *name;
	git_oid meta;
	int64_t updated;
	int latest;		/* 0 when the commit has no summary */
	int versions;
	size_t patches;		/* (size_t)-1 when the commit does not say */
	char *base_ref;
	char *change_id;
	int rebased_from;	/* the latest version was rebased from vN */
};

/* Every series' summary, sorted by name; free with series_summaries_free. */
int series_summaries(git_repository *repo, struct series_summary **out,
		     size_t *nr);
void series_summaries_free(struct series_summary *l, size_t nr);

/* Calls fn for every series name, sorted; stops on a nonzero return. */
int series_foreach_name(git_repository *repo,
			int (*fn)(const char *name, void *data), void *data);

struct series_version *series_latest(struct series *s);
struct series_version *series_version_find(struct series *s, int number);
/* Adds an empty version N (kept sorted); returns it. */
struct series_version *series_version_add(struct series *s, int number);
void series_version_release(struct series_version *v);
struct series_patch *series_version_add_patch(struct series_version *v);
/* A version recorded from mail alone: some patch has no commit. */
int series_version_mail_only(const struct series_version *v);

/*
 * Stores text as vN/NAME on the next save (replacing any there).  NAME
 * is a plain file name: letters, digits, '-', '_' and '.'.
 */
void series_version_attach(struct series_version *v, const char *name,
			   const char *text, size_t len);
/* The same, taking text's buffer as it is (text is left empty). */
void series_version_attach_take(struct series_version *v, const char *name,
				struct strbuf *text);
/*
 * Reads vN/NAME of a saved (or pending) version into out; returns
 * RESPIN_ENOTFOUND, without a message, when there is none.
 */
int series_version_attachment(git_repository *repo, const struct series *s,
			      const struct series_version *v,
			      const char *name, struct strbuf *out);
/* The size of vN/NAME without reading it: 0, RESPIN_ENOTFOUND, <0. */
int series_version_attachment_size(git_repository *repo,
				   const struct series *s,
				   const struct series_version *v,
				   const char *name, size_t *size);

/*
 * The texts respin keeps beside a version, each under a name of the
 * store's own (the names are on disk: never renamed).
 */
enum series_text {
	SERIES_TEXT_COVER,	/* the cover letter, "title\n\nbody\n" */
	SERIES_TEXT_GIVEN,	/* tags given in replies (trailerdiff.h) */
	SERIES_TEXT_OFFERED,	/* the recipients cover --edit offered */
	SERIES_TEXT_SENT,	/* what send sent, and to whom */
	SERIES_TEXT_DONE,	/* review comments marked done */
	SERIES_TEXT_REPLIED,	/* who replied to it ("Name <a@b>" lines) */
};

/* series_version_attach() and _attachment() of one of those texts. */
void series_version_set_text(struct series_version *v, enum series_text what,
			     const char *text, size_t len);
int series_version_text(git_repository *repo, const struct series *s,
			const struct series_version *v, enum series_text what,
			struct strbuf *out);
/* The mail of patch n (1-based) of a version recorded from mail. */
void series_version_set_mail(struct series_version *v, size_t n,
			     const char *text, size_t len);
/* The same, taking text's buffer (a big patch is not copied). */
void series_version_take_mail(struct series_version *v, size_t n,
			      struct strbuf *text);
int series_version_mail(git_repository *repo, const struct series *s,
			const struct series_version *v, size_t n,
			struct strbuf *out);
/* The size of that mail, read without reading it. */
int series_version_mail_size(git_repository *repo, const struct series *s,
			     const struct series_version *v, size_t n,
			     size_t *size);

/*
 * Writes s as a new metadata commit and moves the ref from s->meta
 * (or from nothing, for a new series) to it.  keep_reachable, when not
 * NULL, is the commit to add as a parent (a new version's tip).
 */
int series_save(git_repository *repo, struct series *s,
		const git_oid *keep_reachable, const char *message);
/* The same, keeping nkeep commits reachable (zero OIDs are skipped). */
int series_save_many(git_repository *repo, struct series *s,
		     const git_oid *keep, size_t nkeep, const char *message);

/*
 * Parses "NAME", "NAME@vN" or "NAME@N" into name (allocated) and
 * version (0 = latest).
 */
int series_spec_parse(const char *spec, char **name, int *version);
/* Parses "vN" or "N" (N >= 1); returns -1 if not a version. */
int series_version_parse(const char *s);

/*
 * Loads the series named by "NAME[@vN]" (every version) and points *v at
 * the version asked for (the latest if none).  Errors name what is
 * missing and list what exists.
 */
int series_load_spec(git_repository *repo, const char *spec,
		     struct series *s, struct series_version **v);
/* Finds version N of a loaded series; the error lists what exists. */
int series_version_get(struct series *s, int number,
		       struct series_version **v);

/* A b4-style change-id: YYYYMMDD-slug-<12 hex>. */
void series_change_id_make(struct strbuf *out, const char *name, int64_t when);

#endif
