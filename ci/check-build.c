// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = build: make in the series' build directory (O=), reused from
 * patch to patch, so make rebuilds only what a patch touched.  A marker
 * says which tree the directory holds; a build cut short starts over;
 * a kernel tree gets a .config first (the user's, else tinyconfig).
 * The warnings are the result's details; a passing build's artifacts
 * are kept by tree (ci/artifacts.c) for the checks that need them.
 */
#include "ci/kind.h"
#include "ci/artifacts.h"
#include "ci/kconfig.h"
#include "ci/warnings.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The marker in the build directory: which tree it holds, and how. */
static void marker_path(struct engine *e, struct strbuf *out)
{
	strbuf_addf(out, "%s/.respin-built", e->wt.build_dir);
}

void build_marker_read(struct engine *e, const struct check *c,
		       git_oid *tree)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;

	memset(tree, 0, sizeof(*tree));
	if (build_chain_marker(e, tree))
		return;		/* the chain's builds judged so far */
	if (build_config_fresh(e) <= 0) {
		/* another .config: another kernel (an error: no tree) */
		error_clear();
		return;
	}
	marker_path(e, &p);
	if (!strbuf_read_file(&text, p.buf) && text.len >= 2 * GIT_OID_HEXSZ &&
	    !strncmp(text.buf + GIT_OID_HEXSZ + 1, c->hash, GIT_OID_HEXSZ)) {
		text.buf[GIT_OID_HEXSZ] = '\0';
		if (git_oid_fromstr(tree, text.buf) < 0)
			memset(tree, 0, sizeof(*tree));
	}
	strbuf_release(&p);
	strbuf_release(&text);
}

static void marker_write(struct engine *e, const struct check *c,
			 const git_oid *tree)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	int fd;

	if (build_chain_built(e, tree)) {
		/* the node builds on: the directory holds a later tree */
		tree = NULL;
	}
	marker_path(e, &p);
	if (!tree) {
		unlink(p.buf);
	} else if ((fd = open(p.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0666)) >= 0) {
		strbuf_add_oid(&text, tree, GIT_OID_HEXSZ);
		strbuf_addf(&text, " %s\n", c->hash);
		/* a short write leaves a marker that reads as none */
		if (write(fd, text.buf, text.len) != (ssize_t)text.len)
			unlink(p.buf);
		close(fd);
	}
	strbuf_release(&p);
	strbuf_release(&text);
}

/*
 * "A build runs here": one cut short (respin killed or interrupted, or
 * the timeout) leaves it behind, and objects whose warnings were never
 * recorded, which make would not build again.
 */
static void cut_path(struct engine *e, struct strbuf *out)
{
	strbuf_addf(out, "%s/.respin-building", e->wt.build_dir);
}

/* After a cut build, the build directory starts over (.config stays). */
int build_was_cut(struct engine *e)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	cut_path(e, &p);
	r = !stat(p.buf, &st);
	strbuf_release(&p);
	return r;
}

const char *build_clean_command(void)
{
	return "find \"$RESPIN_BUILD\" -mindepth 1 -maxdepth 1 "
	       "! -name .config -exec rm -rf -- {} +";
}

/* A step of the build of tree: the chain's when it has it, else run. */
static int build_exec(struct engine *e, const struct check *c, size_t i,
		      const git_oid *tree, const char *step, const char *cmd,
		      double timeout, struct run_result *res,
		      struct strbuf *src)
{
	int r = build_chain_take(e, c, i, tree, step, res, src);

	if (r)
		return r < 0 ? r : 0;
	return engine_exec(e, c, i, tree, step, cmd, timeout, NULL, 0, res);
}

