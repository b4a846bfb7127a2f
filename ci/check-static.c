// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = sparse | w1 | kdoc | coccicheck: the kind's tool on the files
 * patch i touches (ci/static.h says which, and the default commands),
 * once in the tree before the patch and once after it; the findings
 * the patch adds are those after and not before, compared without line
 * numbers (ci/warnings.c).  The result is keyed by both trees, so a
 * patch whose tree and parent's tree did not change is never looked at
 * again.  sparse and w1 compile in the build check's directory (built
 * for the patch first when there is a build check); the worktree is
 * left at the patch, and the objects of the touched files compiled
 * from it.
 *
 * New findings PASS (like a build's warnings: the cell counts them); a
 * tool that exits non-zero FAILs, with the end of what it printed; one
 * that is not installed (exit 127) is an ERROR, not stored.
 */
#include "ci/kind.h"
#include "ci/static.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/run.h"

#include <stdlib.h>
#include <string.h>

/* One side of the patch: the tool on list, at position at. */
struct side {
	const char *name;	/* "before the patch", "after the patch" */
	size_t at;
	const char *list;
	struct run_result res;
	struct warning_set found;
};

static int run_side(const struct check_job *j, const struct static_kind *sk,
		    struct side *s)
{
	struct engine *e = j->e;
	git_oid tree;
	char *real;
	int r;

	if (!*s->list)
		return 0;
	engine_step(e, j->i, j->c, s->name);
	r = engine_tree(e->repo, engine_commit(e->v, s->at), &tree);
	if (!r)
		r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v,
								    s->at));
	if (r < 0)
		return r;
	/* the side before runs at the parent's position, as "before" */
	r = engine_exec(e, j->c, s->at, &tree, s->at == j->i ? NULL : "before",
			j->c->command ? j->c->command : sk->command,
			j->c->timeout, s->list, strlen(s->list), &s->res);
	if (r < 0)
		return r;
	/* tools print the sources' real paths (kbuild under O=) */
	real = realpath(e->wt.path, NULL);
	findings_parse(&s->found, s->res.output.buf, s->res.output.len,
		       e->build_override ? e->build_override : e->wt.build_dir,
		       real ? real : e->wt.path);
	free(real);
	return 0;
}

/* A side that did not run to a good end: the verdict says so. */
static int side_failed(const struct check_job *j, const struct side *s,
		       struct check_verdict *v)
{
	const struct run_result *res = &s->res;
	struct engine *e = j->e;

	if (!*s->list || (res->exited && !res->exit_code && !res->timed_out))
		return 0;
	if (res->timed_out) {
		v->status = RESULT_TIMEOUT;
		strbuf_addf(&v->summary, "timeout after %.0fs", j->c->timeout);
		engine_report(e, j->c, j->i, "TIMEOUT after %.0f s %s "
			      "(respin.check.%s.timeout)\n", j->c->timeout,
			      s->name, j->c->name);
		return 1;
	}
	if (res->exited && res->exit_code == 127) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR");
		engine_report(e, j->c, j->i, "ERROR: a program the command "
			      "runs is missing (exit 127):\n");
	} else {
		v->status = RESULT_FAIL;
		strbuf_addstr(&v->summary, result_status_name(RESULT_FAIL));
		if (res->exited)
			engine_report(e, j->c, j->i, "FAIL (exit %d %s); the "
				      "last lines:\n", res->exit_code, s->name);
		else
			engine_report(e, j->c, j->i, "FAIL (signal %d %s); "
				      "the last lines:\n", res->signal, s->name);
	}
	run_tail_lines(&e->report, res->output.buf, res->output.len, 10);
	if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
		strbuf_addch(&e->report, '\n');
	return 1;
}

static void side_log(struct strbuf *log, const struct side *s)
{
	if (!*s->list)
		return;
	strbuf_addf(log, "respin: %s, on:\n%s", s->name, s->list);
	strbuf_add(log, s->res.output.buf, s->res.output.len);
	if (log->len && log->buf[log->len - 1] != '\n')
		strbuf_addch(log, '\n');
}

