/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_SLURM_NODE_H
#define RESPIN_CI_SLURM_NODE_H

/*
 * The node's side of the slurm executor (exec-slurm.c): the script a
 * node runs and the files it leaves in the job's directory DIR,
 *
 *	DIR/job.sh	the script (sbatch runs it; so can sh)
 *	DIR/input	stdin of the command, when it has one
 *	DIR/steps	a chain's number of steps; step K's files in DIR/K/
 *	DIR/started	the node began
 *	DIR/output	what the command printed (stdout and stderr)
 *	DIR/timedout	the check's own time limit ended it
 *	DIR/broken	the node could not make the tree (why)
 *	DIR/seconds	how long the command ran
 *	DIR/exit	its exit status, written last, a line
 *
 * The node reads job->commit from job->git_dir into a temporary
 * directory of its own, runs job->command there (RESPIN_SRC names it)
 * with job->env, under timeout(1) when the job has a time limit.
 * Nothing here asks Slurm.
 */
#include "ci/executor.h"

/*
 * Writes the job's files into the existing directory dir: job.sh,
 * input, steps and the steps' directories.  in_array: the job is a task
 * of an array, whose script does the yielding.  0 or <0 (a bad
 * environment entry, a file that cannot be written: named).
 */
int slurm_job_files(const struct exec_job *job, const char *dir, int in_array);

/* The script of a job array, a task (dir: its job's directory) a line. */
void slurm_array_begin(struct strbuf *list);
void slurm_array_task(struct strbuf *list, size_t k, const char *dir,
		      int yields);
void slurm_array_end(struct strbuf *list);

/* The job's time limit: a chain's is its steps' together, or none (0). */
double slurm_job_timeout(const struct exec_job *job);

/* dir/file, read into out (appended), or written (mode: chmod it). */
int slurm_file_read(const char *dir, const char *file, struct strbuf *out);
int slurm_file_write(const char *dir, const char *file, const char *data,
		     size_t len, int mode);
int slurm_file_exists(const char *dir, const char *file);

/*
 * The job (or step) in dir ended: its exit file holds a whole line.
 * The node writes it in one write, last, without a rename; an exit
 * file seen before its line is there is not yet written.
 */
int slurm_exit_written(const char *dir);

/*
 * What a job (or a chain's step) left in dir, into res (released
 * first), as state st says it stands (id names it in what is said).
 */
void slurm_read_result(const char *dir, const char *id, enum exec_state st,
		       struct exec_result *res);

/* How many steps the chain in dir has (its "steps" file). */
size_t slurm_chain_steps(const char *dir);

#endif
