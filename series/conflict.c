// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/conflict.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

void conflict_init(struct conflict *c)
{
	memset(c, 0, sizeof(*c));
}

void conflict_release(struct conflict *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->files[i].path);
		strbuf_release(&c->files[i].hunks);
		strbuf_release(&c->files[i].markers);
	}
	free(c->files);
	conflict_init(c);
}

static const char *conflict_kind(const git_index_entry *anc,
				 const git_index_entry *ours,
				 const git_index_entry *theirs)
{
	if (anc && ours && theirs)
		return "content conflict";
	if (!anc && ours && theirs)
		return "added by both the base and the patch";
	if (anc && !ours && theirs)
		return "deleted in the base, changed by the patch";
	if (anc && ours && !theirs)
		return "deleted by the patch, changed in the base";
	return "unknown";
}

/* "30-36, 52-60": the lines from each <<<<<<< to its >>>>>>>. */
static void marker_lines(const char *text, size_t len, struct strbuf *out)
{
	const char *p = text, *end = text + len;
	size_t line = 1, start = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= 8 && !memcmp(p, "<<<<<<< ", 8))
			start = line;
		else if (start && n >= 7 && !memcmp(p, ">>>>>>>", 7)) {
			strbuf_addf(out, "%s%zu-%zu", out->len ? ", " : "",
				    start, line);
			start = 0;
		}
		line++;
		p = nl ? nl + 1 : end;
	}
}

/* The ranges of the ancestor's lines a diff changes. */
struct line_ranges {
	struct { int start, end; } *r;
	size_t nr, alloc;
};

static int range_hunk(const git_diff_delta *d, const git_diff_hunk *h,
		      void *data)
{
	struct line_ranges *lr = data;

	ALLOC_GROW(lr->r, lr->nr, lr->alloc);
	lr->r[lr->nr].start = h->old_start;
	/* an insertion sits between two lines: it touches both */
	lr->r[lr->nr].end = h->old_start + (h->old_lines ? h->old_lines : 1);
	lr->nr++;
	return 0;
}

struct meet {
	const struct line_ranges *base;
	struct strbuf *out;
};

/*
 * A hunk of the patch meets a change of the base when the ancestor
 * lines they change overlap or touch: a 3-way merge conflicts there.
 */
static int meet_hunk(const git_diff_delta *d, const git_diff_hunk *h,
		     void *data)
{
	struct meet *m = data;
	int s = h->old_start;
	int e = h->old_start + (h->old_lines ? h->old_lines : 1);
	size_t i, n;

	for (i = 0; i < m->base->nr; i++)
		if (s <= m->base->r[i].end && m->base->r[i].start <= e)
			break;
	if (i == m->base->nr)
		return 0;
	n = h->header_len;
	while (n && (h->header[n - 1] == '\n' || h->header[n - 1] == '\r'))
		n--;
	strbuf_add(m->out, h->header, n);
	strbuf_addch(m->out, '\n');
	return 0;
}

static int file_hunks(git_repository *repo, const git_index_entry *anc,
		      const git_index_entry *ours,
		      const git_index_entry *theirs, struct strbuf *out)
{
	git_blob *a = NULL, *o = NULL, *t = NULL;
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	struct line_ranges base = { 0 };
	struct meet m = { &base, out };
	int r = -1;

	opts.context_lines = 0;
	if (git_blob_lookup(&a, repo, &anc->id) < 0 ||
	    git_blob_lookup(&o, repo, &ours->id) < 0 ||
	    git_blob_lookup(&t, repo, &theirs->id) < 0) {
		error_git("cannot read the versions of %s", anc->path);
		goto out;
	}
	if (git_diff_blobs(a, anc->path, o, ours->path, &opts, NULL, NULL,
			   range_hunk, NULL, &base) < 0 ||
	    git_diff_blobs(a, anc->path, t, theirs->path, &opts, NULL, NULL,
			   meet_hunk, NULL, &m) < 0) {
		error_git("cannot compare the versions of %s", anc->path);
		goto out;
	}
	r = 0;
out:
	free(base.r);
	git_blob_free(a);
	git_blob_free(o);
	git_blob_free(t);
	return r;
}