/* The paths left out, named once (they come from the tree: quoted). */
static void report_refused(const struct check_job *j, const char *refused)
{
	const char *p = refused;

	while (*p) {
		const char *nl = strchr(p, '\n');

		engine_report(j->e, j->c, j->i, "left out '%.*s': respin gives "
			      "a tool only paths of letters, digits and "
			      "\"_-.,+/\"\n", (int)(nl - p), p);
		p = nl + 1;
	}
}

static int make_lists(const struct check_job *j, const struct static_kind *sk,
		      struct static_lists *l)
{
	struct engine *e = j->e;
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	int r;

	if (git_commit_lookup(&a, e->repo, engine_commit(e->v, j->i - 1)) < 0 ||
	    git_commit_lookup(&b, e->repo, engine_commit(e->v, j->i)) < 0 ||
	    git_commit_tree(&ta, a) < 0 || git_commit_tree(&tb, b) < 0)
		r = error_git("cannot read the trees of patch %zu", j->i);
	else
		r = static_lists_make(e->repo, ta, tb, sk, l);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return r;
}

static int static_run(const struct check_job *j)
{
	const struct static_kind *sk = static_kind(j->c->kind);
	struct check_verdict v = CHECK_VERDICT_INIT;
	struct static_lists l;
	struct side before = { "before the patch", j->i - 1, "", { 0 }, { 0 } },
		    after = { "after the patch", j->i, "", { 0 }, { 0 } };
	struct strbuf log = STRBUF_INIT;
	int r = 0;

	static_lists_init(&l);
	run_result_init(&before.res);
	run_result_init(&after.res);
	r = make_lists(j, sk, &l);
	if (r < 0)
		goto out;
	report_refused(j, l.refused.buf);
	before.list = l.before.buf;
	after.list = l.after.buf;
	/* before first: the worktree and the objects end at the patch */
	r = run_side(j, sk, &before);
	if (!r)
		r = run_side(j, sk, &after);
	if (r < 0)
		goto out;
	side_log(&log, &before);
	side_log(&log, &after);
	if (!l.before.len && !l.after.len) {
		v.status = RESULT_SKIP;
		strbuf_addstr(&v.summary, sk->what);
	} else if (!side_failed(j, &before, &v) &&
		   !side_failed(j, &after, &v)) {
		size_t added, fixed;

		v.status = RESULT_PASS;
		static_details(&before.found, &after.found, &v.details,
			       &added, &fixed);
		static_summary(added, fixed, &v.summary);
	}
	v.seconds = before.res.seconds + after.res.seconds;
	v.log = log.buf;
	v.log_len = log.len;
	r = store_result(j, &v);
out:
	static_lists_release(&l);
	run_result_release(&before.res);
	run_result_release(&after.res);
	warning_set_release(&before.found);
	warning_set_release(&after.found);
	check_verdict_release(&v);
	strbuf_release(&log);
	return r;
}

static void static_describe(const struct check *c, struct strbuf *out)
{
	strbuf_addstr(out, c->command ? c->command :
		      static_kind(c->kind)->brief);
}

static void static_describe_json(const struct check *c, struct json *j)
{
	if (!c->command)
		json_string_member(j, "default_command",
				   static_kind(c->kind)->command);
}

#define STATIC_OPS(name, k, build, secs)				\
	const struct check_kind_ops name = {				\
		.kind = k,						\
		.needs = KIND_KEY_PAIR | KIND_NO_RERUN | KIND_OWN_COMMAND |\
			 (build),					\
		.results = KIND_RESULTS_WARNINGS,			\
		.details = KIND_DETAILS_ADDED,				\
		.timeout = (secs),					\
		.run = static_run,					\
		.describe = static_describe,				\
		.describe_json = static_describe_json,			\
	}

STATIC_OPS(check_sparse_ops, CHECK_SPARSE, KIND_NEEDS_BUILD | KIND_BUILD_DIR,
	   0);
STATIC_OPS(check_w1_ops, CHECK_W1, KIND_NEEDS_BUILD | KIND_BUILD_DIR, 0);
STATIC_OPS(check_kdoc_ops, CHECK_KDOC, 0, 0);
/* (coccicheck runs every semantic patch on the files: slow) */
STATIC_OPS(check_cocci_ops, CHECK_COCCI, 0, 3600);
