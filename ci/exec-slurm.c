// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The slurm executor: a job is a batch job of the cluster.  Each job
 * has a directory of its own under respin.slurm.shared (a path every
 * node and this machine see alike):
 *
 *	jobs/NAME/job.sh	the script respin wrote (sbatch runs it)
 *	jobs/NAME/input		stdin of the command, when it has one
 *	jobs/NAME/id		the Slurm job id sbatch gave
 *	jobs/NAME/started	the node began
 *	jobs/NAME/output	what the command printed (stdout and stderr)
 *	jobs/NAME/timedout	the check's own time limit ended it
 *	jobs/NAME/broken	the node could not make the tree (why)
 *	jobs/NAME/seconds	how long the command ran
 *	jobs/NAME/exit		its exit status, written last, a line
 *
 * The node reads the commit from the user's repository by path (git
 * read-tree -u on an index of its own, into a temporary directory of
 * its own), so the repository needs only be readable by the nodes.  A job's result is
 * handed over once; then its directory goes, so the next respin check
 * submits again whatever it wants run again (a cancelled job, a bench's
 * next run).  Until then, lookup finds the job by its name: a respin
 * check interrupted while its jobs queue or run finds them again and
 * submits nothing twice.
 */
#include "ci/executor.h"
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

/*
 * How a job off the critical path yields the node's cores: the lowest
 * priority nice gives (a weight of 15 against a normal process's 1024,
 * so ten of them take an eighth of a core from a build they share it
 * with).
 */
#define YIELD_NICE "nice -n 19 "
/*
 * With the kernel's autogroups (sched_autogroup_enabled, as on most
 * distributions' kernels) nice weighs a process only against those of
 * its own session, and every Slurm job is a session of its own: the
 * job's whole group yields by its autogroup's nice (a process may
 * lower its own group's priority; where there are no autogroups the
 * write fails, unsaid, and nice alone does it).
 */
#define YIELD_GROUP "{ echo 19 >/proc/self/autogroup; } 2>/dev/null; "

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

static void path_in(const char *dir, const char *file, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", dir, file);
}

static int has_file(const char *dir, const char *file)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	path_in(dir, file, &p);
	r = !stat(p.buf, &st);
	strbuf_release(&p);
	return r;
}

static int read_in(const char *dir, const char *file, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	path_in(dir, file, &p);
	r = strbuf_read_file(out, p.buf);
	strbuf_release(&p);
	return r;
}

/*
 * The job (or step) in dir ended: its exit file holds a whole line.
 * The node writes it in one write, last, without a rename; an exit
 * file seen before its line is there is not yet written.
 */
static int exit_written(const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	int r = !read_in(dir, "exit", &text) && text.len &&
		text.buf[text.len - 1] == '\n';

	strbuf_release(&text);
	return r;
}

static int write_in(const char *dir, const char *file, const char *data,
		    size_t len, int mode)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;
	int r = 0;

	path_in(dir, file, &p);
	f = fopen(p.buf, "w");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		r = error_errno("cannot write %s", p.buf);
	if (!r && mode && chmod(p.buf, mode))
		r = error_errno("cannot make %s executable", p.buf);
	strbuf_release(&p);
	return r;
}

/* A job's directory: its files and its steps' directories go, then it. */
static void remove_dir(const char *dir)
{
	if (remove_tree(dir) < 0)
		error_clear();	/* (what is left is harmless: a new name) */
}

static int env_name_ok(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!((s[k] >= 'A' && s[k] <= 'Z') || s[k] == '_' ||
		      (k && s[k] >= '0' && s[k] <= '9')))
			return 0;
	return n > 0;
}

/* "NAME='value'; export NAME" a line, each indented by indent. */
static int env_lines(const struct exec_job *job, const char *const *env,
		     const char *indent, struct strbuf *out)
{
	const char *const *e;

	for (e = env; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		if (!eq || !env_name_ok(*e, (size_t)(eq - *e)))
			return error("job %s: bad environment entry '%s'",
				     job->name, *e);
		strbuf_addstr(out, indent);
		strbuf_add(out, *e, (size_t)(eq - *e));
		strbuf_addch(out, '=');
		strbuf_add_sq(out, eq + 1);
		strbuf_addf(out, "; export %.*s\n", (int)(eq - *e), *e);
	}
	return 0;
}

