// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/resultdiff.h"
#include "ci/kind.h"
#include "ci/ktap.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

static const struct grid_cell *cell_at(const struct grid *g, size_t i,
				       size_t k)
{
	const struct grid_cell *cell;

	if (!g)
		return NULL;
	cell = grid_cell(g, i, k);
	return cell->have ? cell : NULL;
}

static int same_key(const struct grid_cell *a, const struct grid_cell *b)
{
	return !strcmp(a->res.key, b->res.key);
}

static int same_string(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* ---- build: the warnings each version's patch adds ---- */

static void set_minus(struct warning_set *out, const struct warning_set *x,
		      const struct warning_set *y)
{
	size_t w;

	for (w = 0; w < x->nr; w++)
		if (!warning_set_has(y, x->items[w]))
			warning_set_add(out, x->items[w]);
}

/* The warnings row i adds are known when row i - 1 has a build too. */
static int added_known(const struct grid *g, size_t i, size_t k)
{
	return i > 0 && cell_at(g, i - 1, k);
}

static void compare_build(struct resultdiff_check *rc)
{
	if (!rc->added_known)
		return;
	set_minus(&rc->new_warnings, &rc->b->added, &rc->a->added);
	set_minus(&rc->fixed_warnings, &rc->a->added, &rc->b->added);
	if (rc->new_warnings.nr || rc->fixed_warnings.nr)
		rc->changed = 1;
}

/* ---- lint: findings, without their line ---- */

static int finding_cmp(const struct lint_finding *x,
		       const struct lint_finding *y)
{
	int c = strcmp(x->severity, y->severity);

	if (!c)
		c = strcmp(x->type, y->type);
	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = strcmp(x->message, y->message);
	return c;
}

static int finding_qsort_cmp(const void *x, const void *y)
{
	return finding_cmp(x, y);
}

static void finding_add(struct lint_report *lr, const struct lint_finding *f)
{
	struct lint_finding *n;

	ALLOC_GROW(lr->items, lr->nr, lr->alloc);
	n = &lr->items[lr->nr++];
	n->severity = xstrdup(f->severity);
	n->type = xstrdup(f->type);
	n->file = xstrdup(f->file);
	n->line = f->line;
	n->message = xstrdup(f->message);
	if (!strcmp(f->severity, "ERROR"))
		lr->errors++;
	else if (!strcmp(f->severity, "WARNING"))
		lr->warnings++;
	else
		lr->checks++;
}

static int read_lint(struct results *rs, const struct check *c,
		     const struct grid_cell *cell, struct lint_report *lr)
{
	struct strbuf log = STRBUF_INIT;
	int r = results_log(rs, c->hash, cell->res.key, &log);

	if (!r)
		lint_parse(lr, log.buf, log.len);
	if (!r && lr->nr)
		qsort(lr->items, lr->nr, sizeof(*lr->items), finding_qsort_cmp);
	strbuf_release(&log);
	return r;
}

/* Both lists sorted: what is in one as many times more than the other. */
static void findings_diff(struct resultdiff_check *rc,
			  const struct lint_report *a,
			  const struct lint_report *b)
{
	size_t i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		int c = i == a->nr ? 1 : j == b->nr ? -1 :
			finding_cmp(&a->items[i], &b->items[j]);

		if (c < 0)
			finding_add(&rc->gone_findings, &a->items[i++]);
		else if (c > 0)
			finding_add(&rc->new_findings, &b->items[j++]);
		else {
			i++;
			j++;
		}
	}
}

static int compare_lint(struct resultdiff_check *rc, struct results *rs)
{
	struct lint_report a = { 0 }, b = { 0 };
	int r;

	if (same_key(rc->a, rc->b))
		return 0;
	r = read_lint(rs, rc->check, rc->a, &a);
	if (!r)
		r = read_lint(rs, rc->check, rc->b, &b);
	if (!r)
		findings_diff(rc, &a, &b);
	if (rc->new_findings.nr || rc->gone_findings.nr)
		rc->changed = 1;
	lint_report_release(&a);
	lint_report_release(&b);
	return r;
}

/* ---- ktap: subtests by path ---- */

