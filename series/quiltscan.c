// SPDX-License-Identifier: GPL-2.0-or-later
/* A quilt stack scanned as respin tree scans a branch. */
#include "series/quilt.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

int quilt_scan(git_repository *repo, const char *dir, const char *base,
	       struct quilt_stack *q, struct tree_scan *t)
{
	char tip[GIT_OID_HEXSZ + 1], at[GIT_OID_HEXSZ + 1];
	git_object *named = NULL, *o = NULL;
	int r;

	memset(t, 0, sizeof(*t));
	memset(q, 0, sizeof(*q));
	if (!base)
		base = "HEAD";
	r = git_revparse_single(&named, repo, base);
	if (!r)
		r = git_object_peel(&o, named, GIT_OBJECT_COMMIT);
	git_object_free(named);
	if (r < 0) {
		git_object_free(o);
		return error_code(RESPIN_ENOTFOUND, "%s is not a commit: give "
				  "--base the commit the stack in %s applies "
				  "on", base, dir);
	}
	r = quilt_load(repo, dir, git_object_id(o), q);
	git_object_free(o);
	if (r < 0)
		return r;
	git_oid_tostr(tip, sizeof(tip), &q->tip);
	git_oid_tostr(at, sizeof(at), &q->base);
	r = tree_scan(repo, tip, at, q->nr + 1, t);
	if (r < 0)
		return r;
	free(t->branch);
	t->branch = xstrdup(dir);
	return 0;
}

const char **quilt_scan_names(const struct quilt_stack *q,
			      const struct tree_scan *t)
{
	const char **names;
	size_t i;

	if (!t->commits || t->nr != q->nr)
		return NULL;
	names = xcalloc(q->nr + 1, sizeof(*names));
	for (i = 0; i < q->nr; i++)
		names[i] = q->patches[i].name;
	return names;
}
