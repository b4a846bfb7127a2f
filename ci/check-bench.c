// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = bench: a metric per run ("respin-metric: NAME VALUE" or a
 * pattern), every sample stored; the base and the patches run in
 * rounds, in turns, until each patch's comparison with the base's runs
 * of its own span is decided (ci/stats.c) or at the plan's maximum.
 * It schedules itself (run_all), after the other checks, and needs the
 * tree built: the build directory when it holds it, else the tree's
 * kept artifacts, else built again.
 */
#include "ci/kind.h"
#include "ci/artifacts.h"
#include "ci/recipe.h"
#include "ci/guest.h"
#include "ci/stats.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/json.h"
#include "tools/lib/run.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_METRICS_MAX 1024		/* secondary metrics a run */
#define BENCH_METRIC_NAME_MAX 100

/* The metric of one bench run: "respin-metric: NAME VALUE" or pattern. */
static int bench_metric(const struct check *c, const char *text, double *out)
{
	const char *p = text;

	if (c->pattern) {
		regex_t re;
		regmatch_t m[2];
		int r = -1;

		if (regcomp(&re, c->pattern, REG_EXTENDED | REG_NEWLINE))
			return error("bench '%s': the pattern '%s' is not a "
				     "regular expression", c->name, c->pattern);
		if (!regexec(&re, text, 2, m, 0) && m[1].rm_so >= 0) {
			char *v = xstrndup(text + m[1].rm_so,
					   (size_t)(m[1].rm_eo - m[1].rm_so));
			char *end;

			*out = strtod(v, &end);
			r = end != v ? 0 : -1;
			free(v);
		}
		regfree(&re);
		return r;
	}
	while ((p = strstr(p, "respin-metric:"))) {
		const char *q = p + 14;
		size_t n = strlen(c->metric);
		char *end;

		p = q;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, c->metric, n) || (q[n] != ' ' && q[n] != '\t'))
			continue;
		*out = strtod(q + n, &end);
		if (end != q + n)
			return 0;
	}
	return -1;
}

/* A secondary metric's name: short, no blanks or control characters. */
static int metric_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > BENCH_METRIC_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 0;
	return 1;
}

/*
 * The run's secondary metrics: every "respin-metric: NAME VALUE" line
 * but the main metric's (each name once, the first line of it; at most
 * BENCH_METRICS_MAX).  Appends to names (strings of the caller's to
 * free) and vals; returns how many.
 */
static size_t bench_secondary(const struct check *c, const char *text,
			      char ***names, double **vals)
{
	const char *p = text;
	size_t n = 0, alloc = 0, valloc = 0, k, len;

	while ((p = strstr(p, "respin-metric:")) && n < BENCH_METRICS_MAX) {
		const char *q = p + 14, *name;
		char *end;
		double v;
		int dup = 0;

		p = q;
		while (*q == ' ' || *q == '\t')
			q++;
		name = q;
		while (*q && *q != ' ' && *q != '\t' && *q != '\n')
			q++;
		len = (size_t)(q - name);
		if (!metric_name_ok(name, len) || (*q != ' ' && *q != '\t'))
			continue;
		if (!c->pattern && c->metric && strlen(c->metric) == len &&
		    !strncmp(c->metric, name, len))
			continue;
		v = strtod(q, &end);
		if (end == q || !isfinite(v) ||
		    (*end && *end != '\n' && *end != ' ' && *end != '\r'))
			continue;
		for (k = 0; k < n && !dup; k++)
			dup = strlen((*names)[k]) == len &&
			      !strncmp((*names)[k], name, len);
		if (dup)
			continue;
		ALLOC_GROW(*names, n, alloc);
		ALLOC_GROW(*vals, n, valloc);
		(*names)[n] = xstrndup(name, len);
		(*vals)[n] = v;
		n++;
	}
	return n;
}

/*
 * What a run of bench c runs: its command; with a recipe or vmstat,
 * respin-bench-run around it (tools/respin-bench-run.c), which counts
 * where the command runs, so the same string serves a run here and a
 * run in a guest.  0, or an error when the helper is not found.
 */
