// SPDX-License-Identifier: GPL-2.0-or-later
/* A series' version swapped in a quilt stack (series/quiltreplace.h). */
#include "series/quiltreplace.h"
#include "series/treetext.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

/* The commits of base..tip, oldest first. */
static int chain(git_repository *repo, const git_oid *base, const git_oid *tip,
		 git_oid **out, size_t *nr)
{
	git_revwalk *w = NULL;
	git_oid oid;
	size_t alloc = 0;
	int r = 0;

	*out = NULL;
	*nr = 0;
	if (git_revwalk_new(&w, repo) < 0 ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(w, tip) < 0 || git_revwalk_hide(w, base) < 0)
		r = error_git("cannot walk the new stack");
	while (!r && !git_revwalk_next(&oid, w)) {
		ALLOC_GROW(*out, *nr + 1, alloc);
		git_oid_cpy(&(*out)[(*nr)++], &oid);
	}
	git_revwalk_free(w);
	return r;
}

/*
 * The patch files commits a and b would be written as are the same (so
 * a file whose patch only moved above a changed one stays as it is).
 */
static int same_patch(git_repository *repo, const git_oid *a, const git_oid *b,
		      int *same)
{
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT;
	int r = quilt_format(repo, a, &ta);

	if (!r)
		r = quilt_format(repo, b, &tb);
	*same = !r && ta.len == tb.len && !memcmp(ta.buf, tb.buf, ta.len);
	strbuf_release(&ta);
	strbuf_release(&tb);
	return r;
}

/* name is in put, or a file of the stack that stays. */
static int name_used(char ***put, const struct quilt_stack *q,
		     const unsigned char *is_patch, const char *name)
{
	size_t i;

	for (i = 0; i < q->nr; i++)
		if (!is_patch[i] && !strcmp(q->patches[i].name, name))
			return 1;
	return quilt_named(put, q->nr, name);
}

/* A free file name for a new patch titled subject. */
static char *new_name(char ***put, const struct quilt_stack *q,
		      const unsigned char *is_patch, const char *subject)
{
	char *slug = tree_slug(subject);
	struct strbuf n = STRBUF_INIT;
	int k = 1;

	strbuf_addf(&n, "%s.patch", *slug ? slug : "patch");
	while (name_used(put, q, is_patch, n.buf)) {
		strbuf_setlen(&n, 0);
		strbuf_addf(&n, "%s-%d.patch", *slug ? slug : "patch", ++k);
	}
	free(slug);
	return strbuf_detach(&n, NULL);
}

static char **one(const char *name)
{
	char **l = xcalloc(2, sizeof(*l));

	l[0] = xstrdup(name);
	return l;
}

int quilt_replace_run(git_repository *repo, const struct replace_request *rq,
		      const char *dir, struct replace_run *rr,
		      struct quilt_replace *qr)
{
	struct quilt_stack *q = &qr->q;
	const struct tree_found *f;
	struct quilt_write *write = NULL;
	char ***put = NULL;
	unsigned char *is_patch = NULL;
	git_oid *nc = NULL;
	size_t nr_nc = 0, nr_write = 0, i, k, at, pi;
	const char *verb = rq->dry_run ? "would write" : "wrote";
	int r;

	strbuf_init(&qr->report, 0);
	replace_run_init(rr);
	r = quilt_scan(repo, dir, rq->base, q, &rr->t);
	if (!r && rr->t.nr != q->nr)
		r = error("%s: the stack's patches are not a line of "
			  "commits above the base", dir);
	if (!r)
		r = replace_run_scanned(repo, rq, rr);
	if (r < 0 || rr->to->number == rr->f->v->number)
		return r;
	f = rr->f;
	r = chain(repo, &q->base, &rr->p.tip, &nc, &nr_nc);
	if (r < 0)
		goto out;
	is_patch = xcalloc(q->nr + 1, 1);
	for (pi = 0; pi < f->v->nr_patches; pi++)
		if (f->at[pi])
			is_patch[f->at[pi] - 1] = 1;
	put = xcalloc(q->nr + 1, sizeof(*put));
	write = xcalloc(rr->to->nr_patches + q->nr + 1, sizeof(*write));
	/* the patches before the old version's first stay */
	for (i = 0; i < f->first; i++)
		put[i] = one(q->patches[i].name);
	/* the new version's at its first line, the old ones' lines gone */
	at = f->first;
	put[f->first] = xcalloc(rr->to->nr_patches + 1, sizeof(char *));
	for (k = 0; k < rr->to->nr_patches && at < nr_nc; k++, at++) {
		char *name = new_name(put, q, is_patch,
				      rr->to->patches[k].subject);

		put[f->first][k] = name;
		write[nr_write].name = name;
		git_oid_cpy(&write[nr_write++].commit, &nc[at]);
	}
	for (i = f->first; i < q->nr; i++) {
		int same = 0;

		if (is_patch[i] || rr->p.left_out[i]) {
			if (rr->p.left_out[i])
				strbuf_addf(&qr->report, "  %s %s (obsolete)\n",
					    rq->dry_run ? "would remove" :
					    "removed", q->patches[i].name);
			continue;
		}
		if (at >= nr_nc)
			break;
		put[i] = one(q->patches[i].name);
		r = same_patch(repo, &q->patches[i].commit, &nc[at], &same);
		if (r < 0)
			goto out;
		if (!same) {
			write[nr_write].name = q->patches[i].name;
			git_oid_cpy(&write[nr_write++].commit, &nc[at]);
		}
		at++;
	}
	if (at != nr_nc || i != q->nr) {
		r = error("%s: the new stack does not line up with the old "
			  "one; nothing written", dir);
		goto out;
	}
	for (k = 0; k < nr_write; k++)
		strbuf_addf(&qr->report, "  %s %s\n", verb, write[k].name);
	for (i = 0; i < q->nr; i++)
		if (is_patch[i] && !quilt_named(put, q->nr, q->patches[i].name))
			strbuf_addf(&qr->report, "  %s %s\n", rq->dry_run ?
				    "would remove" : "removed",
				    q->patches[i].name);
	strbuf_addf(&qr->report, "  %s %s/series\n", verb, dir);
	if (!rq->dry_run)
		r = quilt_rewrite(repo, q, put, write, nr_write);
out:
	for (i = 0; put && i < q->nr; i++) {
		for (k = 0; put[i] && put[i][k]; k++)
			free(put[i][k]);
		free(put[i]);
	}
	free(put);
	free(write);
	free(is_patch);
	free(nc);
	return r;
}

void quilt_replace_release(struct quilt_replace *qr)
{
	quilt_stack_release(&qr->q);
	strbuf_release(&qr->report);
}