/*
 * What both scripts share: clock sets t to centiseconds of the node's
 * own clock (/proc/uptime: read by the shell, no process a call; date
 * where there is none); stamp COMMAND-DIR START STATUS LIMIT writes
 * its seconds, timedout when it ended by timeout's hand at its limit,
 * and its exit status last, in one write (respin reads an exit file
 * only once its line ends).
 */
static void script_helpers(struct strbuf *out)
{
	strbuf_addstr(out,
		"clock() {\n"
		"\tif read t _ </proc/uptime 2>/dev/null; then\n"
		"\t\tt=${t%.*}${t#*.}\n"
		"\telse\n"
		"\t\tt=$(( $(date +%s%N) / 10000000 ))\n"
		"\tfi\n"
		"}\n"
		"stamp() {\n"
		"\tclock\n"
		"\t[ \"$4\" != 0 ] && [ \"$3\" = 124 ] &&\n"
		"\t    [ $((t - $2)) -ge $(( ($4 - 1) * 100 )) ] && : >\"$1/timedout\"\n"
		"\tprintf '%d.%02d\\n' $(( (t - $2) / 100 )) $(( (t - $2) % 100 )) >\"$1/seconds\"\n"
		"\techo \"$3\" >\"$1/exit\"\n"
		"}\n");
}

/* The start of both scripts: dir, the repository, a tree's directory. */
static void script_start(const struct exec_job *job, const char *dir,
			 const char *what, struct strbuf *out)
{
	strbuf_addf(out, "#!/bin/sh\n# %s: written by respin check, run by "
		    "sbatch on a node\ndir=", what);
	strbuf_add_sq(out, dir);
	strbuf_addstr(out, "\ngit_dir=");
	strbuf_add_sq(out, job->git_dir);
	strbuf_addstr(out,
		"\nexec 2>>\"$dir/slurm.out\"\n"
		": >\"$dir/started\"\n");
	script_helpers(out);
	/*
	 * the tree: read-tree -u on an index of its own, in one process
	 * (fresh mtimes: make must not take a changed file for old)
	 */
	strbuf_addstr(out,
		"work=$(mktemp -d \"${TMPDIR:-/tmp}/respin-job.XXXXXX\") || {\n"
		"\techo \"cannot make a directory in ${TMPDIR:-/tmp}\" >\"$dir/broken\"\n"
		"\techo 125 >\"$dir/exit\"; exit 0\n"
		"}\n"
		"trap 'cd / && rm -rf \"$work\" \"$work.index\" \"$work.err\"' EXIT\n"
		"trap 'exit 143' TERM INT HUP\n"
		"# tree COMMIT: $work holds it, or 1 and why in $work.err\n"
		"tree() {\n"
		"\tGIT_INDEX_FILE=$work.index git --git-dir=\"$git_dir\" \\\n"
		"\t    --work-tree=\"$work\" \\\n"
		"\t    read-tree --reset -u \"$1\" 2>\"$work.err\" && return 0\n"
		"\techo \"cannot read commit $1 from $git_dir\" >>\"$work.err\"\n"
		"\treturn 1\n"
		"}\n");
}

/*
 * The script of a chain: one tree in a directory of the node's, read
 * into a private index and moved from step to step by read-tree
 * --reset -u, which rewrites only the files that differ (make sees
 * the rest as built); step k's files are those of a job, in
 * jobs/NAME/K/.  A step whose tree cannot be made is broken; the next
 * steps still run.
 */
static int chain_script(const struct exec_job *job, const char *dir,
			struct strbuf *out)
{
	size_t k;

