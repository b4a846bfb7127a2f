// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/executor.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void exec_result_init(struct exec_result *r)
{
	memset(r, 0, sizeof(*r));
	run_result_init(&r->run);
	strbuf_init(&r->src, 0);
}

void exec_result_release(struct exec_result *r)
{
	run_result_release(&r->run);
	strbuf_release(&r->src);
	memset(r, 0, sizeof(*r));
}

const char *exec_state_name(enum exec_state s)
{
	static const char *const names[] = {
		"pending", "running", "done", "timeout", "cancelled",
		"preempted", "node-fail", "lost",
	};

	return (size_t)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static const struct executor_ops *const known[] = {
	&exec_local_ops,
	&exec_slurm_ops,
};

int executor_open(git_repository *repo, const char *check_name,
		  struct executor *out)
{
	struct strbuf key = STRBUF_INIT, list = STRBUF_INIT;
	char *name;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	name = NULL;
	if (check_name) {
		strbuf_addf(&key, "respin.check.%s.executor", check_name);
		name = repo_config_string(repo, key.buf, NULL);
	}
	if (!name) {
		strbuf_reset(&key);
		strbuf_addstr(&key, "respin.executor");
		name = repo_config_string(repo, key.buf, "local");
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(known[i]->name, name)) {
			out->ops = known[i];
			free(name);
			strbuf_release(&key);
			strbuf_release(&list);
			r = out->ops->open ? out->ops->open(out, repo) : 0;
			if (r < 0)
				executor_release(out);
			return r;
		}
		strbuf_addf(&list, "%s%s", i ? ", " : "", known[i]->name);
	}
	r = error_code(RESPIN_EUSAGE, "%s is '%s': no such executor (known: "
		       "%s)", key.buf, name, list.buf);
	free(name);
	strbuf_release(&key);
	strbuf_release(&list);
	return r;
}

void executor_release(struct executor *x)
{
	if (x->ops && x->ops->release)
		x->ops->release(x);
	memset(x, 0, sizeof(*x));
}

int executor_queue(struct executor *x, const struct exec_job *job,
		   struct strbuf *id)
{
	struct strbuf own = STRBUF_INIT;
	int r = x->ops->lookup(x, job->name, id ? id : &own);

	if (r == RESPIN_ENOTFOUND)
		r = x->ops->submit(x, job, id ? id : &own);
	else if (!r)
		r = 1;
	strbuf_release(&own);
	return r;
}

int executor_queue_all(struct executor *x, const struct exec_job *jobs,
		       size_t n, struct strbuf *ids)
{
	struct exec_job *todo = xcalloc(n ? n : 1, sizeof(*todo));
	struct strbuf *tids = xcalloc(n ? n : 1, sizeof(*tids));
	size_t *at = xcalloc(n ? n : 1, sizeof(*at));
	size_t k, m = 0;
	int r = 0;

	for (k = 0; k < n && r >= 0; k++) {
		r = x->ops->lookup(x, jobs[k].name, &ids[k]);
		if (r == RESPIN_ENOTFOUND) {
			todo[m] = jobs[k];
			strbuf_init(&tids[m], 0);
			at[m++] = k;
			r = 0;
		}
	}
	if (r >= 0 && m && x->ops->submit_many) {
		r = x->ops->submit_many(x, todo, m, tids);
	} else {
		for (k = 0; k < m && r >= 0; k++)
			r = x->ops->submit(x, &todo[k], &tids[k]);
	}
	for (k = 0; k < m; k++) {
		if (r >= 0) {
			strbuf_reset(&ids[at[k]]);
			strbuf_add(&ids[at[k]], tids[k].buf, tids[k].len);
		}
		strbuf_release(&tids[k]);
	}
	free(todo);
	free(tids);
	free(at);
	return r < 0 ? r : 0;
}

/*
 * Polls job id (step k of a chain when step is set) until it ends,
 * telling job->changed each move: a look is a stat(), so often at
 * first (a short job costs little), then every 0.16 s.
 */
static int wait_end(struct executor *x, const struct exec_job *job,
		    const char *id, int step, size_t k,
		    struct exec_result *res)
{
	useconds_t wait = 20000;
	int r, last = -1;

	for (;;) {
		r = step ? x->ops->poll_step(x, id, k, 0, res) :
		    x->ops->poll(x, id, 0, res);
		if (r <= 0)
			break;
		if ((int)res->state != last && job->changed)
			job->changed(id, res->state, job->data);
		last = (int)res->state;
		if (run_interrupted()) {
			r = run_error_interrupted();
			break;
		}
		usleep(wait);
		if (wait < 100000)
			wait *= 2;
	}
	if (!r && last >= 0 && job->changed)
		job->changed(id, res->state, job->data);
	return r;
}

int executor_run(struct executor *x, const struct exec_job *job,
		 struct exec_result *res)
{
	struct strbuf id = STRBUF_INIT;
	int r = x->ops->lookup(x, job->name, &id);

	if (r == RESPIN_ENOTFOUND)
		r = x->ops->submit(x, job, &id);
	if (r >= 0)
		r = wait_end(x, job, id.buf, 0, 0, res);
	strbuf_release(&id);
	return r;
}

int executor_wait_step(struct executor *x, const struct exec_job *job,
		       const char *id, size_t k, struct exec_result *res)
{
	if (!x->ops->poll_step)
		return error("the %s executor runs no chains", x->ops->name);
	return wait_end(x, job, id, 1, k, res);
}
