// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scheduler: which check runs at which position, what is reused,
 * the worktree and the build a check needs, the executor each check's
 * commands go through, and storing a verdict (the lint jobs of -j in
 * threads: ci/parallel.c; the jobs queued ahead on a cluster:
 * ci/queue-ahead.c).  What a kind runs and how it is judged is
 * its own file (ci/check-KIND.c, behind ci/kind.h).
 */
#include "ci/engine-run.h"
#include "ci/guest.h"
#include "ci/parallel.h"
#include "ci/queue-ahead.h"
#include "patches/email.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct check_kind_ops *const kinds[] = {
	&check_build_ops,
	&check_lint_ops,
	&check_ktap_ops,
	&check_bench_ops,
	&check_command_ops,
	&check_sparse_ops,
	&check_w1_ops,
	&check_kdoc_ops,
	&check_cocci_ops,
	&check_kselftest_ops,
};

const struct check_kind_ops *check_kind_ops(enum check_kind k)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i]->kind == k)
			return kinds[i];
	return NULL;
}

void engine_init(struct engine *e, git_repository *repo, struct series *s,
		 struct series_version *v, struct check_list *checks,
		 struct results *rs)
{
	const struct check *b;

	memset(e, 0, sizeof(*e));
	e->repo = repo;
	e->s = s;
	e->v = v;
	e->checks = checks;
	e->rs = rs;
	e->only = -1;
	worktree_init(&e->wt, repo, s->name);
	b = engine_build_check(e);
	if (b && b->kconfig && strcmp(b->kconfig, "current"))
		worktree_build_variant(&e->wt, repo, b->kconfig);
	strbuf_init(&e->report, 0);
	strbuf_init(&e->running, 0);
	strbuf_init(&e->artifacts, 0);
}

void engine_release(struct engine *e)
{
	size_t k;

	build_chain_release(e);
	build_config_release(e);
	for (k = 0; k < e->nr_execs; k++)
		executor_release(&e->execs[k]);
	free(e->execs);
	worktree_release(&e->wt);
	strbuf_release(&e->report);
	strbuf_release(&e->running);
	strbuf_release(&e->artifacts);
}

const git_oid *engine_commit(const struct series_version *v, size_t i)
{
	return i ? &v->patches[i - 1].commit : &v->base;
}

int engine_tree(git_repository *repo, const git_oid *commit, git_oid *out)
{
	git_commit *c = NULL;

	if (git_commit_lookup(&c, repo, commit) < 0)
		return error_git("cannot read commit %s", oid_short(commit, 12));
	git_oid_cpy(out, git_commit_tree_id(c));
	git_commit_free(c);
	return 0;
}

int engine_patch_text(git_repository *repo, const struct series_version *v,
		      size_t i, struct strbuf *out)
{
	struct email_options eo = { 0 };
	struct strbuf mail = STRBUF_INIT;
	git_commit *c = NULL;
	const char *nl;
	int r;

	if (git_commit_lookup(&c, repo, &v->patches[i - 1].commit) < 0)
		return error_git("cannot read patch %zu", i);
	eo.prefix = "PATCH";
	eo.index = i;
	eo.total = v->nr_patches;
	r = email_from_commit(repo, c, &eo, &mail);
	git_commit_free(c);
	if (r < 0) {
		strbuf_release(&mail);
		return r;
	}
	/* the "From <commit>" line changes with every rebase: drop it */
	nl = strchr(mail.buf, '\n');
	strbuf_addstr(out, nl ? nl + 1 : mail.buf);
	strbuf_release(&mail);
	return 0;
}