static int file_markers(git_repository *repo, const git_index_entry *anc,
			const git_index_entry *ours,
			const git_index_entry *theirs, struct strbuf *out)
{
	git_merge_file_result res = { 0 };

	if (git_merge_file_from_index(&res, repo, anc, ours, theirs,
				      NULL) < 0) {
		/* a binary file, say: no markers to show */
		git_error_clear();
		return 0;
	}
	if (res.ptr)
		marker_lines(res.ptr, res.len, out);
	git_merge_file_result_free(&res);
	return 0;
}

int conflict_markers_from_files(struct conflict *c, const char *workdir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;

	for (i = 0; i < c->nr; i++) {
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", workdir, c->files[i].path);
		strbuf_reset(&c->files[i].markers);
		if (strbuf_read_file(&text, path.buf) >= 0)
			marker_lines(text.buf, text.len, &c->files[i].markers);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return 0;
}

static int add_file(git_repository *repo, struct conflict *c,
		    const git_index_entry *anc, const git_index_entry *ours,
		    const git_index_entry *theirs)
{
	const git_index_entry *e = theirs ? theirs : ours ? ours : anc;
	struct conflict_file *f;

	ALLOC_GROW(c->files, c->nr, c->alloc);
	f = &c->files[c->nr++];
	f->path = xstrdup(e ? e->path : "?");
	f->kind = conflict_kind(anc, ours, theirs);
	strbuf_init(&f->hunks, 0);
	strbuf_init(&f->markers, 0);
	if (!ours || !theirs)
		return 0;
	if (anc) {
		int r = file_hunks(repo, anc, ours, theirs, &f->hunks);

		if (r < 0)
			return r;
	}
	return file_markers(repo, anc, ours, theirs, &f->markers);
}

int conflict_describe(git_repository *repo, const git_oid *commit,
		      const git_oid *onto, struct conflict *c)
{
	git_commit *pick = NULL, *target = NULL;
	git_index *index = NULL;
	git_index_conflict_iterator *it = NULL;
	git_merge_options mo = GIT_MERGE_OPTIONS_INIT;
	const git_index_entry *anc, *ours, *theirs;
	int r;

	if (git_commit_lookup(&pick, repo, commit) < 0 ||
	    git_commit_lookup(&target, repo, onto) < 0) {
		r = error_git("cannot read commit %s or %s",
			      oid_short(commit, 12), oid_short(onto, 12));
		goto out;
	}
	if (git_cherrypick_commit(&index, repo, pick, target, 0, &mo) < 0 ||
	    git_index_conflict_iterator_new(&it, index) < 0) {
		r = error_git("cannot pick %s onto %s", oid_short(commit, 12),
			      oid_short(onto, 12));
		goto out;
	}
	while (!(r = git_index_conflict_next(&anc, &ours, &theirs, it))) {
		r = add_file(repo, c, anc, ours, theirs);
		if (r < 0)
			goto out;
	}
	r = r == GIT_ITEROVER ? 0 : error_git("cannot list the conflicts");
out:
	git_index_conflict_iterator_free(it);
	git_index_free(index);
	git_commit_free(target);
	git_commit_free(pick);
	return r;
}

void conflict_format(const struct conflict *c, const char *indent,
		     struct strbuf *out)
{
	size_t i;
	const char *p, *nl;

	for (i = 0; i < c->nr; i++) {
		const struct conflict_file *f = &c->files[i];

		strbuf_addf(out, "%s%s: %s", indent, f->path, f->kind);
		if (f->markers.len)
			strbuf_addf(out, ", markers at lines %s",
				    f->markers.buf);
		strbuf_addch(out, '\n');
		for (p = f->hunks.buf; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			strbuf_addf(out, "%s  the patch's hunk %.*s meets a "
				    "change of the base\n", indent,
				    (int)(nl - p), p);
		}
	}
}
