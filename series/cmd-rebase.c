// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin rebase NAME [--onto REF] [--branch BRANCH] [--dry-run]
 * respin rebase [NAME] --continue | --abort
 *
 * The latest version of a series picked onto a new base, patch by
 * patch (3-way), and recorded as the next version, marked rebased.  A
 * conflict stops it in a worktree of its own until --continue or
 * --abort; nothing is recorded before every patch is in.
 */
#include "series/rebase.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/lock.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin rebase <name> [--onto <ref>] [--branch <branch>] [--dry-run]",
	"respin rebase [<name>] --continue | --abort",
	NULL
};

/* Text that may come from mail or a tree, escaped for the terminal. */
static void put_text(const struct strbuf *out)
{
	fputs_term_safe(stdout, out->buf, out->len, TERM_SAFE_LINES);
}

static const char *how_text(enum rebase_how how, int dry_run)
{
	switch (how) {
	case REBASE_CLEAN:
		return dry_run ? "applies cleanly" : "applied cleanly";
	case REBASE_3WAY:
		return dry_run ? "needs a 3-way merge" :
		       "applied with a 3-way merge";
	case REBASE_RESOLVED:
		return "resolved by hand";
	case REBASE_EMPTY:
		return dry_run ? "is in the base already (would be dropped)" :
		       "dropped: the base has it already";
	case REBASE_CONFLICT:
		return "conflicts";
	default:
		return "not tried";
	}
}

/* One line a step this run took, up to the one stopped at. */
static void print_steps(const struct rebase_run *rr, int dry_run)
{
	/* found again: recording a version may have moved the versions */
	const struct series_version *v =
		series_version_find((struct series *)&rr->s, rr->st.from);
	struct strbuf out = STRBUF_INIT;
	size_t i, n = rr->st.nr;

	for (i = rr->steps_from; v && i < n && i < rr->steps_end; i++) {
		if (rr->st.steps[i].how == REBASE_TODO)
			break;
		strbuf_addf(&out, "  %zu/%zu %s: %s\n", i + 1, n,
			    how_text(rr->st.steps[i].how, dry_run),
			    v->patches[i].subject);
	}
	put_text(&out);
	strbuf_release(&out);
}

static void print_conflict(const struct rebase_run *rr, int dry_run)
{
	const struct series_patch *p = &rr->v->patches[rr->st.next];
	struct strbuf out = STRBUF_INIT, wt = STRBUF_INIT;

	strbuf_addf(&out, "patch %zu/%zu \"%s\" conflicts on %s (%s):\n",
		    rr->st.next + 1, rr->v->nr_patches, p->subject,
		    rr->st.onto_name, oid_short(&rr->st.onto, 12));
	conflict_format(&rr->conflict, "  ", &out);
	if (dry_run) {
		if (rr->st.next + 1 < rr->v->nr_patches)
			strbuf_addf(&out, "patches after %zu/%zu not tried: "
				    "they go on top of its resolution\n",
				    rr->st.next + 1, rr->v->nr_patches);
	} else {
		rebase_worktree_path(rr->repo, rr->s.name, &wt);
		/* the path on a line of its own, to copy */
		strbuf_addf(&out, "resolve the conflict in %s\n(edit the "
			    "files there, 'git add' them), then 'respin rebase "
			    "%s --continue', or 'respin rebase %s --abort' to "
			    "give up; nothing is recorded yet\n", wt.buf,
			    rr->s.name, rr->s.name);
	}
	put_text(&out);
	strbuf_release(&out);
	strbuf_release(&wt);
}

/* The branches still at the old tip, for the hint after recording. */
static void print_branch_hints(const struct rebase_run *rr)
{
	struct strbuf names = STRBUF_INIT;
	char *name, *nl;

	rebase_branches_at(rr->repo, &rr->old_tip, &names);
	for (name = names.buf; (nl = strchr(name, '\n')); name = nl + 1) {
		*nl = '\0';
		printf("branch %s is still at the old tip; 'git switch %s && "
		       "git reset --keep %s' (or --branch %s next time) moves "
		       "it\n", term_safe(name), term_safe(name),
		       oid_short(&rr->nv->tip, 12), term_safe(name));
	}
	strbuf_release(&names);
}

static void print_recorded(const struct rebase_run *rr)
{
	const struct series_version *nv = rr->nv;

	if (rr->outcome == REBASE_RUN_IN_BASE) {
		printf("every patch of %s v%d is in %s already; nothing "
		       "recorded\n", term_safe(rr->s.name), rr->st.from,
		       term_safe(rr->st.onto_name));
		return;
	}
	if (nv->number == rr->st.from)
		printf("%s v%d revised: %zu patch%s rebased onto %s (%s), tip "
		       "%s; not sent yet, so still v%d\n",
		       term_safe(rr->s.name), nv->number, nv->nr_patches,
		       nv->nr_patches == 1 ? "" : "es",
		       term_safe(rr->st.onto_name), oid_short(&rr->st.onto, 12),
		       oid_short(&nv->tip, 12), nv->number);
	else
		printf("%s v%d recorded: %zu patch%s of v%d rebased onto %s "
		       "(%s), tip %s\n", term_safe(rr->s.name), nv->number,
		       nv->nr_patches, nv->nr_patches == 1 ? "" : "es",
		       rr->st.from, term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12), oid_short(&nv->tip, 12));
	if (rr->branch_moved)
		printf("branch %s moved to v%d (was %s)\n",
		       term_safe(repo_ref_short(rr->st.branch)), nv->number,
		       oid_short(&rr->st.branch_old, 12));
	else if (!rr->st.branch)
		print_branch_hints(rr);
}

