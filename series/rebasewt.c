// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rebase's own worktree (.git/respin/rebase/NAME): where a patch
 * in conflict is cherry-picked for the user to resolve, and where the
 * resolution is taken from.  Also the user's own checkout, for the
 * branch the rebase may move.
 */
#include "series/rebase.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory git commands about repo run in. */
static const char *repo_top(git_repository *repo)
{
	const char *top = git_repository_workdir(repo);

	return top ? top : git_repository_commondir(repo);
}

static int path_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static int worktree_remove(git_repository *repo, const char *path)
{
	const char *rm[] = { "git", "-C", repo_top(repo), "worktree", "remove",
			     "--force", "--force", path, NULL };
	const char *prune[] = { "git", "-C", repo_top(repo), "worktree",
				"prune", NULL };
	int r;

	if (path_exists(path) &&
	    run_checked(rm, NULL, "cannot remove the worktree") < 0)
		error_clear();
	r = remove_tree(path);
	if (r < 0)
		return r;
	return run_checked(prune, NULL, "cannot prune worktrees");
}

int rebase_leftover_remove(git_repository *repo, const char *series)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	rebase_worktree_path(repo, series, &path);
	r = path_exists(path.buf) ? worktree_remove(repo, path.buf) : 0;
	strbuf_release(&path);
	return r;
}

int rebase_state_remove(git_repository *repo, const char *series)
{
	struct strbuf path = STRBUF_INIT;
	int r = rebase_leftover_remove(repo, series);

	rebase_state_path(repo, series, &path);
	if (!r && unlink(path.buf) < 0 && errno != ENOENT)
		r = error_errno("cannot remove %s", path.buf);
	strbuf_release(&path);
	return r;
}

/* ---- the conflict, checked out ---- */

static int worktree_open(git_repository *repo, const char *series,
			 const git_oid *at, int create, git_repository **out)
{
	struct strbuf path = STRBUF_INIT, dotgit = STRBUF_INIT;
	int r = 0;

	*out = NULL;
	rebase_worktree_path(repo, series, &path);
	strbuf_addf(&dotgit, "%s/.git", path.buf);
	if (!path_exists(dotgit.buf)) {
		struct strbuf reason = STRBUF_INIT;
		/* locked with a reason: git worktree list says whose */
		const char *add[] = { "git", "-C", repo_top(repo), "worktree",
				      "add", "--detach", "-f", "-f", "--lock",
				      "--reason", NULL, path.buf,
				      oid_short(at, GIT_OID_HEXSZ), NULL };

		strbuf_addf(&reason, "respin: a rebase of series %s waits "
			    "here (respin rebase %s --continue or --abort)",
			    series, series);
		add[10] = reason.buf;

		if (!create) {
			r = error_code(RESPIN_ENOTFOUND, "the rebase's worktree "
				       "%s is gone", path.buf);
			strbuf_release(&reason);
			goto out;
		}
		/* a half-made one (a crash) goes first */
		r = worktree_remove(repo, path.buf);
		if (!r)
			r = mkdir_leading(path.buf);
		if (!r)
			r = run_checked(add, NULL, "cannot make the worktree");
		strbuf_release(&reason);
		if (r < 0)
			goto out;
	}
	if (git_repository_open(out, path.buf) < 0)
		r = error_git("cannot open the worktree %s", path.buf);
out:
	strbuf_release(&path);
	strbuf_release(&dotgit);
	return r;
}

int rebase_worktree_conflict(git_repository *repo,
			     const struct rebase_state *st,
			     const git_oid *patch)
{
	git_repository *wt = NULL;
	git_commit *at = NULL, *pick = NULL;
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	git_cherrypick_options cp = GIT_CHERRYPICK_OPTIONS_INIT;
	int r;

	r = worktree_open(repo, st->series, &st->current, 1, &wt);
	if (r < 0)
		return r;
	if (git_commit_lookup(&at, wt, &st->current) < 0 ||
	    git_commit_lookup(&pick, wt, patch) < 0) {
		r = error_git("cannot read commit %s or %s",
			      oid_short(&st->current, 12), oid_short(patch, 12));
		goto out;
	}
	/* the worktree is the rebase's own: whatever is there goes */
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (git_repository_state_cleanup(wt) < 0 ||
	    git_checkout_tree(wt, (git_object *)at, &co) < 0 ||
	    git_repository_set_head_detached(wt, &st->current) < 0) {
		r = error_git("cannot check out %s in the rebase's worktree",
			      oid_short(&st->current, 12));
		goto out;
	}
	/* markers in the files, stages in the index, CHERRY_PICK_HEAD */
	if (git_cherrypick(wt, pick, &cp) < 0)
		r = error_git("cannot cherry-pick %s into the rebase's worktree",
			      oid_short(patch, 12));
out:
	git_commit_free(pick);
	git_commit_free(at);
	git_repository_free(wt);
	return r;
}

