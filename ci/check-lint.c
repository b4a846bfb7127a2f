// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = lint: the patch's mail on stdin (checkpatch's way: the tree's
 * scripts/checkpatch.pl unless a command is set); the findings decide:
 * an ERROR finding FAILs, warnings PASS.  A command that exits 2 or
 * more, or 1 with no finding, is broken: an ERROR, not stored.  The
 * result key is the mail's text, so it needs no build and leaves the
 * worktree alone: -j runs these in threads (engine.c).
 */
#include "ci/kind.h"
#include "ci/lint.h"
#include "tools/lib/json.h"
#include "tools/lib/run.h"

static int lint_command(const struct check_job *j, struct strbuf *cmd,
			struct strbuf *input)
{
	struct engine *e = j->e;
	const struct check *c = j->c;
	int r = engine_patch_text(e->repo, e->v, j->i, input);

	if (r < 0)
		return r;
	if (c->command) {
		strbuf_addstr(cmd, c->command);
		return 0;
	}
	if (engine_file_exists(e->wt.path, "scripts/checkpatch.pl")) {
		strbuf_addstr(cmd, "perl scripts/checkpatch.pl --terse "
			      "--show-types --showfile -");
		return 0;
	}
	engine_report(e, c, j->i, "ERROR: this tree has no "
		      "scripts/checkpatch.pl; set respin.check.%s.command to "
		      "one (e.g. from Debian's linux-source package, or the "
		      "copy tools/kernel-tree.sh keeps in "
		      "~/.cache/respin/checkpatch)\n", c->name);
	return 1;
}

static int lint_judge(const struct check_job *j, const struct run_result *res,
		      struct check_verdict *v)
{
	struct lint_report lr = { 0 };
	struct json js;

	lint_parse(&lr, res->output.buf, res->output.len);
	if (res->timed_out) {
		v->status = RESULT_TIMEOUT;
		strbuf_addstr(&v->summary, "timeout");
	} else if (!res->exited || res->exit_code > 1 ||
		   (res->exit_code == 1 && !lr.nr)) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR");
		engine_report(j->e, j->c, j->i, "ERROR: the lint command "
			      "failed:\n");
		run_tail_lines(&j->e->report, res->output.buf,
			       res->output.len, 5);
		strbuf_addch(&j->e->report, '\n');
	} else {
		v->status = lr.errors ? RESULT_FAIL : RESULT_PASS;
		lint_summary(&lr, &v->summary);
	}
	json_init(&js, &v->details, 0);
	lint_to_json(&lr, &js);
	lint_report_release(&lr);
	return 0;
}

static void lint_describe(const struct check *c, struct strbuf *out)
{
	strbuf_addstr(out, c->command ? c->command :
		      "scripts/checkpatch.pl --terse --show-types "
		      "--showfile - (each patch's mail)");
}

const struct check_kind_ops check_lint_ops = {
	.kind = CHECK_LINT,
	.needs = KIND_NEEDS_MAIL | KIND_WORKTREE_FREE,
	.results = KIND_RESULTS_FINDINGS,
	.command = lint_command,
	.judge = lint_judge,
	.describe = lint_describe,
};
