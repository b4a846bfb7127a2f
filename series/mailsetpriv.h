/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_MAILSETPRIV_H
#define RESPIN_SERIES_MAILSETPRIV_H

#include "series/mailset.h"

/*
 * What the files of the mail set share among themselves (mailset.c,
 * mailsetscan.c, mailsetversions.c, mailsetidentity.c,
 * mailsetoverlap.c, mailsetload.c, mailsetreroll.c); nothing outside them includes it.
 */

/* mailset.c: a note about message msg and versions v, other (-1: none). */
void ms_note_add(struct mailset *ms, long msg, long v, long other,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The series version v ends up in (through what superseded it), or -1. */
long ms_series_of_version(const struct mailset *ms, long v);

/* mailsetversions.c: the steps of grouping messages into versions. */
void ms_classify(struct mailset *ms);
void ms_make_versions(struct mailset *ms);
void ms_attach_replies(struct mailset *ms);
/* Whether a version has no message of its own. */
int ms_version_empty(const struct ms_version *v);

/* mailsetidentity.c: linking versions into series. */
enum link_kind {
	LINK_CHANGE_ID,
	LINK_REFERENCE,	/* a Link: or In-Reply-To to another version */
	LINK_TITLE,	/* the same cover (or patch 1) title, one author */
	LINK_OVERLAP,	/* enough patches in common, one author */
};

enum link_refusal {
	REFUSED_NONE,
	REFUSED_FEW,	/* too few patches in common */
	REFUSED_ORDER,	/* a lower version number dated after a higher */
	REFUSED_NUMBER,	/* one number, two different sets of patches */
	REFUSED_TREE,	/* backports to two stable trees */
};

/* Two versions of one author kept apart although something tied them. */
struct link_apart {
	long a, b;		/* the versions */
	long x, y;		/* the two that disagree, or -1 */
	int common;		/* patches of a also in b */
	enum link_kind kind;
	enum link_refusal why;
};

struct linker {
	long *parent;		/* union-find over the versions */
	long *next;		/* the versions of each group, as a ring */
	char **title;		/* normalised titles; NULL: no head */
	struct link_apart *apart;
	size_t nr_apart, alloc_apart;
	struct { long from, to; } *refs;	/* references, linked last */
	size_t nr_refs, alloc_refs;
};

long ms_uf_find(long *parent, long x);
long ms_count_present(const struct ms_version *v);
/* A title lowercased, white space runs as one space, trimmed. */
char *ms_norm_title(const char *t);
void ms_link_note_apart(struct linker *lk, long a, long b, long x, long y,
			int common, enum link_kind kind,
			enum link_refusal why);
int ms_version_link(const struct mailset *ms, struct linker *lk, long a,
		    long b, enum link_kind kind, int full, int common);

/*
 * mailsetreroll.c: a version of series s that resends some patches in
 * reply to the version before it takes the others from that version.
 */
void ms_fill_rerolls(struct mailset *ms, const struct ms_series *s);

/* mailsetoverlap.c: versions of one author sharing enough patches. */
void ms_link_overlap(struct mailset *ms, struct linker *lk,
		     const long *order, int ids);

#endif