static int start_over_if_cut(struct engine *e, const struct check *c,
			     size_t i, const git_oid *tree, struct strbuf *log)
{
	struct strbuf p = STRBUF_INIT, src = STRBUF_INIT;
	int r = 0, chained = build_chain_has(e, tree, "clean");

	cut_path(e, &p);
	if (chained > 0 || (chained < 0 && build_was_cut(e))) {
		struct run_result res;

		strbuf_addstr(log, "respin: the last build here was cut short; "
			      "building from scratch (the .config stays)\n");
		run_result_init(&res);
		r = build_exec(e, c, i, tree, "clean", build_clean_command(),
			       600, &res, &src);
		if (!r && (!res.exited || res.exit_code))
			r = error("cannot empty %s: %s", e->wt.build_dir,
				  res.output.buf);
		run_result_release(&res);
	}
	if (!r) {
		int fd = open(p.buf, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);

		if (fd < 0)
			r = error_errno("cannot make %s", p.buf);
		else
			close(fd);
	}
	strbuf_release(&p);
	strbuf_release(&src);
	return r;
}

/* Paths that differ between two trees, one a line. */
static int trees_changed(git_repository *repo, const git_oid *a,
			 const git_oid *b, struct strbuf *out)
{
	git_tree *ta = NULL, *tb = NULL;
	int r;

	if (git_tree_lookup(&ta, repo, a) < 0 ||
	    git_tree_lookup(&tb, repo, b) < 0)
		r = error_git("cannot compare trees");
	else
		r = worktree_diff_paths(repo, ta, tb, out);
	git_tree_free(ta);
	git_tree_free(tb);
	return r;
}

/* A kernel tree gets a .config first (a chain's, when it has one). */
static int prepare_config(struct engine *e, const struct check *c, size_t i,
			  const git_oid *tree, struct strbuf *log)
{
	struct strbuf cmd = STRBUF_INIT, src = STRBUF_INIT;
	struct run_result res;
	int chained = build_chain_has(e, tree, "config");
	/* (chained: -1 no chain, 0 a chain without this step, 1 with it) */
	int r = 0, own = chained < 0 ? build_config_command(e, &cmd, log) : 0;

	if (own < 0) {
		strbuf_release(&cmd);
		return own;
	}
	if (!own) {
		if (chained > 0) {
			/* (the node made it already: the log says so) */
			strbuf_addstr(log, "respin: making a .config first\n");
			strbuf_addstr(&cmd, ":");
		} else {
			strbuf_release(&cmd);
			return 0;
		}
	}
	run_result_init(&res);
	r = build_exec(e, c, i, tree, "config", cmd.buf, 600, &res, &src);
	strbuf_add(log, res.output.buf, res.output.len);
	if (!r && (!res.exited || res.exit_code))
		r = error("cannot make a .config in %s", e->wt.build_dir);
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&src);
	return r;
}

const char *build_command(struct engine *e, const struct check *b)
{
	if (b->command)
		return b->command;
	if (engine_file_exists(e->wt.path, "Kconfig"))
		return "make ARCH=x86_64 O=\"$RESPIN_BUILD\" -j$(nproc)";
	return "make O=\"$RESPIN_BUILD\" -j$(nproc)";
}

/*
 * Builds position i: make in the build directory, whatever it holds;
 * warnings the tree carries over from the tree built before are kept
 * (make does not rebuild what did not change), so the result is the
 * same as a build from scratch.
 */
/*
 * What the build directory holds decides what make rebuilds: the
 * warnings of the tree built there before (its stored build) into prev
 * and the files changed since into changed: 1; 0 none known; <0.
 */
static int build_before(struct engine *e, const struct check *c,
			const git_oid *tree, struct warning_set *prev,
			struct strbuf *changed)
{
	struct strbuf key = STRBUF_INIT;
	struct result pr;
	git_oid built;
	int r;

	build_marker_read(e, c, &built);
	if (git_oid_is_zero(&built))
		return 0;
	strbuf_addstr(&key, "tree:");
	strbuf_add_oid(&key, &built, GIT_OID_HEXSZ);
	r = results_get(e->rs, c->hash, key.buf, &pr);
	strbuf_release(&key);
	if (r == RESPIN_ENOTFOUND)
		return 0;
	if (r < 0)
		return r;
	warning_set_parse_lines(prev, pr.details ? pr.details : "");
	result_release(&pr);
	r = trees_changed(e->repo, &built, tree, changed);
	return r < 0 ? r : 1;
}

