/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_EXECUTOR_H
#define RESPIN_CI_EXECUTOR_H

#include <git2.h>
#include "tools/lib/run.h"
#include "tools/lib/strbuf.h"

/*
 * Where a check's command runs: between what to run (the job) and the
 * machine that runs it.  "local" runs it here, at once, in the series'
 * worktree (what respin check always did).  Other executors (a cluster
 * scheduler) queue it; a job's name is stable (series, check, tree),
 * so an interrupted respin check finds its jobs again instead of
 * submitting them twice.
 */
struct exec_job {
	const char *name;	/* unique and stable; resume finds it by this */
	const char *command;	/* run with sh -c */
	const char *const *env;	/* "NAME=value" added, or NULL */
	const char *cwd;	/* where it runs here (local) */
	const char *git_dir;	/* the repository a remote node reads from */
	git_oid commit;		/* the commit to check out there */
	const char *input;	/* fed to stdin, or NULL */
	size_t input_len;
	double timeout;		/* seconds; 0 none */
	/*
	 * Off the critical path (queued ahead): on a node whose cores it
	 * shares, it yields them to work that later results wait for (a
	 * build chain): the slurm executor runs it under nice.
	 */
	int yields;
	const char *partition;	/* a cluster's queue, or NULL */
	const char *constraint;	/* a node type asked for, or NULL */
	/*
	 * A chain (nr_steps > 0, an executor with poll_step): one job
	 * running steps[k] in turn on one node, in one tree updated
	 * between steps as git checkout does, so what did not change keeps
	 * its time and make stays incremental.  command, env, commit,
	 * input and timeout above are unused then; poll_step() gives each
	 * step's end.
	 */
	const struct exec_step *steps;
	size_t nr_steps;
	/* local: called with the process group once it started */
	void (*started)(long group, void *data);
	/* a queued job: called as it moves (pending, running, its end) */
	void (*changed)(const char *id, int state, void *data);
	void *data;
};

/* One step of a chain: the command at commit, with its variables. */
struct exec_step {
	git_oid commit;
	const char *command;	/* run with sh -c, stdin empty */
	const char *const *env;	/* "NAME=value" added, or NULL */
	double timeout;		/* seconds; 0 none */
};

enum exec_state {
	EXEC_PENDING,		/* queued */
	EXEC_RUNNING,
	EXEC_DONE,		/* ran to its end: see run.exited/exit_code */
	EXEC_TIMEOUT,		/* ended by its time limit */
	EXEC_CANCELLED,		/* by a person or the scheduler */
	EXEC_PREEMPTED,
	EXEC_NODE_FAIL,		/* the machine under it failed */
	EXEC_LOST,		/* the scheduler no longer knows it */
};

struct exec_result {
	enum exec_state state;
	struct run_result run;	/* exit code, signal, time, output */
	struct strbuf src;	/* where the tree was on the node, or empty */
};

void exec_result_init(struct exec_result *r);
void exec_result_release(struct exec_result *r);
/* "pending", "running", "done", "timeout", "cancelled", ... */
const char *exec_state_name(enum exec_state s);

struct executor;

struct executor_ops {
	const char *name;
	/* queues (or, local, runs) the job; its id into id */
	int (*submit)(struct executor *x, const struct exec_job *job,
		      struct strbuf *id);
	/*
	 * Queues n jobs of one check at once (a job array), their ids
	 * into ids[0..n-1]; NULL: one submit each.
	 */
	int (*submit_many)(struct executor *x, const struct exec_job *jobs,
			   size_t n, struct strbuf *ids);
	/* a job of that name already known: 0 and its id, or ENOTFOUND */
	int (*lookup)(struct executor *x, const char *name, struct strbuf *id);
	/*
	 * Where job id stands: 0 when it ended (res filled), 1 while it is
	 * pending or running (res->state says which); block waits for the
	 * end.  <0 errors.
	 */
	int (*poll)(struct executor *x, const char *id, int block,
		    struct exec_result *res);
	/*
	 * Step k of chain id, as poll() for a job (NULL: no chains here).
	 * res->state is pending until the step began.
	 */
	int (*poll_step)(struct executor *x, const char *id, size_t k,
			 int block, struct exec_result *res);
	int (*cancel)(struct executor *x, const char *id);
	void (*release)(struct executor *x);
	/* reads its settings (git config) when opened, or NULL */
	int (*open)(struct executor *x, git_repository *repo);
	/*
	 * 1: submit only queues the job (a cluster), so a caller may give
	 * it every job it knows ahead and wait for each later; 0: submit
	 * runs it to its end (local).
	 */
	int queues;
};

struct executor {
	const struct executor_ops *ops;
	void *priv;
};

/*
 * The executor for check NAME: respin.check.NAME.executor, else
 * respin.executor, else "local" (check_name NULL: respin.executor).  An unknown one is an error naming
 * the key and the known executors.
 */
int executor_open(git_repository *repo, const char *check_name,
		  struct executor *out);
void executor_release(struct executor *x);

/*
 * Submit (unless a job of its name is known) and wait for the end,
 * telling job->changed how it stands; interrupted (run_interrupted()),
 * it returns at once and leaves a queued job to the cluster, for the
 * next run to find by name.
 */
int executor_run(struct executor *x, const struct exec_job *job,
		 struct exec_result *res);
/*
 * Queues job unless a job of its name is known (x->ops->queues):
 * 0 queued now, 1 known already, <0 errors; its id into id (or NULL).
 */
int executor_queue(struct executor *x, const struct exec_job *job,
		   struct strbuf *id);
/*
 * executor_queue() for n jobs of one check (one partition, constraint):
 * those not known are submitted together (submit_many); ids[k] each.
 * 0, or <0 errors.
 */
int executor_queue_all(struct executor *x, const struct exec_job *jobs,
		       size_t n, struct strbuf *ids);

/*
 * Waits for step k of the chain job (queued as id), telling
 * job->changed how the step stands; interrupted, returns at once.
 */
int executor_wait_step(struct executor *x, const struct exec_job *job,
		       const char *id, size_t k, struct exec_result *res);

/* The local executor (ci/exec-local.c). */
extern const struct executor_ops exec_local_ops;
/* The Slurm executor (ci/exec-slurm.c): respin.slurm.* settings. */
extern const struct executor_ops exec_slurm_ops;

#endif
