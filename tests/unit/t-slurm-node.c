// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The slurm executor's node side (ci/slurm-node.h) without a cluster:
 * the scripts respin writes for sbatch are run here by plain sh, on a
 * repository made for the test, and what they leave in the job's
 * directory is read back as the executor reads it: the output, the
 * exit code, stdin, the environment, the time limit, a tree that
 * cannot be made, a chain's steps, a job array's dispatch and the
 * yielding of a job off the critical path.
 */
#include "ci/slurm-node.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/run.h"
#include "tests/unit/tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[] = "/tmp/respin-t-slurm-node.XXXXXX";
static struct strbuf git_dir = STRBUF_INIT;
static git_oid commit;

/* A repository whose one commit holds hello.txt ("hi"). */
static int make_repo(void)
{
	git_repository *repo = NULL;
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid blob, tree_id;
	struct strbuf path = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%s/repo", top);
	r = git_repository_init(&repo, path.buf, 1);
	if (!r)
		r = git_blob_create_from_buffer(&blob, repo, "hi\n", 3);
	if (!r)
		r = git_treebuilder_new(&tb, repo, NULL);
	if (!r)
		r = git_treebuilder_insert(NULL, tb, "hello.txt", &blob,
					   GIT_FILEMODE_BLOB);
	if (!r)
		r = git_treebuilder_write(&tree_id, tb);
	if (!r)
		r = git_tree_lookup(&tree, repo, &tree_id);
	if (!r)
		r = git_signature_new(&sig, "T", "t@example.org", 1, 0);
	if (!r)
		r = git_commit_create(&commit, repo, "HEAD", sig, sig, NULL,
				      "one\n", tree, 0, NULL);
	if (!r)
		strbuf_addstr(&git_dir, git_repository_path(repo));
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_repository_free(repo);
	strbuf_release(&path);
	return r;
}

/* A fresh job directory, top/NAME. */
static void job_dir(const char *name, struct strbuf *dir)
{
	strbuf_reset(dir);
	strbuf_addf(dir, "%s/%s", top, name);
	mkdir(dir->buf, 0755);
}

/*
 * Runs sh SCRIPT as a node would (env: "NAME=value" or NULL): in a
 * session of its own, as a Slurm job is, so that a job's yielding by
 * its autogroup lowers no one's priority but its own.
 */
static int node_runs(const char *script, const char *const *env)
{
	const char *argv[] = { "setsid", "-w", "sh", script, NULL };
	struct run_opts o = { 0 };
	struct run_result res;
	int r;

	o.argv = argv;
	o.env = env;
	o.timeout = 60;
	run_result_init(&res);
	r = run_program(&o, &res);
	if (!r && (!res.exited || res.exit_code))
		r = -1;
	if (r)
		printf("# sh %s: %s\n", script, res.output.buf);
	run_result_release(&res);
	return r;
}

static int run_job(const struct exec_job *job, const char *dir)
{
	struct strbuf script = STRBUF_INIT;
	int r = slurm_job_files(job, dir, 0);

	strbuf_addf(&script, "%s/job.sh", dir);
	if (!r)
		r = node_runs(script.buf, NULL);
	strbuf_release(&script);
	return r;
}

static void test_job(void)
{
	static const char *const env[] = { "FOO=it's here", NULL };
	struct exec_job job = { 0 };
	struct exec_result res;
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
	char *nl;

	job.name = "respin-s-lint-1";
	job.command = "cat hello.txt; cat; echo \"$FOO\"; echo \"$RESPIN_SRC\"; "
		      "echo oops >&2; exit 3";
	job.env = env;
	job.git_dir = git_dir.buf;
	git_oid_cpy(&job.commit, &commit);
	job.input = "from stdin\n";
	job.input_len = strlen(job.input);
	job_dir("job", &dir);
	is_int(run_job(&job, dir.buf), 0, "a job's script runs under sh");
	ok(slurm_file_exists(dir.buf, "started"), "it says it started");
	ok(slurm_exit_written(dir.buf), "its exit line is written");
	exec_result_init(&res);
	slurm_read_result(dir.buf, "1", EXEC_DONE, &res);
	is_int(res.state, EXEC_DONE, "done");
	ok(res.run.exited && res.run.exit_code == 3, "its exit code: %d",
	   res.run.exit_code);
	ok(!strncmp(res.run.output.buf, "hi\nfrom stdin\nit's here\n", 24),
	   "the commit's tree, stdin and the environment, quoted");
	ok(strstr(res.run.output.buf, "oops\n") != NULL, "stderr kept too");
	/* the tree was in a directory of the node's, gone after the job */
	strbuf_addstr(&text, res.run.output.buf + 24);
	nl = strchr(text.buf, '\n');
	if (nl)
		*nl = '\0';
	ok(text.buf[0] == '/' && access(text.buf, F_OK) < 0,
	   "RESPIN_SRC was a temporary tree, removed: %s", text.buf);
	ok(res.run.seconds >= 0 && res.run.seconds < 60, "seconds: %.2f",
	   res.run.seconds);
	exec_result_release(&res);
	strbuf_release(&text);
	strbuf_release(&dir);
}

