// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/treemail.h"
#include "patches/source.h"
#include "patches/subject.h"
#include "series/mailset.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The address in "Name <a@b>", or NULL. */
static char *address_of(const char *who)
{
	const char *lt = who ? strrchr(who, '<') : NULL, *gt;

	if (!lt || !(gt = strchr(lt, '>')))
		return NULL;
	return xstrndup(lt + 1, (size_t)(gt - lt - 1));
}

/* The first patch's author address of v: from mail, else its commit. */
static char *first_author(git_repository *repo, const struct series_version *v)
{
	git_commit *c = NULL;
	char *who;

	if (!v->nr_patches)
		return NULL;
	if ((who = address_of(v->patches[0].author)))
		return who;
	if (git_oid_is_zero(&v->patches[0].commit) ||
	    git_commit_lookup(&c, repo, &v->patches[0].commit) < 0)
		return NULL;
	who = xstrdup(git_commit_author(c)->email ? git_commit_author(c)->email : "");
	git_commit_free(c);
	return who;
}

/* The mail series of found entry f, or -1. */
static long series_in_mail(git_repository *repo, const struct mailset *ms,
			   const struct tree_found *f)
{
	size_t vi, pi, k;
	char *title, *who;
	long si = -1;

	for (vi = 0; vi < f->s.nr_versions && si < 0; vi++)
		for (pi = 0; pi < f->s.versions[vi].nr_patches && si < 0; pi++) {
			const char *id = f->s.versions[vi].patches[pi].message_id;
			long m = id && *id ? mailset_find(ms, id) : -1;

			if (m >= 0)
				si = mailset_series_of(ms, m);
		}
	if (si >= 0 || !f->v->nr_patches)
		return si;
	title = subject_title(f->v->patches[0].subject, 0);
	who = first_author(repo, f->v);
	for (k = 0; who && k < ms->nr_versions && si < 0; k++) {
		const struct ms_version *mv = &ms->versions[k];
		const struct ms_msg *m;

		if (!mv->total || mv->patches[0].msg < 0)
			continue;
		m = &ms->msgs[mv->patches[0].msg];
		if (m->tags.title && !strcasecmp(m->tags.title, title) &&
		    m->from_addr && !strcasecmp(m->from_addr, who))
			si = mv->series;
	}
	free(title);
	free(who);
	return si;
}

int tree_mail_newest(git_repository *repo, const struct tree_scan *t,
		     const char *source, int *newest)
{
	struct mail_source *src = NULL;
	struct mailset ms;
	size_t k, i;
	int r;

	mailset_init(&ms, NULL);
	r = mailset_source_open(repo, source, 0, &src);
	if (r < 0)
		goto out;
	ms.src = src;
	r = mailset_scan(&ms);
	if (!r)
		r = mailset_group(&ms, 0, NULL);
	if (r < 0)
		goto out;
	for (k = 0; k < t->nr_found; k++) {
		long si = series_in_mail(repo, &ms, &t->found[k]);

		newest[k] = 0;
		if (si < 0)
			continue;
		for (i = 0; i < ms.series[si].nr; i++) {
			long v = ms.series[si].versions[i];

			if (v >= 0 && ms.versions[v].number > newest[k])
				newest[k] = ms.versions[v].number;
		}
	}
	r = 0;
out:
	mailset_release(&ms);
	if (src)
		mail_source_free(src);
	return r;
}
