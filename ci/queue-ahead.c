// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Jobs queued ahead (queue-ahead.h).  An executor that queues (a
 * cluster) is given every job known ahead, at once: each position's job
 * of each check whose kind says what to run without a build, unless
 * stored.  The cluster runs them side by side while the loop of
 * engine_run() waits for each in its turn (it finds them by name).
 * Kinds that need the build queue theirs when it is there.
 */
#include "ci/engine-run.h"
#include "ci/queue-ahead.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

/* (queue-ahead.h) */
int engine_queues(struct engine *e, const struct check *c)
{
	struct executor own = { 0 }, *x = NULL;
	int parallel = e->parallel, r;

	e->parallel = 0;
	r = engine_executor_for(e, c, &own, &x);
	e->parallel = parallel;
	if (!r)
		r = x->ops->queues;
	if (x == &own)
		executor_release(&own);
	return r;
}

/* One job queued ahead: its parts, what it runs, the id it was given. */
struct ahead {
	struct engine_job_parts jp;
	struct strbuf cmd, input;
	size_t pos;
};

/*
 * Queues every position of c that runs (not stored) on executor x, as
 * one submission (a job array): 0 or <0.
 */
static int queue_check_ahead(struct engine *e, const struct check *c,
			     struct executor *x)
{
	const struct check_kind_ops *ops = check_kind_ops(c->kind);
	size_t i, q, n = e->v->nr_patches, m = 0;
	struct ahead *a = xcalloc(n + 1, sizeof(*a));
	struct exec_job *jobs = xcalloc(n + 1, sizeof(*jobs));
	int r = 0;

	for (i = 0; i <= n && r >= 0; i++) {
		struct check_job j = { e, c, i, { { 0 } }, NULL };
		struct strbuf key = STRBUF_INIT;
		struct ahead *t = &a[m];
		size_t said = e->report.len;

		if (!engine_applies(e, c, i))
			continue;
		r = engine_key(e->repo, e->v, c, i, &key);
		if (!r)
			r = engine_stored(e, c, key.buf);
		if (!r)
			r = engine_tree(e->repo, engine_commit(e->v, i),
					&j.tree);
		j.key = key.buf;
		strbuf_init(&t->cmd, 0);
		strbuf_init(&t->input, 0);
		if (!r)
			r = ops->command(&j, &t->cmd, &t->input);
		/* nothing to run: the loop says so, once */
		strbuf_setlen(&e->report, said);
		if (!r) {
			engine_job_parts_fill(&t->jp, e, c, i, &j.tree,
					      NULL, t->cmd.buf, c->timeout,
					      t->input.len ? t->input.buf :
					      NULL, t->input.len);
			jobs[m] = t->jp.job;
			/* the builds are what later results wait for */
			jobs[m].yields = 1;
			t->pos = i;
			m++;
		} else {
			strbuf_release(&t->cmd);
			strbuf_release(&t->input);
		}
		if (r > 0)
			r = 0;
		strbuf_release(&key);
	}
	if (r >= 0 && m) {
		struct strbuf *ids = xcalloc(m, sizeof(*ids));

		e->queued = 1;
		for (q = 0; q < m; q++)
			strbuf_init(&ids[q], 0);
		r = executor_queue_all(x, jobs, m, ids);
		for (q = 0; q < m; q++) {
			if (r >= 0)
				engine_job_state(e, c, a[q].pos, ids[q].buf,
						 EXEC_PENDING);
			strbuf_release(&ids[q]);
		}
		free(ids);
	}
	for (q = 0; q < m; q++) {
		engine_job_parts_release(&a[q].jp);
		strbuf_release(&a[q].cmd);
		strbuf_release(&a[q].input);
	}
	free(a);
	free(jobs);
	return r < 0 ? r : 0;
}

/* (queue-ahead.h) */
int queue_ahead(struct engine *e)
{
	size_t pass;
	int r = 0;

	/* the kinds' own first (the build chain: later results wait for it) */
	for (pass = 0; pass < 2 * e->checks->nr && r >= 0; pass++) {
		const struct check *c = &e->checks->items[pass % e->checks->nr];
		const struct check_kind_ops *ops = check_kind_ops(c->kind);
		struct executor *x = NULL;

		if ((pass < e->checks->nr) != !!ops->queue)
			continue;
		r = engine_queues(e, c);
		if (r > 0 && ops->queue) {
			r = ops->queue(e, c);
		} else if (r > 0 && ops->command && !ops->run &&
			   !(check_needs(c) & (KIND_NEEDS_BUILD |
					       KIND_OWN_SCHEDULE))) {
			r = engine_executor(e, c, &x);
			if (!r)
				r = queue_check_ahead(e, c, x);
		}
		r = r < 0 ? r : 0;
	}
	return r;
}
