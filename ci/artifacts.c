// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/artifacts.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The paths of a list, each a NUL-terminated string in *out. */
struct paths {
	char **v;
	size_t nr, alloc;
};

static void paths_split(struct paths *p, const char *list)
{
	const char *s = list;

	memset(p, 0, sizeof(*p));
	while (*s) {
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (!n)
			break;
		ALLOC_GROW(p->v, p->nr + 1, p->alloc);
		p->v[p->nr++] = xstrndup(s, n);
		p->v[p->nr] = NULL;
		s += n;
	}
}

static void paths_release(struct paths *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int path_inside(const char *path)
{
	const char *s = path;

	if (*path == '/')
		return 0;
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && !strncmp(s, "..", 2))
			return 0;
		s += n;
		if (*s == '/')
			s++;
	}
	return 1;
}

int artifacts_check_list(const char *key, const char *list)
{
	struct paths p;
	size_t i;
	int r = 0;

	paths_split(&p, list);
	if (!p.nr)
		r = error("%s: no paths given (paths under the build "
			  "directory, such as arch/x86/boot/bzImage)", key);
	for (i = 0; i < p.nr && !r; i++)
		if (!path_inside(p.v[i]))
			r = error("%s: '%s' is not a path inside the build "
				  "directory (relative, without ..)", key,
				  p.v[i]);
	paths_release(&p);
	return r;
}

void artifacts_dir(git_repository *repo, const struct check *b,
		   const git_oid *tree, struct strbuf *out)
{
	strbuf_addf(out, "%srespin/artifacts/%.12s/%s",
		    git_repository_commondir(repo), b->hash,
		    oid_short(tree, GIT_OID_HEXSZ));
}

int artifacts_have(git_repository *repo, const struct check *b,
		   const git_oid *tree)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct paths p;
	struct stat st;
	size_t i;
	int have = 1;

	if (!b->artifacts)
		return 0;
	artifacts_dir(repo, b, tree, &dir);
	paths_split(&p, b->artifacts);
	for (i = 0; i < p.nr && have; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, p.v[i]);
		have = !stat(path.buf, &st);
	}
	paths_release(&p);
	strbuf_release(&dir);
	strbuf_release(&path);
	return have;
}

int artifacts_keep(git_repository *repo, const struct check *b,
		   const git_oid *tree, const char *build_dir)
{
	struct strbuf dir = STRBUF_INIT, tmp = STRBUF_INIT, path = STRBUF_INIT;
	const char **argv = NULL;
	struct paths p;
	struct stat st;
	size_t i, n = 0;
	int r = 0;

	if (!b->artifacts)
		return 0;
	paths_split(&p, b->artifacts);
	for (i = 0; i < p.nr && !r; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", build_dir, p.v[i]);
		if (stat(path.buf, &st) < 0)
			r = error("respin.check.%s.artifacts: the build of "
				  "tree %s made no %s", b->name,
				  oid_short(tree, 12), p.v[i]);
	}
	artifacts_dir(repo, b, tree, &dir);
	strbuf_addf(&tmp, "%s.tmp-%ld", dir.buf, (long)getpid());
	if (!r)
		r = mkdir_parents(tmp.buf);
	if (!r) {
		/* cp -a --parents keeps each path's place under tmp */
		argv = xcalloc(p.nr + 6, sizeof(*argv));
		argv[n++] = "cp";
		argv[n++] = "-a";
		argv[n++] = "--parents";
		argv[n++] = "--";
		for (i = 0; i < p.nr; i++)
			argv[n++] = p.v[i];
		argv[n++] = tmp.buf;
		r = run_checked(argv, build_dir, "cannot keep the artifacts");
	}
	if (!r && !stat(dir.buf, &st)) {
		const char *rm[] = { "rm", "-rf", "--", dir.buf, NULL };

		r = run_checked(rm, NULL, "cannot replace the kept artifacts");
	}
	if (!r && rename(tmp.buf, dir.buf) < 0)
		r = error_errno("cannot rename %s", tmp.buf);
	if (r < 0 && !stat(tmp.buf, &st)) {
		const char *rm[] = { "rm", "-rf", "--", tmp.buf, NULL };

		run_checked(rm, NULL, NULL);	/* keeps the first error */
	}
	free(argv);
	paths_release(&p);
	strbuf_release(&dir);
	strbuf_release(&tmp);
	strbuf_release(&path);
	return r;
}

void artifacts_keep_command(git_repository *repo, const struct check *b,
			    const git_oid *tree, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;
	struct paths p;
	size_t i;

	if (!b->artifacts)
		return;
	artifacts_dir(repo, b, tree, &dir);
	paths_split(&p, b->artifacts);
	strbuf_addstr(out, "t=");
	strbuf_add_sq(out, dir.buf);
	/* aside, then renamed: a tree's directory is whole or not there */
	strbuf_addstr(out, "; rm -rf \"$t.tmp\" && mkdir -p \"$t.tmp\" && "
		      "(cd \"$RESPIN_BUILD\" && cp -a --parents");
	for (i = 0; i < p.nr; i++) {
		strbuf_addch(out, ' ');
		strbuf_add_sq(out, p.v[i]);
	}
	strbuf_addstr(out, " \"$t.tmp/\") && rm -rf \"$t\" && "
		      "mv \"$t.tmp\" \"$t\"");
	paths_release(&p);
	strbuf_release(&dir);
}