struct leaves {
	struct ktap_result kr;
	struct ktap_leaf *v;
	size_t nr;
	struct ktap_leaf **sorted;	/* by path */
};

static int leaf_cmp(const void *x, const void *y)
{
	const struct ktap_leaf *const *a = x, *const *b = y;

	return strcmp((*a)->path, (*b)->path);
}

static int read_leaves(struct results *rs, const struct check *c,
		       const struct grid_cell *cell, struct leaves *l)
{
	struct strbuf log = STRBUF_INIT;
	size_t i;
	int r = results_log(rs, c->hash, cell->res.key, &log);

	ktap_result_init(&l->kr);
	if (r < 0)
		goto out;
	/* no KTAP at all is an ERROR result: then no subtests */
	if (ktap_parse(log.buf, log.len, &l->kr) < 0)
		error_clear();
	l->nr = ktap_result_leaves(&l->kr, &l->v);
	l->sorted = xcalloc(l->nr + 1, sizeof(*l->sorted));
	for (i = 0; i < l->nr; i++)
		l->sorted[i] = &l->v[i];
	if (l->nr)
		qsort(l->sorted, l->nr, sizeof(*l->sorted), leaf_cmp);
out:
	strbuf_release(&log);
	return r;
}

static void leaves_release(struct leaves *l)
{
	ktap_leaves_free(l->v, l->nr);
	free(l->sorted);
	ktap_result_release(&l->kr);
}

static const struct ktap_leaf *leaf_find(const struct leaves *l,
					 const char *path)
{
	struct ktap_leaf key = { 0 }, *kp = &key, **hit;

	key.path = (char *)path;
	if (!l->nr)
		return NULL;
	hit = bsearch(&kp, l->sorted, l->nr, sizeof(*l->sorted), leaf_cmp);
	return hit ? *hit : NULL;
}

static void flip_add(struct resultdiff_check *rc, const char *path,
		     const struct ktap_leaf *a, const struct ktap_leaf *b)
{
	struct resultdiff_flip *f;

	ALLOC_GROW(rc->flips, rc->nr_flips, rc->alloc_flips);
	f = &rc->flips[rc->nr_flips++];
	f->path = xstrdup(path);
	f->a = a ? ktap_status_name(a->status) : NULL;
	f->b = b ? ktap_status_name(b->status) : NULL;
}

/* In b's order, then what only a has, in a's order. */
static void leaves_diff(struct resultdiff_check *rc, const struct leaves *a,
			const struct leaves *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		const struct ktap_leaf *x = leaf_find(a, b->v[i].path);

		if (!x || x->status != b->v[i].status)
			flip_add(rc, b->v[i].path, x, &b->v[i]);
	}
	for (i = 0; i < a->nr; i++)
		if (!leaf_find(b, a->v[i].path))
			flip_add(rc, a->v[i].path, &a->v[i], NULL);
}

static int compare_ktap(struct resultdiff_check *rc, struct results *rs)
{
	struct leaves a = { 0 }, b = { 0 };
	int r;

	if (same_key(rc->a, rc->b))
		return 0;
	r = read_leaves(rs, rc->check, rc->a, &a);
	if (!r)
		r = read_leaves(rs, rc->check, rc->b, &b);
	if (!r)
		leaves_diff(rc, &a, &b);
	if (rc->nr_flips)
		rc->changed = 1;
	leaves_release(&a);
	leaves_release(&b);
	return r;
}

/* ---- bench ---- */

/* How a change against the base is marked: significant, unknown, or not. */
static int bench_mark_kind(const struct grid_cell *cell)
{
	if (!cell->have_cmp)
		return -1;
	return (int)cell->cmp.verdict;
}

/*
 * The two versions' samples were taken apart, each against its own
 * base: compared once, as fixed samples (the plain 95% interval).
 */
