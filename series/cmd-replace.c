// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin replace NAME --in BRANCH [--version N] [--base REF]
 *                [--drop-obsolete] [--dry-run]
 *
 * For a maintainer: the version of series NAME applied in an
 * integration branch is swapped for version N (the latest by default),
 * every later commit re-applied, and the branch moved only when all of
 * it succeeded.
 */
#include "series/branchuse.h"
#include "series/replace.h"
#include "series/treescan.h"
#include "patches/subject.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const usage[] = {
	"respin replace <name> --in <branch> [--version <n>] [--base <ref>] "
	"[--drop-obsolete] [--dry-run]",
	NULL
};

/* The local branch to move: refs/heads/NAME or a full refs/heads/ name. */
static int branch_ref(git_repository *repo, const char *name,
		      git_reference **out)
{
	if (!git_branch_lookup(out, repo, name, GIT_BRANCH_LOCAL))
		return 0;
	if (!strncmp(name, "refs/heads/", 11) &&
	    !git_reference_lookup(out, repo, name))
		return 0;
	return error_code(RESPIN_EUSAGE, "%s is not a local branch: replace "
			  "moves a branch (git branch %s <commit> makes one)",
			  name, name);
}

/* Old patches against new: the same, changed (by title), new, dropped. */
static void say_changes(const struct series_version *a,
			const struct series_version *b, struct strbuf *out)
{
	size_t i, k, same = 0, changed = 0, added = 0, dropped = 0;
	unsigned char *used = xcalloc(a->nr_patches + 1, 1);
	struct strbuf lines = STRBUF_INIT;

	for (k = 0; k < b->nr_patches; k++) {
		char *tb = subject_title(b->patches[k].subject, 1);
		int done = 0;

		for (i = 0; i < a->nr_patches && !done; i++)
			if (!used[i] && git_oid_equal(&a->patches[i].patch_id,
						      &b->patches[k].patch_id)) {
				used[i] = 1;
				same++;
				done = 1;
			}
		for (i = 0; i < a->nr_patches && !done; i++) {
			char *ta = subject_title(a->patches[i].subject, 1);

			if (!used[i] && !strcmp(ta, tb)) {
				used[i] = 1;
				changed++;
				done = 1;
				strbuf_addf(&lines, "  changed %zu/%zu %s\n", k + 1,
					    b->nr_patches, b->patches[k].subject);
			}
			free(ta);
		}
		if (!done) {
			added++;
			strbuf_addf(&lines, "  added   %zu/%zu %s\n", k + 1,
				    b->nr_patches, b->patches[k].subject);
		}
		free(tb);
	}
	for (i = 0; i < a->nr_patches; i++)
		if (!used[i]) {
			dropped++;
			strbuf_addf(&lines, "  dropped %zu/%zu %s\n", i + 1,
				    a->nr_patches, a->patches[i].subject);
		}
	strbuf_addf(out, "%zu the same, %zu changed, %zu added, %zu dropped\n%s",
		    same, changed, added, dropped, lines.buf);
	strbuf_release(&lines);
	free(used);
}

