// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/patchtexts.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

void rangediff_patches_free(struct rangediff_patch *p, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		rangediff_patch_release(&p[i]);
	free(p);
}

/* Range-diff texts from patches read from mail (no repository needed). */
int rangediff_patches_from_mail(struct mail_patch *mps, size_t nr,
			     struct rangediff_patch **out, size_t *nout,
			     const char *what)
{
	struct rangediff_patch *p = xcalloc(nr ? nr : 1, sizeof(*p));
	struct strbuf author = STRBUF_INIT;
	size_t i;
	int r = 0;

	*out = p;
	*nout = 0;
	for (i = 0; i < nr && !r; i++) {
		git_diff *diff = NULL;
		git_oid pid;
		char label[16];

		if (git_diff_from_buffer(&diff, mps[i].diff,
					 mps[i].diff_len) < 0) {
			r = error_git("%s: cannot read the diff of patch %zu "
				      "<%s>", what, i + 1, mps[i].message_id ?
				      mps[i].message_id : "?");
			break;
		}
		/* no commit: label the patch by its patch-id */
		if (patch_diff_id(diff, &pid) < 0)
			memset(&pid, 0, sizeof(pid));
		git_oid_tostr(label, 8, &pid);
		strbuf_reset(&author);
		strbuf_addf(&author, "%s <%s>", mps[i].author_name,
			    mps[i].author_email);
		r = rangediff_patch_build(&p[i], label, author.buf,
					  mps[i].message, diff);
		git_diff_free(diff);
		*nout = i + 1;
	}
	strbuf_release(&author);
	return r;
}

/* Builds the range-diff texts of every patch of a version. */
int series_rangediff_patches(git_repository *repo, const git_mailmap *mailmap,
			const struct series *s, const struct series_version *v,
			struct rangediff_patch **out, size_t *nr)
{
	struct rangediff_patch *p;
	size_t i;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < v->nr_patches; i++)
		if (git_oid_is_zero(&v->patches[i].commit)) {
			/* known from mail only: its stored mail */
			struct mail_patch *mps;
			size_t nmp;
			int r = import_stored_patches(repo, s, v, &mps, &nmp);

			if (r < 0)
				return r;
			r = rangediff_patches_from_mail(mps, nmp, out, nr, s->name);
			mail_patches_free(mps, nmp);
			return r;
		}
	p = xcalloc(v->nr_patches ? v->nr_patches : 1, sizeof(*p));
	*out = p;
	for (i = 0; i < v->nr_patches; i++) {
		git_commit *commit;
		int r;

		if (git_commit_lookup(&commit, repo, &v->patches[i].commit) < 0)
			return error_git("cannot read commit %s (patch %zu of "
					 "v%d of %s)",
					 oid_short(&v->patches[i].commit, 12),
					 i + 1, v->number, s->name);
		r = rangediff_patch_from_commit(repo, commit, mailmap, &p[i]);
		git_commit_free(commit);
		*nr = i + 1;
		if (r < 0)
			return r;
	}
	return 0;
}