static void compare_bench(struct resultdiff_check *rc)
{
	const struct grid_cell *a = rc->a, *b = rc->b;
	struct stats_plan plan;

	stats_plan_fixed(&plan, check_stats_flags(rc->check),
			 rc->check->threshold_pct);
	if (a->nr_samples && b->nr_samples &&
	    !stats_compare(a->samples, a->nr_samples, b->samples,
			   b->nr_samples, &plan, &rc->direct))
		rc->have_direct = 1;
	error_clear();
	stats_plan_release(&plan);
	if (bench_mark_kind(a) != bench_mark_kind(b))
		rc->changed = 1;
	if (rc->have_direct && (rc->direct.verdict == STATS_BETTER ||
				rc->direct.verdict == STATS_WORSE))
		rc->changed = 1;
}

/* ---- one check, one pair ---- */

static int compare_check(struct resultdiff_check *rc, struct results *rs)
{
	int r = 0;

	if (rc->a->res.status != rc->b->res.status)
		rc->changed = 1;
	/* a guest check: the kernel warnings each version's patch adds */
	if (rc->check->guest)
		compare_build(rc);
	switch (check_kind_ops(rc->check->kind)->results) {
	case KIND_RESULTS_WARNINGS:
		compare_build(rc);
		return 0;
	case KIND_RESULTS_SAMPLES:
		compare_bench(rc);
		return 0;
	case KIND_RESULTS_FINDINGS:
		r = compare_lint(rc, rs);
		break;
	case KIND_RESULTS_SUBTESTS:
		r = compare_ktap(rc, rs);
		break;
	case KIND_RESULTS_STATUS:
		break;
	}
	/* nothing more precise to say: the summaries, if they differ */
	if (!rc->changed && !same_string(rc->a->res.summary,
					 rc->b->res.summary))
		rc->changed = 1;
	return r;
}

int resultdiff_compute(struct resultdiff *rd, struct results *rs,
		       const struct check_list *checks,
		       const struct grid *a, size_t ia,
		       const struct grid *b, size_t ib)
{
	size_t k;
	int r;

	memset(rd, 0, sizeof(*rd));
	rd->checks = xcalloc(checks->nr + 1, sizeof(*rd->checks));
	for (k = 0; k < checks->nr; k++) {
		const struct grid_cell *ca = cell_at(a, ia, k);
		const struct grid_cell *cb = cell_at(b, ib, k);
		struct resultdiff_check *rc;

		rd->any_a |= !!ca;
		rd->any_b |= !!cb;
		if (!ca && !cb)
			continue;
		rc = &rd->checks[rd->nr++];
		rc->check = &checks->items[k];
		rc->a = ca;
		rc->b = cb;
		/* a static kind's cell holds what its patch adds */
		rc->added_known = check_kind_ops(rc->check->kind)->details ==
				  KIND_DETAILS_ADDED ||
				  (added_known(a, ia, k) &&
				   added_known(b, ib, k));
		if (!ca || !cb) {
			rc->changed = a && b;
		} else {
			r = compare_check(rc, rs);
			if (r < 0)
				return r;
		}
		rd->changed |= rc->changed;
	}
	return 0;
}

void resultdiff_release(struct resultdiff *rd)
{
	size_t k, f;

	for (k = 0; k < rd->nr; k++) {
		struct resultdiff_check *rc = &rd->checks[k];

		warning_set_release(&rc->new_warnings);
		warning_set_release(&rc->fixed_warnings);
		lint_report_release(&rc->new_findings);
		lint_report_release(&rc->gone_findings);
		for (f = 0; f < rc->nr_flips; f++)
			free(rc->flips[f].path);
		free(rc->flips);
	}
	free(rd->checks);
	memset(rd, 0, sizeof(*rd));
}

/* ---- as text ---- */

static void line_begin(struct strbuf *out, const char *prefix,
		       const struct check *c)
{
	strbuf_addf(out, "%s%s: ", prefix, c->name);
}

static void warnings_text(struct strbuf *out, const char *prefix,
			  const struct check *c, const struct warning_set *ws,
			  char sign)
{
	size_t w;

	for (w = 0; w < ws->nr; w++) {
		line_begin(out, prefix, c);
		strbuf_addf(out, "%c1 warning: %s\n", sign, ws->items[w]);
	}
}

