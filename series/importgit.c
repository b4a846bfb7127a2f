// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A big patch from mail applied by git itself: libgit2's apply holds
 * the diff, its parsed lines, the result and the blob being written
 * (five copies of a giant hunk, more than the mail's size allows);
 * `git apply --cached`, the apply git am runs, holds about three, in a
 * process of its own while respin holds the mail once.
 *
 * In a folder of respin's (.git/respin/apply-XXXXXX): a temporary index
 * read from the base tree, git apply --cached into it, git write-tree;
 * the objects they write go to that folder's own object directory (the
 * repository's read as an alternate), then git pack-objects makes one
 * pack of them, moved into the object store kept (objtx_add_pack()):
 * as with the objects respin writes itself, a concurrent git gc cannot
 * take them before the series' ref points at them.  Only argv arrays
 * are run; the diff goes to git apply's standard input.
 */
#include "series/import.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/limits.h"
#include "tools/lib/objtx.h"
#include "tools/lib/run.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int import_git_apply_size(git_repository *repo, size_t *out)
{
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	int r = 0;

	*out = IMPORT_GIT_APPLY_DEFAULT;
	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		git_error_clear();
		return 0;
	}
	if (!git_config_get_string_buf(&buf, cfg, IMPORT_GIT_APPLY_KEY) &&
	    size_parse(buf.ptr, out) < 0) {
		r = error_code(RESPIN_EUSAGE, "%s: cannot read '%s' as a size",
			       IMPORT_GIT_APPLY_KEY, buf.ptr);
		error_hint("give a number of bytes with an optional k, m or g "
			   "suffix (0: never apply with git)");
	}
	git_error_clear();
	git_buf_dispose(&buf);
	git_config_free(cfg);
	return r;
}

/* The last line of out that is an object name, into oid. */
static int last_oid(const struct strbuf *out, git_oid *oid)
{
	const char *s = out->buf, *line = NULL, *p;

	for (p = s; *p; p = *p ? p + 1 : p) {
		const char *e = p + strcspn(p, "\n");
		size_t n = (size_t)(e - p);

		if (n == GIT_OID_HEXSZ) {
			size_t i;

			for (i = 0; i < n && isxdigit((unsigned char)p[i]); i++)
				;
			if (i == n)
				line = p;
		}
		p = e;
		if (!*p)
			break;
	}
	if (!line)
		return -1;
	return git_oid_fromstrn(oid, line, GIT_OID_HEXSZ);
}

static void sb_swap(struct strbuf *a, struct strbuf *b)
{
	struct strbuf t = *a;

	*a = *b;
	*b = t;
}

/*
 * Runs one step with env added, input on its standard input; its
 * output (both streams) into out.  0, or RESPIN_ERR when it failed
 * (*failed set: it ran and said no), <0 with a message when it could
 * not run.
 */
static int step(const char *const *argv, const char *const *env,
		const char *input, size_t len, struct strbuf *out,
		int *failed)
{
	struct run_opts o = { 0 };
	struct run_result res;
	int r;

	o.argv = argv;
	o.env = env;
	o.input = input;
	o.input_len = len;
	o.max_output = 1 << 20;
	run_result_init(&res);
	r = run_program(&o, &res);
	if (r < 0) {
		run_result_release(&res);
		return r;
	}
	strbuf_rtrim(&res.output);
	if (!res.exited || res.exit_code) {
		if (failed)
			*failed = 1;
		r = RESPIN_ERR;
	}
	sb_swap(out, &res.output);
	run_result_release(&res);
	return r;
}

/* The names of the loose objects under dir, a line each. */
static int list_loose(const char *dir, struct strbuf *names)
{
	struct strbuf sub = STRBUF_INIT;
	DIR *d = opendir(dir), *d2;
	struct dirent *e, *e2;

	if (!d)
		return error_errno("cannot read %s", dir);
	while ((e = readdir(d))) {
		if (strlen(e->d_name) != 2 || !isxdigit((unsigned char)e->d_name[0]) ||
		    !isxdigit((unsigned char)e->d_name[1]))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, e->d_name);
		d2 = opendir(sub.buf);
		if (!d2)
			continue;
		while ((e2 = readdir(d2)))
			if (e2->d_name[0] != '.' && !strchr(e2->d_name, '.'))
				strbuf_addf(names, "%s%s\n", e->d_name,
					    e2->d_name);
		closedir(d2);
	}
	closedir(d);
	strbuf_release(&sub);
	return 0;
}

