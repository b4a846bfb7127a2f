// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing the trailers trailers_collect() found into a version's
 * commits: which commits change, whose they are to send, the commits
 * written again and the branch moved (review/trailers.h).
 */
#include "review/trailers.h"
#include "patches/msgtrailers.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The local branch at tip: HEAD's when it is, else the first by name. */
static int find_branch(git_repository *repo, const git_oid *tip,
		       struct strbuf *name)
{
	git_reference *head = NULL;
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	int found = 0;

	if (!git_repository_head(&head, repo) && git_reference_is_branch(head) &&
	    git_reference_target(head) &&
	    git_oid_equal(git_reference_target(head), tip)) {
		strbuf_addstr(name, git_reference_name(head));
		found = 1;
	}
	git_reference_free(head);
	git_error_clear();
	if (found)
		return 1;
	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0)
		return 0;
	while (!found && !git_branch_next(&ref, &type, it)) {
		if (git_reference_target(ref) &&
		    git_oid_equal(git_reference_target(ref), tip)) {
			strbuf_addstr(name, git_reference_name(ref));
			found = 1;
		}
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	git_error_clear();
	return found;
}

/* Whether patch i's commit changes: trailers to add, or stale to drop. */
static int has_new(const struct trailers_report *r, size_t i, int drop_stale)
{
	size_t k;

	for (k = 0; k < r->patches[i].nr; k++)
		if (r->patches[i].items[k].state == GIVEN_NEW ||
		    (drop_stale &&
		     r->patches[i].items[k].state == GIVEN_STALE))
			return 1;
	return 0;
}

/* The address of msg's last Signed-off-by (lower case), into out. */
static void last_signoff(const char *msg, struct strbuf *out)
{
	git_message_trailer_array have = { 0 };
	char *head = xstrndup(msg, message_notes_start(msg));
	size_t i;

	strbuf_reset(out);
	if (!git_message_trailers(&have, head))
		for (i = 0; i < have.count; i++)
			if (!strcasecmp(have.trailers[i].key, "Signed-off-by"))
				trailer_value_key(have.trailers[i].value, out);
	git_message_trailer_array_free(&have);
	git_error_clear();
	free(head);
}

/*
 * Whether owner sends commit c: the last Signed-off-by is owner's, or
 * owner committed it (a colleague's patch carried).  Else why not,
 * into why.
 */
static int owner_sends(git_commit *c, const char *owner, struct strbuf *why)
{
	const git_signature *a = git_commit_author(c);
	const git_signature *cm = git_commit_committer(c);
	struct strbuf sob = STRBUF_INIT;
	int ok;

	last_signoff(git_commit_message(c), &sob);
	ok = !strcasecmp(sob.buf, owner) || !strcasecmp(cm->email, owner);
	if (!ok) {
		strbuf_addf(why, "is by %s <%s>, ", a->name, a->email);
		if (sob.len)
			strbuf_addf(why, "signed off last by %s", sob.buf);
		else
			strbuf_addstr(why, "with no Signed-off-by");
		strbuf_addf(why, " and committed by %s <%s>: not a patch you "
			    "send (%s)", cm->name, cm->email, owner);
	}
	strbuf_release(&sob);
	return ok;
}

/*
 * The commits of v are one line on its base, and those that change
 * are owner's to send (unless o->all).
 */
static int check_commits(git_repository *repo, const struct series_version *v,
			 const struct trailers_report *r,
			 const struct trailers_apply_opts *o)
{
	struct strbuf why = STRBUF_INIT, list = STRBUF_INIT;
	git_oid parent = v->base;
	size_t i, refused = 0;

	for (i = 0; i < v->nr_patches; i++) {
		git_commit *c = NULL;

		if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0)
			return error_git("cannot read %zu/%zu of v%d", i + 1,
					 v->nr_patches, v->number);
		if (git_commit_parentcount(c) != 1 ||
		    !git_oid_equal(git_commit_parent_id(c, 0), &parent)) {
			git_commit_free(c);
			return error("%zu/%zu %s of v%d does not sit on the "
				     "patch before it: the recorded range is "
				     "not one line of commits", i + 1,
				     v->nr_patches,
				     oid_short(&v->patches[i].commit, 12),
				     v->number);
		}
		strbuf_reset(&why);
		if (!o->all && o->owner && has_new(r, i, o->drop_stale) &&
		    !owner_sends(c, o->owner, &why)) {
			strbuf_addf(&list, "\n  %zu/%zu %s \"%s\" %s",
				    i + 1, v->nr_patches,
				    oid_short(&v->patches[i].commit, 12),
				    v->patches[i].subject, why.buf);
			refused++;
		}
		parent = v->patches[i].commit;
		git_commit_free(c);
	}
	strbuf_release(&why);
	if (!refused)
		return 0;
	error("%zu patch%s not yours to send: respin writes trailers only "
	      "into patches you send; nothing was changed:%s", refused,
	      refused == 1 ? " is" : "es are", list.buf);
	strbuf_release(&list);
	error_hint("add your Signed-off-by to carry a patch, or give --all "
		   "to write into every patch");
	return RESPIN_ERR;
}