static void findings_text(struct strbuf *out, const char *prefix,
			  const struct check *c, const struct lint_report *lr,
			  char sign)
{
	size_t i;

	for (i = 0; i < lr->nr; i++) {
		const struct lint_finding *f = &lr->items[i];

		line_begin(out, prefix, c);
		strbuf_addf(out, "%c%s: %s", sign, f->severity, f->message);
		if (*f->file)
			strbuf_addf(out, " (%s)", f->file);
		strbuf_addch(out, '\n');
	}
}

static void flips_text(struct strbuf *out, const char *prefix,
		       const struct resultdiff_check *rc)
{
	size_t i;

	for (i = 0; i < rc->nr_flips; i++) {
		const struct resultdiff_flip *f = &rc->flips[i];

		line_begin(out, prefix, rc->check);
		strbuf_addf(out, "%s: %s -> %s\n", f->path,
			    f->a ? f->a : "(none)", f->b ? f->b : "(none)");
	}
}

/* A bench cell against its base: "+6.2% *", or its mean without one. */
static void against_base(struct strbuf *out, const struct grid_cell *cell)
{
	if (cell->have_cmp) {
		grid_pct(out, cell->cmp.gain_pct);
		strbuf_addstr(out, grid_verdict_mark(&cell->cmp));
	}
	else if (cell->nr_samples)
		strbuf_addf(out, "%.2f", stats_mean(cell->samples,
						     cell->nr_samples));
	else
		strbuf_addstr(out, result_status_name(cell->res.status));
}

static void bench_text(struct strbuf *out, const char *prefix,
		       const struct resultdiff_check *rc, int va, int vb)
{
	const struct stats_comparison *d = &rc->direct;

	line_begin(out, prefix, rc->check);
	against_base(out, rc->a);
	strbuf_addstr(out, " -> ");
	against_base(out, rc->b);
	strbuf_addstr(out, " against the base");
	if (rc->have_direct) {
		strbuf_addf(out, "; v%d against v%d: ", vb, va);
		grid_pct(out, d->gain_pct);
		strbuf_addf(out, "%s, %s", grid_verdict_mark(d),
			    stats_verdict_name(d->verdict));
		if (d->runs_needed > 0)
			strbuf_addf(out, " (%d runs a side needed)",
				    d->runs_needed);
	}
	strbuf_addch(out, '\n');
}

/* "FAIL -> PASS", or the summaries when the status is the same. */
static void status_text(struct strbuf *out, const char *prefix,
			const struct resultdiff_check *rc)
{
	const struct result *a = &rc->a->res, *b = &rc->b->res;

	line_begin(out, prefix, rc->check);
	if (a->status != b->status)
		strbuf_addf(out, "%s -> %s\n", result_status_name(a->status),
			    result_status_name(b->status));
	else
		strbuf_addf(out, "%s -> %s\n", a->summary ? a->summary : "",
			    b->summary ? b->summary : "");
}

static void check_text(struct strbuf *out, const char *prefix,
		       const struct resultdiff_check *rc, int va, int vb)
{
	const struct check *c = rc->check;
	int details;

	if (!rc->a || !rc->b) {
		line_begin(out, prefix, c);
		strbuf_addf(out, "not run in v%d\n", rc->a ? vb : va);
		return;
	}
	if (check_kind_ops(c->kind)->results == KIND_RESULTS_SAMPLES &&
	    rc->a->nr_samples && rc->b->nr_samples) {
		bench_text(out, prefix, rc, va, vb);
		return;
	}
	details = rc->new_warnings.nr || rc->fixed_warnings.nr ||
		  rc->new_findings.nr || rc->gone_findings.nr ||
		  rc->nr_flips;
	if (rc->a->res.status != rc->b->res.status || !details)
		status_text(out, prefix, rc);
	warnings_text(out, prefix, c, &rc->fixed_warnings, '-');
	warnings_text(out, prefix, c, &rc->new_warnings, '+');
	findings_text(out, prefix, c, &rc->gone_findings, '-');
	findings_text(out, prefix, c, &rc->new_findings, '+');
	flips_text(out, prefix, rc);
}

