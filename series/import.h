/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_IMPORT_H
#define RESPIN_SERIES_IMPORT_H

#include "series/mailpatch.h"
#include "series/mailset.h"
#include "series/store.h"

/*
 * A version from mail, as respin records it: each patch's commit
 * message, author and diff come from its mail; with a base, the patches
 * are applied and committed (as git am would); without one
 * ("mail-only") the mail itself is stored beside the version so that
 * diff, cover letters and review work, and a later import applies it.
 */

/* "base-commit: X" named in the cover letter or the patches, or NULL. */
char *import_base_commit(struct mailset *ms, long vi);
/*
 * How loaded version vi was sent, into sv: its subject prefix (the tag
 * of the cover letter, else of 1/N, without version and counter), and
 * the base-commit: and prerequisite-patch-id: lines it named.
 */
void import_sent_info(struct mailset *ms, long vi, struct series_version *sv);

/*
 * Who loaded version vi went to and who answered it, beside sv: a
 * version whose cover letter (else 1/N) was addressed to someone was
 * sent, and gets a "sent" text as respin send writes it (To:, Cc:,
 * Message-Id: lines; one there already stays), so that respin send
 * refuses to send it again and offers its recipients to the next
 * version; everyone who replied to it, but its author and bots, is
 * added to its "replied" text.  0, or <0 when the store cannot be read.
 */
int import_sent_record(git_repository *repo, struct series *s,
		       struct mailset *ms, long vi, struct series_version *sv);

/*
 * Applies the patches onto base and commits each; fills v's patches,
 * base and tip.  On failure names the patch (its Message-ID), the file
 * and the reason, and leaves v without patches.
 */
int import_apply(git_repository *repo, git_commit *base,
		 struct mail_patch *patches, size_t nr,
		 struct series_version *v);

/*
 * A patch whose diff has at least respin.import.gitApplyAbove bytes
 * (default 8 MiB; 0: none) is applied by git apply --cached rather than
 * libgit2, which holds five copies of it (series/importgit.c).
 */
#define IMPORT_GIT_APPLY_KEY		"respin.import.gitApplyAbove"
#define IMPORT_GIT_APPLY_DEFAULT	((size_t)8 << 20)
/* That size from git config: 0, or <0 when it cannot be read. */
int import_git_apply_size(git_repository *repo, size_t *out);
/*
 * The tree of diff (len bytes) applied onto base_tree by git, its
 * objects in the object store (kept while objtx is under way): 0; 1
 * when it does not apply (git's message in why); <0 with a message
 * when git could not be run.
 */
int import_git_apply(git_repository *repo, const git_oid *base_tree,
		     const char *diff, size_t len, git_oid *tree,
		     struct strbuf *why);

/* Fills v's patches from mail alone: no commits; mail kept beside v. */
int import_mail_only(struct mail_patch *patches, size_t nr,
		     struct series_version *v);

/* The stored mails of a mail-only version, read back. */
int import_stored_patches(git_repository *repo, const struct series *s,
			  const struct series_version *v,
			  struct mail_patch **out, size_t *nr);

/* ---- respin import ---- */

struct import_opts {
	const char *base;	/* --base REF, or NULL: the mail's base-commit */
	int mail_only;		/* record from the mail alone */
	int all;		/* every version of the series */
	int refresh;		/* fetch lore: again, ignoring the cache */
	int no_search;		/* with lore: and all, the thread alone */
	/* before each lore request (progress), or NULL */
	void (*progress)(const char *what, void *data);
	int recorded;		/* versions recorded so far (out) */
};

/*
 * Records into s, from mail source spec, the version that want (a
 * Message-ID, or NULL: the source's one series) belongs to, or with
 * o->all every version of its series (with lore: also those a search
 * finds).  report gets a line a version; notes what the mail tells of
 * the series (a resend, a gap, how a search found each version), a
 * line each.  *keep (*nkeep of them, allocated) are the tips to keep
 * reachable when s is saved.  Nothing is saved.
 */
int import_from_source(git_repository *repo, struct series *s,
		       const char *spec, const char *want,
		       struct import_opts *o, struct strbuf *report,
		       struct strbuf *notes, git_oid **keep, size_t *nkeep);

/* Applies mail-only version number of s onto o->base; *keep its tip. */
int import_stored(git_repository *repo, struct series *s, int number,
		  struct import_opts *o, struct strbuf *report, git_oid *keep);

/*
 * Saves s after an import recorded something: a change-id and the
 * time it was created when new, o->base as its base ref when it had
 * none or a stored version was applied (from NULL), else from names
 * the source in the commit message.
 */
int import_save(git_repository *repo, struct series *s,
		const struct import_opts *o, const char *from,
		const git_oid *keep, size_t nkeep);

#endif