/* The index's conflicting paths, " a b c" (five at most). */
static int conflicted_paths(git_index *index, struct strbuf *out)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;
	size_t n = 0;
	int r;

	if (git_index_conflict_iterator_new(&it, index) < 0)
		return error_git("cannot list the conflicts");
	while (!(r = git_index_conflict_next(&anc, &ours, &theirs, it))) {
		const git_index_entry *e = ours ? ours : theirs ? theirs : anc;

		if (n++ < 5)
			strbuf_addf(out, " %s", e ? e->path : "?");
	}
	if (n > 5)
		strbuf_addstr(out, " ...");
	git_index_conflict_iterator_free(it);
	return r == GIT_ITEROVER ? 0 : error_git("cannot list the conflicts");
}

/* Tracked files whose work tree copy differs from the index. */
static int unstaged_paths(git_repository *repo, unsigned show,
			  struct strbuf *out, size_t *nr)
{
	git_status_options so = GIT_STATUS_OPTIONS_INIT;
	git_status_list *list = NULL;
	size_t i, n;

	so.show = show;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, repo, &so) < 0)
		return error_git("cannot read the status of %s",
				 git_repository_workdir(repo));
	n = git_status_list_entrycount(list);
	for (i = 0; i < n && i < 5; i++) {
		const git_status_entry *e = git_status_byindex(list, i);
		const git_diff_delta *d = e->index_to_workdir ?
			e->index_to_workdir : e->head_to_index;

		if (d)
			strbuf_addf(out, " %s", d->new_file.path);
	}
	if (n > 5)
		strbuf_addstr(out, " ...");
	*nr = n;
	git_status_list_free(list);
	return 0;
}

int rebase_checkout_dirty(git_repository *repo, struct strbuf *out)
{
	size_t n = 0;
	int r;

	if (git_repository_is_bare(repo))
		return 0;
	r = unstaged_paths(repo, GIT_STATUS_SHOW_INDEX_AND_WORKDIR, out, &n);
	if (r < 0)
		return r;
	if (out->len && out->buf[0] == ' ')
		memmove(out->buf, out->buf + 1, out->len--);
	return n ? 1 : 0;
}

/* The user committed the resolution in the worktree, on st->current. */
static int resolved_by_commit(git_repository *wt,
			      const struct rebase_state *st,
			      const git_oid *head, const char *where,
			      git_oid *commit, int *empty)
{
	git_commit *c = NULL;
	int r = 0;

	if (git_commit_lookup(&c, wt, head) < 0)
		return error_git("cannot read the worktree's HEAD");
	if (git_commit_parentcount(c) != 1 ||
	    !git_oid_equal(git_commit_parent_id(c, 0), &st->current)) {
		r = error("the worktree's HEAD moved to %s, which is not one "
			  "commit on %s", oid_short(head, 12),
			  oid_short(&st->current, 12));
		error_hint("'git -C %s reset --soft %s' keeps your resolution "
			   "for --continue; '--abort' gives up", where,
			   oid_short(&st->current, 12));
	} else {
		git_commit *parent = NULL;

		git_oid_cpy(commit, head);
		if (git_commit_parent(&parent, c, 0) < 0)
			r = error_git("cannot read %s", oid_short(head, 12));
		else
			*empty = git_oid_equal(git_commit_tree_id(c),
					       git_commit_tree_id(parent));
		git_commit_free(parent);
	}
	git_commit_free(c);
	return r;
}

static int commit_resolution(git_repository *repo, const git_oid *patch,
			     const git_oid *tree_id, const git_oid *parent_id,
			     git_oid *commit)
{
	git_commit *orig = NULL, *parent = NULL;
	git_tree *tree = NULL;
	git_signature *me = NULL;
	const git_commit *parents[1];
	int r = -1;

	if (git_commit_lookup(&orig, repo, patch) < 0 ||
	    git_commit_lookup(&parent, repo, parent_id) < 0 ||
	    git_tree_lookup(&tree, repo, tree_id) < 0) {
		error_git("cannot read the patch, its new parent or the "
			  "resolved tree");
		goto out;
	}
	r = repo_signature(repo, &me);
	if (r < 0)
		goto out;
	r = RESPIN_ERR;
	parents[0] = parent;
	/* the author's patch and message; the resolution is the committer's */
	if (git_commit_create(commit, repo, NULL, git_commit_author(orig), me,
			      git_commit_message_encoding(orig),
			      git_commit_message(orig), tree, 1, parents) < 0)
		error_git("cannot write the resolved commit");
	else
		r = 0;
out:
	git_signature_free(me);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(orig);
	return r;
}

