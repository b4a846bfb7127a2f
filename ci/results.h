/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_RESULTS_H
#define RESPIN_CI_RESULTS_H

#include <git2.h>
#include <stdint.h>
#include "tools/lib/strbuf.h"

/*
 * The results store: SQLite in .git/respin/results.db.  A result is
 * found by (check definition hash, key), the key being the tree OID
 * after a patch (build, ktap, bench, command) or the hash of the
 * patch's mail text (lint).  So a v3 patch whose tree equals a v2
 * patch's tree finds every result of it.  Logs are kept compressed.
 * Bench samples are kept one by one, never only their mean.
 */
struct results;

/*
 * What a result says.  FAIL: the patch is bad; ERROR: the tool or the
 * setup is broken; TIMEOUT: it ran out of time; SKIP: nothing to say.
 * The store keeps the name (result_status_name()) as text.
 */
enum result_status {
	RESULT_PASS,
	RESULT_FAIL,
	RESULT_SKIP,
	RESULT_ERROR,
	RESULT_TIMEOUT,
};

/* "PASS", "FAIL", "SKIP", "ERROR", "TIMEOUT" ("?" for no such one). */
const char *result_status_name(enum result_status s);
/* The status named name: 0 and *out, or RESPIN_ENOTFOUND (no message). */
int result_status_parse(const char *name, enum result_status *out);

struct result {
	char *check;		/* the check's name when it ran */
	char *def_hash;
	char *key;
	enum result_status status;
	char *summary;		/* one short cell: "0E 1W", "ok +2 warnings" */
	char *details;		/* JSON */
	double duration;
	int64_t created;
};

void result_release(struct result *r);

int results_open(git_repository *repo, struct results **out);
void results_close(struct results *rs);
const char *results_path(const struct results *rs);

/* 0 and *out filled, RESPIN_ENOTFOUND (no message) when not stored. */
int results_get(struct results *rs, const char *def_hash, const char *key,
		struct result *out);
/* Stores r (replacing one with the same def_hash and key) and its log. */
int results_put(struct results *rs, const struct result *r,
		const char *log, size_t log_len);
/* The log of a stored result, decompressed. */
int results_log(struct results *rs, const char *def_hash, const char *key,
		struct strbuf *out);

int results_samples_get(struct results *rs, const char *def_hash,
			const char *key, double **vals, size_t *n);
/*
 * The same, and each sample's place in the order every sample of the
 * store was taken in (seq grows with each sample stored, whatever its
 * check or tree): which runs of two trees came at the same time.  The
 * caller frees *vals and *seq (seq may be NULL: not wanted).
 */
int results_samples_get_seq(struct results *rs, const char *def_hash,
			    const char *key, double **vals, int64_t **seq,
			    size_t *n);
int results_samples_add(struct results *rs, const char *def_hash,
			const char *key, const double *vals, size_t n);

/*
 * A bench run's secondary metrics (its other "respin-metric:" lines,
 * the /proc/vmstat deltas "vmstat:NAME"), kept as samples too: under
 * the key "KEY/NAME", so that a key's own samples stay what they were.
 * results_run_add() stores one run's value and its n secondary values
 * (names[i], vals[i]) in one transaction: a run is kept whole or not at
 * all, and the samples of every metric take their places in the
 * store's order together.
 */
struct results_metric {
	char *name;
	double *vals;
	int64_t *seq;		/* the store's order, as for the samples */
	size_t n;
};

int results_run_add(struct results *rs, const char *def_hash,
		    const char *key, double value, const char *const *names,
		    const double *vals, size_t n);
/*
 * The secondary metrics stored for (def_hash, key), sorted by name,
 * each sample in the store's order; free them with
 * results_metrics_free().
 */
int results_metrics_get(struct results *rs, const char *def_hash,
			const char *key, struct results_metric **out,
			size_t *nr);
void results_metrics_free(struct results_metric *m, size_t nr);

#endif
