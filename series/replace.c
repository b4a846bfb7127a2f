// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/replace.h"
#include "series/branchuse.h"
#include "series/pick.h"
#include "series/sent.h"
#include "patches/subject.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

void replace_plan_init(struct replace_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->failed_commit = -1;
	strbuf_init(&p->why, 0);
}

void replace_plan_release(struct replace_plan *p)
{
	size_t i;

	for (i = 0; i < p->nr_carried; i++)
		carry_commit_release(&p->carried[i]);
	free(p->carried);
	free(p->left_out);
	strbuf_release(&p->why);
	replace_plan_init(p);
}

/* "conflict in a.c, b.c" out of one path a line. */
static void say_conflict(struct strbuf *why, const struct strbuf *files)
{
	const char *p = files->buf;
	int first = 1;

	strbuf_addstr(why, "conflict in ");
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addf(why, "%s%.*s", first ? "" : ", ", (int)n, p);
		first = 0;
		p += n + (nl ? 1 : 0);
	}
}

/* The old commit (scan index) new patch i replaces, or -1. */
static long old_of(const struct tree_found *f,
		   const struct series_version *to, size_t i)
{
	const struct series_version *v = f->v;
	char *ti = subject_title(to->patches[i].subject ?
				 to->patches[i].subject : "", 1);
	size_t k;
	long r = -1;

	for (k = 0; k < v->nr_patches && r < 0; k++)
		if (f->at[k] && !git_oid_is_zero(&v->patches[k].patch_id) &&
		    git_oid_equal(&v->patches[k].patch_id,
				  &to->patches[i].patch_id))
			r = (long)f->at[k] - 1;
	for (k = 0; k < v->nr_patches && r < 0; k++) {
		char *tk = subject_title(v->patches[k].subject ?
					 v->patches[k].subject : "", 1);

		if (f->at[k] && !strcmp(tk, ti))
			r = (long)f->at[k] - 1;
		free(tk);
	}
	free(ti);
	return r;
}

/* The first old commit of the series in the scan. */
static long first_old(const struct tree_found *f)
{
	size_t k;

	for (k = 0; k < f->v->nr_patches; k++)
		if (f->at[k])
			return (long)f->at[k] - 1;
	return -1;
}

/* New patch i's message with the maintainer's part of its old commit. */
static int carry_one(git_repository *repo, const struct tree_scan *t,
		     const struct tree_found *f, struct series_version *to,
		     const struct carry_given_list *given, size_t i,
		     struct carry_commit *cc, git_signature **committer)
{
	long at = old_of(f, to, i);
	int no_pred = at < 0;
	git_commit *old = NULL, *mine = NULL;
	int r;

	if (at < 0)
		at = first_old(f);
	if ((at >= 0 && git_commit_lookup(&old, repo,
					  &t->commits[at].oid) < 0) ||
	    git_commit_lookup(&mine, repo, &to->patches[i].commit) < 0) {
		r = error_git("cannot read the commits of %s", f->s.name);
		goto out;
	}
	r = carry_make(old, git_commit_message(mine),
		       series_version_sent(to) ? to->patches[i].message_id :
		       NULL, given ? &given[i] : NULL, cc);
	cc->no_predecessor = no_pred;
	if (!r && old) {
		const git_signature *c = git_commit_committer(old);

		if (git_signature_new(committer, c->name, c->email, repo_now(),
				      c->when.offset) < 0)
			r = error_git("cannot make the committer %s", c->email);
	}
out:
	git_commit_free(old);
	git_commit_free(mine);
	return r;
}

int replace_make(git_repository *repo, const struct tree_scan *t,
		 const struct tree_found *f, struct series_version *to,
		 const struct carry_given_list *given, int drop_obsolete,
		 struct replace_plan *p)
{
	git_oid tip;
	size_t i;
	int r = 0, fi = (int)(f - t->found);