int engine_key(git_repository *repo, const struct series_version *v,
	       const struct check *c, size_t i, struct strbuf *out)
{
	unsigned needs = check_kind_ops(c->kind)->needs;
	git_oid oid;
	int r;

	if ((needs & KIND_KEY_PAIR) && i > 0) {
		/* "trees:BEFORE:AFTER" */
		r = engine_tree(repo, engine_commit(v, i - 1), &oid);
		if (r < 0)
			return r;
		strbuf_addstr(out, "trees:");
		strbuf_add_oid(out, &oid, GIT_OID_HEXSZ);
		strbuf_addch(out, ':');
		r = engine_tree(repo, engine_commit(v, i), &oid);
		if (r < 0)
			return r;
	} else if (needs & KIND_NEEDS_MAIL) {
		struct strbuf text = STRBUF_INIT;

		r = engine_patch_text(repo, v, i, &text);

		if (!r)
			git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB);
		strbuf_release(&text);
		if (r < 0)
			return r;
		strbuf_addstr(out, "patch:");
	} else {
		r = engine_tree(repo, engine_commit(v, i), &oid);
		if (r < 0)
			return r;
		strbuf_addstr(out, "tree:");
	}
	strbuf_add_oid(out, &oid, GIT_OID_HEXSZ);
	return 0;
}

int engine_file_exists(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	strbuf_addf(&p, "%s/%s", dir, name);
	r = !stat(p.buf, &st);
	strbuf_release(&p);
	return r;
}

int check_is_builder(const struct check *c)
{
	return !!(check_kind_ops(c->kind)->needs & KIND_BUILDER);
}

unsigned check_needs(const struct check *c)
{
	unsigned needs = check_kind_ops(c->kind)->needs;

	/*
	 * In the guest: the position's kernel first, and the base too, so
	 * that the kernel warnings of patch 1 have a reference.
	 */
	if (c->guest)
		needs |= KIND_NEEDS_BUILD | KIND_ON_BASE;
	return needs;
}

int engine_applies(const struct engine *e, const struct check *c, size_t i)
{
	unsigned needs = check_needs(c);

	if (e->only >= 0 && (size_t)e->only != i) {
		/* a bench on one patch still needs the base to compare */
		return i == 0 && (needs & KIND_NEEDS_BASE);
	}
	if (i > 0)
		return 1;
	if (needs & KIND_ON_BASE)
		return 1;
	return (needs & KIND_ON_BASE_TOO) && e->base_too;
}

void engine_progress_text(const struct engine_progress *p,
			  struct strbuf *out)
{
	strbuf_addf(out, "[%zu/%zu] %s: %s (%lds)", p->i, p->n, p->check,
		    p->what ? p->what : "done", p->elapsed);
}

void engine_step(struct engine *e, size_t i, const struct check *c,
		 const char *what)
{
	struct engine_progress p;
	time_t now;

	if (!e->progress)
		return;
	now = time(NULL);
	if (!e->started)
		e->started = now;
	p.i = i;
	p.n = e->v->nr_patches;
	p.check = c ? c->name : "";
	p.what = what;
	p.elapsed = (long)(now - e->started);
	e->progress(&p, e->progress_data);
}

void engine_running(struct engine *e, const struct check *c, size_t i)
{
	strbuf_reset(&e->running);
	strbuf_addf(&e->running, "%s at %zu/%zu", c->name, i, e->v->nr_patches);
}

void engine_report(struct engine *e, const struct check *c, size_t i,
		   const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(&e->report, "%s at %zu/%zu: ", c->name, i,
		    e->v->nr_patches);
	va_start(ap, fmt);
	strbuf_vaddf(&e->report, fmt, ap);
	va_end(ap);
}

const struct check *engine_build_check(const struct engine *e)
{
	size_t k;

	for (k = 0; k < e->checks->nr; k++)
		if (check_is_builder(&e->checks->items[k]))
			return &e->checks->items[k];
	return e->checks->builder;	/* (--only left it out) */
}