/*
 * A build that passed keeps its artifacts (respin.check.NAME.artifacts)
 * for the benches; on a node (remote) the chain kept them already.
 */
static void artifacts_after(struct engine *e, const struct check *c,
			    size_t i, const git_oid *tree, int remote)
{
	if (!c->artifacts)
		return;
	if (remote && !artifacts_have(e->repo, c, tree)) {
		/* a chain's node keeps them: it did not */
		e->errors++;
		engine_report(e, c, i, "ERROR: the node kept no artifacts of "
			      "this build (see respin results --log)\n");
	} else if (!remote &&
		   artifacts_keep(e->repo, c, tree, e->wt.build_dir) < 0) {
		/* benches will build this tree again: say why */
		e->errors++;
		engine_report(e, c, i, "ERROR: %s\n", error_last());
		error_clear();
	}
}

static int build_one(struct engine *e, const struct check *c, size_t i,
		     const git_oid *tree, const char *key)
{
	struct check_job j = { e, c, i, { { 0 } }, key };
	struct check_verdict v = CHECK_VERDICT_INIT;
	struct run_result res;
	struct warning_set now = { 0 }, units = { 0 }, prev = { 0 },
			   all = { 0 };
	struct strbuf log = STRBUF_INIT, changed = STRBUF_INIT,
		      src = STRBUF_INIT;
	int r, have_prev = 0;

	git_oid_cpy(&j.tree, tree);
	r = build_before(e, c, tree, &prev, &changed);
	if (r < 0)
		goto out;
	have_prev = r;
	/* from here on the build directory holds no known tree */
	marker_write(e, c, NULL);
	/* (after a cut build there is no marker, so nothing to carry) */
	r = start_over_if_cut(e, c, i, tree, &log);
	if (r < 0)
		goto out;
	r = prepare_config(e, c, i, tree, &log);
	if (r < 0)
		goto out;
	run_result_init(&res);
	r = build_exec(e, c, i, tree, NULL, build_command(e, c), c->timeout,
		       &res, &src);
	if (r < 0) {
		run_result_release(&res);
		goto out;
	}
	strbuf_add(&log, res.output.buf, res.output.len);
	{
		/* kbuild prints the real path of the sources under O= */
		const char *where = src.len ? src.buf : e->wt.path;
		char *real = realpath(where, NULL);

		warnings_parse(&now, &units, res.output.buf, res.output.len,
			       e->wt.build_dir, real ? real : where);
		free(real);
	}
	warnings_carry(&all, have_prev ? &prev : NULL, &now, &units,
		       changed.buf);
	if (res.timed_out) {
		v.status = RESULT_TIMEOUT;
		strbuf_addf(&v.summary, "timeout after %.0fs", c->timeout);
	} else if (res.exited && !res.exit_code) {
		v.status = RESULT_PASS;
		strbuf_addf(&v.summary, "ok, %zu warning%s", all.nr,
			    all.nr == 1 ? "" : "s");
	} else {
		v.status = RESULT_FAIL;
		strbuf_addstr(&v.summary, result_status_name(RESULT_FAIL));
		engine_report(e, c, i, "build failed; the last lines:\n");
		run_tail_lines(&e->report, res.output.buf, res.output.len, 15);
		strbuf_addch(&e->report, '\n');
	}
	warning_set_format(&all, &v.details);
	v.seconds = res.seconds;
	v.log = log.buf;
	v.log_len = log.len;
	r = store_result(&j, &v);
	/*
	 * Only a build that passed and was stored says what the directory
	 * holds: a failed or cut one leaves it in an unknown state.
	 */
	if (!r && v.status == RESULT_PASS) {
		marker_write(e, c, tree);
		artifacts_after(e, c, i, tree, src.len > 0);
	}
	if (!r && v.status != RESULT_TIMEOUT) {
		/* make ran to its end: not cut */
		struct strbuf p = STRBUF_INIT;

		cut_path(e, &p);
		unlink(p.buf);
		strbuf_release(&p);
	}
	run_result_release(&res);
out:
	warning_set_release(&now);
	warning_set_release(&units);
	warning_set_release(&prev);
	warning_set_release(&all);
	strbuf_release(&log);
	check_verdict_release(&v);
	strbuf_release(&changed);
	strbuf_release(&src);
	return r;
}

