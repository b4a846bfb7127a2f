// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The builds of a series on an executor that queues (a cluster): one
 * chain, a job that builds every position that needs a build in turn
 * on one node, in one tree and one build directory, so that make
 * rebuilds only what each patch touched, as it does here.  The chain
 * is queued before the first position, with the other checks' jobs;
 * the build check then judges each position as its step ends, in the
 * order it always did (ci/check-build.c), so the warnings a patch adds
 * are attributed as they are locally.
 *
 * While the chain runs ahead, the build directory holds a later tree
 * than the one judged: the marker (what the directory holds) is kept
 * here and written only when the last step is judged; checks that need
 * a position's build (ktap) read its kept artifacts, which the node
 * copies after each step.  Without respin.check.NAME.artifacts such a
 * check would read another tree's build, so there is no chain then
 * (each build is a job of its own, in turn).
 *
 * The chain's name is stable for its steps: an interrupted respin
 * check that plans the same steps finds it again; one that plans
 * others cancels the old chain first (one build directory, one
 * builder).  Its name is kept in the build directory
 * (.respin-chain).
 */
#include "ci/kind.h"
#include "ci/artifacts.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct chain_key {
	git_oid tree;
	const char *step;	/* "clean", "config", NULL: the build */
	int taken;
};

struct build_chain {
	struct executor *x;
	const struct check *b;
	struct exec_job job;
	struct exec_step *steps;
	struct chain_key *keys;
	char **env;		/* ENGINE_ENV a step */
	struct strbuf *cmds;
	size_t nr, taken, alloc;
	struct strbuf name, id;
	git_oid built;		/* the last tree judged built (zero: none) */
	int over;		/* its job ended: nothing more comes */
	struct engine *e;
	size_t i;		/* the position taken now (progress) */
};

static void chain_free(struct build_chain *ch)
{
	size_t k, n;

	for (k = 0; k < ch->nr; k++) {
		for (n = 0; ch->env[k * ENGINE_ENV + n]; n++)
			free(ch->env[k * ENGINE_ENV + n]);
		strbuf_release(&ch->cmds[k]);
	}
	free(ch->env);
	free(ch->cmds);
	free(ch->steps);
	free(ch->keys);
	strbuf_release(&ch->name);
	strbuf_release(&ch->id);
	free(ch);
}

void build_chain_release(struct engine *e)
{
	if (e->chain)
		chain_free(e->chain);
	e->chain = NULL;
}

static void chain_add(struct build_chain *ch, struct engine *e, size_t i,
		      const git_oid *tree, const char *step,
		      const char *command, double timeout)
{
	size_t k = ch->nr;

	if (k >= ch->alloc) {
		ch->alloc = ch->alloc ? 2 * ch->alloc : 16;
		ch->steps = xrealloc(ch->steps, ch->alloc * sizeof(*ch->steps));
		ch->keys = xrealloc(ch->keys, ch->alloc * sizeof(*ch->keys));
		ch->cmds = xrealloc(ch->cmds, ch->alloc * sizeof(*ch->cmds));
		ch->env = xrealloc(ch->env, ch->alloc * ENGINE_ENV *
				   sizeof(*ch->env));
	}
	ch->nr++;
	memset(&ch->steps[k], 0, sizeof(ch->steps[k]));
	memset(&ch->keys[k], 0, sizeof(ch->keys[k]));
	git_oid_cpy(&ch->keys[k].tree, tree);
	ch->keys[k].step = step;
	strbuf_init(&ch->cmds[k], 0);
	if (step || !ch->b->artifacts) {
		strbuf_addstr(&ch->cmds[k], command);
	} else {
		/* the node keeps the artifacts before it moves on */
		strbuf_addf(&ch->cmds[k], "(\n%s\n)\nstatus=$?\n"
			    "if [ $status = 0 ]; then\n\t", command);
		artifacts_keep_command(e->repo, ch->b, tree, &ch->cmds[k]);
		strbuf_addstr(&ch->cmds[k], " ||\n\techo \"respin: cannot keep "
			      "the artifacts of this build\"\nfi\n"
			      "exit $status\n");
	}
	engine_job_env(e, i, tree, &ch->env[k * ENGINE_ENV]);
	git_oid_cpy(&ch->steps[k].commit, engine_commit(e->v, i));
	ch->steps[k].timeout = timeout;
}

/* Whether the chain must build position i (tree) now. */
static int wanted(struct engine *e, const struct check *b, size_t i,
		  const git_oid *tree)
{
	struct strbuf key = STRBUF_INIT;
	size_t k;
	int r = 0;

	strbuf_addstr(&key, "tree:");
	strbuf_add_oid(&key, tree, GIT_OID_HEXSZ);
	if (engine_applies(e, b, i)) {
		r = engine_stored(e, b, key.buf);
		r = r < 0 ? r : !r;
	}
	if (r || !b->artifacts || artifacts_have(e->repo, b, tree))
		goto out;
	/* stored, but a check that needs the build runs there */
	for (k = 0; k < e->checks->nr && !r; k++) {
		const struct check *d = &e->checks->items[k];
		unsigned needs = check_needs(d);

		if (!(needs & KIND_NEEDS_BUILD) || (needs & KIND_OWN_SCHEDULE) ||
		    !engine_applies(e, d, i))
			continue;
		strbuf_reset(&key);
		r = engine_key(e->repo, e->v, d, i, &key);
		if (r < 0)
			break;
		r = engine_stored(e, d, key.buf);
		r = r < 0 ? r : !r;
	}
out:
	strbuf_release(&key);
	return r;
}