static int bench_command(const struct check *c, struct strbuf *cmd)
{
	struct strbuf tool = STRBUF_INIT;

	if (!c->recipe && !c->vmstat) {
		strbuf_addstr(cmd, c->command);
		return 0;
	}
	if (respin_tool_path("respin-bench-run", &tool) < 0) {
		strbuf_release(&tool);
		error_clear();
		return error("bench %s: respin-bench-run, which runs a recipe "
			     "or counts /proc/vmstat, is not beside respin "
			     "(BUILD/ or PREFIX/libexec/respin/): make, or "
			     "make install", c->name);
	}
	strbuf_addstr(cmd, "exec ");
	strbuf_add_sq(cmd, tool.buf);
	if (c->vmstat) {
		strbuf_addstr(cmd, " --vmstat ");
		strbuf_add_sq(cmd, c->vmstat);
	}
	if (c->recipe) {
		strbuf_addstr(cmd, " --recipe ");
		strbuf_add_sq(cmd, c->recipe);
	} else {
		strbuf_addstr(cmd, " -- sh -c ");
		strbuf_add_sq(cmd, c->command);
	}
	strbuf_release(&tool);
	return 0;
}

/* The last n lines of text, each indented, into out. */
static void last_lines(struct strbuf *out, const char *text, size_t len,
		       int n)
{
	size_t start = len;

	while (start && text[start - 1] == '\n')
		start--;
	len = start;
	while (start && n) {
		start--;
		if (text[start] == '\n' && !--n) {
			start++;
			break;
		}
	}
	while (start < len) {
		const char *eol = memchr(text + start, '\n', len - start);
		size_t e = eol ? (size_t)(eol - text) : len;

		strbuf_addf(out, "    %.*s\n", (int)(e - start), text + start);
		start = e + 1;
	}
}

/*
 * Position i's tree built for a bench run: the build directory when it
 * holds that tree, else the tree's kept artifacts (run with RESPIN_BUILD
 * there, so a bench never reads another tree's build), else built again.
 */
static int bench_build(struct engine *e, size_t i, const git_oid *tree)
{
	const struct check *b = engine_build_check(e);
	git_oid built;

	e->build_override = NULL;
	if (!b)
		return 0;
	build_marker_read(e, b, &built);
	if (git_oid_equal(&built, tree))
		return 0;
	if (artifacts_have(e->repo, b, tree)) {
		strbuf_reset(&e->artifacts);
		artifacts_dir(e->repo, b, tree, &e->artifacts);
		e->build_override = e->artifacts.buf;
		return 0;
	}
	return build_ensure(e, i, tree);
}

/* One position of a bench: its stored samples, what its runs gave now. */
struct bench_pos {
	size_t pos;		/* 0: the base */
	double *v;		/* every stored sample, in the store's order */
	int64_t *seq;
	size_t nr;
	struct strbuf log;	/* the last run's output */
	double seconds;		/* of the runs taken now */
	int ran;		/* runs taken now */
	int broken;		/* a run gave no value: ERROR, reported */
	int done;		/* decided, or at the plan's maximum */
	int want;		/* runs the next look wants */
	size_t nbase;		/* base samples in its span of runs */
	struct warning_set splats;	/* guest: its kernel's, of the runs now */
};

static int bench_load(struct engine *e, const struct check *c,
		      struct bench_pos *bp)
{
	struct strbuf key = STRBUF_INIT;
	int r = engine_key(e->repo, e->v, c, bp->pos, &key);

	free(bp->v);
	free(bp->seq);
	bp->v = NULL;
	bp->seq = NULL;
	bp->nr = 0;
	if (!r)
		r = results_samples_get_seq(e->rs, c->hash, key.buf, &bp->v,
					    &bp->seq, &bp->nr);
	strbuf_release(&key);
	return r;
}

/*
 * One run of bench c at bp's position, its value stored at once (an
 * interruption keeps what finished).  0 when it gave a value; 1 when it
 * did not (timed out, no metric: an ERROR, reported); <0 errors.
 */
/* Runs cmd at position i (tree), in one boot of its kernel with guest. */
static int bench_exec(struct engine *e, const struct check *c, size_t i,
		      const git_oid *tree, const char *step,
		      struct strbuf *cmd, struct run_result *res)
{
	struct strbuf inner = STRBUF_INIT;

	if (!c->guest)
		return engine_exec(e, c, i, tree, step, cmd->buf, c->timeout,
				   NULL, 0, res);
	strbuf_addstr(&inner, cmd->buf);
	strbuf_reset(cmd);
	guest_command(e, c, inner.buf, cmd);
	strbuf_release(&inner);
	return engine_exec(e, c, i, tree, step, cmd->buf, guest_timeout(c),
			   NULL, 0, res);
}