int import_git_apply(git_repository *repo, const git_oid *base_tree,
		     const char *diff, size_t len, git_oid *tree,
		     struct strbuf *why)
{
	const char *common = git_repository_commondir(repo);
	struct strbuf tmp = STRBUF_INIT, objs = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf e_index = STRBUF_INIT, e_objs = STRBUF_INIT;
	struct strbuf e_alt = STRBUF_INIT, gitdir = STRBUF_INIT;
	struct strbuf packbase = STRBUF_INIT, names = STRBUF_INIT;
	char base_hex[GIT_OID_HEXSZ + 1];
	git_oid pack;
	int r, failed = 0;

	git_oid_tostr(base_hex, sizeof(base_hex), base_tree);
	strbuf_addf(&tmp, "%srespin/apply-XXXXXX", common);
	if (mkdir_leading(tmp.buf) < 0 || !mkdtemp(tmp.buf)) {
		r = error_errno("cannot make a folder for applying a patch "
				"in %srespin", common);
		strbuf_reset(&tmp);
		goto out;
	}
	strbuf_addf(&objs, "%s/objects", tmp.buf);
	if (mkdir(objs.buf, 0777) < 0) {
		r = error_errno("cannot make %s", objs.buf);
		goto out;
	}
	strbuf_addf(&gitdir, "--git-dir=%s", git_repository_path(repo));
	strbuf_addf(&e_index, "GIT_INDEX_FILE=%s/index", tmp.buf);
	strbuf_addf(&e_objs, "GIT_OBJECT_DIRECTORY=%s", objs.buf);
	strbuf_addf(&e_alt, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%sobjects",
		    common);
	strbuf_addf(&packbase, "%s/pack", tmp.buf);
	{
		const char *env[] = { e_index.buf, e_objs.buf, e_alt.buf,
				      NULL };
		const char *read_tree[] = { "git", gitdir.buf, "read-tree",
					    base_hex, NULL };
		/*
		 * As libgit2 applies: whitespace as it is, no fuzz, what
		 * the user's apply.* settings say of either left out.
		 */
		const char *apply[] = { "git", gitdir.buf,
					"-c", "apply.whitespace=nowarn",
					"-c", "apply.ignoreWhitespace=no",
					"apply", "--cached", NULL };
		const char *write_tree[] = { "git", gitdir.buf, "write-tree",
					     NULL };
		const char *pack_objects[] = { "git", gitdir.buf,
					       "pack-objects", "-q",
					       packbase.buf, NULL };

		r = step(read_tree, env, NULL, 0, &out, NULL);
		if (r < 0) {
			r = error("git read-tree %s failed: %s", base_hex,
				  out.buf);
			goto out;
		}
		r = step(apply, env, diff, len, &out, &failed);
		if (r < 0 && failed) {
			/* it does not apply: git's words for the caller */
			sb_swap(why, &out);
			r = 1;
			goto out;
		}
		if (r < 0)
			goto out;
		r = step(write_tree, env, NULL, 0, &out, NULL);
		if (r < 0 || last_oid(&out, tree) < 0) {
			r = error("git write-tree failed: %s", out.buf);
			goto out;
		}
		r = list_loose(objs.buf, &names);
		if (r < 0 || !names.len)
			goto out;	/* nothing new (an empty patch) */
		r = step(pack_objects, env, names.buf, names.len, &out, NULL);
		if (r < 0 || last_oid(&out, &pack) < 0) {
			r = error("git pack-objects failed: %s", out.buf);
			goto out;
		}
	}
	{
		char name[GIT_OID_HEXSZ + 1];

		git_oid_tostr(name, sizeof(name), &pack);
		r = objtx_add_pack(repo, tmp.buf, name);
	}
out:
	if (tmp.len)
		remove_tree(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&objs);
	strbuf_release(&out);
	strbuf_release(&e_index);
	strbuf_release(&e_objs);
	strbuf_release(&e_alt);
	strbuf_release(&gitdir);
	strbuf_release(&packbase);
	strbuf_release(&names);
	return r;
}