int rebase_worktree_resolved(git_repository *repo,
			     const struct rebase_state *st,
			     const git_oid *patch, git_oid *commit,
			     int *empty)
{
	git_repository *wt = NULL;
	git_index *index = NULL;
	git_commit *cur = NULL;
	struct strbuf files = STRBUF_INIT, where = STRBUF_INIT;
	git_oid head, tree;
	size_t n = 0;
	int r;

	*empty = 0;
	r = worktree_open(repo, st->series, &st->current, 0, &wt);
	if (r < 0)
		return r;
	rebase_worktree_path(repo, st->series, &where);
	if (git_reference_name_to_id(&head, wt, "HEAD") < 0) {
		r = error_git("cannot read the worktree's HEAD");
		goto out;
	}
	if (!git_oid_equal(&head, &st->current)) {
		r = resolved_by_commit(wt, st, &head, where.buf, commit, empty);
		goto out;
	}
	if (git_repository_index(&index, wt) < 0 ||
	    git_index_read(index, 1) < 0) {
		r = error_git("cannot read the index of %s", where.buf);
		goto out;
	}
	if (git_index_has_conflicts(index)) {
		r = conflicted_paths(index, &files);
		if (!r)
			r = error("conflicts not resolved yet:%s", files.buf);
		error_hint("edit the files in %s, 'git add' them there, then "
			   "'respin rebase %s --continue'", where.buf,
			   st->series);
		goto out;
	}
	r = unstaged_paths(wt, GIT_STATUS_SHOW_WORKDIR_ONLY, &files, &n);
	if (!r && n) {
		r = error("changes in %s not added:%s", where.buf, files.buf);
		error_hint("'git -C %s add' them to keep them (or 'git -C %s "
			   "checkout' them to drop them), then --continue",
			   where.buf, where.buf);
	}
	if (r < 0)
		goto out;
	if (git_index_write_tree(&tree, index) < 0 ||
	    git_commit_lookup(&cur, repo, &st->current) < 0) {
		r = error_git("cannot write the resolved tree");
		goto out;
	}
	*empty = git_oid_equal(&tree, git_commit_tree_id(cur));
	if (!*empty)
		r = commit_resolution(repo, patch, &tree, &st->current, commit);
out:
	git_commit_free(cur);
	git_index_free(index);
	git_repository_free(wt);
	strbuf_release(&files);
	strbuf_release(&where);
	return r;
}

/* ---- the user's branch ---- */

/* Whether branch is repo's own HEAD (checked out here). */
static int branch_is_head(git_repository *repo, const char *branch)
{
	git_reference *head = NULL;
	int here;

	if (git_reference_lookup(&head, repo, "HEAD") < 0) {
		git_error_clear();
		return 0;
	}
	here = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	       !strcmp(git_reference_symbolic_target(head), branch);
	git_reference_free(head);
	return here;
}

int rebase_branch_check(git_repository *repo, const char *branch,
			const git_oid *old)
{
	git_reference *ref = NULL;
	struct strbuf files = STRBUF_INIT;
	const char *name = repo_ref_short(branch);
	int r = 0, out;

	if (git_reference_lookup(&ref, repo, branch) < 0)
		return error_git("cannot read branch %s", name);
	if (!git_reference_target(ref) ||
	    !git_oid_equal(git_reference_target(ref), old)) {
		r = error("branch %s is not at the tip of the version rebased "
			  "(%s)", name, oid_short(old, 12));
		error_hint("moving it would lose what it has beyond that; "
			   "rebase it yourself ('git rebase --onto NEWTIP %s "
			   "%s') or leave out --branch", oid_short(old, 12),
			   name);
		goto done;
	}
	if (branch_is_head(repo, branch)) {
		out = rebase_checkout_dirty(repo, &files);
		if (out < 0) {
			r = out;
		} else if (out) {
			r = error("branch %s is checked out and the work tree "
				  "has changes (%s)", name, files.buf);
			error_hint("commit or stash them first ('git stash'), "
				   "or leave out --branch");
		}
		goto done;
	}
	out = git_branch_is_checked_out(ref);
	if (out < 0) {
		r = error_git("cannot tell where branch %s is checked out",
			      name);
	} else if (out) {
		r = error("branch %s is checked out in another worktree", name);
		error_hint("run the rebase there, or switch that worktree to "
			   "another branch ('git worktree list' shows it)");
	}
done:
	strbuf_release(&files);
	git_reference_free(ref);
	return r;
}

int rebase_branch_move(git_repository *repo, const char *branch,
		       const git_oid *old, const git_oid *new,
		       const char *reflog)
{
	git_reference *ref = NULL;
	git_commit *c = NULL;
	git_checkout_options co = GIT_CHECKOUT_OPTIONS_INIT;
	const char *name = repo_ref_short(branch);
	int r;

	if (branch_is_head(repo, branch)) {
		co.checkout_strategy = GIT_CHECKOUT_SAFE;
		if (git_commit_lookup(&c, repo, new) < 0)
			return error_git("cannot read %s", oid_short(new, 12));
		r = git_checkout_tree(repo, (git_object *)c, &co);
		git_commit_free(c);
		if (r < 0)
			return error_git("cannot check out %s for branch %s",
					 oid_short(new, 12), name);
	}
	r = git_reference_create_matching(&ref, repo, branch, new, 1, old,
					  reflog);
	git_reference_free(ref);
	if (r == GIT_EMODIFIED)
		return error("branch %s moved while respin worked; it was "
			     "left where it is", name);
	if (r < 0)
		return error_git("cannot move branch %s", name);
	return 0;
}