	script_start(job, dir, "a chain of respin jobs", out);
	strbuf_addstr(out,
		"echo \"$work\" >\"$dir/src\"\n"
		"# step K COMMIT TIMEOUT: the tree of COMMIT, then $command\n"
		"step() {\n"
		"\td=$dir/$1\n"
		"\t: >\"$d/started\"\n"
		"\tif ! tree \"$2\"; then\n"
		"\t\tmv \"$work.err\" \"$d/broken\"\n"
		"\t\techo 125 >\"$d/exit\"; return 0\n"
		"\tfi\n"
		"\tclock; start=$t\n"
		"\tif [ \"$3\" != 0 ]; then\n"
		"\t\t(cd \"$work\" && exec timeout -k 2 \"$3\" sh -c \"$command\") </dev/null >\"$d/output\" 2>&1\n"
		"\telse\n"
		"\t\t(cd \"$work\" && exec sh -c \"$command\") </dev/null >\"$d/output\" 2>&1\n"
		"\tfi\n"
		"\tstamp \"$d\" $start $? \"$3\"\n"
		"}\n");
	for (k = 0; k < job->nr_steps; k++) {
		const struct exec_step *st = &job->steps[k];

		int r;

		strbuf_addf(out, "(\n");
		r = env_lines(job, st->env, "\t", out);
		if (r < 0)
			return r;
		strbuf_addstr(out, "\tRESPIN_SRC=$work; export RESPIN_SRC\n"
			      "\tcommand=");
		strbuf_add_sq(out, st->command);
		strbuf_addf(out, "\n\tstep %zu %s %.0f\n) || exit 0\n", k,
			    oid_short(&st->commit, GIT_OID_HEXSZ),
			    st->timeout > 0 ? ceil(st->timeout) : 0);
	}
	strbuf_addstr(out, "echo done >\"$dir/exit\"\n");
	return 0;
}

/*
 * The script a node runs: every value in it is respin's own (paths,
 * OIDs, the configured command), each single-quoted.  nice: a job that
 * yields, submitted alone (an array's task is niced by the array's
 * script, all of it).
 */
