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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The object name on the last line of out, into oid. */
static int tree_name(const struct strbuf *out, git_oid *oid)
{
	const char *line = out->buf, *nl;

	while ((nl = strchr(line, '\n')) && nl[1])
		line = nl + 1;
	if (strlen(line) != GIT_OID_HEXSZ)
		return -1;
	return git_oid_fromstrn(oid, line, GIT_OID_HEXSZ);
}

int import_git_apply(git_repository *repo, const git_oid *base_tree,
		     const char *diff, size_t len, git_oid *tree,
		     struct strbuf *why)
{
	struct strbuf tmp = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf env[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf gitdir = STRBUF_INIT;
	char base_hex[GIT_OID_HEXSZ + 1];
	int r, failed = 0;

	git_oid_tostr(base_hex, sizeof(base_hex), base_tree);
	r = objtx_quarantine_new(repo, "apply", &tmp);
	if (r < 0)
		goto out;
	objtx_quarantine_env(repo, tmp.buf, env);
	strbuf_addf(&gitdir, "--git-dir=%s", git_repository_path(repo));
	{
		const char *envp[] = { env[0].buf, env[1].buf, env[2].buf,
				       NULL };
		const char *read_tree[] = { "git", gitdir.buf, "read-tree",
					    base_hex, NULL };
		/*
		 * As libgit2 applies: whitespace as it is, whatever the
		 * user's apply.* settings say.
		 */
		const char *apply[] = { "git", gitdir.buf,
					"-c", "apply.whitespace=nowarn",
					"-c", "apply.ignoreWhitespace=no",
					"apply", "--cached", NULL };
		const char *write_tree[] = { "git", gitdir.buf, "write-tree",
					     NULL };

		r = step(read_tree, envp, NULL, 0, &out, NULL);
		if (r < 0) {
			r = error("git read-tree %s failed: %s", base_hex,
				  out.buf);
			goto out;
		}
		r = step(apply, envp, diff, len, &out, &failed);
		if (r < 0 && failed) {
			/* it does not apply: git's words for the caller */
			sb_swap(why, &out);
			r = 1;
			goto out;
		}
		if (r < 0)
			goto out;
		r = step(write_tree, envp, NULL, 0, &out, NULL);
		if (r < 0 || tree_name(&out, tree) < 0) {
			r = error("git write-tree failed: %s", out.buf);
			goto out;
		}
	}
	r = objtx_quarantine_pack(repo, tmp.buf);
out:
	if (tmp.len)
		remove_tree(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&out);
	strbuf_release(&env[0]);
	strbuf_release(&env[1]);
	strbuf_release(&env[2]);
	strbuf_release(&gitdir);
	return r;
}
