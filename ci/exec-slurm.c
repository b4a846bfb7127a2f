// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The slurm executor: a job is a batch job of the cluster.  Each job
 * has a directory of its own under respin.slurm.shared (a path every
 * node and this machine see alike), jobs/NAME/, whose files and the
 * script that writes them on the node are slurm-node.c's; here, the
 * adapter: sbatch, squeue, scancel, and the jobs' ids:
 *
 *	jobs/NAME/id		the Slurm job id sbatch gave
 *	jobs/NAME/task		an array's task: the array's name, the index
 *
 * A job's result is handed over once; then its directory goes, so the
 * next respin check submits again whatever it wants run again (a
 * cancelled job, a bench's next run).  Until then, lookup finds the job
 * by its name: a respin check interrupted while its jobs queue or run
 * finds them again and submits nothing twice.
 */
#include "ci/slurm-node.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * Seconds an ended job's exit file may take to show here (a network
 * filesystem's attribute cache): respin.slurm.grace, by default 20.
 */
#define LOST_GRACE 20

struct slurm_job {
	char *id;
	char *dir;
	time_t asked;		/* when squeue was last asked about it */
	time_t gone;		/* when Slurm first said it ended, no exit */
	enum exec_state seen;
	size_t handed;		/* a chain's steps handed over */
};

struct slurm {
	char *shared;		/* respin.slurm.shared */
	char *partition;	/* respin.slurm.partition, or NULL */
	long grace;		/* respin.slurm.grace */
	struct slurm_job *jobs;
	size_t nr, alloc;
};

static struct slurm *slurm_of(struct executor *x)
{
	return x->priv;
}

static int slurm_open(struct executor *x, git_repository *repo)
{
	struct slurm *s;
	struct stat st;
	char *shared = repo_config_string(repo, "respin.slurm.shared", NULL);
	char *grace;

	if (!shared || !*shared) {
		free(shared);
		return error_code(RESPIN_EUSAGE, "the slurm executor needs "
				  "respin.slurm.shared: a directory this "
				  "machine and every node see at the same path "
				  "(job scripts and outputs go there)");
	}
	if (shared[0] != '/' || stat(shared, &st) || !S_ISDIR(st.st_mode)) {
		int r = error_code(RESPIN_EUSAGE, "respin.slurm.shared is '%s':"
				   " not an absolute path to a directory",
				   shared);

		free(shared);
		return r;
	}
	s = xcalloc(1, sizeof(*s));
	s->shared = shared;
	s->grace = LOST_GRACE;
	grace = repo_config_string(repo, "respin.slurm.grace", NULL);
	if (grace) {
		char *end;

		s->grace = strtol(grace, &end, 10);
		if (end == grace || *end || s->grace < 0 || s->grace > 3600) {
			int r = error_code(RESPIN_EUSAGE, "respin.slurm.grace "
					   "is '%s': seconds (0 to 3600) to "
					   "wait for an ended job's files",
					   grace);

			free(grace);
			free(shared);
			free(s);
			return r;
		}
		free(grace);
	}
	s->partition = repo_config_string(repo, "respin.slurm.partition",
					  NULL);
	if (s->partition && !*s->partition) {
		free(s->partition);
		s->partition = NULL;
	}
	x->priv = s;
	return 0;
}

/* A job's directory: its name with anything odd made '_'. */
static void job_dir(struct slurm *s, const char *name, struct strbuf *out)
{
	const char *p;

	strbuf_addf(out, "%s/jobs/", s->shared);
	for (p = name; *p; p++)
		strbuf_addch(out, (*p >= 'a' && *p <= 'z') ||
			     (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9') || *p == '-' ||
			     *p == '_' || *p == '.' ? *p : '_');
}

/* A job's directory: its files and its steps' directories go, then it. */
static void remove_dir(const char *dir)
{
	if (remove_tree(dir) < 0)
		error_clear();	/* (what is left is harmless: a new name) */
}

/* Runs a Slurm client command; its output (both streams) into out. */
static int slurm_cmd(const char *const *argv, struct strbuf *out, int *code)
{
	struct run_opts o = { 0 };
	struct run_result res;
	int r;

	o.argv = argv;
	o.timeout = 60;
	run_result_init(&res);
	r = run_program(&o, &res);
	if (r < 0) {
		run_result_release(&res);
		if (run_interrupted())
			return r;	/* "interrupted by SIGTERM": as it is */
		return error("cannot run %s: %s (is slurm-wlm installed?)",
			     argv[0], error_last());
	}
	strbuf_add(out, res.output.buf, res.output.len);
	*code = res.exited ? res.exit_code : 128 + res.signal;
	run_result_release(&res);
	return 0;
}

static void remember(struct slurm *s, const char *id, const char *dir)
{
	struct slurm_job *j;
	size_t k;

	for (k = 0; k < s->nr; k++)
		if (s->jobs[k].id && !strcmp(s->jobs[k].id, id))
			return;	/* queued ahead, now waited for */
	ALLOC_GROW(s->jobs, s->nr + 1, s->alloc);
	j = &s->jobs[s->nr++];
	memset(j, 0, sizeof(*j));
	j->id = xstrdup(id);
	j->dir = xstrdup(dir);
	j->seen = EXEC_PENDING;
}

static struct slurm_job *find_job(struct slurm *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->jobs[i].id && !strcmp(s->jobs[i].id, id))
			return &s->jobs[i];
	return NULL;
}

static void forget(struct slurm_job *j)
{
	free(j->id);
	free(j->dir);
	j->id = j->dir = NULL;
}

/*
 * "123" or "123;cluster" from sbatch --parsable, or "123_4" (a task of
 * an array): the id, else 0.
 */
static int parse_id(const char *text, struct strbuf *id)
{
	const char *p = text;

	/* warnings may come first: the id is a line of digits */
	while (p && *p) {
		size_t n = strspn(p, "0123456789");

		if (n && p[n] == '_' && strspn(p + n + 1, "0123456789"))
			n += 1 + strspn(p + n + 1, "0123456789");	/* a task */
		if (n && (p[n] == '\n' || p[n] == ';' || !p[n])) {
			strbuf_reset(id);
			strbuf_add(id, p, n);
			return 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static int sbatch_refused(const struct slurm *s, const struct exec_job *job,
			  struct strbuf *said)
{
	const char *part = job->partition ? job->partition : s->partition;

	strbuf_rtrim(said);
	if (part && strstr(said->buf, "artition"))
		return error("sbatch refused the partition '%s' (%s): %s; "
			     "'sinfo -s' lists this cluster's partitions",
			     part, job->partition ? "respin.check.NAME.partition"
			     : "respin.slurm.partition", said->buf);
	if (job->constraint && strstr(said->buf, "eature"))
		return error("sbatch refused the constraint '%s' "
			     "(respin.check.NAME.constraint): %s",
			     job->constraint, said->buf);
	return error("sbatch refused job %s: %s", job->name, said->buf);
}

/* A job's directory made afresh: its script, input, steps; dir named. */
static int job_files(struct slurm *s, const struct exec_job *job,
		     int in_array, struct strbuf *dir)
{
	int r;

	job_dir(s, job->name, dir);
	remove_dir(dir->buf);	/* a job handed over already: gone */
	r = mkdir_parents(dir->buf);
	return r ? r : slurm_job_files(job, dir->buf, in_array);
}

static int slurm_submit(struct executor *x, const struct exec_job *job,
			struct strbuf *id)
{
	struct slurm *s = slurm_of(x);
	struct strbuf dir = STRBUF_INIT,
		      out = STRBUF_INIT, arg_name = STRBUF_INIT,
		      arg_out = STRBUF_INIT, arg_part = STRBUF_INIT,
		      arg_cons = STRBUF_INIT, arg_time = STRBUF_INIT,
		      path = STRBUF_INIT;
	const char *argv[12];
	const char *part = job->partition ? job->partition : s->partition;
	size_t n = 0;
	int r, code = 0;

	r = job_files(s, job, 0, &dir);
	if (r < 0)
		goto out;
	strbuf_addf(&arg_name, "--job-name=%s", job->name);
	strbuf_addf(&arg_out, "--output=%s/slurm.out", dir.buf);
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = arg_name.buf;
	argv[n++] = arg_out.buf;
	if (part) {
		strbuf_addf(&arg_part, "--partition=%s", part);
		argv[n++] = arg_part.buf;
	}
	if (job->constraint) {
		strbuf_addf(&arg_cons, "--constraint=%s", job->constraint);
		argv[n++] = arg_cons.buf;
	}
	if (slurm_job_timeout(job) > 0) {
		/* Slurm's limit is in minutes: the check's own comes first */
		strbuf_addf(&arg_time, "--time=%.0f",
			    ceil(slurm_job_timeout(job) / 60) + 1);
		argv[n++] = arg_time.buf;
	}
	strbuf_addf(&path, "%s/job.sh", dir.buf);
	argv[n++] = path.buf;
	argv[n] = NULL;
	r = slurm_cmd(argv, &out, &code);
	if (!r && (code || !parse_id(out.buf, id)))
		r = sbatch_refused(s, job, &out);
	if (!r)
		r = slurm_file_write(dir.buf, "id", id->buf, id->len, 0);
	if (!r)
		remember(s, id->buf, dir.buf);
out:
	if (r < 0)
		remove_dir(dir.buf);	/* nothing half-made stays */
	strbuf_release(&dir);
	strbuf_release(&out);
	strbuf_release(&arg_name);
	strbuf_release(&arg_out);
	strbuf_release(&arg_part);
	strbuf_release(&arg_cons);
	strbuf_release(&arg_time);
	strbuf_release(&path);
	return r;
}

/* At most this many tasks an array (Slurm's MaxArraySize is 1001). */
#define ARRAY_MAX 1000

/*
 * Jobs of one check (one partition, constraint) as one job array: one
 * sbatch, a task a job, each still with its own directory, script and
 * id ("123_4"), so it is polled, cancelled and found again as a job.
 * The array's script only dispatches to the task's own.
 */
static int submit_array(struct slurm *s, const struct exec_job *jobs,
			size_t n, struct strbuf *ids)
{
	struct strbuf list = STRBUF_INIT, dir = STRBUF_INIT, out = STRBUF_INIT,
		      arg_name = STRBUF_INIT, arg_arr = STRBUF_INIT,
		      arg_part = STRBUF_INIT, arg_cons = STRBUF_INIT,
		      arg_time = STRBUF_INIT, path = STRBUF_INIT,
		      aid = STRBUF_INIT;
	const char *part = jobs[0].partition ? jobs[0].partition : s->partition;
	const char *argv[12];
	double t = 0;
	size_t k, made = 0, a = 0;
	int r = 0, code = 0;

	slurm_array_begin(&list);
	for (k = 0; k < n && !r; k++) {
		strbuf_reset(&dir);
		r = job_files(s, &jobs[k], 1, &dir);
		if (r < 0)
			break;
		made++;
		slurm_array_task(&list, k, dir.buf, jobs[k].yields);
		if (t >= 0 && slurm_job_timeout(&jobs[k]) > 0 &&
		    slurm_job_timeout(&jobs[k]) > t)
			t = slurm_job_timeout(&jobs[k]);
		else if (slurm_job_timeout(&jobs[k]) <= 0)
			t = -1;		/* one without a limit: none */
	}
	slurm_array_end(&list);
	if (!r) {
		strbuf_addf(&path, "%s/jobs/.array-%ld-%s.sh", s->shared,
			    (long)getpid(), jobs[0].name);
		r = slurm_file_write(s->shared, path.buf + strlen(s->shared) + 1,
			     list.buf, list.len, 0755);
	}
	for (k = 0; k < n && !r; k++) {
		/* found again by the array's name when no id was written */
		struct strbuf task = STRBUF_INIT;

		strbuf_addf(&task, "%s-array %zu\n", jobs[0].name, k);
		strbuf_reset(&dir);
		job_dir(s, jobs[k].name, &dir);
		r = slurm_file_write(dir.buf, "task", task.buf, task.len, 0);
		strbuf_release(&task);
	}
	if (!r) {
		strbuf_addf(&arg_name, "--job-name=%s-array", jobs[0].name);
		strbuf_addf(&arg_arr, "--array=0-%zu", n - 1);
		argv[a++] = "sbatch";
		argv[a++] = "--parsable";
		argv[a++] = arg_name.buf;
		argv[a++] = arg_arr.buf;
		/* each task's script keeps its own errors */
		argv[a++] = "--output=/dev/null";
		if (part) {
			strbuf_addf(&arg_part, "--partition=%s", part);
			argv[a++] = arg_part.buf;
		}
		if (jobs[0].constraint) {
			strbuf_addf(&arg_cons, "--constraint=%s",
				    jobs[0].constraint);
			argv[a++] = arg_cons.buf;
		}
		if (t > 0) {
			strbuf_addf(&arg_time, "--time=%.0f", ceil(t / 60) + 1);
			argv[a++] = arg_time.buf;
		}
		argv[a++] = path.buf;
		argv[a] = NULL;
		r = slurm_cmd(argv, &out, &code);
		unlink(path.buf);	/* sbatch keeps a copy */
		if (!r && (code || !parse_id(out.buf, &aid)))
			r = sbatch_refused(s, &jobs[0], &out);
	}
	for (k = 0; k < n && !r; k++) {
		strbuf_reset(&ids[k]);
		strbuf_addf(&ids[k], "%s_%zu", aid.buf, k);
		strbuf_reset(&dir);
		job_dir(s, jobs[k].name, &dir);
		r = slurm_file_write(dir.buf, "id", ids[k].buf, ids[k].len, 0);
		if (!r)
			remember(s, ids[k].buf, dir.buf);
	}
	if (r < 0 && !aid.len) {
		/* nothing submitted: nothing half-made stays */
		for (k = 0; k < made; k++) {
			strbuf_reset(&dir);
			job_dir(s, jobs[k].name, &dir);
			remove_dir(dir.buf);
		}
	}
	strbuf_release(&list);
	strbuf_release(&dir);
	strbuf_release(&out);
	strbuf_release(&arg_name);
	strbuf_release(&arg_arr);
	strbuf_release(&arg_part);
	strbuf_release(&arg_cons);
	strbuf_release(&arg_time);
	strbuf_release(&path);
	strbuf_release(&aid);
	return r;
}

static int slurm_submit_many(struct executor *x, const struct exec_job *jobs,
			     size_t n, struct strbuf *ids)
{
	struct slurm *s = slurm_of(x);
	size_t k;
	int r = 0;

	for (k = 0; k < n && !r; k += ARRAY_MAX)
		r = n - k == 1 ? slurm_submit(x, &jobs[k], &ids[k]) :
		    submit_array(s, jobs + k, n - k < ARRAY_MAX ? n - k :
				 ARRAY_MAX, ids + k);
	return r;
}

static int slurm_lookup(struct executor *x, const char *name,
			struct strbuf *id)
{
	struct slurm *s = slurm_of(x);
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT, arg = STRBUF_INIT;
	int r = RESPIN_ENOTFOUND, code;

	job_dir(s, name, &dir);
	if (!slurm_file_read(dir.buf, "id", &text) && parse_id(text.buf, id)) {
		r = 0;
	} else if (slurm_file_exists(dir.buf, "job.sh")) {
		/*
		 * sbatch ran, its id was never written: ask the queue, by
		 * the job's name or its array's ("task": NAME K)
		 */
		const char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%F",
				       NULL, NULL };
		const char *task = NULL;

		strbuf_reset(&text);
		if (!slurm_file_read(dir.buf, "task", &text) &&
		    (task = strrchr(text.buf, ' '))) {
			strbuf_addf(&arg, "--name=%.*s",
				    (int)(task - text.buf), text.buf);
			task = xstrdup(task + 1);
		} else {
			strbuf_addf(&arg, "--name=%s", name);
		}
		argv[6] = arg.buf;
		strbuf_reset(&text);
		r = slurm_cmd(argv, &text, &code);
		if (!r)
			r = !code && parse_id(text.buf, id) ? 0 :
			    RESPIN_ENOTFOUND;
		if (!r && task) {
			strbuf_rtrim(id);
			strbuf_addf(id, "_%s", task);
			strbuf_rtrim(id);
		}
		free((char *)task);
		/* found: the next look reads it (a job ended leaves squeue) */
		if (!r)
			r = slurm_file_write(dir.buf, "id", id->buf, id->len, 0);
		if (r == RESPIN_ENOTFOUND)
			remove_dir(dir.buf);
	}
	if (!r)
		remember(s, id->buf, dir.buf);
	strbuf_release(&dir);
	strbuf_release(&text);
	strbuf_release(&arg);
	return r;
}

/* Slurm's word for where a job stands, as ours. */
static enum exec_state map_state(const char *t, int *ended)
{
	static const struct {
		const char *slurm;
		enum exec_state state;
		int ended;
	} map[] = {
		{ "PENDING", EXEC_PENDING, 0 },
		{ "CONFIGURING", EXEC_PENDING, 0 },
		{ "REQUEUED", EXEC_PENDING, 0 },
		{ "RESIZING", EXEC_PENDING, 0 },
		{ "RUNNING", EXEC_RUNNING, 0 },
		{ "COMPLETING", EXEC_RUNNING, 0 },
		{ "SUSPENDED", EXEC_RUNNING, 0 },
		{ "STOPPED", EXEC_RUNNING, 0 },
		{ "SIGNALING", EXEC_RUNNING, 0 },
		{ "CANCELLED", EXEC_CANCELLED, 1 },
		{ "TIMEOUT", EXEC_TIMEOUT, 1 },
		{ "DEADLINE", EXEC_TIMEOUT, 1 },
		{ "PREEMPTED", EXEC_PREEMPTED, 1 },
		{ "NODE_FAIL", EXEC_NODE_FAIL, 1 },
		{ "BOOT_FAIL", EXEC_NODE_FAIL, 1 },
	};
	size_t k;

	for (k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (!strncmp(t, map[k].slurm, strlen(map[k].slurm))) {
			*ended = map[k].ended;
			return map[k].state;
		}
	/* COMPLETED or FAILED without our exit file, OUT_OF_MEMORY, gone */
	*ended = 1;
	return EXEC_LOST;
}

/* squeue about one job: its state, or "" once Slurm forgot it. */
static int ask_queue(const char *id, struct strbuf *state)
{
	const char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%T", "-j",
			       id, NULL };
	int code;
	int r = slurm_cmd(argv, state, &code);

	strbuf_rtrim(state);
	if (!r && code)
		strbuf_reset(state);	/* "Invalid job id specified" */
	return r;
}

/* "\nrespin: slurm job N ended STATE" after what it printed. */
static void say_ended(struct exec_result *res, const char *id,
		      const char *state)
{
	struct strbuf *o = &res->run.output;

	strbuf_addf(o, "%srespin: slurm job %s ended %s\n",
		    o->len && o->buf[o->len - 1] != '\n' ? "\n" : "", id,
		    *state ? state : "without its exit status");
}

/*
 * What Slurm says of job j while its files in dir say nothing yet,
 * asked at most every 2 s (at once when block): 1 when it ended without
 * its exit file (*st, and its state's name in state; a job Slurm no
 * longer knows counts as lost only after the grace), 0 while it is
 * pending or running (j->seen moves on), <0 when squeue failed.
 */
static int queue_ended(struct slurm *s, struct slurm_job *j, const char *dir,
		       int block, struct strbuf *state, enum exec_state *st)
{
	time_t now = time(NULL);
	int ended, r;

	if (now - j->asked < 2 && !block)
		return 0;
	j->asked = now;
	strbuf_reset(state);
	r = ask_queue(j->id, state);
	if (r < 0)
		return r;
	*st = map_state(state->buf, &ended);
	/*
	 * Ended as far as Slurm knows, and no exit file: on a network
	 * filesystem it may not be seen here yet, so LOST only after a
	 * grace period.
	 */
	if (ended && *st == EXEC_LOST && !j->gone)
		j->gone = now;
	if (ended && *st == EXEC_LOST && now - j->gone < s->grace)
		ended = 0;
	if (ended && !slurm_exit_written(dir))
		return 1;
	if (!ended && *st <= EXEC_RUNNING && *st > j->seen)
		j->seen = *st;
	return 0;
}

/*
 * The exit file in dir says a signal ended the command (129 and up):
 * was it Slurm's (scancel, preemption, its time limit, a node failure)?
 * The controller marks the job before it signals it, but shows it
 * COMPLETING until every process of it ended, so the answer waits for
 * Slurm's last word: 1 and *st when Slurm ended it, 0 when the command
 * was killed otherwise or exited so (Slurm says COMPLETED or FAILED, or
 * forgot it), 2 while Slurm has not settled (ask again), <0.
 */
static int slurm_signalled(struct slurm_job *j, const char *dir,
			   struct strbuf *state, enum exec_state *st)
{
	struct strbuf text = STRBUF_INIT;
	time_t now = time(NULL);
	int ended, code = 0, r;

	if (!slurm_file_read(dir, "exit", &text))
		code = atoi(text.buf);
	strbuf_release(&text);
	if (code <= 128)
		return 0;
	if (now == j->asked)
		return 2;	/* at most once a second */
	j->asked = now;
	strbuf_reset(state);
	r = ask_queue(j->id, state);
	if (r < 0)
		return r;
	*st = map_state(state->buf, &ended);
	if (!ended)
		return 2;
	return *st != EXEC_LOST;
}

/*
 * Job j's end, when its exit file or Slurm tells it: 0 and res filled,
 * 1 while it runs (res->state), <0.  dir is the job's directory, or a
 * chain step's.
 */
static int job_end(struct slurm *s, struct slurm_job *j, const char *dir,
		   int block, struct exec_result *res)
{
	struct strbuf state = STRBUF_INIT;
	enum exec_state st = EXEC_LOST;
	int r;

	for (;;) {
		if (slurm_exit_written(dir)) {
			r = slurm_signalled(j, dir, &state, &st);
			if (r < 0)
				break;
			if (r != 2) {
				slurm_read_result(dir, j->id, r ? st : EXEC_DONE,
					    res);
				if (r)
					say_ended(res, j->id, state.buf);
				r = 0;
				break;
			}
		} else {
			if (slurm_file_exists(dir, "started") &&
			    j->seen == EXEC_PENDING)
				j->seen = EXEC_RUNNING;
			/* the files say pending or running; the queue the rest */
			r = queue_ended(s, j, dir, block, &state, &st);
			if (r < 0)
				break;
			if (r) {
				slurm_read_result(dir, j->id, st, res);
				say_ended(res, j->id, state.buf);
				r = 0;
				break;
			}
		}
		res->state = j->seen;
		if (!block) {
			r = 1;
			break;
		}
		if (run_interrupted()) {
			r = run_error_interrupted();
			break;
		}
		usleep(200 * 1000);
	}
	strbuf_release(&state);
	return r;
}

static int slurm_poll(struct executor *x, const char *id, int block,
		      struct exec_result *res)
{
	struct slurm *s = slurm_of(x);
	struct slurm_job *j = find_job(s, id);
	int r;

	if (!j)
		return error("no slurm job %s of this respin check", id);
	r = job_end(s, j, j->dir, block, res);
	if (!r) {
		remove_dir(j->dir);
		forget(j);
	}
	return r;
}

/*
 * Step k of a chain: handed over when its exit file is there; when the
 * job ended without it (cancelled, its node failed, lost), the step
 * ends as the job did.  Each step is handed over once; the job's
 * directory goes with its last.
 */
static int slurm_poll_step(struct executor *x, const char *id, size_t k,
			   int block, struct exec_result *res)
{
	struct slurm *s = slurm_of(x);
	struct slurm_job *j = find_job(s, id);
	struct strbuf sdir = STRBUF_INIT, text = STRBUF_INIT;
	int r;

	if (!j)
		return error("no slurm job %s of this respin check", id);
	strbuf_addf(&sdir, "%s/%zu", j->dir, k);
	if (!slurm_file_read(j->dir, "broken", &text)) {
		/* no tree for any step */
		slurm_read_result(sdir.buf, id, EXEC_LOST, res);
		strbuf_addf(&res->run.output, "respin: slurm job %s could "
			    "not make the tree: %s", id, text.buf);
		r = 0;
	} else {
		r = job_end(s, j, sdir.buf, block, res);
		/* pending until this step began, though the job runs */
		if (r == 1)
			res->state = slurm_file_exists(sdir.buf, "started") ?
				     EXEC_RUNNING : EXEC_PENDING;
	}
	if (!r) {
		strbuf_reset(&text);
		if (!slurm_file_read(j->dir, "src", &text)) {
			strbuf_rtrim(&text);
			strbuf_add(&res->src, text.buf, text.len);
		}
		remove_dir(sdir.buf);
		if (++j->handed >= slurm_chain_steps(j->dir)) {
			remove_dir(j->dir);
			forget(j);
		}
	}
	strbuf_release(&sdir);
	strbuf_release(&text);
	return r;
}

static int slurm_cancel(struct executor *x, const char *id)
{
	const char *argv[] = { "scancel", id, NULL };
	struct strbuf out = STRBUF_INIT;
	int code, r;

	(void)x;
	r = slurm_cmd(argv, &out, &code);
	if (!r && code)
		r = error("scancel %s: %s", id, out.buf);
	strbuf_release(&out);
	return r;
}

static void slurm_release(struct executor *x)
{
	struct slurm *s = x->priv;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		forget(&s->jobs[i]);
	free(s->jobs);
	free(s->shared);
	free(s->partition);
	free(s);
	x->priv = NULL;
}

const struct executor_ops exec_slurm_ops = {
	"slurm", slurm_submit, slurm_submit_many, slurm_lookup, slurm_poll,
	slurm_poll_step, slurm_cancel,
	slurm_release, slurm_open, 1,
};