static void test_timeout(void)
{
	struct exec_job job = { 0 };
	struct exec_result res;
	struct strbuf dir = STRBUF_INIT;

	job.name = "respin-s-slow-1";
	job.command = "echo begun; exec sleep 30";
	job.git_dir = git_dir.buf;
	git_oid_cpy(&job.commit, &commit);
	job.timeout = 1;
	job_dir("slow", &dir);
	is_int(run_job(&job, dir.buf), 0, "a job over its limit ends");
	exec_result_init(&res);
	slurm_read_result(dir.buf, "2", EXEC_DONE, &res);
	ok(res.state == EXEC_TIMEOUT && res.run.timed_out && !res.run.exited,
	   "its own time limit ended it: a timeout");
	ok(res.run.seconds >= 0.9 && res.run.seconds < 10,
	   "after about its limit: %.2f s", res.run.seconds);
	is_str(res.run.output.buf, "begun\n", "what it printed kept");
	exec_result_release(&res);
	strbuf_release(&dir);
}

static void test_broken(void)
{
	struct exec_job job = { 0 };
	struct exec_result res;
	struct strbuf dir = STRBUF_INIT;

	job.name = "respin-s-gone-1";
	job.command = "echo never";
	job.git_dir = git_dir.buf;
	git_oid_fromstr(&job.commit, "1234567890123456789012345678901234567890");
	job_dir("gone", &dir);
	is_int(run_job(&job, dir.buf), 0, "a job whose commit is missing");
	exec_result_init(&res);
	slurm_read_result(dir.buf, "3", EXEC_DONE, &res);
	is_int(res.state, EXEC_LOST, "is lost, not judged");
	ok(strstr(res.run.output.buf, "could not make the tree: ") &&
	   strstr(res.run.output.buf, "cannot read commit 1234567890") &&
	   !strstr(res.run.output.buf, "never"),
	   "why, and the command never ran: %s", res.run.output.buf);
	exec_result_release(&res);
	strbuf_release(&dir);
}

static void test_bad_env(void)
{
	static const char *const env[] = { "A;rm -rf /=x", NULL };
	struct exec_job job = { 0 };
	struct strbuf dir = STRBUF_INIT;
	int r;

	job.name = "respin-s-env-1";
	job.command = "true";
	job.env = env;
	job.git_dir = git_dir.buf;
	job_dir("env", &dir);
	r = slurm_job_files(&job, dir.buf, 0);
	ok(r < 0 && strstr(error_last(), "job respin-s-env-1: bad environment "
			   "entry") != NULL, "a bad variable name is refused: %s",
	   error_last());
	error_clear();
	ok(!slurm_file_exists(dir.buf, "job.sh"), "and no script written");
	strbuf_release(&dir);
}