static void add_env(char **env, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_env(char **env, size_t *n, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	env[(*n)++] = strbuf_detach(&sb, NULL);
}

int engine_lock(struct engine *e, int wait, int (*stop)(void))
{
	struct strbuf what = STRBUF_INIT;
	int r;

	strbuf_addf(&what, "respin check %s@v%d", e->s->name, e->v->number);
	r = worktree_lock(&e->wt, what.buf, wait, stop);
	strbuf_release(&what);
	return r;
}

/* Says in the series' lock what runs now, for whoever waits for it. */
static void note_group(long group, void *data)
{
	struct engine_job_note *n = data;

	worktree_lock_note(&n->e->wt, n->e->running.buf, group);
}

void engine_job_state(struct engine *e, const struct check *c, size_t i,
		      const char *id, int state)
{
	char what[96];

	snprintf(e->job, sizeof(e->job), "%s", id);
	snprintf(what, sizeof(what), "%s (job %s)", state == EXEC_PENDING ?
		 "queued" : exec_state_name(state), id);
	engine_step(e, i, c, what);
}

/* A queued job moved: the progress line says where it stands. */
static void note_state(const char *id, int state, void *data)
{
	struct engine_job_note *n = data;

	engine_job_state(n->e, n->c, n->i, id, state);
}

/* (engine-run.h) */
int engine_executor_for(struct engine *e, const struct check *c,
			struct executor *own, struct executor **out)
{
	size_t k;
	int r;

	if (e->parallel) {
		memset(own, 0, sizeof(*own));
		own->ops = &exec_local_ops;
		*out = own;
		return 0;
	}
	if (c < e->checks->items || c >= e->checks->items + e->checks->nr) {
		/* not one of the engine's checks: its own, for this job */
		r = executor_open(e->repo, c->name, own);
		*out = own;
		return r;
	}
	k = (size_t)(c - e->checks->items);
	if (k >= e->nr_execs) {
		e->execs = xrealloc(e->execs, e->checks->nr * sizeof(*e->execs));
		memset(e->execs + e->nr_execs, 0,
		       (e->checks->nr - e->nr_execs) * sizeof(*e->execs));
		e->nr_execs = e->checks->nr;
	}
	if (!e->execs[k].ops) {
		r = executor_open(e->repo, c->name, &e->execs[k]);
		if (r < 0)
			return r;
	}
	*out = &e->execs[k];
	return 0;
}

size_t engine_job_env(struct engine *e, size_t i, const git_oid *tree,
		      char **env)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t n = 0;

	git_oid_tostr(hex, sizeof(hex), tree);
	add_env(env, &n, "RESPIN_BUILD=%s", e->build_override ?
		e->build_override : e->wt.build_dir);
	add_env(env, &n, "RESPIN_SRC=%s", e->wt.path);
	add_env(env, &n, "RESPIN_SERIES=%s", e->s->name);
	add_env(env, &n, "RESPIN_PATCH=%zu", i);
	add_env(env, &n, "RESPIN_PATCHES=%zu", e->v->nr_patches);
	add_env(env, &n, "RESPIN_TREE=%s", hex);
	env[n] = NULL;
	return n;
}

/* (engine-run.h) */
void engine_job_parts_fill(struct engine_job_parts *jp, struct engine *e,
			  const struct check *c, size_t i,
			  const git_oid *tree, const char *step,
			  const char *command, double timeout,
			  const char *input, size_t input_len)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct exec_job *job = &jp->job;

	memset(jp, 0, sizeof(*jp));
	/* threads run this too: no borrowed static buffers here */
	git_oid_tostr(hex, sizeof(hex), tree);
	jp->n = engine_job_env(e, i, tree, jp->env);
	/* stable and unique: (series, check, position, tree, step) */
	strbuf_init(&jp->name, 0);
	strbuf_addf(&jp->name, "respin-%s-%s-%zu-%.12s%s%s", e->s->name,
		    c->name, i, hex, step ? "-" : "", step ? step : "");
	job->name = jp->name.buf;
	job->command = command;
	job->env = (const char *const *)jp->env;
	job->cwd = e->wt.path;
	job->git_dir = git_repository_path(e->repo);
	git_oid_cpy(&job->commit, engine_commit(e->v, i));
	job->input = input;
	job->input_len = input_len;
	job->timeout = timeout;
	job->partition = c->partition;
	job->constraint = c->constraint;
	jp->note.e = e;
	jp->note.c = c;
	jp->note.i = i;
	if (!e->parallel) {
		job->started = note_group;
		job->changed = note_state;
		job->data = &jp->note;
	}
}