/* A run that gave no value (timed out, no metric): why, and a hint. */
static void no_value_report(struct engine *e, const struct check *c,
			    size_t i, const struct run_result *res)
{
	if (c->recipe && !res->timed_out) {
		engine_report(e, c, i, "ERROR: the recipe %s gave no value; "
			      "the last lines:\n", c->recipe);
		last_lines(&e->report, res->output.buf, res->output.len, 5);
	} else {
		engine_report(e, c, i, "ERROR: %s\n", res->timed_out ?
			      "the run timed out" : "no metric in its output");
	}
	if (!res->timed_out && !c->recipe)
		strbuf_addf(&e->report, "hint: print a line 'respin-metric: "
			    "%s VALUE', or set respin.check.%s.pattern\n",
			    c->metric ? c->metric : "NAME", c->name);
}

static int bench_run_once(struct engine *e, const struct check *c,
			  struct bench_pos *bp)
{
	size_t i = bp->pos;
	struct strbuf key = STRBUF_INIT, cmd = STRBUF_INIT;
	struct guest_run g;
	struct run_result res;
	char what[64], step[32], **names = NULL;
	double value = 0, *vals = NULL;
	size_t nsec = 0, k;
	git_oid tree;
	int r;

	if (run_interrupted())
		return run_error_interrupted();
	r = engine_tree(e->repo, engine_commit(e->v, i), &tree);
	if (r < 0)
		return r;
	r = engine_key(e->repo, e->v, c, i, &key);
	if (!r)
		r = bench_command(c, &cmd);
	engine_running(e, c, i);
	if (!r) {
		engine_step(e, i, c, "checking out");
		r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, i));
	}
	if (!r)
		r = bench_build(e, i, &tree);
	if (r < 0) {
		strbuf_release(&key);
		strbuf_release(&cmd);
		return r;
	}
	snprintf(what, sizeof(what), "run %zu", bp->nr + 1);
	engine_step(e, i, c, what);
	/* the job of the run after the samples stored: found again on resume */
	snprintf(step, sizeof(step), "run-%zu", bp->nr + 1);
	run_result_init(&res);
	memset(&g, 0, sizeof(g));
	run_result_init(&g.cmd);
	r = bench_exec(e, c, i, &tree, step, &cmd, &res);
	e->build_override = NULL;
	if (r < 0)
		goto out;
	bp->ran++;
	bp->seconds += res.seconds;
	strbuf_reset(&bp->log);
	strbuf_add(&bp->log, res.output.buf, res.output.len);
	if (c->guest) {
		size_t w;

		guest_run_parse(&res, &g);
		for (w = 0; w < g.splats.nr; w++)
			warning_set_add(&bp->splats, g.splats.items[w]);
		if (!g.ended) {
			e->errors++;
			bp->broken = 1;
			engine_report(e, c, i, "ERROR: %s (respin-guest exit "
				      "%d); see respin results --log\n",
				      g.runner == 124 || res.timed_out ?
				      "the run timed out in the guest" :
				      g.runner == 123 ? "the guest stopped "
				      "while the run ran" : "the guest did not "
				      "run it", g.runner);
			r = 1;
			goto out;
		}
		/* the metric from what the command printed */
		strbuf_reset(&res.output);
		strbuf_add(&res.output, g.cmd.output.buf, g.cmd.output.len);
	}
	if (res.timed_out || bench_metric(c, res.output.buf, &value) < 0) {
		error_clear();
		e->errors++;
		bp->broken = 1;
		no_value_report(e, c, i, &res);
		r = 1;
		goto out;
	}
	nsec = bench_secondary(c, res.output.buf, &names, &vals);
	r = results_run_add(e->rs, c->hash, key.buf, value,
			    (const char *const *)names, vals, nsec);
	if (!r)
		r = bench_load(e, c, bp);
out:
	for (k = 0; k < nsec; k++)
		free(names[k]);
	free(names);
	free(vals);
	run_result_release(&res);
	guest_run_release(&g);
	strbuf_release(&cmd);
	strbuf_release(&key);
	return r;
}

/*
 * The result of one position: "n=12 mean=100.3", its duration the sum
 * of every run of it; written when it ran, or when none is stored yet.
 */
