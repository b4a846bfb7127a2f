// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One version alone in an integration branch, matched as tree_scan()
 * matches (series/treescan.h).
 */
#include "series/treescan.h"
#include "series/treetext.h"
#include "series/treewalk.h"
#include "patches/patch.h"
#include "patches/subject.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct idmatch {
	const struct series_version *v;
	unsigned char *hit;	/* per patch: its Message-ID named */
};

static void id_named(const char *id, void *d)
{
	struct idmatch *m = d;
	size_t i;

	for (i = 0; i < m->v->nr_patches; i++)
		if (m->v->patches[i].message_id &&
		    !strcmp(m->v->patches[i].message_id, id))
			m->hit[i] = 1;
}

int tree_scan_version(git_repository *repo, const char *branch,
		      const char *base, size_t max,
		      const struct series_version *v, git_oid *commits,
		      unsigned *evidence, size_t *walked)
{
	struct tree_scan t;
	struct idmatch m = { v, NULL };
	char **titles = xcalloc(v->nr_patches + 1, sizeof(*titles));
	char **whos = xcalloc(v->nr_patches + 1, sizeof(*whos));
	size_t i, pi, found = 0;
	int r;

	for (pi = 0; pi < v->nr_patches; pi++) {
		memset(&commits[pi], 0, sizeof(commits[pi]));
		evidence[pi] = 0;
		titles[pi] = subject_title(v->patches[pi].subject ?
					   v->patches[pi].subject : "", 0);
		whos[pi] = tree_patch_author(repo, &v->patches[pi]);
	}
	m.hit = xcalloc(v->nr_patches + 1, 1);
	r = tree_walk(repo, branch, base, max, &t);
	*walked = t.nr;
	/* the newest commit with it wins: from the tip down */
	for (i = t.nr; !r && i-- > 0;) {
		git_commit *c = NULL;
		git_oid pid;
		int have_pid;
		char *title, *who;

		if (git_commit_lookup(&c, repo, &t.commits[i].oid) < 0) {
			r = error_git("cannot read commit %s",
				      oid_short(&t.commits[i].oid, 12));
			break;
		}
		have_pid = git_commit_parentcount(c) == 1 &&
			   !patch_commit_id(repo, c, &pid);
		error_clear();
		memset(m.hit, 0, v->nr_patches);
		tree_message_ids(git_commit_message(c), id_named, &m);
		title = subject_title(t.commits[i].subject, 0);
		who = tree_commit_author(c);
		for (pi = 0; pi < v->nr_patches; pi++) {
			unsigned ev = 0;

			if (have_pid && !git_oid_is_zero(&v->patches[pi].patch_id) &&
			    git_oid_equal(&pid, &v->patches[pi].patch_id))
				ev |= TREE_BY_PATCH_ID;
			if (m.hit[pi])
				ev |= TREE_BY_LINK;
			if (whos[pi] && *title && !strcasecmp(title, titles[pi]) &&
			    !strcmp(who, whos[pi]))
				ev |= TREE_BY_SUBJECT;
			/* a patch once, by its strongest evidence */
			if (!ev || (evidence[pi] &&
				    (evidence[pi] & -evidence[pi]) <= (ev & -ev)))
				continue;
			if (!evidence[pi])
				found++;
			git_oid_cpy(&commits[pi], &t.commits[i].oid);
			evidence[pi] = ev;
		}
		free(title);
		free(who);
		git_commit_free(c);
	}
	for (pi = 0; pi < v->nr_patches; pi++) {
		free(titles[pi]);
		free(whos[pi]);
	}
	free(titles);
	free(whos);
	free(m.hit);
	tree_scan_release(&t);
	return r < 0 ? r : (int)found;
}
