/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_RECIPE_H
#define RESPIN_CI_RECIPE_H

#include <stddef.h>

struct strbuf;

/*
 * Built-in bench recipes (respin.check.NAME.recipe): a workload of a
 * Debian-packaged tool that the mm list uses, run for a short fixed
 * time by respin-bench-run (tools/respin-bench-run.c), its value read
 * from the tool's own machine-readable output and printed as the bench
 * kind's metric line, "respin-metric: METRIC VALUE".  The recipe sets
 * the metric's name, that higher is better and that it is a rate
 * (summarised by the harmonic mean).  A user's command stays the
 * general case.
 */
struct recipe {
	const char *name;	/* "stress-ng-vm" */
	const char *metric;	/* "bogo-ops/s" */
	const char *tool;	/* the program it runs */
	const char *package;	/* its Debian package */
	int seconds;		/* how long the workload runs */
	/* what it runs and measures, in one line */
	const char *what;
	/*
	 * In the check's definition hash: raise it when the workload or
	 * how its value is read changes, so older samples are not mixed
	 * with newer ones.
	 */
	int format;
};

const struct recipe *recipe_find(const char *name);
/* "stress-ng-vm, fio-randread" */
void recipe_names(struct strbuf *out);

/*
 * The workload's command line, with its files in dir (a tmpfs
 * directory of its own): a NULL-ended array the caller frees with
 * recipe_argv_free().  recipe_output() is the file of dir the tool
 * writes the output recipe_parse() reads.
 */
char **recipe_argv(const struct recipe *r, const char *dir);
void recipe_argv_free(char **argv);
void recipe_output(const struct recipe *r, const char *dir,
		   struct strbuf *out);

/*
 * The metric's value from the tool's output text: 0 and *value, or an
 * error saying what the output lacked.
 */
int recipe_parse(const struct recipe *r, const char *text, size_t len,
		 double *value);

/*
 * The parsers themselves.  stress-ng's YAML (--yaml FILE): the
 * "bogo-ops-per-second-real-time" of the "metrics" entry of stressor.
 * fio's JSON (--output-format=json): the read bandwidth of job jobname
 * in MiB/s (its "read" "bw_bytes" / 2^20).  A value that is not above
 * 0 (nothing done) is an error.
 */
int recipe_parse_stress_ng_yaml(const char *text, size_t len,
				const char *stressor, double *value);
int recipe_parse_fio_json(const char *text, size_t len, const char *jobname,
			  double *mibps);

#endif