static void test_chain(void)
{
	static const char *const env1[] = { "STEP=second", NULL };
	struct exec_step steps[2];
	struct exec_job job = { 0 };
	struct exec_result res;
	struct strbuf dir = STRBUF_INIT, step = STRBUF_INIT;

	memset(steps, 0, sizeof(steps));
	git_oid_cpy(&steps[0].commit, &commit);
	steps[0].command = "echo built >>made; cat hello.txt";
	steps[0].timeout = 30;
	git_oid_cpy(&steps[1].commit, &commit);
	steps[1].command = "cat made; echo \"$STEP\"; exit 1";
	steps[1].env = env1;
	steps[1].timeout = 20;
	job.name = "respin-s-build-0";
	job.git_dir = git_dir.buf;
	job.steps = steps;
	job.nr_steps = 2;
	is_int((long long)slurm_job_timeout(&job), 50,
	       "a chain's limit is its steps' together");
	steps[1].timeout = 0;
	is_int((long long)slurm_job_timeout(&job), 0, "or none");
	steps[1].timeout = 20;
	job_dir("chain", &dir);
	is_int(run_job(&job, dir.buf), 0, "a chain's script runs under sh");
	is_int((long long)slurm_chain_steps(dir.buf), 2, "two steps");
	exec_result_init(&res);
	strbuf_addf(&step, "%s/0", dir.buf);
	ok(slurm_exit_written(step.buf), "step 0 ended");
	slurm_read_result(step.buf, "4", EXEC_DONE, &res);
	ok(res.run.exited && !res.run.exit_code &&
	   !strcmp(res.run.output.buf, "hi\n"), "step 0: its output, 0");
	strbuf_reset(&step);
	strbuf_addf(&step, "%s/1", dir.buf);
	slurm_read_result(step.buf, "4", EXEC_DONE, &res);
	ok(res.run.exited && res.run.exit_code == 1 &&
	   !strcmp(res.run.output.buf, "built\nsecond\n"),
	   "step 1 ran in the same tree, with its own variables: %s",
	   res.run.output.buf);
	strbuf_reset(&step);
	slurm_file_read(dir.buf, "exit", &step);
	is_str(step.buf, "done\n", "the chain's own exit says done");
	exec_result_release(&res);
	strbuf_release(&step);
	strbuf_release(&dir);
}

static void test_array(void)
{
	static const char *const task1[] = { "SLURM_ARRAY_TASK_ID=1", NULL };
	struct exec_job jobs[2];
	struct exec_result res;
	struct strbuf dir[2] = { STRBUF_INIT, STRBUF_INIT };
	struct strbuf list = STRBUF_INIT, script = STRBUF_INIT;
	size_t k;
	int r = 0;

	memset(jobs, 0, sizeof(jobs));
	slurm_array_begin(&list);
	for (k = 0; k < 2; k++) {
		jobs[k].name = k ? "respin-s-a-1" : "respin-s-a-0";
		jobs[k].command = k ? "nice; cat /proc/self/autogroup "
				      "2>/dev/null || :" : "echo zero";
		jobs[k].git_dir = git_dir.buf;
		jobs[k].yields = (int)k;
		git_oid_cpy(&jobs[k].commit, &commit);
		job_dir(jobs[k].name, &dir[k]);
		if (!r)
			r = slurm_job_files(&jobs[k], dir[k].buf, 1);
		slurm_array_task(&list, k, dir[k].buf, jobs[k].yields);
	}
	slurm_array_end(&list);
	if (!r)
		r = slurm_file_write(top, "array.sh", list.buf, list.len, 0755);
	strbuf_addf(&script, "%s/array.sh", top);
	if (!r)
		r = node_runs(script.buf, task1);
	is_int(r, 0, "a job array's script runs task 1");
	ok(!slurm_file_exists(dir[0].buf, "started"), "task 0 did not run");
	exec_result_init(&res);
	slurm_read_result(dir[1].buf, "5_1", EXEC_DONE, &res);
	/* by its autogroup where there are autogroups, else by nice */
	ok(res.run.exited && !res.run.exit_code &&
	   (!strncmp(res.run.output.buf, "19\n", 3) ||
	    strstr(res.run.output.buf, " nice 19\n")),
	   "task 1 ran its job, yielding the node (nice 19): %s",
	   res.run.output.buf);
	exec_result_release(&res);
	for (k = 0; k < 2; k++)
		strbuf_release(&dir[k]);
	strbuf_release(&list);
	strbuf_release(&script);
}

int main(void)
{
	git_libgit2_init();
	if (!mkdtemp(top) || make_repo() < 0) {
		ok(0, "test repository made in %s", top);
		return done_testing();
	}
	test_job();
	test_timeout();
	test_broken();
	test_bad_env();
	test_chain();
	test_array();
	if (remove_tree(top) < 0)
		ok(0, "cleanup: %s", error_last());
	strbuf_release(&git_dir);
	git_libgit2_shutdown();
	return done_testing();
}