/* The chain's name: the series, the check and a hash of its steps. */
static void chain_name(struct build_chain *ch, struct engine *e)
{
	struct strbuf all = STRBUF_INIT;
	git_oid h;
	size_t k;

	strbuf_addstr(&all, ch->b->hash);
	for (k = 0; k < ch->nr; k++) {
		strbuf_add_oid(&all, &ch->steps[k].commit, GIT_OID_HEXSZ);
		strbuf_addf(&all, " %s\n%s\n", ch->keys[k].step ?
			    ch->keys[k].step : "build", ch->cmds[k].buf);
	}
	git_odb_hash(&h, all.buf, all.len, GIT_OBJECT_BLOB);
	strbuf_addf(&ch->name, "respin-%s-%s-chain-%.12s", e->s->name,
		    ch->b->name, oid_short(&h, 12));
	strbuf_release(&all);
}

/* An earlier respin check's chain, cancelled and waited for. */
static int stop_old(struct build_chain *ch, struct engine *e, const char *id)
{
	struct exec_result xr;
	int r;

	engine_step(e, 0, ch->b, "cancelling the build chain of an earlier "
		    "respin check");
	exec_result_init(&xr);
	r = ch->x->ops->cancel(ch->x, id);
	if (!r)
		r = ch->x->ops->poll(ch->x, id, 1, &xr);
	exec_result_release(&xr);
	return r < 0 ? r : 0;
}

static struct build_chain *chain_new(struct engine *e, const struct check *b,
				     struct executor *x)
{
	struct build_chain *ch = xcalloc(1, sizeof(*ch));

	ch->x = x;
	ch->b = b;
	ch->e = e;
	strbuf_init(&ch->name, 0);
	strbuf_init(&ch->id, 0);
	build_marker_read(e, b, &ch->built);
	return ch;
}

/*
 * The steps: every position that wants a build, in order; before the
 * first, the clean of a build cut short (cut) and the .config.
 */
static int plan(struct build_chain *ch, struct engine *e,
		const struct check *b, int cut)
{
	struct strbuf cfg = STRBUF_INIT, log = STRBUF_INIT;
	int r = 0, first = 1, config = build_config_command(e, &cfg, &log);
	size_t i, k;

	if (config < 0)
		r = config;
	for (i = 0; i <= e->v->nr_patches && r >= 0; i++) {
		git_oid tree;

		r = engine_tree(e->repo, engine_commit(e->v, i), &tree);
		if (!r)
			r = wanted(e, b, i, &tree);
		if (r <= 0)
			continue;
		r = 0;
		if (first && cut)
			chain_add(ch, e, i, &tree, "clean",
				  build_clean_command(), 600);
		if (first && config)
			chain_add(ch, e, i, &tree, "config", cfg.buf, 600);
		first = 0;
		chain_add(ch, e, i, &tree, NULL, build_command(e, b),
			  b->timeout);
	}
	strbuf_release(&cfg);
	strbuf_release(&log);
	for (k = 0; k < ch->nr; k++) {
		ch->steps[k].command = ch->cmds[k].buf;
		ch->steps[k].env = (const char *const *)&ch->env[k * ENGINE_ENV];
	}
	if (ch->nr)
		chain_name(ch, e);
	return r < 0 ? r : 0;
}

