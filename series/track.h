/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TRACK_H
#define RESPIN_SERIES_TRACK_H

#include "series/b4.h"
#include "series/store.h"

/*
 * respin track: a version recorded from a branch, REF..TIP, or every
 * version of a "b4 prep" branch (the sent ones from their sent/ tags,
 * the one being worked on from the branch).
 */

/*
 * Moves what nv collected (base, tip, patches) into version number of
 * s and fills in when and from where; nv keeps only its extra lines.
 */
struct series_version *track_version_record(struct series *s, int number,
					    struct series_version *nv,
					    const char *base_ref,
					    const char *source);

/*
 * Replaces what version v holds (base, tip, patches) by nv's, as a
 * revision of a version not sent yet: its number, cover letter and
 * other texts stay; source says where the revision came from.  The
 * old commits stay reachable through the series' earlier metadata.
 */
void track_version_revise(struct series_version *v, struct series_version *nv,
			  const char *source);

/*
 * Records v's base..tip after v's commits were written again (why:
 * "trailers --apply"): the latest version is revised when it was not
 * sent (*revised 1), else the commits are the next version; saves s.
 * *out is the version recorded.
 */
int track_rewritten(git_repository *repo, struct series *s,
		    struct series_version *v, const git_oid *tip,
		    const char *why, struct series_version **out, int *revised);

struct track_request {
	const char *base;	/* --base REF, or NULL: the series' own */
	const char *tip;	/* the last patch, such as "HEAD" */
	int number;		/* the version to record; 0: the next */
};

enum track_outcome {
	TRACK_NOTHING,		/* the latest version has these commits */
	TRACK_RECORDED,		/* a new version */
	TRACK_REVISED,		/* the latest, not sent yet, revised */
	TRACK_LINKED,		/* the latest's patches, as these commits */
};

/*
 * Records base..tip as a version of s (loaded with SERIES_LOAD_LATEST,
 * or new with a base given) and saves s, which then tracks that base.
 * The next number once the latest version was sent (series/sent.h),
 * else the latest revised (respin.numbering "track": always the next).
 * The same patches as the latest as other commits, on its base or for
 * a version known from mail only (git am of it), are linked to it.
 *
 * When the tracked ref is not an ancestor of tip, the version sits
 * where tip leaves the ref (after rebase --onto a commit of it), or on
 * the latest version's base; --base with a commit of the tracked ref
 * keeps tracking the ref.  *v is the version recorded, or the latest.
 */
int track_range(git_repository *repo, struct series *s,
		const struct track_request *rq, struct series_version **v,
		enum track_outcome *outcome);

/* What --from-b4 did with each version b4 knows. */
enum track_b4_action {
	TRACK_B4_RECORDED,	/* a new version */
	TRACK_B4_REPLACED,	/* an unsent version recorded before, changed */
	TRACK_B4_UPDATED,	/* same patches; Message-IDs or cover added */
	TRACK_B4_UNCHANGED,	/* recorded already, as it is */
	TRACK_B4_SKIPPED,	/* the branch is a sent version, unchanged */
};

struct track_b4_outcome {
	enum track_b4_action action;
	struct b4_version *bv;	/* in the branch below */
	int same_as;		/* SKIPPED: the sent version it equals */
};

struct track_b4 {
	struct b4_branch branch;
	struct series s;	/* as saved */
	struct track_b4_outcome *out;	/* one a version of the branch */
	size_t nr;
	int recorded;		/* versions recorded or updated */
};

/*
 * Records what series name lacks of b4 branch (a new series takes the
 * branch's change-id; another change-id is refused) and saves it once.
 * Release t with track_b4_release() whatever it returns.
 */
int track_from_b4(git_repository *repo, const char *name, const char *branch,
		  struct track_b4 *t);
void track_b4_release(struct track_b4 *t);

#endif
