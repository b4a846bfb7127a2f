/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TRAILERDIFF_H
#define RESPIN_SERIES_TRAILERDIFF_H

#include "patches/patchmail.h"
#include "series/mailset.h"
#include "series/rangediff.h"
#include "series/store.h"
#include "tools/lib/json.h"

/*
 * Tags an unchanged patch lost between two versions: one list of what
 * respin thread, respin cover and respin diff flag.
 *
 * A patch of vB is the same as one of vA when their patch-ids are
 * equal, else when their titles are and so are the lines their diffs
 * add and remove (a rebase that only moved the context).  A tag that
 * vA's patch had -- in the patch itself, given to it in a reply, or
 * given to vA's whole series in a reply to its cover letter -- and that
 * vB's patch has nowhere (not in the patch, not given to it or to vB's
 * series since) is lost.  Tags are the "*-by" ones and Fixes:; two are
 * the same when their keys are and so are their addresses (their
 * values when they have none; Fixes: by the commit id).
 */

enum trailerdiff_where {
	TRAILERDIFF_IN_PATCH,
	TRAILERDIFF_IN_REPLY,		/* given to the patch in a reply */
	TRAILERDIFF_FOR_SERIES,		/* given in a reply to the cover */
};

struct trailerdiff_patch {
	char *title;
	git_oid patch_id, change;
	unsigned has_patch_id:1, has_change:1;
	struct trailer_list own;	/* in the patch */
	struct trailer_list given;	/* in replies to it */
};

struct trailerdiff_version {
	int number;
	struct trailerdiff_patch *patches;
	size_t nr, alloc;
	struct trailer_list series_given;	/* in replies to its cover */
};

struct trailerdiff_lost {
	size_t a, b;		/* the patch in each version, 0-based */
	char *key, *value;
	enum trailerdiff_where where;
};

struct trailerdiff {
	int va, vb;		/* the version numbers */
	size_t na, nb;		/* their patch counts */
	struct trailerdiff_lost *items;
	size_t nr, alloc;
};

void trailerdiff_version_init(struct trailerdiff_version *v, int number);
void trailerdiff_version_release(struct trailerdiff_version *v);
/* Appends a patch (trailer lists empty); returns it. */
struct trailerdiff_patch *trailerdiff_version_add(struct trailerdiff_version *v,
						  const char *title);
/*
 * Sets p's change from a diff (a mail's or the part of a range-diff
 * text from its first file on): the lines its hunks add and remove.
 */
void trailerdiff_patch_set_diff(struct trailerdiff_patch *p, const char *diff,
				size_t len);

/* Version vi of a mailset, loaded with mailset_load(). */
void trailerdiff_version_from_mailset(struct trailerdiff_version *out,
				      const struct mailset *ms, long vi);

/*
 * A recorded version: its patches' texts rp[0..nr) (as
 * series_rangediff_patches() gives them), patch-ids, and the tags given
 * in replies when it was imported (its "given-trailers", see
 * trailerdiff_given_text()).
 */
int trailerdiff_version_from_store(struct trailerdiff_version *out,
				   git_repository *repo,
				   const struct series *s,
				   const struct series_version *v,
				   const struct rangediff_patch *rp,
				   size_t nr);

/*
 * The tags given in replies to version vi of a loaded mailset, as
 * import stores them beside the version: one "N Key: value" line each,
 * N the patch (0: the cover letter, for the whole series).  Empty when
 * there are none.
 */
void trailerdiff_given_text(const struct mailset *ms, long vi,
			    struct strbuf *out);

void trailerdiff_compute(struct trailerdiff *out,
			 const struct trailerdiff_version *a,
			 const struct trailerdiff_version *b);
/* The same for two recorded versions of s (reads their patches). */
int trailerdiff_between(struct trailerdiff *out, git_repository *repo,
			const struct series *s,
			const struct series_version *va,
			const struct series_version *vb);
/*
 * What recorded version v lost against the version recorded before it
 * (nothing when it is the first).
 */
int trailerdiff_since_previous(struct trailerdiff *out, git_repository *repo,
			       struct series *s, struct series_version *v);
void trailerdiff_release(struct trailerdiff *td);

/*
 * "lost Reviewed-by: A <a@b> (on v3 2/3, unchanged since)": what
 * happened to l, for a line under or beside vB's patch.
 */
void trailerdiff_describe(const struct trailerdiff *td,
			  const struct trailerdiff_lost *l, struct strbuf *out);
/* "v4 2/3 lost Reviewed-by: ... (on v3 2/3, unchanged since)": item i. */
void trailerdiff_line(const struct trailerdiff *td, size_t i,
		      struct strbuf *out);
/*
 * One trailerdiff_line() a tag v lost since the version before it,
 * each ending in a newline, appended to out (or a line saying why they
 * cannot be compared): what format and send warn of.
 */
void trailerdiff_lines(struct strbuf *out, git_repository *repo,
		       struct series *s, struct series_version *v);

/*
 * l as a JSON object: key, value, version and index (of the patch in
 * vA that had it), where ("patch", "reply", "series"), patch (the
 * patch of vB that lost it, 1-based) and text (as trailerdiff_describe()
 * says it).
 */
void trailerdiff_lost_json(struct json *j, const struct trailerdiff *td,
			   const struct trailerdiff_lost *l);

#endif