void engine_job_parts_release(struct engine_job_parts *jp)
{
	strbuf_release(&jp->name);
	while (jp->n)
		free(jp->env[--jp->n]);
}

int engine_executor(struct engine *e, const struct check *c,
		    struct executor **out)
{
	struct executor own;

	/* the engine's checks: its own, kept open (never own) */
	return engine_executor_for(e, c, &own, out);
}

int engine_exec(struct engine *e, const struct check *c, size_t i,
		const git_oid *tree, const char *step, const char *command,
		double timeout, const char *input, size_t input_len,
		struct run_result *res)
{
	struct engine_job_parts jp;
	struct exec_result xr;
	struct executor own = { 0 }, *x = NULL;
	int r;

	engine_job_parts_fill(&jp, e, c, i, tree, step, command, timeout,
			      input, input_len);
	exec_result_init(&xr);
	if (!e->parallel)
		e->job[0] = '\0';	/* threads touch nothing of the engine's */
	r = engine_executor_for(e, c, &own, &x);
	if (!r && x->ops->queues && !e->parallel)
		e->queued = 1;
	if (!r)
		r = executor_run(x, &jp.job, &xr);
	if (!r && xr.state != EXEC_DONE) {
		/* no verdict: judged as a timeout, recorded as what it was */
		xr.run.timed_out = 1;
		if (xr.state != EXEC_TIMEOUT && !e->parallel)
			snprintf(e->lost, sizeof(e->lost), "%s job %s %s",
				 x->ops->name, e->job, exec_state_name(xr.state));
	}
	if (x == &own)
		executor_release(&own);
	if (!r) {
		run_result_release(res);
		*res = xr.run;
		run_result_init(&xr.run);
	}
	exec_result_release(&xr);
	engine_job_parts_release(&jp);
	return r;
}

void check_verdict_release(struct check_verdict *v)
{
	strbuf_release(&v->summary);
	strbuf_release(&v->details);
}

/*
 * A cluster job that ended with no verdict (cancelled, preempted, its
 * node failed, lost): stored as an ERROR naming the job, so that
 * respin results shows it; reuse() runs a stored ERROR again.
 */
static int store_lost(const struct check_job *j)
{
	struct engine *e = j->e;
	struct result out;
	int r;

	engine_report(e, j->c, j->i, "ERROR: %s; the next respin check runs "
		      "it again\n", e->lost);
	memset(&out, 0, sizeof(out));
	out.check = j->c->name;
	out.def_hash = (char *)j->c->hash;
	out.key = (char *)j->key;
	out.status = RESULT_ERROR;
	out.summary = e->lost;
	out.created = (int64_t)time(NULL);
	r = results_put(e->rs, &out, e->lost, strlen(e->lost));
	e->lost[0] = '\0';
	return r;
}