/*
 * Patch i written again on *parent with its new trailers (and without
 * its stale ones, o->drop_stale); *parent becomes the new commit,
 * *nr_commits counts those that changed.
 */
static int rewrite_patch(git_repository *repo, const struct series_version *v,
			 const struct trailers_report *r, size_t i,
			 const struct trailers_apply_opts *o,
			 const git_signature *committer,
			 git_oid *parent, size_t *nr_commits)
{
	git_commit *c = NULL, *pc = NULL;
	git_tree *tree = NULL;
	struct trailer_list add, drop;
	struct strbuf msg = STRBUF_INIT, kept = STRBUF_INIT;
	git_oid id;
	size_t k, n;
	int ret = 0;

	trailer_list_init(&add);
	trailer_list_init(&drop);
	for (k = 0; k < r->patches[i].nr; k++) {
		const struct given *g = &r->patches[i].items[k];

		if (g->state == GIVEN_NEW)
			trailer_list_add(&add, g->key, strlen(g->key),
					 g->value, strlen(g->value));
		else if (g->state == GIVEN_STALE && o->drop_stale)
			trailer_list_add(&drop, g->key, strlen(g->key),
					 g->value, strlen(g->value));
	}
	if (git_commit_lookup(&c, repo, &v->patches[i].commit) < 0 ||
	    git_commit_tree(&tree, c) < 0 ||
	    git_commit_lookup(&pc, repo, parent) < 0) {
		ret = error_git("cannot read %zu/%zu of v%d", i + 1,
				v->nr_patches, v->number);
		goto out;
	}
	n = message_drop_trailers(git_commit_message(c), &drop, &kept);
	/* before the sender's own Signed-off-by, the last in the chain */
	n += message_add_trailers(kept.buf, &add, o->owner ? o->owner :
				  git_commit_author(c)->email, &msg);
	if (n)
		(*nr_commits)++;
	if (git_commit_create(&id, repo, NULL, git_commit_author(c), committer,
			      git_commit_message_encoding(c), msg.buf, tree,
			      1, (const git_commit **)&pc) < 0)
		ret = error_git("cannot write %zu/%zu of v%d", i + 1,
				v->nr_patches, v->number);
	else
		*parent = id;
out:
	trailer_list_release(&add);
	trailer_list_release(&drop);
	strbuf_release(&msg);
	strbuf_release(&kept);
	git_tree_free(tree);
	git_commit_free(c);
	git_commit_free(pc);
	return ret;
}

/* The branch moved from v's tip to tip, only if it is still there. */
static int move_branch(git_repository *repo, const struct series_version *v,
		       const char *branch, const git_oid *tip,
		       size_t nr_commits)
{
	git_reference *ref = NULL;
	struct strbuf log = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&log, "respin trailers: %zu commit%s of v%d", nr_commits,
		    nr_commits == 1 ? "" : "s", v->number);
	if (git_reference_create_matching(&ref, repo, branch, tip, 1, &v->tip,
					  log.buf) < 0)
		r = error_git("cannot move %s (did it move meanwhile?); the "
			      "new commits are written, the branch is as it "
			      "was", branch);
	git_reference_free(ref);
	strbuf_release(&log);
	return r;
}

int trailers_apply(git_repository *repo, const struct series_version *v,
		   const struct trailers_report *r,
		   const struct trailers_apply_opts *o, struct strbuf *branch,
		   git_oid *new_tip, size_t *nr_commits)
{
	git_signature *committer = NULL;
	git_oid parent;
	size_t i, first = v->nr_patches;
	int ret;

	*nr_commits = 0;
	if (series_version_mail_only(v))
		return error("v%d was recorded from mail only: it has no "
			     "commits to write trailers into (git am it onto "
			     "its base, then 'respin track' links the branch "
			     "to it)", v->number);
	for (i = 0; i < v->nr_patches && first == v->nr_patches; i++)
		if (has_new(r, i, o->drop_stale))
			first = i;
	*new_tip = v->tip;
	if (first == v->nr_patches)
		return 0;	/* nothing to add */
	if (!find_branch(repo, &v->tip, branch))
		return error("no branch points at the tip of v%d (%s): check "
			     "out the branch that holds it, or track the "
			     "branch again", v->number, oid_short(&v->tip, 12));
	ret = check_commits(repo, v, r, o);
	if (ret < 0)
		return ret;
	if (o->dry_run) {
		for (i = first; i < v->nr_patches; i++)
			*nr_commits += has_new(r, i, o->drop_stale);
		return 0;
	}
	ret = repo_signature(repo, &committer);
	if (ret < 0)
		return ret;
	/* every commit from the first one to change on is written again */
	parent = first ? v->patches[first - 1].commit : v->base;
	for (i = first; i < v->nr_patches && !ret; i++)
		ret = rewrite_patch(repo, v, r, i, o, committer,
				    &parent, nr_commits);
	if (!ret)
		ret = move_branch(repo, v, branch->buf, &parent, *nr_commits);
	if (!ret)
		*new_tip = parent;
	git_signature_free(committer);
	return ret;
}