	p->f = f;
	p->to = to;
	p->left_out = xcalloc(t->nr + 1, 1);
	if (f->first)
		git_oid_cpy(&p->onto, &t->commits[f->first - 1].oid);
	else if (t->have_base)
		git_oid_cpy(&p->onto, &t->base);
	else
		return error("%s starts at the root of %s: nothing to put it "
			     "on", f->s.name, t->branch);
	git_oid_cpy(&tip, &p->onto);
	p->carried = xcalloc(to->nr_patches + 1, sizeof(*p->carried));
	for (i = 0; i < to->nr_patches; i++) {
		struct pick_result pr;
		git_signature *committer = NULL;

		if (git_oid_is_zero(&to->patches[i].commit))
			return error("%s v%d is known from mail only: apply it "
				     "first ('respin import %s@v%d --base "
				     "REF')", f->s.name, to->number, f->s.name,
				     to->number);
		p->nr_carried = i + 1;
		r = carry_one(repo, t, f, to, given, i, &p->carried[i],
			      &committer);
		if (r < 0) {
			git_signature_free(committer);
			return r;
		}
		pick_result_init(&pr);
		r = pick_commit_as(repo, &to->patches[i].commit, &tip,
				   p->carried[i].message, committer, &pr);
		git_signature_free(committer);
		if (!r && pr.conflict) {
			p->failed_patch = i + 1;
			say_conflict(&p->why, &pr.files);
			r = 1;
		} else if (!r) {
			git_oid_cpy(&tip, &pr.commit);
		}
		pick_result_release(&pr);
		if (r)
			return r;
	}
	for (i = f->first; i < t->nr; i++) {
		const struct tree_commit *c = &t->commits[i];
		int fixup = c->found == fi && c->fixup;
		struct pick_result pr;

		if (c->found == fi && !c->fixup)
			continue;	/* the old version's own */
		pick_result_init(&pr);
		r = pick_commit(repo, &c->oid, &tip, &pr);
		if (r < 0) {
			pick_result_release(&pr);
			return r;
		}
		if (fixup && (pr.conflict || pr.empty)) {
			if (drop_obsolete) {
				p->left_out[i] = 1;
				p->dropped_fixups++;
				pick_result_release(&pr);
				continue;
			}
			p->failed_commit = (int)i;
			if (pr.conflict)
				say_conflict(&p->why, &pr.files);
			else
				strbuf_addf(&p->why, "v%d has it already "
					    "(it comes out empty)", to->number);
			pick_result_release(&pr);
			return 1;
		}
		if (pr.conflict) {
			p->failed_commit = (int)i;
			say_conflict(&p->why, &pr.files);
			pick_result_release(&pr);
			return 1;
		}
		git_oid_cpy(&tip, &pr.commit);
		if (fixup)
			p->kept_fixups++;
		else
			p->kept++;
		pick_result_release(&pr);
	}
	git_oid_cpy(&p->tip, &tip);
	return 0;
}

/* ---- respin replace: the branch moved ---- */

/* The local branch to move: refs/heads/NAME or a full refs/heads/ name. */
static int branch_ref(git_repository *repo, const char *name,
		      git_reference **out)
{
	if (!git_branch_lookup(out, repo, name, GIT_BRANCH_LOCAL))
		return 0;
	if (!strncmp(name, "refs/heads/", 11) &&
	    !git_reference_lookup(out, repo, name))
		return 0;
	return error_code(RESPIN_EUSAGE, "%s is not a local branch: replace "
			  "moves a branch (git branch %s <commit> makes one)",
			  name, name);
}

/* What stopped the new history, as an error naming the branch. */
static int plan_failed(const struct replace_run *rr, const char *branch)
{
	const struct replace_plan *p = &rr->p;
	const struct tree_commit *c = p->failed_commit >= 0 ?
				      &rr->t.commits[p->failed_commit] : NULL;
	const struct tree_found *f = rr->f;

	if (p->failed_patch)
		return error("%s v%d does not go in %s: patch %zu/%zu \"%s\": "
			     "%s; %s and the store are as they were",
			     f->s.name, rr->to->number, branch,
			     p->failed_patch, rr->to->nr_patches,
			     rr->to->patches[p->failed_patch - 1].subject,
			     p->why.buf, branch);
	if (c->fixup)
		return error("the fixup %s \"%s\" of %s v%d: %s; "
			     "--drop-obsolete leaves it out; %s is as it was",
			     oid_short(&c->oid, 12), c->subject, f->s.name,
			     f->v->number, p->why.buf, branch);
	return error("%s \"%s\", after %s in %s, does not apply on v%d: %s; "
		     "%s is as it was", oid_short(&c->oid, 12), c->subject,
		     f->s.name, branch, rr->to->number, p->why.buf, branch);
}

