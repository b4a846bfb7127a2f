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

int lint_prepare(struct engine *e, const struct check *c, size_t i,
		 struct strbuf *cmd, struct strbuf *input)
{
	int r = engine_patch_text(e->repo, e->v, i, input);

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
	e->errors++;
	engine_report(e, c, i, "ERROR: this tree has no "
		      "scripts/checkpatch.pl; set respin.check.%s.command to "
		      "one (e.g. from Debian's linux-source package, or the "
		      "copy tools/kernel-tree.sh keeps in "
		      "~/.cache/respin/checkpatch)\n", c->name);
	return 1;
}

int lint_judge(const struct check_job *j, const struct run_result *res)
{
	struct engine *e = j->e;
	struct strbuf summary = STRBUF_INIT, details = STRBUF_INIT;
	struct lint_report lr = { 0 };
	struct check_verdict v = { 0 };
	struct json js;
	int r;

	lint_parse(&lr, res->output.buf, res->output.len);
	if (res->timed_out) {
		v.status = RESULT_TIMEOUT;
		strbuf_addstr(&summary, "timeout");
	} else if (!res->exited || res->exit_code > 1 ||
		   (res->exit_code == 1 && !lr.nr)) {
		v.status = RESULT_ERROR;
		strbuf_addstr(&summary, "ERROR");
		engine_report(e, j->c, j->i, "ERROR: the lint command "
			      "failed:\n");
		run_tail_lines(&e->report, res->output.buf, res->output.len, 5);
		strbuf_addch(&e->report, '\n');
	} else {
		v.status = lr.errors ? RESULT_FAIL : RESULT_PASS;
		lint_summary(&lr, &summary);
	}
	json_init(&js, &details, 0);
	lint_to_json(&lr, &js);
	v.summary = summary.buf;
	v.details = details.buf;
	v.seconds = res->seconds;
	v.log = res->output.buf;
	v.log_len = res->output.len;
	r = store_result(j, &v);
	lint_report_release(&lr);
	strbuf_release(&summary);
	strbuf_release(&details);
	return r;
}

static int lint_run(const struct check_job *j)
{
	struct strbuf text = STRBUF_INIT, cmd = STRBUF_INIT;
	struct run_result res;
	int r;

	r = lint_prepare(j->e, j->c, j->i, &cmd, &text);
	if (r) {
		strbuf_release(&text);
		strbuf_release(&cmd);
		return r < 0 ? r : 0;
	}
	run_result_init(&res);
	r = engine_exec(j->e, j->c, j->i, &j->tree, NULL, cmd.buf, j->c->timeout,
			text.buf, text.len, &res);
	if (!r)
		r = lint_judge(j, &res);
	run_result_release(&res);
	strbuf_release(&text);
	strbuf_release(&cmd);
	return r;
}

const struct check_kind_ops check_lint_ops = {
	CHECK_LINT, KIND_NEEDS_MAIL | KIND_WORKTREE_FREE, lint_run, NULL,
};