static int bench_store(struct engine *e, const struct check *c,
		       const struct bench_pos *bp)
{
	struct strbuf key = STRBUF_INIT;
	struct check_job j = { e, c, bp->pos, { { 0 } }, NULL };
	struct check_verdict v = CHECK_VERDICT_INIT;
	struct result old;
	struct warning_set splats = { 0 };
	double seconds = bp->seconds;
	int r = engine_key(e->repo, e->v, c, bp->pos, &key), have = 0;

	if (!r)
		r = results_get(e->rs, c->hash, key.buf, &old);
	if (!r) {
		have = 1;
		seconds += old.duration;
		/* a guest bench: its kernel's warnings of every run */
		if (c->guest)
			warning_set_parse_lines(&splats, old.details ?
						old.details : "");
		result_release(&old);
	} else if (r == RESPIN_ENOTFOUND) {
		r = 0;
	}
	/* a position whose runs gave no value yet has nothing to say */
	if (!r && bp->nr && (bp->ran || !have)) {
		if (c->guest) {
			struct warning_set prev = { 0 };
			size_t w;

			for (w = 0; w < bp->splats.nr; w++)
				warning_set_add(&splats, bp->splats.items[w]);
			warning_set_format(&splats, &v.details);
			r = guest_prev_splats(e, c, bp->pos, &prev);
			if (r > 0)
				guest_report_new(e, c, bp->pos, &splats, &prev);
			r = r < 0 ? r : 0;
			warning_set_release(&prev);
		}
		strbuf_addf(&v.summary, "n=%zu mean=%g", bp->nr,
			    stats_mean(bp->v, bp->nr));
		j.key = key.buf;
		v.status = RESULT_PASS;
		v.seconds = seconds;
		v.log = bp->log.buf;
		v.log_len = bp->log.len;
		r = r < 0 ? r : store_result(&j, &v);
	}
	warning_set_release(&splats);
	strbuf_release(&key);
	check_verdict_release(&v);
	return r;
}

/*
 * Where each patch stands: its base samples (those of its own span of
 * runs), the comparison, and the runs its next look wants (done when
 * none).  1 when some patch wants runs, 0 when none, <0 errors.
 */
static int bench_looks(const struct stats_plan *plan, struct bench_pos *bp,
		       size_t npos, double *window)
{
	struct bench_pos *base = &bp[0];
	size_t j;
	int any = 0;

	for (j = 1; j < npos; j++) {
		struct bench_pos *p = &bp[j];
		struct stats_comparison cmp;
		int have, r;

		if (p->done || p->broken)
			continue;
		p->nbase = stats_window(base->v, base->seq, base->nr, p->seq,
					p->nr, window);
		have = p->nbase && p->nr;
		if (have && (r = stats_compare(window, p->nbase, p->v, p->nr,
					       plan, &cmp)) < 0)
			return r;
		p->want = stats_next_look(plan, p->nbase, p->nr,
					  have ? &cmp : NULL);
		p->done = !p->want;
		any |= !p->done;
	}
	return any;
}

/*
 * Bench c at positions bp[0] (the base) and bp[1..npos-1] (patches):
 * rounds in which the base and every patch that still wants runs take
 * one each, in turn, the order reversed each round (base, 1, 2, then
 * 2, 1, base: ABBA for one patch), so that a drift of the machine falls
 * on every side alike.  The base is shared: it runs while some patch's
 * own span holds fewer base runs than its next look wants; a patch
 * runs while it wants runs itself, or while its span must grow to take
 * in more of the base's.  With no patches, the base takes its first
 * look alone.
 */
static int bench_rounds(struct engine *e, const struct check *c,
			struct bench_pos *bp, size_t npos)
{
	struct stats_plan plan;
	struct bench_pos **order = xcalloc(npos, sizeof(*order));
	double *window = NULL;
	size_t round, j, n;
	int r = 0;

	check_stats_plan(c, &plan);
	if (npos == 1) {
		int want = stats_next_look(&plan, bp[0].nr, bp[0].nr, NULL);

		while (!r && bp[0].nr < (size_t)want)
			r = bench_run_once(e, c, &bp[0]);
	}
	for (round = 0; npos > 1 && r == 0; round++) {
		int base_wanted = 0;

		/* each round adds a run to every patch still going: a bound */
		if (round > 2 * (size_t)plan.max_runs + 8) {
			r = error("bench %s: no decision after %zu rounds of "
				  "%d..%d runs; this is a bug in respin", c->name,
				  round, plan.min_runs, plan.max_runs);
			break;
		}
		window = xrealloc(window, (bp[0].nr + 1) * sizeof(*window));
		r = bench_looks(&plan, bp, npos, window);
		if (r <= 0)
			break;
		r = 0;
		n = 0;
		for (j = 1; j < npos; j++)
			if (!bp[j].done && !bp[j].broken &&
			    bp[j].nbase < (size_t)bp[j].want)
				base_wanted = 1;
		if (base_wanted && round % 2 == 0)
			order[n++] = &bp[0];
		for (j = 1; j < npos; j++) {
			struct bench_pos *p = &bp[round % 2 ? npos - j : j];

			if (!p->done && !p->broken &&
			    (p->nr < (size_t)p->want ||
			     p->nbase < (size_t)p->want))
				order[n++] = p;
		}
		if (base_wanted && round % 2)
			order[n++] = &bp[0];
		for (j = 0; j < n && !r; j++) {
			int got = bench_run_once(e, c, order[j]);

			/* no value from the base: this bench stops here */
			if (got < 0 || (got == 1 && order[j] == &bp[0]))
				r = got;
		}
	}
	free(window);
	free(order);
	stats_plan_release(&plan);
	return r < 0 ? r : 0;
}