int cmd_replace(int argc, const char **argv, struct command_context *ctx)
{
	const char *branch = NULL, *base = NULL;
	int version = 0, drop = 0, dry_run = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "in", &branch, "branch",
			   "the integration branch (e.g. mm-unstable)"),
		OPT_INT(0, "version", &version, "n",
			"the version to put in (default: the latest)"),
		OPT_STRING(0, "base", &base, "ref",
			   "the branch's commits above this (as respin tree)"),
		OPT_BOOL(0, "drop-obsolete", &drop,
			 "leave out fixups that no longer apply"),
		OPT_BOOL(0, "dry-run", &dry_run, "say what it would do"),
		OPT_END()
	};
	struct tree_scan t;
	struct replace_plan p;
	struct branch_use use = { 0 };
	const struct tree_found *f;
	struct series_version *to;
	git_reference *ref = NULL, *moved = NULL;
	struct strbuf out = STRBUF_INIT, safe = STRBUF_INIT, msg = STRBUF_INIT;
	size_t i;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME");
	if (!branch)
		return command_usage_error(opts, usage, "in which branch? give "
					   "--in BRANCH");
	replace_plan_init(&p);
	memset(&t, 0, sizeof(t));
	r = branch_ref(ctx->repo, branch, &ref);
	if (!r)
		r = branch_use_find(ctx->repo, git_reference_name(ref), &use);
	if (!r)
		r = branch_use_check_clean(&use, git_reference_shorthand(ref));
	if (!r)
		r = tree_scan(ctx->repo, git_reference_name(ref), base, 20000, &t);
	if (r < 0)
		goto fail;
	f = tree_scan_find(&t, argv[0]);
	if (!f) {
		r = error("%s is not in %s (respin tree %s shows what is)",
			  argv[0], branch, branch);
		goto fail;
	}
	to = version ? series_version_find((struct series *)&f->s, version) :
	     series_latest((struct series *)&f->s);
	if (!to) {
		r = error("%s has no v%d", f->s.name, version);
		goto fail;
	}
	if (to->number == f->v->number) {
		printf("%s: %s v%d is in it already; nothing to do\n", branch,
		       f->s.name, to->number);
		r = 0;
		goto out;
	}
	r = replace_make(ctx->repo, &t, f, to, drop, &p);
	if (r < 0)
		goto fail;
	if (r == 1) {
		if (p.failed_patch)
			r = error("%s v%d does not go in %s: patch %zu/%zu "
				  "\"%s\": %s; %s and the store are as they were",
				  f->s.name, to->number, branch, p.failed_patch,
				  to->nr_patches,
				  to->patches[p.failed_patch - 1].subject,
				  p.why.buf, branch);
		else if (t.commits[p.failed_commit].fixup)
			r = error("the fixup %s \"%s\" of %s v%d: %s; "
				  "--drop-obsolete leaves it out; %s is as it "
				  "was", oid_short(&t.commits[p.failed_commit].oid, 12),
				  t.commits[p.failed_commit].subject, f->s.name,
				  f->v->number, p.why.buf, branch);
		else
			r = error("%s \"%s\", after %s in %s, does not apply "
				  "on v%d: %s; %s is as it was",
				  oid_short(&t.commits[p.failed_commit].oid, 12),
				  t.commits[p.failed_commit].subject, f->s.name,
				  branch, to->number, p.why.buf, branch);
		goto fail;
	}

	strbuf_addf(&out, "%s: %s v%d -> v%d%s: ", branch, f->s.name,
		    f->v->number, to->number, dry_run ? " (dry run)" : "");
	say_changes(f->v, to, &out);
	strbuf_addf(&out, "  %zu later commit%s re-applied", p.kept,
		    p.kept == 1 ? "" : "s");
	if (p.kept_fixups || p.dropped_fixups)
		strbuf_addf(&out, ", %zu fixup%s kept, %zu left out",
			    p.kept_fixups, p.kept_fixups == 1 ? "" : "s",
			    p.dropped_fixups);
	strbuf_addch(&out, '\n');
	for (i = 0; i < t.nr; i++)
		if (p.left_out[i])
			strbuf_addf(&out, "  left out %s %s (obsolete)\n",
				    oid_short(&t.commits[i].oid, 12),
				    t.commits[i].subject);
	strbuf_addf(&out, "  the trees from %s on changed: respin check "
		    "%s@v%d checks it (stored results are reused)\n",
		    oid_short(&p.onto, 12), f->s.name, to->number);
	if (!dry_run) {
		strbuf_addf(&msg, "respin replace %s v%d -> v%d", f->s.name,
			    f->v->number, to->number);
		/* moves only from the value it was scanned at */
		if (git_reference_create_matching(&moved, ctx->repo,
						  git_reference_name(ref),
						  &p.tip, 1, &t.tip,
						  msg.buf) < 0) {
			r = error_git("cannot move %s (did it move meanwhile?)",
				      branch);
			goto fail;
		}
		if (branch_use_follow(&use, &t.tip, &p.tip) < 0) {
			r = error("%s moved to %s, but its worktree could not "
				  "follow (%s): 'git reset --hard' there makes "
				  "it", branch, oid_short(&p.tip, 12),
				  error_last());
			goto fail;
		}
		strbuf_addf(&out, "%s is now %s (was %s)\n", branch,
			    oid_short(&p.tip, 12), oid_short(&t.tip, 12));
	}
	strbuf_add_term_safe(&safe, out.buf, out.len, TERM_SAFE_LINES);
	fputs(safe.buf, stdout);
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	git_reference_free(moved);
	git_reference_free(ref);
	branch_use_release(&use);
	replace_plan_release(&p);
	tree_scan_release(&t);
	strbuf_release(&out);
	strbuf_release(&safe);
	strbuf_release(&msg);
	return r;
}
