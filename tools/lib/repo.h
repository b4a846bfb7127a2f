/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REPO_H
#define RESPIN_REPO_H

#include <git2.h>
#include "strbuf.h"

/*
 * Opens the repository as git finds it: $GIT_DIR when set (also what
 * "git --git-dir=X respin" passes), else the one containing the
 * current directory (up to $GIT_CEILING_DIRECTORIES); $GIT_WORK_TREE,
 * when set, is its work tree.
 */
int repo_open(git_repository **out);

/*
 * The signature respin writes its own commits with: GIT_COMMITTER_NAME,
 * GIT_COMMITTER_EMAIL and GIT_COMMITTER_DATE (repo_env_date()) when
 * set, else user.name/user.email, else "respin".
 * The caller frees it with git_signature_free().
 */
int repo_signature(git_repository *repo, git_signature **out);

/*
 * GIT_COMMITTER_DATE in every form git reads: "@EPOCH [+ZZZZ]" and
 * "EPOCH +ZZZZ" here, the others ("2024-01-01T00:00:00Z", RFC 2822,
 * ...) by git var, once a process.  0 with the time and its offset
 * (minutes east of UTC; offset may be NULL), -1 when it is unset or
 * git does not read it either.
 */
int repo_env_date(int64_t *when, int *offset);

/* Seconds since the epoch, honouring GIT_COMMITTER_DATE as above. */
int64_t repo_now(void);

/* Resolves REV to a commit; the message names REV on failure. */
int repo_commit_lookup(git_repository *repo, const char *rev,
		       git_commit **out);

/*
 * A snapshot of repo's config, or of the user's global and system config
 * when repo is NULL; a libgit2 error code.  The caller frees *cfg.
 */
int repo_config_snapshot(git_repository *repo, git_config **cfg);

/*
 * The value of a git config key (respin.lore-url, ...), or def when it
 * is unset or there is no repository; the caller frees it.
 */
char *repo_config_string(git_repository *repo, const char *key,
			 const char *def);

/*
 * The user's editor as git picks it: GIT_EDITOR, core.editor, VISUAL,
 * EDITOR, else "vi".  Free it.
 */
char *repo_editor(git_repository *repo);

/* respin.lore-url (default https://lore.kernel.org/all), no trailing '/'. */
char *repo_lore_url(git_repository *repo);

/* Short display name: refs/heads/x -> x, refs/remotes/o/x -> o/x. */
const char *repo_ref_short(const char *ref);
/* "YYYY-MM-DD HH:MM" in local time, in a buffer of the calling thread. */
const char *repo_date(int64_t when);

/* Appends the first n hex digits of an OID. */
void strbuf_add_oid(struct strbuf *sb, const git_oid *oid, size_t n);
/*
 * The abbreviated hex of oid (n digits) in a ring of 4 buffers of the
 * calling thread: valid for the next 3 calls in that thread.
 */
const char *oid_short(const git_oid *oid, size_t n);

/*
 * Who the user is, as git's author ident: GIT_AUTHOR_NAME and
 * GIT_AUTHOR_EMAIL, else user.name and user.email; NULL when unset.
 * repo may be NULL (the user's own config).
 */
void repo_user(git_repository *repo, char **name, char **email);

#endif
