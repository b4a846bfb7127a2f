// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe of respin bisect-base: at each base commit, does the
 * series apply, and with a check, does the check pass on it?
 */
#include "bisect/baseprobe.h"
#include "series/apply.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

/* The series as applied on base: a version of commits of its own. */
static void version_on(struct series_version *tv,
		       const struct series_version *v, const git_oid *base,
		       const git_oid *commits)
{
	size_t i;

	memset(tv, 0, sizeof(*tv));
	tv->number = v->number;
	git_oid_cpy(&tv->base, base);
	tv->loaded = 1;
	tv->patches = xcalloc(v->nr_patches, sizeof(*tv->patches));
	tv->nr_patches = tv->alloc_patches = v->nr_patches;
	for (i = 0; i < v->nr_patches; i++) {
		git_oid_cpy(&tv->patches[i].commit, &commits[i]);
		tv->patches[i].subject = v->patches[i].subject;	/* borrowed */
	}
}

int base_probe_test(void *data, size_t i, int again,
		    enum bisect_outcome *out)
{
	struct base_probe *bp = data;
	const struct series_version *v = bp->v;
	git_oid *commits = xcalloc(v->nr_patches, sizeof(*commits));
	struct apply_result ar;
	struct series_version tv;
	struct test_probe tp;
	struct strbuf *why = &bp->why[i];
	struct series_version *was;
	int r;

	strbuf_reset(why);
	r = series_apply_commits(bp->repo, v, &bp->bases[i], commits, &ar);
	if (r < 0)
		goto out;
	bp->ran[i] = 1;
	if (!ar.applies) {
		const char *t = v->patches[ar.failed].subject;

		bp->conflict[i] = 1;
		bp->failed_patch[i] = ar.failed;
		strbuf_addf(why, "patch %zu/%zu \"%s\" does not apply",
			    ar.failed + 1, v->nr_patches, t ? t : "");
		if (ar.path)
			strbuf_addf(why, " (%s)", ar.path);
		*out = BISECT_BAD;
		goto out;
	}
	if (!bp->e) {
		strbuf_addstr(why, "applies");
		*out = BISECT_GOOD;
		goto out;
	}
	version_on(&tv, v, &bp->bases[i], commits);
	was = bp->e->v;
	bp->e->v = &tv;
	test_probe_init(&tp, bp->e, bp->c, bp->subtest);
	r = test_probe_test(&tp, v->nr_patches, again, out);
	if (!r)
		strbuf_addf(why, "applies; %s %s%s", bp->c->name,
			    tp.why[v->nr_patches].buf,
			    tp.ran[v->nr_patches] ? "" : " (stored)");
	test_probe_release(&tp);
	bp->e->v = was;
	free(tv.patches);
out:
	apply_result_release(&ar);
	free(commits);
	return r;
}

/* First-parent commits after good up to bad, oldest first. */
static int base_commits(git_repository *repo, const git_oid *good,
			const git_oid *bad, git_oid **out, size_t *nr)
{
	git_revwalk *w = NULL;
	git_oid oid, *list = NULL;
	size_t n = 0, alloc = 0;
	int r;

	if (git_revwalk_new(&w, repo) < 0 ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_simplify_first_parent(w) < 0 ||
	    git_revwalk_push(w, bad) < 0 || git_revwalk_hide(w, good) < 0) {
		r = error_git("cannot walk the base commits");
		goto out;
	}
	ALLOC_GROW(list, n + 1, alloc);
	git_oid_cpy(&list[n++], good);
	while (!(r = git_revwalk_next(&oid, w))) {
		ALLOC_GROW(list, n + 1, alloc);
		git_oid_cpy(&list[n++], &oid);
	}
	if (r != GIT_ITEROVER) {
		r = error_git("cannot walk the base commits");
		goto out;
	}
	r = 0;
	*out = list;
	*nr = n - 1;
	list = NULL;
out:
	free(list);
	git_revwalk_free(w);
	return r;
}

static int resolve(git_repository *repo, const char *rev, const char *opt,
		   git_oid *out)
{
	git_object *o = NULL, *c = NULL;

	if (git_revparse_single(&o, repo, rev) < 0)
		return error_code(RESPIN_EUSAGE, "%s %s: not a revision here",
				  opt, rev);
	if (git_object_peel(&c, o, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(o);
		return error_code(RESPIN_EUSAGE, "%s %s: not a commit", opt,
				  rev);
	}
	git_oid_cpy(out, git_object_id(c));
	git_object_free(c);
	git_object_free(o);
	return 0;
}

int base_probe_init(struct base_probe *bp, git_repository *repo,
		    const char *good, const char *bad)
{
	git_oid g, x;
	size_t i;
	int r;

	bp->repo = repo;
	if ((r = resolve(repo, good, "--good", &g)) < 0 ||
	    (r = resolve(repo, bad, "--bad", &x)) < 0)
		return r;
	if (!git_oid_equal(&g, &x) &&
	    git_graph_descendant_of(repo, &x, &g) != 1)
		return error("--good %s is not an ancestor of --bad %s: give "
			     "an older good base", good, bad);
	r = base_commits(repo, &g, &x, &bp->bases, &bp->m);
	if (r < 0)
		return r;
	bp->ran = xcalloc(bp->m + 1, 1);
	bp->conflict = xcalloc(bp->m + 1, 1);
	bp->failed_patch = xcalloc(bp->m + 1, sizeof(*bp->failed_patch));
	bp->why = xcalloc(bp->m + 1, sizeof(*bp->why));
	for (i = 0; i <= bp->m; i++)
		strbuf_init(&bp->why[i], 0);
	return 0;
}

void base_probe_release(struct base_probe *bp)
{
	size_t i;

	for (i = 0; bp->why && i <= bp->m; i++)
		strbuf_release(&bp->why[i]);
	free(bp->why);
	free(bp->ran);
	free(bp->conflict);
	free(bp->failed_patch);
	free(bp->bases);
	memset(bp, 0, sizeof(*bp));
}
