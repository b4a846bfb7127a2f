// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a node of the slurm executor runs and what it leaves
 * (slurm-node.h): the scripts sbatch is given, and the job directory's
 * files read back.  Nothing here asks Slurm: a script runs the same
 * under plain sh, which is how tests/unit/t-slurm-node.c runs it.
 */
#include "ci/slurm-node.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static void path_in(const char *dir, const char *file, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", dir, file);
}

int slurm_file_exists(const char *dir, const char *file)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	path_in(dir, file, &p);
	r = !stat(p.buf, &st);
	strbuf_release(&p);
	return r;
}

int slurm_file_read(const char *dir, const char *file, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	path_in(dir, file, &p);
	r = strbuf_read_file(out, p.buf);
	strbuf_release(&p);
	return r;
}

int slurm_exit_written(const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	int r = !slurm_file_read(dir, "exit", &text) && text.len &&
		text.buf[text.len - 1] == '\n';

	strbuf_release(&text);
	return r;
}

int slurm_file_write(const char *dir, const char *file, const char *data,
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

/* The script of job: a chain's, or a single job's (nice: it yields). */
static int job_script_of(const struct exec_job *job, const char *dir,
			 int in_array, struct strbuf *out)
{
	return job->nr_steps ? chain_script(job, dir, out) :
	       job_script(job, dir, job->yields && !in_array, out);
}

int slurm_job_files(const struct exec_job *job, const char *dir, int in_array)
{
	struct strbuf script = STRBUF_INIT;
	size_t k;
	int r = job_script_of(job, dir, in_array, &script);

	if (!r)
		r = slurm_file_write(dir, "job.sh", script.buf, script.len,
				     0755);
	if (!r && job->input)
		r = slurm_file_write(dir, "input", job->input, job->input_len,
				     0);
	if (!r && job->nr_steps) {
		char count[32];
		int len = snprintf(count, sizeof(count), "%zu\n",
				   job->nr_steps);

		r = slurm_file_write(dir, "steps", count, (size_t)len, 0);
	}
	/* the steps' directories: made here, not by a process a step */
	for (k = 0; !r && k < job->nr_steps; k++) {
		struct strbuf step = STRBUF_INIT;

		strbuf_addf(&step, "%s/%zu", dir, k);
		if (mkdir(step.buf, 0755) && errno != EEXIST)
			r = error_errno("cannot make %s", step.buf);
		strbuf_release(&step);
	}
	strbuf_release(&script);
	return r;
}

void slurm_array_begin(struct strbuf *list)
{
	strbuf_addstr(list, "#!/bin/sh\n# the tasks of a respin job array: "
		      "each runs its job's own script\n"
		      "case $SLURM_ARRAY_TASK_ID in\n");
}

void slurm_array_task(struct strbuf *list, size_t k, const char *dir,
		      int yields)
{
	/*
	 * The task's script read by this shell (no second one); one that
	 * yields does so all of it, its tree's checkout too: by its
	 * autogroup, else by nice.
	 */
	strbuf_addf(list, "%zu) ", k);
	if (yields) {
		strbuf_addstr(list, "if " YIELD_GROUP "then . ");
		strbuf_add_sq(list, dir);
		strbuf_addstr(list, "/job.sh; else exec " YIELD_NICE "sh ");
		strbuf_add_sq(list, dir);
		strbuf_addstr(list, "/job.sh; fi ;;\n");
	} else {
		strbuf_addstr(list, ". ");
		strbuf_add_sq(list, dir);
		strbuf_addstr(list, "/job.sh ;;\n");
	}
}

void slurm_array_end(struct strbuf *list)
{
	strbuf_addstr(list, "esac\nexit 0\n");
}

double slurm_job_timeout(const struct exec_job *job)
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

void slurm_read_result(const char *dir, const char *id, enum exec_state st,
			struct exec_result *res)
{
	struct strbuf text = STRBUF_INIT;

	exec_result_release(res);
	exec_result_init(res);
	res->state = st;
	slurm_file_read(dir, "output", &res->run.output);
	if (!slurm_file_read(dir, "seconds", &text))
		res->run.seconds = strtod(text.buf, NULL);
	if (st == EXEC_DONE) {
		strbuf_reset(&text);
		if (!slurm_file_read(dir, "exit", &text)) {
			res->run.exited = 1;
			res->run.exit_code = atoi(text.buf);
		}
		if (slurm_file_exists(dir, "timedout")) {
			res->state = EXEC_TIMEOUT;
			res->run.timed_out = 1;
			res->run.exited = 0;
		}
		strbuf_reset(&text);
		if (!slurm_file_read(dir, "broken", &text)) {
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

size_t slurm_chain_steps(const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	size_t n = 0;

	if (!slurm_file_read(dir, "steps", &text))
		n = (size_t)strtoul(text.buf, NULL, 10);
	strbuf_release(&text);
	return n;
}