/* Whether the report has a line about c at i already. */
static int reported(const struct engine *e, const struct check *c, size_t i)
{
	struct strbuf head = STRBUF_INIT;
	const char *p = e->report.buf;
	int found = 0;

	strbuf_addf(&head, "%s at %zu/%zu: ", c->name, i, e->v->nr_patches);
	while (p && *p && !found) {
		found = !strncmp(p, head.buf, head.len);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	strbuf_release(&head);
	return found;
}

int store_result(const struct check_job *j, const struct check_verdict *v)
{
	struct engine *e = j->e;
	struct result out;
	int r;

	/*
	 * Every failure is named in the report, by its check: a kind that
	 * said nothing of it (a lint's "1E 0W") gets its verdict there.
	 */
	if (v->status != RESULT_PASS && v->status != RESULT_SKIP &&
	    !e->lost[0] && !reported(e, j->c, j->i)) {
		const char *st = result_status_name(v->status);

		engine_report(e, j->c, j->i, "%s%s%s\n", st,
			      v->summary.len && strcmp(v->summary.buf, st) ?
			      ": " : "", v->summary.len &&
			      strcmp(v->summary.buf, st) ? v->summary.buf : "");
	}

	switch (v->status) {
	case RESULT_PASS:
	case RESULT_SKIP:
		break;
	case RESULT_FAIL:
		e->failed++;
		break;
	case RESULT_ERROR:
	case RESULT_TIMEOUT:
		e->errors++;
		if (e->lost[0])
			return store_lost(j);
		/* the tool broke, or ran out of time: nothing about the tree */
		return 0;
	}
	memset(&out, 0, sizeof(out));
	out.check = j->c->name;
	out.def_hash = (char *)j->c->hash;
	out.key = (char *)j->key;
	out.status = v->status;
	out.summary = v->summary.buf;
	out.details = v->details.len ? v->details.buf : NULL;
	out.duration = v->seconds;
	out.created = (int64_t)time(NULL);
	r = results_put(e->rs, &out, v->log ? v->log : "", v->log_len);
	return r;
}

/*
 * Whether c at i is stored and stays (not run again): 1, 0 to run, <0
 * a database error: the command stops, never takes it for "not
 * stored".  The stored result into old when wanted.
 */
static int stored(struct engine *e, const struct check *c, const char *key,
		  struct result *old)
{
	struct result r0;
	int r = results_get(e->rs, c->hash, key, &r0);

	if (r == RESPIN_ENOTFOUND)
		return 0;
	if (r < 0)
		return r;
	if ((e->rerun && !(check_kind_ops(c->kind)->needs & KIND_NO_RERUN)) ||
	    r0.status == RESULT_ERROR) {
		/* again: the new result replaces it (an ERROR is no verdict) */
		result_release(&r0);
		return 0;
	}
	if (old)
		*old = r0;
	else
		result_release(&r0);
	return 1;
}

int engine_stored(struct engine *e, const struct check *c, const char *key)
{
	return stored(e, c, key, NULL);
}

/* (engine-run.h) */
int engine_reuse(struct engine *e, const struct check *c, size_t i,
		 const char *key, int quiet)
{
	struct result old;
	const char *status;
	int r = stored(e, c, key, &old);

	if (r <= 0)
		return r < 0 ? r : RESPIN_ENOTFOUND;
	e->reused++;
	status = result_status_name(old.status);
	if (old.status != RESULT_PASS) {
		e->failed++;
		if (!quiet)
			engine_report(e, c, i, "%s%s%s (stored, not run "
				      "again)\n", status, old.summary &&
				      strcmp(old.summary, status) ? ": " : "",
				      old.summary && strcmp(old.summary,
				      status) ? old.summary : "");
	}
	result_release(&old);
	return 0;
}

/* (engine-run.h) */
int engine_judge_and_store(const struct check_job *j,
			   const struct run_result *res)
{
	struct check_verdict v = CHECK_VERDICT_INIT;
	int r = j->c->guest ? guest_judge(j, res, &v) :
		check_kind_ops(j->c->kind)->judge(j, res, &v);

	v.seconds = res->seconds;
	v.log = res->output.buf;
	v.log_len = res->output.len;
	if (!r)
		r = store_result(j, &v);
	check_verdict_release(&v);
	return r;
}

/* A kind's command run for j, then judged and stored. */
static int run_command_kind(const struct check_job *j)
{
	const struct check_kind_ops *ops = check_kind_ops(j->c->kind);
	struct strbuf cmd = STRBUF_INIT, input = STRBUF_INIT;
	struct run_result res;
	int r = ops->command(j, &cmd, &input);

	if (r) {
		if (r > 0)
			j->e->errors++;	/* nothing to run: reported */
		strbuf_release(&cmd);
		strbuf_release(&input);
		return r < 0 ? r : 0;
	}
	if (j->c->guest) {
		/* the same command, in the position's kernel */
		struct strbuf in_guest = STRBUF_INIT;

		guest_command(j->e, j->c, cmd.buf, &in_guest);
		strbuf_reset(&cmd);
		strbuf_add(&cmd, in_guest.buf, in_guest.len);
		strbuf_release(&in_guest);
	}
	run_result_init(&res);
	r = engine_exec(j->e, j->c, j->i, &j->tree, NULL, cmd.buf,
			j->c->guest ? guest_timeout(j->c) : j->c->timeout,
			input.len ? input.buf : NULL, input.len, &res);
	if (!r)
		r = engine_judge_and_store(j, &res);
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&input);
	return r;
}

