// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/branchuse.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* What git is doing in a worktree, as words for a message. */
static const char *state_name(int state)
{
	switch (state) {
	case GIT_REPOSITORY_STATE_MERGE:
		return "a git merge";
	case GIT_REPOSITORY_STATE_REVERT:
	case GIT_REPOSITORY_STATE_REVERT_SEQUENCE:
		return "a git revert";
	case GIT_REPOSITORY_STATE_CHERRYPICK:
	case GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE:
		return "a git cherry-pick";
	case GIT_REPOSITORY_STATE_BISECT:
		return "a git bisect";
	case GIT_REPOSITORY_STATE_REBASE:
	case GIT_REPOSITORY_STATE_REBASE_INTERACTIVE:
	case GIT_REPOSITORY_STATE_REBASE_MERGE:
		return "a git rebase";
	case GIT_REPOSITORY_STATE_APPLY_MAILBOX:
	case GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE:
		return "a git am";
	default:
		return "a git operation";
	}
}

/* The worktree's path for a message: no trailing slash. */
static void add_path(struct strbuf *sb, git_repository *wt)
{
	const char *p = git_repository_workdir(wt);
	size_t n;

	if (!p)
		p = git_repository_path(wt);
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	strbuf_add(sb, p, n);
}

/* Does gitdir/file (rebase-merge/head-name) name refname? */
static int names_ref(git_repository *wt, const char *file, const char *refname)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	int yes = 0;

	strbuf_addf(&p, "%s%s", git_repository_path(wt), file);
	if (strbuf_read_file(&text, p.buf) >= 0) {
		strbuf_rtrim(&text);
		yes = !strcmp(text.buf, refname);
	}
	strbuf_release(&p);
	strbuf_release(&text);
	return yes;
}

/*
 * One worktree: has it refname checked out, or is git rewriting it
 * there?  1 when wt is now u's (the caller then keeps it open).
 */
static int look_at(git_repository *wt, const char *refname,
		   struct branch_use *u)
{
	git_reference *head = NULL;
	int state = git_repository_state(wt), mine = 0;

	if (git_reference_lookup(&head, wt, "HEAD") == 0 &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strcmp(git_reference_symbolic_target(head), refname)) {
		if (!u->wt) {
			u->wt = wt;
			mine = 1;
		}
		if (state != GIT_REPOSITORY_STATE_NONE && !u->busy) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s in ", state_name(state));
			add_path(&sb, wt);
			u->busy = strbuf_detach(&sb, NULL);
		}
	} else if (!u->busy &&
		   (names_ref(wt, "rebase-merge/head-name", refname) ||
		    names_ref(wt, "rebase-apply/head-name", refname))) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "a git rebase in ");
		add_path(&sb, wt);
		u->busy = strbuf_detach(&sb, NULL);
	}
	git_reference_free(head);
	return mine;
}

int branch_use_find(git_repository *repo, const char *refname,
		    struct branch_use *u)
{
	git_repository *main = NULL;
	git_strarray names = { 0 };
	size_t i;

	memset(u, 0, sizeof(*u));
	if (!git_repository_is_bare(repo) && look_at(repo, refname, u))
		u->owned = 0;
	/* the main worktree, when repo is a linked one */
	if (git_repository_is_worktree(repo) &&
	    git_repository_open(&main, git_repository_commondir(repo)) == 0) {
		if (git_repository_is_bare(main) || !look_at(main, refname, u))
			git_repository_free(main);
		else
			u->owned = 1;
	}
	if (git_worktree_list(&names, repo) < 0)
		return error_git("cannot list the worktrees of %s",
				 git_repository_commondir(repo));
	for (i = 0; i < names.count; i++) {
		git_worktree *w = NULL;
		git_repository *wt = NULL;

		if (git_worktree_lookup(&w, repo, names.strings[i]) < 0 ||
		    git_worktree_validate(w) < 0 ||
		    git_repository_open_from_worktree(&wt, w) < 0) {
			git_worktree_free(w);
			error_clear();
			continue;
		}
		git_worktree_free(w);
		/* repo itself is one of them when it is a linked worktree */
		if (!strcmp(git_repository_path(wt), git_repository_path(repo)) ||
		    !look_at(wt, refname, u))
			git_repository_free(wt);
		else
			u->owned = 1;
	}
	git_strarray_dispose(&names);
	return 0;
}

void branch_use_release(struct branch_use *u)
{
	if (u->owned)
		git_repository_free(u->wt);
	free(u->busy);
	memset(u, 0, sizeof(*u));
}

int branch_use_check_clean(const struct branch_use *u, const char *branch)
{
	git_status_options so = GIT_STATUS_OPTIONS_INIT;
	git_status_list *st = NULL;
	struct strbuf where = STRBUF_INIT;
	size_t n;
	int r = 0;

	if (u->busy)
		return error("%s is being rewritten by %s: finish it or abort "
			     "it first (git status says how)", branch, u->busy);
	if (!u->wt)
		return 0;
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&st, u->wt, &so) < 0)
		return error_git("cannot read the status of the worktree");
	n = git_status_list_entrycount(st);
	git_status_list_free(st);
	if (!n)
		return 0;
	if (u->owned) {
		strbuf_addstr(&where, " in ");
		add_path(&where, u->wt);
	}
	r = error("%s is checked out%s and the worktree has changes not "
		  "committed: commit or stash them first", branch, where.buf);
	strbuf_release(&where);
	return r;
}

int branch_use_follow(const struct branch_use *u, const git_oid *from,
		      const git_oid *to)
{
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	git_commit *a = NULL, *b = NULL;
	git_tree *base = NULL;
	int r = 0;

	if (!u->wt)
		return 0;
	if (git_commit_lookup(&a, u->wt, from) < 0 ||
	    git_commit_tree(&base, a) < 0 ||
	    git_commit_lookup(&b, u->wt, to) < 0) {
		r = error_git("cannot read %s", oid_short(to, 12));
		goto out;
	}
	/*
	 * The worktree and the index hold from's tree: checking out to's
	 * against it as the baseline writes what the move changed, into
	 * both, and leaves the rest (HEAD already names to).
	 */
	co.checkout_strategy = GIT_CHECKOUT_SAFE;
	co.baseline = base;
	if (git_checkout_tree(u->wt, (git_object *)b, &co) < 0)
		r = error_git("the worktree could not follow");
out:
	git_tree_free(base);
	git_commit_free(a);
	git_commit_free(b);
	return r;
}
