// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The local executor: a job runs here, at once, when it is submitted
 * (run_program: its own process group, the time limit, the output
 * kept); poll hands the result over.  It knows only the jobs of this
 * run, so lookup never finds one from before.
 */
#include "ci/executor.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

struct local_job {
	char *id;
	struct exec_result res;
	int taken;
};

struct local {
	struct local_job *jobs;
	size_t nr, alloc, next;
};

static struct local *local_of(struct executor *x)
{
	if (!x->priv)
		x->priv = xcalloc(1, sizeof(struct local));
	return x->priv;
}

static int local_submit(struct executor *x, const struct exec_job *job,
			struct strbuf *id)
{
	struct local *l = local_of(x);
	const char *argv[] = { "sh", "-c", job->command, NULL };
	struct run_opts o = { 0 };
	struct local_job *j;
	int r;

	ALLOC_GROW(l->jobs, l->nr + 1, l->alloc);
	j = &l->jobs[l->nr];
	memset(j, 0, sizeof(*j));
	exec_result_init(&j->res);
	o.argv = argv;
	o.cwd = job->cwd;
	o.env = job->env;
	o.timeout = job->timeout;
	o.input = job->input;
	o.input_len = job->input_len;
	o.started = job->started;
	o.data = job->data;
	r = run_program(&o, &j->res.run);
	if (r < 0) {
		exec_result_release(&j->res);
		return r;
	}
	j->res.state = j->res.run.timed_out ? EXEC_TIMEOUT : EXEC_DONE;
	strbuf_reset(id);
	strbuf_addf(id, "local-%zu", ++l->next);
	j->id = xstrdup(id->buf);
	l->nr++;
	return 0;
}

static int local_lookup(struct executor *x, const char *name,
			struct strbuf *id)
{
	(void)x;
	(void)name;
	(void)id;
	return RESPIN_ENOTFOUND;	/* nothing outlives the run */
}

static int local_poll(struct executor *x, const char *id, int block,
		      struct exec_result *res)
{
	struct local *l = local_of(x);
	size_t i;

	(void)block;
	for (i = 0; i < l->nr; i++) {
		struct local_job *j = &l->jobs[i];

		if (strcmp(j->id, id) || j->taken)
			continue;
		/* the result moves to the caller */
		exec_result_release(res);
		*res = j->res;
		exec_result_init(&j->res);
		j->taken = 1;
		return 0;
	}
	return error("no local job %s", id);
}

static int local_cancel(struct executor *x, const char *id)
{
	(void)x;
	(void)id;
	return 0;	/* it ran to its end when submitted */
}

static void local_release(struct executor *x)
{
	struct local *l = x->priv;
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++) {
		exec_result_release(&l->jobs[i].res);
		free(l->jobs[i].id);
	}
	free(l->jobs);
	free(l);
	x->priv = NULL;
}

const struct executor_ops exec_local_ops = {
	"local", local_submit, NULL, local_lookup, local_poll, NULL, local_cancel,
	local_release,
};