/* One check at one position: the worktree there, built if it must be. */
static int run_one(struct engine *e, const struct check *c, size_t i,
		   const git_oid *tree, const char *key)
{
	const struct check_kind_ops *ops = check_kind_ops(c->kind);
	struct check_job j = { e, c, i, { { 0 } }, key };
	int r;

	git_oid_cpy(&j.tree, tree);
	engine_running(e, c, i);
	engine_step(e, i, c, "checking out");
	r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, i));
	if (r < 0)
		return r;
	if (check_needs(c) & KIND_NEEDS_BUILD) {
		r = build_ensure(e, i, tree);
		if (r < 0)
			return r;
	}
	engine_step(e, i, c, "running");
	r = ops->run ? ops->run(&j) : run_command_kind(&j);
	e->build_override = NULL;	/* (a chain's kept artifacts) */
	if (!r)
		e->ran++;
	return r;
}

int engine_run(struct engine *e)
{
	size_t i, k, n = e->v->nr_patches;
	int r = 0, ahead = 0;

	if (series_version_mail_only(e->v))
		return error("%s v%d was recorded from mail only; apply it "
			     "first ('respin import %s@v%d --base REF')",
			     e->s->name, e->v->number, e->s->name,
			     e->v->number);
	for (k = 0; k < e->checks->nr && r >= 0 && !ahead; k++)
		if ((r = engine_queues(e, &e->checks->items[k])) > 0)
			ahead = 1;
	/* the worktree must exist for the tree's checkpatch */
	if (r >= 0 && (ahead || e->jobs > 1))
		r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, 0));
	if (!r && ahead)
		r = queue_ahead(e);
	if (!r && e->jobs > 1)
		r = parallel_lint(e);
	if (r < 0)
		return r;
	for (i = 0; i <= n && r >= 0; i++) {
		git_oid tree;
		int t = engine_tree(e->repo, engine_commit(e->v, i), &tree);

		if (t < 0)
			return t;
		for (k = 0; k < e->checks->nr && r >= 0; k++) {
			const struct check *c = &e->checks->items[k];
			unsigned needs = check_needs(c);
			struct strbuf key = STRBUF_INIT;

			if (!engine_applies(e, c, i))
				continue;
			if ((needs & KIND_WORKTREE_FREE) &&
			    parallel_in_threads(e, c))
				continue;	/* done by parallel_lint() */
			if (needs & KIND_OWN_SCHEDULE)
				continue;	/* its run_all, below */
			if (run_interrupted()) {
				r = run_error_interrupted();
				break;
			}
			r = engine_key(e->repo, e->v, c, i, &key);
			if (!r)
				r = engine_reuse(e, c, i, key.buf, 0);
			if (r == RESPIN_ENOTFOUND)
				r = run_one(e, c, i, &tree, key.buf);
			strbuf_release(&key);
		}
	}
	for (k = 0; k < e->checks->nr && r >= 0; k++) {
		const struct check *c = &e->checks->items[k];
		const struct check_kind_ops *ops = check_kind_ops(c->kind);

		if (ops->needs & KIND_OWN_SCHEDULE)
			r = ops->run_all(e, c);
	}
	engine_step(e, 0, NULL, NULL);
	return r;
}