int build_chain_queue(struct engine *e, const struct check *b)
{
	struct build_chain *ch = NULL;
	struct strbuf file = STRBUF_INIT, old = STRBUF_INIT,
		      old_id = STRBUF_INIT;
	struct executor *x;
	size_t k;
	int r, old_known = 0;

	r = engine_executor(e, b, &x);
	if (r < 0 || !x->ops->poll_step || e->chain)
		return r < 0 ? r : 0;
	for (k = 0; k < e->checks->nr; k++) {
		unsigned needs = check_needs(&e->checks->items[k]);

		if ((needs & KIND_NEEDS_BUILD) &&
		    !(needs & KIND_OWN_SCHEDULE) &&
		    (!b->artifacts || (needs & KIND_BUILD_DIR)))
			return 0;	/* it would read another tree's build */
	}
	strbuf_addf(&file, "%s/.respin-chain", e->wt.build_dir);
	if (!strbuf_read_file(&old, file.buf)) {
		strbuf_rtrim(&old);
		old_known = old.len && !x->ops->lookup(x, old.buf, &old_id);
	}
	/*
	 * A chain still known builds on in the directory: the cut marker
	 * is its own (a respin check killed while it ran), no clean.  The
	 * same steps planned again: it is this chain, found by its name.
	 */
	ch = chain_new(e, b, x);
	r = plan(ch, e, b, build_was_cut(e) && !old_known);
	if (!r && old_known && (!ch->nr || strcmp(old.buf, ch->name.buf))) {
		/* it began with a clean, or has other steps */
		chain_free(ch);
		ch = chain_new(e, b, x);
		r = plan(ch, e, b, 1);
		if (!r && (!ch->nr || strcmp(old.buf, ch->name.buf))) {
			/* one build directory, one builder */
			r = stop_old(ch, e, old_id.buf);
			unlink(file.buf);
		}
	}
	if (!r && ch->nr) {
		ch->job.name = ch->name.buf;
		ch->job.git_dir = git_repository_path(e->repo);
		ch->job.partition = b->partition;
		ch->job.constraint = b->constraint;
		ch->job.steps = ch->steps;
		ch->job.nr_steps = ch->nr;
		r = mkdir_parents(e->wt.build_dir);
	}
	if (!r && ch->nr) {
		FILE *f = fopen(file.buf, "w");

		if (!f || fprintf(f, "%s\n", ch->name.buf) < 0 || fclose(f))
			r = error_errno("cannot write %s", file.buf);
	}
	if (!r && ch->nr) {
		e->queued = 1;
		r = executor_queue(x, &ch->job, &ch->id);
	}
	if (r >= 0 && ch->nr)
		engine_job_state(e, b, 0, ch->id.buf, EXEC_PENDING);
	strbuf_release(&file);
	strbuf_release(&old);
	strbuf_release(&old_id);
	if (r < 0 || !ch->nr) {
		chain_free(ch);
		return r;
	}
	e->chain = ch;
	return 0;
}

/* A chain whose steps are not all judged yet (the rest runs as jobs). */
static int live(struct engine *e)
{
	return e->chain && !e->chain->over && e->chain->taken < e->chain->nr;
}

static long find(struct build_chain *ch, const git_oid *tree,
		 const char *step)
{
	size_t k;

	for (k = 0; k < ch->nr; k++)
		if (!ch->keys[k].taken && git_oid_equal(&ch->keys[k].tree, tree) &&
		    (step ? ch->keys[k].step && !strcmp(ch->keys[k].step, step)
			  : !ch->keys[k].step))
			return (long)k;
	return -1;
}

int build_chain_has(struct engine *e, const git_oid *tree, const char *step)
{
	if (!live(e))
		return -1;
	return find(e->chain, tree, step) >= 0;
}

static void step_state(const char *id, int state, void *data)
{
	struct build_chain *ch = data;

	engine_job_state(ch->e, ch->b, ch->i, id, state);
}

/* The chain has no such step: its end first (one build directory). */
static int finish(struct build_chain *ch)
{
	struct exec_result xr;
	int r;

	exec_result_init(&xr);
	engine_step(ch->e, ch->i, ch->b, "waiting for the build chain to end");
	r = ch->x->ops->poll(ch->x, ch->id.buf, 1, &xr);
	exec_result_release(&xr);
	ch->over = 1;
	return r < 0 ? r : 0;
}

int build_chain_take(struct engine *e, const struct check *b, size_t i,
		     const git_oid *tree, const char *step,
		     struct run_result *res, struct strbuf *src)
{
	struct build_chain *ch = e->chain;
	struct exec_result xr;
	long k;
	int r;

	if (!live(e) || ch->b != b)
		return 0;
	ch->i = i;
	k = find(ch, tree, step);
	if (k < 0)
		return finish(ch);
	ch->job.changed = step_state;
	ch->job.data = ch;
	e->job[0] = '\0';
	exec_result_init(&xr);
	r = executor_wait_step(ch->x, &ch->job, ch->id.buf, (size_t)k, &xr);
	if (r < 0) {
		exec_result_release(&xr);
		return r;
	}
	if (xr.state != EXEC_DONE) {
		/* no verdict: judged as a timeout, recorded as what it was */
		xr.run.timed_out = 1;
		if (xr.state != EXEC_TIMEOUT)
			snprintf(e->lost, sizeof(e->lost), "%s job %s %s",
				 ch->x->ops->name, ch->id.buf,
				 exec_state_name(xr.state));
	}
	run_result_release(res);
	*res = xr.run;
	run_result_init(&xr.run);
	strbuf_add(src, xr.src.buf, xr.src.len);
	exec_result_release(&xr);
	ch->keys[k].taken = 1;
	ch->taken++;
	return 1;
}

int build_chain_marker(struct engine *e, git_oid *tree)
{
	if (!live(e))
		return 0;
	git_oid_cpy(tree, &e->chain->built);
	return 1;
}

int build_chain_built(struct engine *e, const git_oid *tree)
{
	struct build_chain *ch = e->chain;

	if (!live(e))
		return 0;	/* (the last step's judged: the marker file) */
	if (tree)
		git_oid_cpy(&ch->built, tree);
	else
		memset(&ch->built, 0, sizeof(ch->built));
	/* the directory holds the last step's tree once it is judged */
	return 1;
}
