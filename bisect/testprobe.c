// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/testprobe.h"
#include "ci/kind.h"
#include "ci/ktap.h"
#include "tools/lib/error.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

void test_probe_init(struct test_probe *tp, struct engine *e,
		     const struct check *c, const char *subtest)
{
	size_t i;

	memset(tp, 0, sizeof(*tp));
	tp->e = e;
	tp->c = c;
	tp->subtest = subtest;
	tp->n = e->v->nr_patches;
	tp->ran = xcalloc(tp->n + 1, 1);
	tp->why = xcalloc(tp->n + 1, sizeof(*tp->why));
	for (i = 0; i <= tp->n; i++)
		strbuf_init(&tp->why[i], 0);
}

void test_probe_release(struct test_probe *tp)
{
	size_t i;

	for (i = 0; tp->why && i <= tp->n; i++)
		strbuf_release(&tp->why[i]);
	free(tp->why);
	free(tp->ran);
	memset(tp, 0, sizeof(*tp));
}

/* Did a build check fail at i?  1 yes, 0 no (or none stored), <0. */
static int build_failed(struct test_probe *tp, size_t i)
{
	const struct check_list *l = tp->e->checks;
	size_t k;

	for (k = 0; k < l->nr; k++) {
		const struct check *b = &l->items[k];
		struct strbuf key = STRBUF_INIT;
		struct result res;
		int r, failed;

		if (!check_is_builder(b) || b == tp->c)
			continue;
		r = engine_key(tp->e->repo, tp->e->v, b, i, &key);
		if (!r)
			r = results_get(tp->e->rs, b->hash, key.buf, &res);
		strbuf_release(&key);
		if (r == RESPIN_ENOTFOUND)
			continue;
		if (r < 0)
			return r;
		failed = res.status != RESULT_PASS;
		result_release(&res);
		if (failed)
			return 1;
	}
	return 0;
}

/* The matching subtests of the stored log decide. */
static int judge_subtests(struct test_probe *tp, size_t i, const char *key,
			  enum bisect_outcome *out)
{
	struct strbuf log = STRBUF_INIT, *why = &tp->why[i];
	struct ktap_result kr;
	struct ktap_leaf *leaves = NULL;
	size_t nl = 0, k, matched = 0, failed = 0;
	int r = results_log(tp->e->rs, tp->c->hash, key, &log);

	ktap_result_init(&kr);
	if (r < 0)
		goto out;
	ktap_parse(log.buf, log.len, &kr);
	nl = ktap_result_leaves(&kr, &leaves);
	for (k = 0; k < nl; k++) {
		if (fnmatch(tp->subtest, leaves[k].path, 0))
			continue;
		matched++;
		if (leaves[k].status == KTAP_FAIL ||
		    leaves[k].status == KTAP_ERROR) {
			strbuf_addf(why, "%s%s %s", failed ? ", " : "",
				    ktap_status_name(leaves[k].status),
				    leaves[k].path);
			failed++;
		}
	}
	if (!matched) {
		strbuf_addf(why, "no subtest matching %s", tp->subtest);
		*out = BISECT_SKIP;
	} else if (failed) {
		*out = BISECT_BAD;
	} else {
		strbuf_addf(why, "%zu subtest%s matching %s pass", matched,
			    matched == 1 ? "" : "s", tp->subtest);
		*out = BISECT_GOOD;
	}
	r = 0;
out:
	ktap_leaves_free(leaves, nl);
	ktap_result_release(&kr);
	strbuf_release(&log);
	return r;
}

int test_probe_stored(struct test_probe *tp, size_t i,
		      enum bisect_outcome *out)
{
	struct strbuf key = STRBUF_INIT;
	struct result res;
	int r;

	*out = BISECT_UNKNOWN;
	strbuf_reset(&tp->why[i]);
	r = engine_key(tp->e->repo, tp->e->v, tp->c, i, &key);
	if (!r)
		r = results_get(tp->e->rs, tp->c->hash, key.buf, &res);
	if (r == RESPIN_ENOTFOUND) {
		r = 0;
		goto out;
	}
	if (r < 0)
		goto out;
	if (!check_is_builder(tp->c) && (r = build_failed(tp, i)) != 0) {
		if (r > 0) {
			strbuf_addstr(&tp->why[i], "does not build");
			*out = BISECT_SKIP;
			r = 0;
		}
	} else if (tp->subtest && check_kind_ops(tp->c->kind)->results ==
				  KIND_RESULTS_SUBTESTS &&
		   (res.status == RESULT_PASS || res.status == RESULT_FAIL)) {
		r = judge_subtests(tp, i, key.buf, out);
	} else {
		const char *status = result_status_name(res.status);

		strbuf_addstr(&tp->why[i], status);
		if (res.summary && strcmp(res.summary, status))
			strbuf_addf(&tp->why[i], " (%s)", res.summary);
		*out = res.status == RESULT_PASS ? BISECT_GOOD :
		       res.status == RESULT_FAIL ? BISECT_BAD : BISECT_SKIP;
	}
	result_release(&res);
out:
	strbuf_release(&key);
	return r;
}

int test_probe_test(void *data, size_t i, int again,
		    enum bisect_outcome *out)
{
	struct test_probe *tp = data;
	struct engine *e = tp->e;
	int r;

	if (!again) {
		r = test_probe_stored(tp, i, out);
		if (r < 0 || *out != BISECT_UNKNOWN)
			return r;
	}
	e->only = (int)i;
	e->rerun = again;
	e->base_too = 1;
	strbuf_reset(&e->report);
	r = engine_run(e);
	e->rerun = 0;
	if (r < 0)
		return r;
	tp->ran[i] = 1;
	r = test_probe_stored(tp, i, out);
	if (r < 0)
		return r;
	if (*out == BISECT_UNKNOWN) {
		/* not stored: it broke (an ERROR or a TIMEOUT) */
		size_t nl = strcspn(e->report.buf, "\n");

		strbuf_reset(&tp->why[i]);
		strbuf_add(&tp->why[i], e->report.buf, nl);
		if (!nl)
			strbuf_addstr(&tp->why[i], "no result");
		*out = BISECT_SKIP;
	}
	return 0;
}