/*
 * The branch moved to the new tip, only from the value it was scanned
 * at (compare-and-swap); its worktree, if any, follows.
 */
static int move_branch(git_repository *repo, struct replace_run *rr,
		       git_reference *ref, const struct branch_use *use,
		       const char *branch)
{
	git_reference *moved = NULL;
	struct strbuf msg = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&msg, "respin replace %s v%d -> v%d", rr->f->s.name,
		    rr->f->v->number, rr->to->number);
	if (git_reference_create_matching(&moved, repo,
					  git_reference_name(ref), &rr->p.tip,
					  1, &rr->t.tip, msg.buf) < 0)
		r = error_git("cannot move %s (did it move meanwhile?)",
			      branch);
	else if (branch_use_follow(use, &rr->t.tip, &rr->p.tip) < 0)
		r = error("%s moved to %s, but its worktree could not follow "
			  "(%s): 'git reset --hard' there makes it", branch,
			  oid_short(&rr->p.tip, 12), error_last());
	else
		rr->moved = 1;
	git_reference_free(moved);
	strbuf_release(&msg);
	return r;
}

/* The version to put in: rq->version, else the latest. */
static int pick_version(struct replace_run *rr,
			const struct replace_request *rq)
{
	struct series *s = (struct series *)&rr->f->s;

	rr->to = rq->version ? series_version_find(s, rq->version) :
		 series_latest(s);
	if (!rr->to)
		return error("%s has no v%d", s->name, rq->version);
	return 0;
}

int replace_run_scanned(git_repository *repo,
			const struct replace_request *rq,
			struct replace_run *rr)
{
	int r;

	rr->f = tree_scan_find(&rr->t, rq->name);
	if (!rr->f)
		return error("%s is not in %s (respin tree %s shows what is)",
			     rq->name, rq->branch, rq->branch);
	r = pick_version(rr, rq);
	if (r < 0 || rr->to->number == rr->f->v->number)
		return r;
	rr->given = xcalloc(rr->to->nr_patches + 1, sizeof(*rr->given));
	if (rq->given)
		r = rq->given(repo, (struct series *)&rr->f->s, rr->to,
			      rq->given_data, rr->given, &rr->notes);
	if (r < 0)
		return r;
	r = replace_make(repo, &rr->t, rr->f, rr->to, rr->given,
			 rq->drop_obsolete, &rr->p);
	if (r == 1)
		r = plan_failed(rr, rq->branch);
	return r;
}

void replace_run_init(struct replace_run *rr)
{
	memset(rr, 0, sizeof(*rr));
	replace_plan_init(&rr->p);
	strbuf_init(&rr->notes, 0);
}

int replace_run(git_repository *repo, const struct replace_request *rq,
		struct replace_run *rr)
{
	struct branch_use use = { 0 };
	git_reference *ref = NULL;
	int r;

	replace_run_init(rr);
	r = branch_ref(repo, rq->branch, &ref);
	if (!r)
		r = branch_use_find(repo, git_reference_name(ref), &use);
	if (!r)
		r = branch_use_check_clean(&use, git_reference_shorthand(ref));
	if (!r)
		r = tree_scan(repo, git_reference_name(ref), rq->base, 20000,
			      &rr->t);
	if (r < 0)
		goto out;
	r = replace_run_scanned(repo, rq, rr);
	if (!r && !rq->dry_run && rr->to->number != rr->f->v->number)
		r = move_branch(repo, rr, ref, &use, rq->branch);
out:
	git_reference_free(ref);
	branch_use_release(&use);
	return r;
}

void replace_run_release(struct replace_run *rr)
{
	size_t i;

	for (i = 0; rr->given && rr->to && i < rr->to->nr_patches; i++)
		carry_given_release(&rr->given[i]);
	free(rr->given);
	strbuf_release(&rr->notes);
	replace_plan_release(&rr->p);
	tree_scan_release(&rr->t);
}
