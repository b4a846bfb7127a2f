// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The commits of an integration branch read oldest first, and the
 * author addresses tree_scan() and tree_scan_version() compare.
 */
#include "series/treewalk.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *tree_commit_author(git_commit *c)
{
	const git_signature *a = git_commit_author(c);
	char *e = xstrdup(a && a->email ? a->email : ""), *p;

	for (p = e; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return e;
}

/* The address inside a stored patch's "Name <a@b>". */
static char *address_of(const char *who)
{
	const char *lt = strrchr(who, '<'), *gt;
	char *e, *p;

	if (!lt || !(gt = strchr(lt, '>')))
		return NULL;
	e = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	for (p = e; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return e;
}

char *tree_patch_author(git_repository *repo, const struct series_patch *p)
{
	char *who = p->author ? address_of(p->author) : NULL;
	git_commit *gc = NULL;

	if (!who && !git_oid_is_zero(&p->commit) &&
	    !git_commit_lookup(&gc, repo, &p->commit)) {
		who = tree_commit_author(gc);
		git_commit_free(gc);
	}
	git_error_clear();
	return who;
}

/* The commits of branch above base, oldest first. */
static int walk(git_repository *repo, struct tree_scan *t, const char *base,
		size_t max)
{
	git_revwalk *w = NULL;
	git_oid oid;
	int r;

	if (git_revwalk_new(&w, repo) < 0 ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL) < 0 ||
	    git_revwalk_simplify_first_parent(w) < 0 ||
	    git_revwalk_push(w, &t->tip) < 0 ||
	    (base && git_revwalk_hide(w, &t->base) < 0)) {
		r = error_git("cannot walk %s", t->branch);
		goto out;
	}
	while (!(r = git_revwalk_next(&oid, w))) {
		git_commit *c = NULL;
		struct tree_commit *tc;

		if (git_commit_lookup(&c, repo, &oid) < 0) {
			r = error_git("cannot read commit %s", oid_short(&oid, 12));
			goto out;
		}
		if (!base && (git_commit_parentcount(c) != 1 || t->nr >= max)) {
			/* the first merge (mainline), the root or the limit */
			git_oid_cpy(&t->base, &oid);
			t->have_base = 1;
			git_commit_free(c);
			break;
		}
		ALLOC_GROW(t->commits, t->nr + 1, t->alloc);
		tc = &t->commits[t->nr++];
		memset(tc, 0, sizeof(*tc));
		git_oid_cpy(&tc->oid, &oid);
		tc->subject = xstrdup(git_commit_summary(c) ?
				      git_commit_summary(c) : "");
		tc->found = -1;
		git_commit_free(c);
	}
	if (r == GIT_ITEROVER)
		r = 0;
	else if (r < 0 && r != -1)
		r = error_git("cannot walk %s", t->branch);
	if (r >= 0) {
		/* oldest first */
		size_t i;

		for (i = 0; i < t->nr / 2; i++) {
			struct tree_commit tmp = t->commits[i];

			t->commits[i] = t->commits[t->nr - 1 - i];
			t->commits[t->nr - 1 - i] = tmp;
		}
		r = 0;
	}
out:
	git_revwalk_free(w);
	return r;
}

static int resolve(git_repository *repo, const char *rev, git_oid *out)
{
	git_object *o = NULL, *c = NULL;

	if (git_revparse_single(&o, repo, rev) < 0)
		return error_code(RESPIN_EUSAGE, "%s: not a revision here", rev);
	if (git_object_peel(&c, o, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(o);
		return error_code(RESPIN_EUSAGE, "%s: not a commit", rev);
	}
	git_oid_cpy(out, git_object_id(c));
	git_object_free(c);
	git_object_free(o);
	return 0;
}

int tree_walk(git_repository *repo, const char *branch, const char *base,
	      size_t max, struct tree_scan *t)
{
	int r;

	memset(t, 0, sizeof(*t));
	t->branch = xstrdup(branch);
	if ((r = resolve(repo, branch, &t->tip)) < 0)
		return r;
	if (base) {
		if ((r = resolve(repo, base, &t->base)) < 0)
			return r;
		t->have_base = 1;
	}
	return walk(repo, t, base, max ? max : (size_t)-1);
}