void resultdiff_format(const struct resultdiff *rd, int va, int vb,
		       const char *prefix, struct strbuf *out)
{
	size_t k;

	if (!rd->any_a && !rd->any_b)
		return;
	if (!rd->any_a || !rd->any_b) {
		strbuf_addf(out, "%snot checked in v%d\n", prefix,
			    rd->any_a ? vb : va);
		return;
	}
	if (!rd->changed) {
		strbuf_addf(out, "%sunchanged\n", prefix);
		return;
	}
	for (k = 0; k < rd->nr; k++)
		if (rd->checks[k].changed)
			check_text(out, prefix, &rd->checks[k], va, vb);
}

/* ---- as JSON ---- */

static void json_comparison(struct json *j, const struct stats_comparison *c)
{
	grid_comparison_json(j, c);
}

static void json_side(struct json *j, const char *key,
		      const struct resultdiff_check *rc,
		      const struct grid_cell *cell)
{
	json_key(j, key);
	if (!cell) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_string_member(j, "status", result_status_name(cell->res.status));
	json_string_member(j, "summary", cell->res.summary);
	if (check_kind_ops(rc->check->kind)->results == KIND_RESULTS_SAMPLES) {
		json_int_member(j, "runs", (int64_t)cell->nr_samples);
		if (cell->nr_samples) {
			json_key(j, "mean");
			json_double(j, stats_mean(cell->samples,
						  cell->nr_samples));
		}
		if (cell->have_cmp) {
			json_key(j, "against_base");
			json_object_begin(j);
			json_comparison(j, &cell->cmp);
			json_object_end(j);
		}
	}
	json_object_end(j);
}

static void json_findings(struct json *j, const char *key,
			  const struct lint_report *lr)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < lr->nr; i++) {
		json_object_begin(j);
		json_string_member(j, "severity", lr->items[i].severity);
		json_string_member(j, "type", lr->items[i].type);
		json_string_member(j, "file", lr->items[i].file);
		json_string_member(j, "message", lr->items[i].message);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_flips(struct json *j, const struct resultdiff_check *rc)
{
	size_t i;

	json_key(j, "flipped");
	json_array_begin(j);
	for (i = 0; i < rc->nr_flips; i++) {
		json_object_begin(j);
		json_string_member(j, "path", rc->flips[i].path);
		json_string_member(j, "a", rc->flips[i].a);
		json_string_member(j, "b", rc->flips[i].b);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_check(struct json *j, const struct resultdiff_check *rc)
{
	enum check_kind kind = rc->check->kind;
	enum kind_results results = check_kind_ops(kind)->results;

	json_key(j, rc->check->name);
	json_object_begin(j);
	json_string_member(j, "kind", check_kind_name(kind));
	json_bool_member(j, "changed", rc->changed);
	json_side(j, "a", rc, rc->a);
	json_side(j, "b", rc, rc->b);
	if (rc->check->guest) {
		warning_set_json(j, "new_runtime_warnings", &rc->new_warnings);
		warning_set_json(j, "fixed_runtime_warnings",
				 &rc->fixed_warnings);
	}
	if (results == KIND_RESULTS_WARNINGS) {
		warning_set_json(j, "new_warnings", &rc->new_warnings);
		warning_set_json(j, "fixed_warnings", &rc->fixed_warnings);
	} else if (results == KIND_RESULTS_FINDINGS) {
		json_findings(j, "new_findings", &rc->new_findings);
		json_findings(j, "gone_findings", &rc->gone_findings);
	} else if (results == KIND_RESULTS_SUBTESTS) {
		json_flips(j, rc);
	} else if (results == KIND_RESULTS_SAMPLES) {
		json_key(j, "direct");
		if (rc->have_direct) {
			json_object_begin(j);
			json_comparison(j, &rc->direct);
			json_object_end(j);
		} else {
			json_null(j);
		}
	}
	json_object_end(j);
}

void resultdiff_to_json(const struct resultdiff *rd, struct json *j)
{
	size_t k;

	json_object_begin(j);
	json_bool_member(j, "changed", rd->changed);
	json_key(j, "checks");
	json_object_begin(j);
	for (k = 0; k < rd->nr; k++)
		json_check(j, &rd->checks[k]);
	json_object_end(j);
	json_object_end(j);
}
