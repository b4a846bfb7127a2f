// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin check -j N (parallel.h): the lint jobs, which need no build
 * and leave the worktree alone, N at a time in threads, before the
 * scheduler's loop (engine.c) runs the rest.
 */
#include "ci/parallel.h"
#include "ci/engine-run.h"
#include "ci/queue-ahead.h"
#include "ci/worktree.h"
#include "tools/lib/error.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int parallel_in_threads(struct engine *e, const struct check *c)
{
	return e->jobs > 1 && (check_needs(c) & KIND_WORKTREE_FREE) &&
	       engine_queues(e, c) == 0;
}

/*
 * -j N: lint jobs need no build and do not touch the worktree, so they
 * run first, N at a time, each in a thread of its own that waits on its
 * process; their results are judged and stored afterwards, in order.
 */
struct lint_job {
	struct engine *e;
	const struct check *c;
	size_t i;
	git_oid tree;
	struct strbuf key, text, cmd;
	struct run_result res;
	int r;
	/* the thread's error message and hint (error()'s are per thread) */
	struct strbuf msg, hint;
};

static void *lint_job_run(void *arg)
{
	struct lint_job *lj = arg;

	lj->r = engine_exec(lj->e, lj->c, lj->i, &lj->tree, NULL, lj->cmd.buf,
			    lj->c->timeout, lj->text.buf, lj->text.len,
			    &lj->res);
	if (lj->r < 0) {
		strbuf_addstr(&lj->msg, error_last());
		strbuf_addstr(&lj->hint, error_last_hint());
	}
	return NULL;
}

/* Records a thread's error as this thread's own; returns its code. */
static int lint_job_error(const struct lint_job *lj)
{
	const char *p = lj->hint.buf, *nl;
	int r = error_code(lj->r, "%s", lj->msg.buf);

	while (*p) {
		nl = strchrnul(p, '\n');
		error_hint("%.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
	return r;
}

int parallel_lint(struct engine *e)
{
	struct lint_job *jobs = NULL;
	size_t nr = 0, alloc = 0, i, k, start;
	int r = 0;

	for (i = 1; i <= e->v->nr_patches && !r; i++) {
		if (e->only >= 0 && (size_t)e->only != i)
			continue;
		for (k = 0; k < e->checks->nr && !r; k++) {
			const struct check *c = &e->checks->items[k];
			struct lint_job *lj;

			if (!parallel_in_threads(e, c))
				continue;
			ALLOC_GROW(jobs, nr, alloc);
			lj = &jobs[nr];
			memset(lj, 0, sizeof(*lj));
			lj->e = e;
			lj->c = c;
			lj->i = i;
			strbuf_init(&lj->key, 0);
			strbuf_init(&lj->text, 0);
			strbuf_init(&lj->cmd, 0);
			strbuf_init(&lj->msg, 0);
			strbuf_init(&lj->hint, 0);
			run_result_init(&lj->res);
			nr++;
			r = engine_key(e->repo, e->v, c, i, &lj->key);
			if (!r)
				r = engine_tree(e->repo, engine_commit(e->v, i),
						&lj->tree);
			if (r < 0)
				break;
			/* (the serial path names stored failures; this never did) */
			r = engine_reuse(e, c, i, lj->key.buf, 1);
			if (r < 0 && r != RESPIN_ENOTFOUND)
				break;
			if (!r) {
				lj->r = 1;	/* stored already */
				continue;
			}
			{
				struct check_job j = { e, c, i, { { 0 } },
						       lj->key.buf };

				git_oid_cpy(&j.tree, &lj->tree);
				r = check_kind_ops(c->kind)->command(&j,
						&lj->cmd, &lj->text);
			}
			if (r > 0) {
				e->errors++;	/* no command: reported */
				lj->r = 1;
				r = 0;
			}
		}
	}
	/* N at a time; the worktree stays where it is meanwhile */
	e->parallel = 1;
	if (!r)
		worktree_lock_note(&e->wt, "lint jobs in parallel", 0);
	for (start = 0; !r && start < nr; start += (size_t)e->jobs) {
		pthread_t *t = xcalloc((size_t)e->jobs, sizeof(*t));
		int *made = xcalloc((size_t)e->jobs, sizeof(*made));

		engine_step(e, jobs[start].i, jobs[start].c,
			    "running in parallel");
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (!jobs[start + k].r)
				made[k] = !pthread_create(&t[k], NULL,
							  lint_job_run,
							  &jobs[start + k]);
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (made[k])
				pthread_join(t[k], NULL);
		free(t);
		free(made);
		/* a job that could not run (or was interrupted) stops all */
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (jobs[start + k].r < 0 && !r)
				r = lint_job_error(&jobs[start + k]);
	}
	e->parallel = 0;
	for (k = 0; k < nr; k++) {
		struct lint_job *lj = &jobs[k];

		if (!r && !lj->r && lj->cmd.len) {
			struct check_job j = { e, lj->c, lj->i, { { 0 } },
					       lj->key.buf };

			git_oid_cpy(&j.tree, &lj->tree);
			r = engine_judge_and_store(&j, &lj->res);
			if (!r)
				e->ran++;
		}
		strbuf_release(&lj->key);
		strbuf_release(&lj->text);
		strbuf_release(&lj->cmd);
		strbuf_release(&lj->msg);
		strbuf_release(&lj->hint);
		run_result_release(&lj->res);
	}
	free(jobs);
	return r;
}
