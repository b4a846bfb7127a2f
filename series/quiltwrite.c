// SPDX-License-Identifier: GPL-2.0-or-later
/* A quilt stack written back: patch files and the series file. */
#include "series/quilt.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void add_date(struct strbuf *out, const git_time *t)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					    "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
					      "May", "Jun", "Jul", "Aug",
					      "Sep", "Oct", "Nov", "Dec" };
	time_t local = (time_t)(t->time + (git_time_t)t->offset * 60);
	int off = t->offset < 0 ? -t->offset : t->offset;
	struct tm tm;

	gmtime_r(&local, &tm);
	strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
		    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    t->offset < 0 ? '-' : '+', off / 60, off % 60);
}

int quilt_format(git_repository *repo, const git_oid *commit,
		 struct strbuf *out)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_buf stat = GIT_BUF_INIT, patch = GIT_BUF_INIT;
	const git_signature *au;
	const char *body;
	int r = 0;

	if (git_commit_lookup(&c, repo, commit) < 0 ||
	    git_commit_parent(&parent, c, 0) < 0 ||
	    git_commit_tree(&b, c) < 0 || git_commit_tree(&a, parent) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, a, b, NULL) < 0 ||
	    git_diff_get_stats(&stats, diff) < 0 ||
	    git_diff_stats_to_buf(&stat, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY, 72) < 0 ||
	    git_diff_to_buf(&patch, diff, GIT_DIFF_FORMAT_PATCH) < 0) {
		r = error_git("cannot make the patch of %s",
			      git_oid_tostr_s(commit));
		goto out;
	}
	au = git_commit_author(c);
	strbuf_addf(out, "From: %s <%s>\nSubject: %s\nDate: ", au->name,
		    au->email, git_commit_summary(c));
	add_date(out, &au->when);
	strbuf_addstr(out, "\n\n");
	body = git_commit_body(c);
	if (body && *body) {
		strbuf_addstr(out, body);
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "---\n\n%s\n%s", stat.ptr, patch.ptr);
out:
	git_buf_dispose(&stat);
	git_buf_dispose(&patch);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	git_commit_free(parent);
	git_commit_free(c);
	return r;
}

/* DIR/.NAME.respin-new: where NAME is written before it is renamed. */
static void temp_name(struct strbuf *path, const char *dir, const char *name)
{
	const char *slash = strrchr(name, '/');

	strbuf_setlen(path, 0);
	if (slash)
		strbuf_addf(path, "%s/%.*s.%s.respin-new", dir,
			    (int)(slash - name + 1), name, slash + 1);
	else
		strbuf_addf(path, "%s/.%s.respin-new", dir, name);
}

int quilt_named(char ***put, size_t nr, const char *name)
{
	size_t i, k;

	for (i = 0; i < nr; i++)
		for (k = 0; put[i] && put[i][k]; k++)
			if (!strcmp(put[i][k], name))
				return 1;
	return 0;
}

int quilt_rewrite(git_repository *repo, struct quilt_stack *q,
		  char ***put, const struct quilt_write *write, size_t nr_write)
{
	struct strbuf series = STRBUF_INIT, text = STRBUF_INIT,
		      path = STRBUF_INIT;
	const char *p, *nl;
	size_t i = 0, k;
	int r = 0;

	/* the series file: each patch line as put says, the rest kept */
	for (p = q->series.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
		const char *s = p;
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		while (s < p + len && (*s == ' ' || *s == '\t'))
			s++;
		if (s == p + len || *s == '#' || i >= q->nr) {
			strbuf_add(&series, p, len);
			strbuf_addch(&series, '\n');
			continue;
		}
		for (k = 0; put[i] && put[i][k]; k++)
			strbuf_addf(&series, "%s\n", put[i][k]);
		i++;
	}
	/* the new files, each whole, beside their names first */
	for (k = 0; k < nr_write && !r; k++) {
		strbuf_setlen(&text, 0);
		temp_name(&path, q->dir, write[k].name);
		r = quilt_format(repo, &write[k].commit, &text);
		if (!r)
			r = write_file_atomic(path.buf, NULL, text.buf,
					      text.len, 0666);
	}
	if (r < 0) {
		for (i = 0; i < k; i++) {
			temp_name(&path, q->dir, write[i].name);
			unlink(path.buf);
		}
		goto out;
	}
	for (k = 0; k < nr_write && !r; k++) {
		struct strbuf to = STRBUF_INIT;

		temp_name(&path, q->dir, write[k].name);
		strbuf_addf(&to, "%s/%s", q->dir, write[k].name);
		if (rename(path.buf, to.buf) < 0)
			r = error_errno("cannot rename %s to %s (the series "
					"file is as it was)", path.buf, to.buf);
		strbuf_release(&to);
	}
	if (!r) {
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/series", q->dir);
		r = write_file_atomic(path.buf, NULL, series.buf, series.len,
				      0666);
	}
	/* the old files no line names now */
	for (i = 0; i < q->nr && !r; i++) {
		if (quilt_named(put, q->nr, q->patches[i].name))
			continue;
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/%s", q->dir, q->patches[i].name);
		if (unlink(path.buf) < 0 && errno != ENOENT)
			r = error_errno("cannot remove %s", path.buf);
	}
out:
	strbuf_release(&series);
	strbuf_release(&text);
	strbuf_release(&path);
	return r;
}