/*
 * A bench, once the other checks ran: the base and the patches that
 * apply, in rounds (bench_rounds()).  Counted a position each: run when
 * it got runs now, reused when not.
 */
static int bench_run_all(struct engine *e, const struct check *c)
{
	size_t n = e->v->nr_patches, i, npos = 0;
	struct bench_pos *bp = xcalloc(n + 1, sizeof(*bp));
	int r = 0;

	for (i = 0; i <= n; i++) {
		if (i && e->only >= 0 && (size_t)e->only != i)
			continue;
		bp[npos].pos = i;
		strbuf_init(&bp[npos].log, 0);
		npos++;
	}
	for (i = 0; i < npos && r >= 0; i++)
		r = bench_load(e, c, &bp[i]);
	if (r >= 0)
		r = bench_rounds(e, c, bp, npos);
	for (i = 0; i < npos; i++) {
		if (r >= 0)
			r = bench_store(e, c, &bp[i]);
		if (bp[i].ran)
			e->ran++;
		else
			e->reused++;
		free(bp[i].v);
		free(bp[i].seq);
		strbuf_release(&bp[i].log);
		warning_set_release(&bp[i].splats);
	}
	free(bp);
	return r;
}

int engine_bench_pair(struct engine *e, const struct check *c, size_t a,
		      size_t b)
{
	struct bench_pos bp[2];
	size_t k;
	int r = 0;

	memset(bp, 0, sizeof(bp));
	bp[0].pos = a;
	bp[1].pos = b;
	for (k = 0; k < 2; k++)
		strbuf_init(&bp[k].log, 0);
	for (k = 0; k < 2 && r >= 0; k++)
		r = bench_load(e, c, &bp[k]);
	if (r >= 0)
		r = bench_rounds(e, c, bp, 2);
	for (k = 0; k < 2; k++) {
		if (r >= 0)
			r = bench_store(e, c, &bp[k]);
		if (bp[k].ran)
			e->ran++;
		free(bp[k].v);
		free(bp[k].seq);
		strbuf_release(&bp[k].log);
		warning_set_release(&bp[k].splats);
	}
	engine_step(e, 0, c, NULL);
	return r;
}


static void bench_definition(const struct check *c, struct strbuf *out)
{
	/*
	 * A bench's numbers are the machine's: one that asks for a node
	 * type keeps its samples apart from those of other machines (a
	 * line only when set, so every other hash stays as it was).
	 */
	if (c->constraint)
		strbuf_addf(out, "constraint %s\n", c->constraint);
	/* what a bench records and runs (lines only when set, as above) */
	if (c->vmstat) {
		struct strbuf w = STRBUF_INIT;
		const char *p = c->vmstat;

		strbuf_addstr(out, "vmstat");
		while (strbuf_next_word(&w, &p, " \t"))
			strbuf_addf(out, " %s", w.buf);
		strbuf_addch(out, '\n');
		strbuf_release(&w);
	}
	if (c->recipe)
		strbuf_addf(out, "recipe %s %d\n", c->recipe,
			    recipe_find(c->recipe)->format);
}

/* (kind.h) a bench "speed" reads "respin-metric: speed VALUE" */
static int bench_settle(struct check *c)
{
	if (!c->metric && !c->pattern)
		c->metric = xstrdup(c->name);
	return 0;
}

static void bench_describe_json(const struct check *c, struct json *j)
{
	json_string_member(j, "metric", c->metric);
	json_string_member(j, "pattern", c->pattern);
	json_bool_member(j, "higher", c->higher);
	json_int_member(j, "min_runs", c->min_runs);
	json_int_member(j, "max_runs", c->max_runs);
	if (c->recipe)
		json_string_member(j, "recipe", c->recipe);
	if (c->vmstat)
		json_string_member(j, "vmstat", c->vmstat);
}

const struct check_kind_ops check_bench_ops = {
	.kind = CHECK_BENCH,
	.needs = KIND_NEEDS_BUILD | KIND_ON_BASE | KIND_NEEDS_BASE |
		 KIND_OWN_SCHEDULE | KIND_IN_GUEST,
	.results = KIND_RESULTS_SAMPLES,
	.definition = bench_definition,
	.settle = bench_settle,
	.describe_json = bench_describe_json,
	.run_all = bench_run_all,
};