/* What the run did, as it went, whether an error followed or not. */
static void print_run(const struct rebase_run *rr, const char *name,
		      int dry_run)
{
	struct strbuf wt = STRBUF_INIT;

	switch (rr->outcome) {
	case REBASE_RUN_NONE:
		print_steps(rr, 0);
		break;
	case REBASE_RUN_ON_BASE:
		printf("%s v%d is on %s (%s) already; nothing to rebase\n",
		       term_safe(name), rr->v->number,
		       term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12));
		break;
	case REBASE_RUN_DRY:
		printf("%s v%d (%zu patch%s) onto %s (%s):\n",
		       term_safe(rr->s.name), rr->v->number, rr->v->nr_patches,
		       rr->v->nr_patches == 1 ? "" : "es",
		       term_safe(rr->st.onto_name),
		       oid_short(&rr->st.onto, 12));
		print_steps(rr, 1);
		if (rr->st.next < rr->v->nr_patches)
			print_conflict(rr, 1);
		printf("nothing written (--dry-run); without it this would be "
		       "recorded as v%d\n", rr->st.to);
		break;
	case REBASE_RUN_STOPPED:
		print_steps(rr, 0);
		print_conflict(rr, 0);
		break;
	case REBASE_RUN_RECORDED:
	case REBASE_RUN_IN_BASE:
		print_steps(rr, 0);
		print_recorded(rr);
		break;
	case REBASE_RUN_RECORDED_BEFORE:
		printf("%s v%d was recorded already; the rebase's state is "
		       "removed\n", term_safe(name), rr->nv->number);
		break;
	case REBASE_RUN_ABORTED:
		rebase_worktree_path(rr->repo, name, &wt);
		printf("rebase of %s stopped; nothing was recorded, %s is "
		       "removed\n", term_safe(name), wt.buf);
		break;
	}
	strbuf_release(&wt);
}

int cmd_rebase(int argc, const char **argv, struct command_context *ctx)
{
	const char *onto = NULL, *branch = NULL;
	int dry_run = 0, cont = 0, abort_it = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "onto", &onto, "ref",
			   "the new base (default: the series' base ref now)"),
		OPT_STRING(0, "branch", &branch, "branch",
			   "move this branch (at the old tip) to the new one"),
		OPT_BOOL('n', "dry-run", &dry_run,
			 "say what would apply, merge or conflict; write nothing"),
		OPT_BOOL(0, "continue", &cont,
			 "go on after the conflict was resolved and added"),
		OPT_BOOL(0, "abort", &abort_it,
			 "give up the rebase in progress; nothing is recorded"),
		OPT_END()
	};
	struct lock_file lk = LOCK_FILE_INIT;
	struct rebase_run rr;
	char *name = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (cont && abort_it)
		return command_usage_error(opts, usage, "--continue or --abort, "
					   "not both");
	if ((cont || abort_it) && (onto || branch || dry_run))
		return command_usage_error(opts, usage, "--%s takes no --%s: "
			"the rebase in progress has its own",
			cont ? "continue" : "abort",
			onto ? "onto" : branch ? "branch" : "dry-run");
	if (n > 1)
		return command_usage_error(opts, usage, "too many arguments");
	if (!n && !cont && !abort_it)
		return command_usage_error(opts, usage, "which series? give its "
					   "name");
	if (n && strchr(argv[0], '@'))
		return command_usage_error(opts, usage, "rebase takes the latest "
					   "version; give NAME, not '%s'",
					   argv[0]);
	if (n) {
		r = series_name_check(argv[0]);
		if (r < 0)
			return error_report(r);
		name = xstrdup(argv[0]);
	} else if ((r = rebase_only_in_progress(ctx->repo, &name)) < 0) {
		return error_report(r);
	}

	/* all zero: what the loads fill is released either way */
	rebase_run_init(&rr, ctx->repo);
	r = dry_run ? 0 : rebase_lock(ctx->repo, name, &lk);
	if (!r && cont)
		r = rebase_run_continue(&rr, name);
	else if (!r && abort_it)
		r = rebase_run_abort(&rr, name);
	else if (!r)
		r = rebase_run_start(&rr, name, onto, branch, dry_run);
	lock_release(&lk);
	print_run(&rr, name, dry_run);
	rebase_run_release(&rr);
	free(name);
	return r < 0 ? error_report(r) : r;
}
