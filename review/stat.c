// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/stat.h"
#include "series/import.h"
#include "series/patchtexts.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

#define STAT_WIDTH 72

struct shortlog_entry {
	char *author;
	struct strbuf subjects;
	int count;
};

/* The author's name: from the commit, else the one stored from mail. */
static char *patch_author(git_repository *repo, const struct series_patch *p)
{
	git_commit *c = NULL;
	char *name = NULL, *lt;

	if (!git_oid_is_zero(&p->commit) &&
	    git_commit_lookup(&c, repo, &p->commit) == 0) {
		name = xstrdup(git_commit_author(c)->name);
		git_commit_free(c);
		return name;
	}
	git_error_clear();
	if (!p->author)
		return xstrdup("(unknown)");
	name = xstrdup(p->author);
	lt = strchr(name, '<');
	if (lt && lt > name) {
		*lt = '\0';
		while (lt > name && lt[-1] == ' ')
			*--lt = '\0';
	}
	return name;
}

void stat_shortlog(struct strbuf *out, git_repository *repo,
		   const struct series_version *v)
{
	struct shortlog_entry *e = NULL;
	size_t nr = 0, i, k;

	for (i = 0; i < v->nr_patches; i++) {
		char *name = patch_author(repo, &v->patches[i]);

		for (k = 0; k < nr; k++)
			if (!strcmp(e[k].author, name))
				break;
		if (k == nr) {
			e = xrealloc(e, (nr + 1) * sizeof(*e));
			e[nr].author = name;
			strbuf_init(&e[nr].subjects, 0);
			e[nr].count = 0;
			nr++;
		} else {
			free(name);
		}
		e[k].count++;
		strbuf_addf(&e[k].subjects, "  %s\n", v->patches[i].subject);
	}
	for (k = 0; k < nr; k++) {
		strbuf_addf(out, "%s (%d):\n%s\n", e[k].author, e[k].count,
			    e[k].subjects.buf);
		free(e[k].author);
		strbuf_release(&e[k].subjects);
	}
	free(e);
}

static int commit_diffstat(struct strbuf *out, git_repository *repo,
			   const struct series_version *v)
{
	git_commit *b = NULL, *t = NULL;
	git_tree *bt = NULL, *tt = NULL;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
	git_buf buf = GIT_BUF_INIT;
	int r = -1;

	if (git_commit_lookup(&b, repo, &v->base) < 0 ||
	    git_commit_lookup(&t, repo, &v->tip) < 0 ||
	    git_commit_tree(&bt, b) < 0 || git_commit_tree(&tt, t) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, bt, tt, NULL) < 0 ||
	    git_diff_find_similar(diff, &find) < 0 ||
	    git_diff_get_stats(&stats, diff) < 0 ||
	    git_diff_stats_to_buf(&buf, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY,
				  STAT_WIDTH) < 0) {
		error_git("cannot compute the diffstat of v%d", v->number);
		goto out;
	}
	strbuf_add(out, buf.ptr, buf.size);
	r = 0;
out:
	git_buf_dispose(&buf);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	git_tree_free(bt);
	git_tree_free(tt);
	git_commit_free(b);
	git_commit_free(t);
	return r;
}

struct file_stat {
	char *path;
	size_t add, del;
};

struct file_stats {
	struct file_stat *f;
	size_t nr, alloc;
};

static struct file_stat *file_stat_get(struct file_stats *fs, const char *path)
{
	size_t i;

	for (i = 0; i < fs->nr; i++)
		if (!strcmp(fs->f[i].path, path))
			return &fs->f[i];
	ALLOC_GROW(fs->f, fs->nr, fs->alloc);
	fs->f[fs->nr].path = xstrdup(path);
	fs->f[fs->nr].add = fs->f[fs->nr].del = 0;
	return &fs->f[fs->nr++];
}

static int add_mail_diff(struct file_stats *fs, const char *text,
			 const struct series *s, const struct series_version *v,
			 size_t i)
{
	git_diff *diff = NULL;
	size_t k, n;

	if (git_diff_from_buffer(&diff, text, strlen(text)) < 0)
		return error_git("%s v%d: cannot read the diff of patch %zu",
				 s->name, v->number, i + 1);
	n = git_diff_num_deltas(diff);
	for (k = 0; k < n; k++) {
		const git_diff_delta *d = git_diff_get_delta(diff, k);
		git_patch *patch = NULL;
		size_t ctx, add, del;
		struct file_stat *f;

		if (git_patch_from_diff(&patch, diff, k) < 0 || !patch) {
			git_error_clear();
			continue;
		}
		if (git_patch_line_stats(&ctx, &add, &del, patch) == 0) {
			f = file_stat_get(fs, d->new_file.path ?
					  d->new_file.path : d->old_file.path);
			f->add += add;
			f->del += del;
		}
		git_patch_free(patch);
	}
	git_diff_free(diff);
	return 0;
}

static size_t digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* git's diffstat layout for per-file counts summed over the patches. */
static void format_file_stats(struct strbuf *out, const struct file_stats *fs)
{
	size_t namew = 0, maxch = 0, countw, barw, i, adds = 0, dels = 0;

	for (i = 0; i < fs->nr; i++) {
		size_t ch = fs->f[i].add + fs->f[i].del;

		if (strlen(fs->f[i].path) > namew)
			namew = strlen(fs->f[i].path);
		if (ch > maxch)
			maxch = ch;
		adds += fs->f[i].add;
		dels += fs->f[i].del;
	}
	countw = digits(maxch);
	barw = STAT_WIDTH > namew + countw + 5 ?
	       STAT_WIDTH - namew - countw - 5 : 10;
	if (barw < 10)
		barw = 10;
	for (i = 0; i < fs->nr; i++) {
		size_t a = fs->f[i].add, d = fs->f[i].del;

		if (maxch > barw) {
			a = (a * barw + maxch - 1) / maxch;
			d = (d * barw + maxch - 1) / maxch;
		}
		strbuf_addf(out, " %-*s | %*zu ", (int)namew, fs->f[i].path,
			    (int)countw, fs->f[i].add + fs->f[i].del);
		strbuf_addchars(out, '+', a);
		strbuf_addchars(out, '-', d);
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, " %zu file%s changed", fs->nr, fs->nr == 1 ? "" : "s");
	if (adds)
		strbuf_addf(out, ", %zu insertion%s(+)", adds,
			    adds == 1 ? "" : "s");
	if (dels)
		strbuf_addf(out, ", %zu deletion%s(-)", dels,
			    dels == 1 ? "" : "s");
	strbuf_addch(out, '\n');
}

static int mail_diffstat(struct strbuf *out, git_repository *repo,
			 const struct series *s, const struct series_version *v)
{
	struct mail_patch *mps = NULL;
	struct file_stats fs = { 0 };
	size_t nmp = 0, i;
	int r = import_stored_patches(repo, s, v, &mps, &nmp);

	for (i = 0; i < nmp && !r; i++)
		r = add_mail_diff(&fs, mps[i].diff, s, v, i);
	if (!r)
		format_file_stats(out, &fs);
	for (i = 0; i < fs.nr; i++)
		free(fs.f[i].path);
	free(fs.f);
	mail_patches_free(mps, nmp);
	return r;
}

int stat_diffstat(struct strbuf *out, git_repository *repo,
		  const struct series *s, const struct series_version *v)
{
	if (series_version_mail_only(v))
		return mail_diffstat(out, repo, s, v);
	return commit_diffstat(out, repo, v);
}