static int job_script(const struct exec_job *job, const char *dir,
		      int nice, struct strbuf *out)
{
	int r;

	/* (the name holds the series' name: it stays out of the script) */
	script_start(job, dir, "a respin job", out);
	r = env_lines(job, job->env, "", out);
	if (r < 0)
		return r;
	strbuf_addf(out, "if ! tree %s; then\n"
		    "\tmv \"$work.err\" \"$dir/broken\"\n"
		    "\techo 125 >\"$dir/exit\"; exit 0\n"
		    "fi\n", oid_short(&job->commit, GIT_OID_HEXSZ));
	strbuf_addstr(out,
		"RESPIN_SRC=$work; export RESPIN_SRC\n"
		"cd \"$work\" || exit 0\n"
		"command=");
	strbuf_add_sq(out, job->command);
	strbuf_addstr(out, "\nclock; start=$t\n");
	if (nice)
		strbuf_addstr(out, YIELD_GROUP "\n");
	if (job->timeout > 0)
		strbuf_addf(out, "timeout -k 2 %.0f ", ceil(job->timeout));
	if (nice)
		strbuf_addstr(out, YIELD_NICE);
	strbuf_addf(out, "sh -c \"$command\" <%s >\"$dir/output\" 2>&1\n",
		    job->input ? "\"$dir/input\"" : "/dev/null");
	strbuf_addf(out, "stamp \"$dir\" $start $? %.0f\n",
		    job->timeout > 0 ? ceil(job->timeout) : 0);
	return 0;
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

/* The job's time limit: a chain's is its steps' together, or none. */
static double job_timeout(const struct exec_job *job)
{
	double t = 0;
	size_t k;

	if (!job->nr_steps)
		return job->timeout;
	for (k = 0; k < job->nr_steps; k++) {
		if (job->steps[k].timeout <= 0)
			return 0;
		t += job->steps[k].timeout;
	}
	return t;
}

/* A job's directory made afresh: its script, input, steps; dir named. */
static int job_files(struct slurm *s, const struct exec_job *job,
		     int in_array, struct strbuf *dir)
{
	struct strbuf script = STRBUF_INIT;
	size_t k;
	int r;

	job_dir(s, job->name, dir);
	remove_dir(dir->buf);	/* a job handed over already: gone */
	r = mkdir_parents(dir->buf);
	if (!r)
		r = job->nr_steps ? chain_script(job, dir->buf, &script) :
		    job_script(job, dir->buf, job->yields && !in_array,
			       &script);
	if (!r)
		r = write_in(dir->buf, "job.sh", script.buf, script.len, 0755);
	if (!r && job->input)
		r = write_in(dir->buf, "input", job->input, job->input_len, 0);
	if (!r && job->nr_steps) {
		char count[32];
		int len = snprintf(count, sizeof(count), "%zu\n",
				   job->nr_steps);

		r = write_in(dir->buf, "steps", count, (size_t)len, 0);
	}
	/* the steps' directories: made here, not by a process a step */
	for (k = 0; !r && k < job->nr_steps; k++) {
		struct strbuf step = STRBUF_INIT;

		strbuf_addf(&step, "%s/%zu", dir->buf, k);
		if (mkdir(step.buf, 0755) && errno != EEXIST)
			r = error_errno("cannot make %s", step.buf);
		strbuf_release(&step);
	}
	strbuf_release(&script);
	return r;
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
	if (job_timeout(job) > 0) {
		/* Slurm's limit is in minutes: the check's own comes first */
		strbuf_addf(&arg_time, "--time=%.0f",
			    ceil(job_timeout(job) / 60) + 1);
		argv[n++] = arg_time.buf;
	}
	path_in(dir.buf, "job.sh", &path);
	argv[n++] = path.buf;
	argv[n] = NULL;
	r = slurm_cmd(argv, &out, &code);
	if (!r && (code || !parse_id(out.buf, id)))
		r = sbatch_refused(s, job, &out);
	if (!r)
		r = write_in(dir.buf, "id", id->buf, id->len, 0);
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

	strbuf_addstr(&list, "#!/bin/sh\n# the tasks of a respin job array: "
		      "each runs its job's own script\n"
		      "case $SLURM_ARRAY_TASK_ID in\n");
	for (k = 0; k < n && !r; k++) {
		strbuf_reset(&dir);
		r = job_files(s, &jobs[k], 1, &dir);
		if (r < 0)
			break;
		made++;
		/*
		 * The task's script read by this shell (no second one); one
		 * that yields does so all of it, its tree's checkout too: by
		 * its autogroup, else by nice.
		 */
		strbuf_addf(&list, "%zu) ", k);
		if (jobs[k].yields) {
			strbuf_addstr(&list, "if " YIELD_GROUP "then . ");
			strbuf_add_sq(&list, dir.buf);
			strbuf_addstr(&list, "/job.sh; else exec " YIELD_NICE
				      "sh ");
			strbuf_add_sq(&list, dir.buf);
			strbuf_addstr(&list, "/job.sh; fi ;;\n");
		} else {
			strbuf_addstr(&list, ". ");
			strbuf_add_sq(&list, dir.buf);
			strbuf_addstr(&list, "/job.sh ;;\n");
		}
		if (t >= 0 && job_timeout(&jobs[k]) > 0 &&
		    job_timeout(&jobs[k]) > t)
			t = job_timeout(&jobs[k]);
		else if (job_timeout(&jobs[k]) <= 0)
			t = -1;		/* one without a limit: none */
	}
	strbuf_addstr(&list, "esac\nexit 0\n");
	if (!r) {
		strbuf_addf(&path, "%s/jobs/.array-%ld-%s.sh", s->shared,
			    (long)getpid(), jobs[0].name);
		r = write_in(s->shared, path.buf + strlen(s->shared) + 1,
			     list.buf, list.len, 0755);
	}
	for (k = 0; k < n && !r; k++) {
		/* found again by the array's name when no id was written */
		struct strbuf task = STRBUF_INIT;

		strbuf_addf(&task, "%s-array %zu\n", jobs[0].name, k);
		strbuf_reset(&dir);
		job_dir(s, jobs[k].name, &dir);
		r = write_in(dir.buf, "task", task.buf, task.len, 0);
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
		r = write_in(dir.buf, "id", ids[k].buf, ids[k].len, 0);
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
	if (!read_in(dir.buf, "id", &text) && parse_id(text.buf, id)) {
		r = 0;
	} else if (has_file(dir.buf, "job.sh")) {
		/*
		 * sbatch ran, its id was never written: ask the queue, by
		 * the job's name or its array's ("task": NAME K)
		 */
		const char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%F",
				       NULL, NULL };
		const char *task = NULL;

		strbuf_reset(&text);
		if (!read_in(dir.buf, "task", &text) &&
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
			r = write_in(dir.buf, "id", id->buf, id->len, 0);
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

/* What a job (or a chain's step) left in dir, into res. */
static void read_result(const char *dir, const char *id, enum exec_state st,
			struct exec_result *res)
{
	struct strbuf text = STRBUF_INIT;

	exec_result_release(res);
	exec_result_init(res);
	res->state = st;
	read_in(dir, "output", &res->run.output);
	if (!read_in(dir, "seconds", &text))
		res->run.seconds = strtod(text.buf, NULL);
	if (st == EXEC_DONE) {
		strbuf_reset(&text);
		if (!read_in(dir, "exit", &text)) {
			res->run.exited = 1;
			res->run.exit_code = atoi(text.buf);
		}
		if (has_file(dir, "timedout")) {
			res->state = EXEC_TIMEOUT;
			res->run.timed_out = 1;
			res->run.exited = 0;
		}
		strbuf_reset(&text);
		if (!read_in(dir, "broken", &text)) {
			/* the node had no tree: it never ran the command */
			res->state = EXEC_LOST;
			res->run.exited = 0;
			strbuf_addf(&res->run.output, "respin: slurm job %s "
				    "could not make the tree: %s", id,
				    text.buf);
		}
	} else {
		res->run.timed_out = st == EXEC_TIMEOUT;
	}
	strbuf_release(&text);
}

/* How many steps the chain in j's directory has (its "steps" file). */
static size_t chain_steps(struct slurm_job *j)
{
	struct strbuf text = STRBUF_INIT;
	size_t n = 0;

	if (!read_in(j->dir, "steps", &text))
		n = (size_t)strtoul(text.buf, NULL, 10);
	strbuf_release(&text);
	return n;
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
	if (ended && !exit_written(dir))
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

	if (!read_in(dir, "exit", &text))
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
		if (exit_written(dir)) {
			r = slurm_signalled(j, dir, &state, &st);
			if (r < 0)
				break;
			if (r != 2) {
				read_result(dir, j->id, r ? st : EXEC_DONE,
					    res);
				if (r)
					say_ended(res, j->id, state.buf);
				r = 0;
				break;
			}
		} else {
			if (has_file(dir, "started") &&
			    j->seen == EXEC_PENDING)
				j->seen = EXEC_RUNNING;
			/* the files say pending or running; the queue the rest */
			r = queue_ended(s, j, dir, block, &state, &st);
			if (r < 0)
				break;
			if (r) {
				read_result(dir, j->id, st, res);
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
	if (!read_in(j->dir, "broken", &text)) {
		/* no tree for any step */
		read_result(sdir.buf, id, EXEC_LOST, res);
		strbuf_addf(&res->run.output, "respin: slurm job %s could "
			    "not make the tree: %s", id, text.buf);
		r = 0;
	} else {
		r = job_end(s, j, sdir.buf, block, res);
		/* pending until this step began, though the job runs */
		if (r == 1)
			res->state = has_file(sdir.buf, "started") ?
				     EXEC_RUNNING : EXEC_PENDING;
	}
	if (!r) {
		strbuf_reset(&text);
		if (!read_in(j->dir, "src", &text)) {
			strbuf_rtrim(&text);
			strbuf_add(&res->src, text.buf, text.len);
		}
		remove_dir(sdir.buf);
		if (++j->handed >= chain_steps(j)) {
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