static int build_run(const struct check_job *j)
{
	return build_one(j->e, j->c, j->i, &j->tree, j->key);
}

static int build_ensure_now(struct engine *e, const struct check *b,
			    size_t i, const git_oid *tree);

int build_ensure(struct engine *e, size_t i, const git_oid *tree)
{
	const struct check *b = engine_build_check(e);
	git_oid built;
	int r;

	if (!b)
		return 0;
	if (build_chain_has(e, tree, NULL) >= 0 && b->artifacts) {
		/*
		 * The chain runs ahead: this tree's kept artifacts, once its
		 * step is judged (though the node kept them already).
		 */
		r = build_chain_has(e, tree, NULL) > 0 ||
		    !artifacts_have(e->repo, b, tree) ?
		    build_ensure_now(e, b, i, tree) : 0;
		if (r >= 0 && artifacts_have(e->repo, b, tree)) {
			strbuf_reset(&e->artifacts);
			artifacts_dir(e->repo, b, tree, &e->artifacts);
			e->build_override = e->artifacts.buf;
		}
		return r;
	}
	build_marker_read(e, b, &built);
	if (git_oid_equal(&built, tree))
		return 0;
	return build_ensure_now(e, b, i, tree);
}

static int build_ensure_now(struct engine *e, const struct check *b,
			    size_t i, const git_oid *tree)
{
	struct strbuf key = STRBUF_INIT;
	int r;

	/* build again: the stored result stays, the tree is needed */
	strbuf_addstr(&key, "tree:");
	strbuf_add_oid(&key, tree, GIT_OID_HEXSZ);
	engine_step(e, i, b, "building for the next check");
	r = build_one(e, b, i, tree, key.buf);
	strbuf_release(&key);
	return r;
}

/* another .config builds another kernel (and another script) */
static void build_definition(const struct check *c, struct strbuf *out)
{
	if (!c->kconfig || !strcmp(c->kconfig, "current"))
		return;
	strbuf_addf(out, "kconfig %s", c->kconfig);
	if (!strcmp(c->kconfig, "tiny-qemu"))
		strbuf_addf(out, " %d", KCONFIG_TINY_FORMAT);
	strbuf_addch(out, '\n');
}

static void build_describe(const struct check *c, struct strbuf *out)
{
	if (c->command)
		strbuf_addstr(out, c->command);
	else if (c->kconfig && !strcmp(c->kconfig, "tiny-qemu"))
		strbuf_addstr(out, "make O=$RESPIN_BUILD -j$(nproc) (a "
			      "tinyconfig for QEMU with the options the "
			      "series' files and the mm selftests need)");
	else
		strbuf_addstr(out, "make O=$RESPIN_BUILD -j$(nproc) (the "
			      "current .config, else tinyconfig)");
}

const struct check_kind_ops check_build_ops = {
	.kind = CHECK_BUILD,
	.needs = KIND_ON_BASE | KIND_NO_RERUN | KIND_BUILDER,
	.results = KIND_RESULTS_WARNINGS,
	.details = KIND_DETAILS_WARNINGS,
	.timeout = 3600,
	.definition = build_definition,
	.describe = build_describe,
	.run = build_run,
	.queue = build_chain_queue,
};
