// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/engine.h"
#include "ci/artifacts.h"
#include "ci/ktap.h"
#include "ci/lint.h"
#include "ci/stats.h"
#include "ci/warnings.h"
#include "patches/email.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"
#include "tools/lib/termsafe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

void engine_init(struct engine *e, git_repository *repo, struct series *s,
		 struct series_version *v, struct check_list *checks,
		 struct results *rs)
{
	memset(e, 0, sizeof(*e));
	e->repo = repo;
	e->s = s;
	e->v = v;
	e->checks = checks;
	e->rs = rs;
	e->only = -1;
	worktree_init(&e->wt, repo, s->name);
	strbuf_init(&e->report, 0);
	strbuf_init(&e->running, 0);
	strbuf_init(&e->artifacts, 0);
}

void engine_release(struct engine *e)
{
	executor_release(&e->exec);
	worktree_release(&e->wt);
	strbuf_release(&e->report);
	strbuf_release(&e->running);
	strbuf_release(&e->artifacts);
}

const git_oid *engine_commit(const struct series_version *v, size_t i)
{
	return i ? &v->patches[i - 1].commit : &v->base;
}

static int tree_of(git_repository *repo, const git_oid *commit, git_oid *out)
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
	git_oid oid;

	if (c->kind == CHECK_LINT) {
		struct strbuf text = STRBUF_INIT;
		int r = engine_patch_text(repo, v, i, &text);

		if (!r)
			git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB);
		strbuf_release(&text);
		if (r < 0)
			return r;
		strbuf_addstr(out, "patch:");
	} else {
		if (tree_of(repo, engine_commit(v, i), &oid) < 0)
			return -1;
		strbuf_addstr(out, "tree:");
	}
	strbuf_addstr(out, oid_short(&oid, GIT_OID_HEXSZ));
	return 0;
}

static int applies_at(const struct engine *e, const struct check *c, size_t i)
{
	if (e->only >= 0 && (size_t)e->only != i) {
		/* a bench on one patch still needs the base to compare */
		return i == 0 && c->kind == CHECK_BENCH;
	}
	if (i > 0)
		return 1;
	switch (c->kind) {
	case CHECK_BUILD:
	case CHECK_BENCH:
		return 1;
	case CHECK_KTAP:
	case CHECK_COMMAND:
		return e->base_too;
	default:
		return 0;
	}
}

static void progress(struct engine *e, size_t i, const struct check *c,
		     const char *what)
{
	time_t now = time(NULL);

	if (!e->progress)
		return;
	struct strbuf line = STRBUF_INIT;
	struct winsize ws;
	size_t cols = 0, k, shown = 0;

	if (!e->started)
		e->started = now;
	strbuf_addf(&line, "[%zu/%zu] %s: %s (%lds)", i, e->v->nr_patches,
		    term_safe(c->name), term_safe(what),
		    (long)(now - e->started));
	/* one line that fits: a wrapped one could not be cleared in place */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1)
		cols = ws.ws_col - 1;
	for (k = 0; cols && k < line.len; k++) {
		if (((unsigned char)line.buf[k] & 0xc0) == 0x80)
			continue;	/* inside a UTF-8 character */
		if (shown++ == cols) {
			strbuf_setlen(&line, k);
			break;
		}
	}
	fprintf(stderr, "\r\033[K%s", line.buf);
	fflush(stderr);
	strbuf_release(&line);
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

/* What the executor's callbacks are told: the engine, the position. */
struct job_note {
	struct engine *e;
	size_t i;
};

/* Says in the series' lock what runs now, for whoever waits for it. */
static void note_group(long group, void *data)
{
	struct job_note *n = data;

	worktree_lock_note(&n->e->wt, n->e->running.buf, group);
}

/* A queued job moved: the progress line says where it stands. */
static void note_state(const char *id, int state, void *data)
{
	struct job_note *n = data;
	char what[96];

	snprintf(n->e->job, sizeof(n->e->job), "%s", id);
	snprintf(what, sizeof(what), "%s (job %s)", state == EXEC_PENDING ?
		 "queued" : exec_state_name(state), id);
	if (n->e->now)
		progress(n->e, n->i, n->e->now, what);
}

/* respin.check.NAME.KEY of the check running now, or NULL. */
static char *now_config(struct engine *e, const char *key)
{
	struct strbuf k = STRBUF_INIT;
	char *v;

	if (!e->now)
		return NULL;
	strbuf_addf(&k, "respin.check.%s.%s", e->now->name, key);
	v = repo_config_string(e->repo, k.buf, NULL);
	strbuf_release(&k);
	return v;
}

/* Runs "sh -c COMMAND" in the worktree with respin's variables. */
static int run_configured(struct engine *e, const char *command, size_t i,
			  const git_oid *tree, double timeout,
			  const char *input, size_t input_len,
			  struct run_result *res)
{
	char *env[8];
	size_t n = 0;
	struct exec_job job = { 0 };
	struct exec_result xr;
	struct executor one = { 0 }, *x = &one;
	struct strbuf name = STRBUF_INIT;
	struct job_note note = { e, i };
	char *partition = NULL, *constraint = NULL;
	git_oid what;
	int r;

	add_env(env, &n, "RESPIN_BUILD=%s", e->build_override ?
		e->build_override : e->wt.build_dir);
	add_env(env, &n, "RESPIN_SRC=%s", e->wt.path);
	add_env(env, &n, "RESPIN_SERIES=%s", e->s->name);
	add_env(env, &n, "RESPIN_PATCH=%zu", i);
	add_env(env, &n, "RESPIN_PATCHES=%zu", e->v->nr_patches);
	add_env(env, &n, "RESPIN_TREE=%s", oid_short(tree, GIT_OID_HEXSZ));
	env[n] = NULL;
	/* one name a command: a queued job is found again by it */
	{
		struct strbuf all = STRBUF_INIT;
		size_t k;

		strbuf_addstr(&all, command);
		for (k = 0; k < n; k++)
			strbuf_addf(&all, "\n%s", env[k]);
		git_odb_hash(&what, all.buf, all.len, GIT_OBJECT_BLOB);
		strbuf_release(&all);
	}
	strbuf_addf(&name, "respin-%s-%s-%zu-%s-%s", e->s->name,
		    e->now ? e->now->name : "", i, oid_short(tree, 12),
		    oid_short(&what, 8));
	job.name = name.buf;
	job.command = command;
	job.env = (const char *const *)env;
	job.cwd = e->wt.path;
	job.git_dir = git_repository_path(e->repo);
	git_oid_cpy(&job.commit, engine_commit(e->v, i));
	job.timeout = timeout;
	job.input = input;
	job.input_len = input_len;
	if (!e->parallel) {
		job.started = note_group;
		job.changed = note_state;
		job.data = &note;
		job.partition = partition = now_config(e, "partition");
		job.constraint = constraint = now_config(e, "constraint");
	}
	exec_result_init(&xr);
	if (e->parallel) {
		/* lint jobs in threads: each its own, here */
		one.ops = &exec_local_ops;
		r = 0;
	} else {
		/* the check's own executor, else respin.executor */
		r = executor_open(e->repo, e->now ? e->now->name : NULL, &one);
	}
	e->job[0] = '\0';
	if (!r)
		r = executor_run(x, &job, &xr);
	if (!r && xr.state != EXEC_DONE) {
		/* not stored, as a timeout: the next respin check runs it */
		xr.run.timed_out = 1;
		if (xr.state != EXEC_TIMEOUT && !e->parallel)
			snprintf(e->lost, sizeof(e->lost), "%s job %s %s",
				 x->ops->name, e->job,
				 exec_state_name(xr.state));
	}
	executor_release(&one);
	if (!r) {
		run_result_release(res);
		*res = xr.run;
		run_result_init(&xr.run);
	}
	exec_result_release(&xr);
	strbuf_release(&name);
	free(partition);
	free(constraint);
	while (n)
		free(env[--n]);
	return r;
}

static int file_exists(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	strbuf_addf(&p, "%s/%s", dir, name);
	r = !stat(p.buf, &st);
	strbuf_release(&p);
	return r;
}

/* The marker in the build directory: which tree it holds, and how. */
static void marker_path(struct engine *e, struct strbuf *out)
{
	strbuf_addf(out, "%s/.respin-built", e->wt.build_dir);
}

static void marker_read(struct engine *e, const struct check *c,
			git_oid *tree)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;

	memset(tree, 0, sizeof(*tree));
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
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	marker_path(e, &p);
	if (!tree) {
		unlink(p.buf);
	} else if ((f = fopen(p.buf, "w"))) {
		fprintf(f, "%s %s\n", oid_short(tree, GIT_OID_HEXSZ), c->hash);
		fclose(f);
	}
	strbuf_release(&p);
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
static int start_over_if_cut(struct engine *e, size_t i, const git_oid *tree,
			     struct strbuf *log)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r = 0;

	cut_path(e, &p);
	if (!stat(p.buf, &st)) {
		const char *cmd = "find \"$RESPIN_BUILD\" -mindepth 1 -maxdepth 1 "
				  "! -name .config -exec rm -rf -- {} +";
		struct run_result res;

		strbuf_addstr(log, "respin: the last build here was cut short; "
			      "building from scratch (the .config stays)\n");
		run_result_init(&res);
		r = run_configured(e, cmd, i, tree, 600, NULL, 0, &res);
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

static void set_result(struct result *res, const struct check *c,
		       const char *key, const char *status,
		       const char *summary, double seconds)
{
	memset(res, 0, sizeof(*res));
	res->check = xstrdup(c->name);
	res->def_hash = xstrdup(c->hash);
	res->key = xstrdup(key);
	res->status = xstrdup(status);
	res->summary = xstrdup(summary);
	res->duration = seconds;
	res->created = (int64_t)time(NULL);
}

/* A kernel tree gets a .config first: the user's, else tinyconfig. */
static int prepare_config(struct engine *e, size_t i, const git_oid *tree,
			  struct strbuf *log)
{
	const char *top = git_repository_workdir(e->repo);
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT, cmd = STRBUF_INIT;
	struct run_result res;
	int r = 0;

	if (!file_exists(e->wt.path, "Kconfig") ||
	    file_exists(e->wt.build_dir, ".config"))
		return 0;
	strbuf_addf(&dst, "%s/.config", e->wt.build_dir);
	if (top && file_exists(top, ".config")) {
		strbuf_addf(&src, "%s.config", top);
		strbuf_addf(&cmd, "cp '%s' \"$RESPIN_BUILD/.config\" && "
			    "make ARCH=x86_64 O=\"$RESPIN_BUILD\" olddefconfig",
			    src.buf);
		strbuf_addf(log, "respin: using the .config of %s\n", top);
	} else {
		strbuf_addstr(&cmd, "make ARCH=x86_64 O=\"$RESPIN_BUILD\" "
			      "tinyconfig");
		strbuf_addstr(log, "respin: no .config: making tinyconfig\n");
	}
	run_result_init(&res);
	r = run_configured(e, cmd.buf, i, tree, 600, NULL, 0, &res);
	strbuf_add(log, res.output.buf, res.output.len);
	if (!r && (!res.exited || res.exit_code))
		r = error("cannot make a .config in %s", e->wt.build_dir);
	run_result_release(&res);
	strbuf_release(&src);
	strbuf_release(&dst);
	strbuf_release(&cmd);
	return r;
}

static const char *default_build_command(struct engine *e)
{
	if (file_exists(e->wt.path, "Kconfig"))
		return "make ARCH=x86_64 O=\"$RESPIN_BUILD\" -j$(nproc)";
	return "make O=\"$RESPIN_BUILD\" -j$(nproc)";
}

static int run_build(struct engine *e, const struct check *c, size_t i,
		     const git_oid *tree, const char *key)
{
	struct run_result res;
	struct warning_set now = { 0 }, units = { 0 }, prev = { 0 },
			   all = { 0 };
	struct strbuf log = STRBUF_INIT, summary = STRBUF_INIT,
		      details = STRBUF_INIT, changed = STRBUF_INIT,
		      prevkey = STRBUF_INIT;
	struct result out;
	git_oid built;
	const char *status;
	int r, have_prev = 0;
	const struct check *was = e->now;

	e->now = c;	/* its commands run where the build check says */
	/* what the build directory holds decides what make rebuilds */
	marker_read(e, c, &built);
	if (!git_oid_is_zero(&built)) {
		struct result pr;

		strbuf_addf(&prevkey, "tree:%s", oid_short(&built, 40));
		r = results_get(e->rs, c->hash, prevkey.buf, &pr);
		if (r < 0 && r != RESPIN_ENOTFOUND)
			goto out;
		if (!r) {
			warning_set_parse_lines(&prev, pr.details ? pr.details : "");
			have_prev = 1;
			result_release(&pr);
			if (trees_changed(e->repo, &built, tree, &changed) < 0) {
				r = -1;
				goto out;
			}
		}
	}
	/* from here on the build directory holds no known tree */
	marker_write(e, c, NULL);
	/* (after a cut build there is no marker, so nothing to carry) */
	r = start_over_if_cut(e, i, tree, &log);
	if (r < 0)
		goto out;
	r = prepare_config(e, i, tree, &log);
	if (r < 0)
		goto out;
	run_result_init(&res);
	r = run_configured(e, c->command ? c->command :
			   default_build_command(e), i, tree, c->timeout,
			   NULL, 0, &res);
	if (r < 0) {
		run_result_release(&res);
		goto out;
	}
	strbuf_add(&log, res.output.buf, res.output.len);
	{
		/* kbuild prints the real path of the sources under O= */
		char *real = realpath(e->wt.path, NULL);

		warnings_parse(&now, &units, res.output.buf, res.output.len,
			       e->wt.build_dir, real ? real : e->wt.path);
		free(real);
	}
	warnings_carry(&all, have_prev ? &prev : NULL, &now, &units,
		       changed.buf);
	if (res.timed_out) {
		status = "TIMEOUT";
		strbuf_addf(&summary, "timeout after %.0fs", c->timeout);
	} else if (res.exited && !res.exit_code) {
		status = "PASS";
		strbuf_addf(&summary, "ok, %zu warning%s", all.nr,
			    all.nr == 1 ? "" : "s");
	} else {
		status = "FAIL";
		strbuf_addstr(&summary, "FAIL");
		strbuf_addstr(&e->report, "");
		strbuf_addf(&e->report, "%s at %zu/%zu: build failed; the "
			    "last lines:\n", c->name, i, e->v->nr_patches);
		run_tail_lines(&e->report, res.output.buf, res.output.len, 15);
		strbuf_addch(&e->report, '\n');
	}
	warning_set_format(&all, &details);
	set_result(&out, c, key, status, summary.buf, res.seconds);
	out.details = strbuf_detach(&details, NULL);
	if (strcmp(status, "TIMEOUT"))
		r = results_put(e->rs, &out, log.buf, log.len);
	/*
	 * Only a build that passed and was stored says what the directory
	 * holds: a failed or cut one leaves it in an unknown state.
	 */
	if (!r && !strcmp(status, "PASS")) {
		marker_write(e, c, tree);
		if (c->artifacts &&
		    artifacts_keep(e->repo, c, tree, e->wt.build_dir) < 0) {
			/* benches will build this tree again: say why */
			e->errors++;
			strbuf_addf(&e->report, "%s at %zu/%zu: ERROR: %s\n",
				    c->name, i, e->v->nr_patches,
				    error_last());
			error_clear();
		}
	}
	if (!r && strcmp(status, "TIMEOUT")) {
		/* make ran to its end: not cut */
		struct strbuf p = STRBUF_INIT;

		cut_path(e, &p);
		unlink(p.buf);
		strbuf_release(&p);
	}
	if (strcmp(status, "PASS"))
		e->failed++;
	result_release(&out);
	run_result_release(&res);
out:
	warning_set_release(&now);
	warning_set_release(&units);
	warning_set_release(&prev);
	warning_set_release(&all);
	strbuf_release(&log);
	strbuf_release(&summary);
	strbuf_release(&details);
	strbuf_release(&changed);
	strbuf_release(&prevkey);
	e->now = was;
	return r;
}

/* The lint command: the configured one or the tree's checkpatch. */
static int lint_command(struct engine *e, const struct check *c, size_t i,
			struct strbuf *cmd)
{
	if (c->command) {
		strbuf_addstr(cmd, c->command);
		return 0;
	}
	if (file_exists(e->wt.path, "scripts/checkpatch.pl")) {
		strbuf_addstr(cmd, "perl scripts/checkpatch.pl --terse "
			      "--show-types --showfile -");
		return 0;
	}
	e->errors++;
	strbuf_addf(&e->report, "%s at %zu/%zu: ERROR: this tree has "
		    "no scripts/checkpatch.pl; set "
		    "respin.check.%s.command to one (e.g. from "
		    "Debian's linux-source package, or the copy "
		    "tools/kernel-tree.sh keeps in "
		    "~/.cache/respin/checkpatch)\n", c->name, i,
		    e->v->nr_patches, c->name);
	return 1;
}

/* Judges and stores what a lint run gave. */
static int lint_finish(struct engine *e, const struct check *c, size_t i,
		       const char *key, struct run_result *res)
{
	struct strbuf summary = STRBUF_INIT, details = STRBUF_INIT;
	struct lint_report lr = { 0 };
	struct result out;
	struct json j;
	const char *status;
	int r = 0;

	lint_parse(&lr, res->output.buf, res->output.len);
	if (res->timed_out) {
		status = "TIMEOUT";
		strbuf_addstr(&summary, "timeout");
	} else if (!res->exited || res->exit_code > 1 ||
		   (res->exit_code == 1 && !lr.nr)) {
		e->errors++;
		strbuf_addf(&e->report, "%s at %zu/%zu: ERROR: the lint "
			    "command failed:\n", c->name, i, e->v->nr_patches);
		run_tail_lines(&e->report, res->output.buf, res->output.len, 5);
		strbuf_addch(&e->report, '\n');
		goto out;
	} else {
		status = lr.errors ? "FAIL" : "PASS";
		lint_summary(&lr, &summary);
	}
	json_init(&j, &details, 0);
	lint_to_json(&lr, &j);
	set_result(&out, c, key, status, summary.buf, res->seconds);
	out.details = strbuf_detach(&details, NULL);
	if (strcmp(status, "TIMEOUT"))
		r = results_put(e->rs, &out, res->output.buf, res->output.len);
	if (strcmp(status, "PASS"))
		e->failed++;
	result_release(&out);
out:
	lint_report_release(&lr);
	strbuf_release(&summary);
	strbuf_release(&details);
	return r;
}

static int run_lint(struct engine *e, const struct check *c, size_t i,
		    const git_oid *tree, const char *key)
{
	struct strbuf text = STRBUF_INIT, cmd = STRBUF_INIT;
	struct run_result res;
	int r;

	r = engine_patch_text(e->repo, e->v, i, &text);
	if (r < 0 || lint_command(e, c, i, &cmd)) {
		strbuf_release(&text);
		strbuf_release(&cmd);
		return r < 0 ? r : 0;
	}
	run_result_init(&res);
	r = run_configured(e, cmd.buf, i, tree, c->timeout, text.buf,
			   text.len, &res);
	if (!r)
		r = lint_finish(e, c, i, key, &res);
	run_result_release(&res);
	strbuf_release(&text);
	strbuf_release(&cmd);
	return r;
}

/*
 * -j N: lint jobs need no build and do not touch the worktree, so they
 * run first, N at a time, each in a thread of its own that waits on its
 * process; their results are judged and stored afterwards, in order.
 */
struct lint_job {
	struct engine *e;
	const struct check *c;
	size_t i;
	git_oid tree;
	struct strbuf key, text, cmd;
	struct run_result res;
	int r;
};

static void *lint_job_run(void *arg)
{
	struct lint_job *lj = arg;

	lj->r = run_configured(lj->e, lj->cmd.buf, lj->i, &lj->tree,
			       lj->c->timeout, lj->text.buf, lj->text.len,
			       &lj->res);
	return NULL;
}

static int lint_in_parallel(struct engine *e)
{
	struct lint_job *jobs = NULL;
	size_t nr = 0, alloc = 0, i, k, start;
	int r = 0;

	for (i = 1; i <= e->v->nr_patches && !r; i++) {
		if (e->only >= 0 && (size_t)e->only != i)
			continue;
		for (k = 0; k < e->checks->nr && !r; k++) {
			const struct check *c = &e->checks->items[k];
			struct lint_job *lj;
			struct result old;

			if (c->kind != CHECK_LINT)
				continue;
			ALLOC_GROW(jobs, nr, alloc);
			lj = &jobs[nr];
			memset(lj, 0, sizeof(*lj));
			lj->e = e;
			lj->c = c;
			lj->i = i;
			strbuf_init(&lj->key, 0);
			strbuf_init(&lj->text, 0);
			strbuf_init(&lj->cmd, 0);
			run_result_init(&lj->res);
			nr++;
			r = engine_key(e->repo, e->v, c, i, &lj->key);
			if (!r)
				r = tree_of(e->repo, engine_commit(e->v, i),
					    &lj->tree);
			if (r < 0)
				break;
			r = results_get(e->rs, c->hash, lj->key.buf, &old);
			if (r < 0 && r != RESPIN_ENOTFOUND)
				break;
			if (!r) {
				e->reused++;
				if (strcmp(old.status, "PASS"))
					e->failed++;
				result_release(&old);
				lj->r = 1;	/* stored already */
				continue;
			}
			r = engine_patch_text(e->repo, e->v, i, &lj->text);
			if (!r && lint_command(e, c, i, &lj->cmd))
				lj->r = 1;	/* no command: reported */
		}
	}
	/* N at a time; the worktree stays where it is meanwhile */
	e->parallel = 1;
	if (!r)
		worktree_lock_note(&e->wt, "lint jobs in parallel", 0);
	for (start = 0; !r && start < nr; start += (size_t)e->jobs) {
		pthread_t *t = xcalloc((size_t)e->jobs, sizeof(*t));
		int *made = xcalloc((size_t)e->jobs, sizeof(*made));

		progress(e, jobs[start].i, jobs[start].c, "running in parallel");
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (!jobs[start + k].r)
				made[k] = !pthread_create(&t[k], NULL,
							  lint_job_run,
							  &jobs[start + k]);
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (made[k])
				pthread_join(t[k], NULL);
		free(t);
		free(made);
		/* a job that could not run (or was interrupted) stops all */
		for (k = 0; k < (size_t)e->jobs && start + k < nr; k++)
			if (jobs[start + k].r < 0 && !r)
				r = jobs[start + k].r;
	}
	e->parallel = 0;
	for (k = 0; k < nr; k++) {
		struct lint_job *lj = &jobs[k];

		if (!r && !lj->r && lj->cmd.len) {
			r = lint_finish(e, lj->c, lj->i, lj->key.buf, &lj->res);
			if (!r)
				e->ran++;
		}
		strbuf_release(&lj->key);
		strbuf_release(&lj->text);
		strbuf_release(&lj->cmd);
		run_result_release(&lj->res);
	}
	free(jobs);
	return r;
}

static int run_command(struct engine *e, const struct check *c, size_t i,
		       const git_oid *tree, const char *key)
{
	struct run_result res;
	struct result out;
	const char *status;
	int r;

	run_result_init(&res);
	r = run_configured(e, c->command, i, tree, c->timeout, NULL, 0, &res);
	if (r < 0) {
		run_result_release(&res);
		return r;
	}
	status = res.timed_out ? "TIMEOUT" :
		 res.exited && !res.exit_code ? "PASS" : "FAIL";
	set_result(&out, c, key, status, !strcmp(status, "PASS") ? "ok" :
		   status, res.seconds);
	if (strcmp(status, "TIMEOUT"))
		r = results_put(e->rs, &out, res.output.buf, res.output.len);
	if (strcmp(status, "PASS")) {
		e->failed++;
		/* name it, with the end of what it printed */
		if (res.timed_out)
			strbuf_addf(&e->report, "%s at %zu/%zu: TIMEOUT after "
				    "%.0f s\n", c->name, i, e->v->nr_patches,
				    c->timeout);
		else if (res.exited)
			strbuf_addf(&e->report, "%s at %zu/%zu: FAIL (exit %d)\n",
				    c->name, i, e->v->nr_patches, res.exit_code);
		else
			strbuf_addf(&e->report, "%s at %zu/%zu: FAIL (signal %d)\n",
				    c->name, i, e->v->nr_patches, res.signal);
		run_tail_lines(&e->report, res.output.buf, res.output.len, 5);
		if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
			strbuf_addch(&e->report, '\n');
	}
	result_release(&out);
	run_result_release(&res);
	return r;
}


static void ktap_cell(const struct ktap_result *kr, struct strbuf *out)
{
	const struct ktap_counts *k = &kr->counts;
	int total = k->pass + k->fail + k->skip + k->todo + k->xfail +
		    k->error + k->missing;

	strbuf_addf(out, "%d/%d", k->pass + k->xfail, total);
	if (k->fail + k->error + k->missing)
		strbuf_addf(out, ", %d failed", k->fail + k->error + k->missing);
	if (k->skip)
		strbuf_addf(out, " (%d skip)", k->skip);
}

static int run_ktap(struct engine *e, const struct check *c, size_t i,
		    const git_oid *tree, const char *key)
{
	struct ktap_result kr;
	struct run_result res;
	struct strbuf summary = STRBUF_INIT, details = STRBUF_INIT;
	struct result out;
	struct json j;
	const char *status;
	int r;

	run_result_init(&res);
	ktap_result_init(&kr);
	r = run_configured(e, c->command, i, tree, c->timeout, NULL, 0, &res);
	if (r < 0)
		goto out;
	r = ktap_parse(res.output.buf, res.output.len, &kr);
	if (res.timed_out) {
		status = "TIMEOUT";
		strbuf_addstr(&summary, "timeout");
	} else if (r == RESPIN_ENOTFOUND) {
		status = "ERROR";
		strbuf_addstr(&summary, "no KTAP");
	} else if (kr.verdict == KTAP_VERDICT_PASS) {
		status = "PASS";
		ktap_cell(&kr, &summary);
	} else if (kr.verdict == KTAP_VERDICT_FAIL) {
		status = "FAIL";
		ktap_cell(&kr, &summary);
	} else {
		status = "ERROR";
		strbuf_addf(&summary, "ERROR: %s", kr.reason ? kr.reason :
			    "broken KTAP");
	}
	r = 0;
	if (strcmp(status, "PASS")) {
		strbuf_addf(&e->report, "%s at %zu/%zu: %s: %s\n", c->name, i,
			    e->v->nr_patches, status, kr.reason ? kr.reason :
			    summary.buf);
		if (!strcmp(status, "ERROR") || !strcmp(status, "TIMEOUT")) {
			e->errors++;
			run_tail_lines(&e->report, res.output.buf,
				       res.output.len, 5);
			strbuf_addch(&e->report, '\n');
			goto out;
		}
		e->failed++;
	}
	json_init(&j, &details, 0);
	ktap_result_to_json(&j, &kr, KTAP_JSON_LEAVES);
	set_result(&out, c, key, status, summary.buf, res.seconds);
	out.details = strbuf_detach(&details, NULL);
	r = results_put(e->rs, &out, res.output.buf, res.output.len);
	result_release(&out);
out:
	ktap_result_release(&kr);
	run_result_release(&res);
	strbuf_release(&summary);
	strbuf_release(&details);
	return r;
}

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

static int ensure_built(struct engine *e, size_t i, const git_oid *tree);

/* The build check that benches need built first, or NULL. */
static const struct check *build_check(const struct engine *e)
{
	size_t k;

	for (k = 0; k < e->checks->nr; k++)
		if (e->checks->items[k].kind == CHECK_BUILD)
			return &e->checks->items[k];
	return NULL;
}

/*
 * Position i's tree built for a bench run: the build directory when it
 * holds that tree, else the tree's kept artifacts (run with RESPIN_BUILD
 * there, so a bench never reads another tree's build), else built again.
 */
static int bench_build(struct engine *e, size_t i, const git_oid *tree)
{
	const struct check *b = build_check(e);
	git_oid built;

	e->build_override = NULL;
	if (!b)
		return 0;
	marker_read(e, b, &built);
	if (git_oid_equal(&built, tree))
		return 0;
	if (artifacts_have(e->repo, b, tree)) {
		strbuf_reset(&e->artifacts);
		artifacts_dir(e->repo, b, tree, &e->artifacts);
		e->build_override = e->artifacts.buf;
		return 0;
	}
	return ensure_built(e, i, tree);
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
static int bench_run_once(struct engine *e, const struct check *c,
			  struct bench_pos *bp)
{
	size_t i = bp->pos;
	struct strbuf key = STRBUF_INIT;
	struct run_result res;
	char what[64];
	git_oid tree;
	double value;
	int r;

	if (run_interrupted())
		return run_error_interrupted();
	if (tree_of(e->repo, engine_commit(e->v, i), &tree) < 0)
		return -1;
	r = engine_key(e->repo, e->v, c, i, &key);
	strbuf_reset(&e->running);
	strbuf_addf(&e->running, "%s at %zu/%zu", c->name, i, e->v->nr_patches);
	if (!r) {
		progress(e, i, c, "checking out");
		r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, i));
	}
	if (!r)
		r = bench_build(e, i, &tree);
	if (r < 0) {
		strbuf_release(&key);
		return r;
	}
	snprintf(what, sizeof(what), "run %zu", bp->nr + 1);
	progress(e, i, c, what);
	e->now = c;
	run_result_init(&res);
	r = run_configured(e, c->command, i, &tree, c->timeout, NULL, 0, &res);
	e->build_override = NULL;
	if (r < 0)
		goto out;
	bp->ran++;
	bp->seconds += res.seconds;
	strbuf_reset(&bp->log);
	strbuf_add(&bp->log, res.output.buf, res.output.len);
	if (res.timed_out || bench_metric(c, res.output.buf, &value) < 0) {
		error_clear();
		e->errors++;
		bp->broken = 1;
		strbuf_addf(&e->report, "%s at %zu/%zu: ERROR: %s\n", c->name,
			    i, e->v->nr_patches, res.timed_out ?
			    "the run timed out" : "no metric in its output");
		if (!res.timed_out)
			strbuf_addf(&e->report, "hint: print a line "
				    "'respin-metric: %s VALUE', or set "
				    "respin.check.%s.pattern\n", c->metric ?
				    c->metric : "NAME", c->name);
		r = 1;
		goto out;
	}
	r = results_samples_add(e->rs, c->hash, key.buf, &value, 1);
	if (!r)
		r = bench_load(e, c, bp);
out:
	run_result_release(&res);
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
	struct strbuf key = STRBUF_INIT, summary = STRBUF_INIT;
	struct result old, out;
	double seconds = bp->seconds;
	int r = engine_key(e->repo, e->v, c, bp->pos, &key), have = 0;

	if (!r)
		r = results_get(e->rs, c->hash, key.buf, &old);
	if (!r) {
		have = 1;
		seconds += old.duration;
		result_release(&old);
	} else if (r == RESPIN_ENOTFOUND) {
		r = 0;
	}
	if (!r && (bp->ran || (!have && bp->nr))) {
		strbuf_addf(&summary, "n=%zu mean=%g", bp->nr,
			    stats_mean(bp->v, bp->nr));
		set_result(&out, c, key.buf, "PASS", summary.buf, seconds);
		r = results_put(e->rs, &out, bp->log.buf, bp->log.len);
		result_release(&out);
	}
	strbuf_release(&key);
	strbuf_release(&summary);
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
		int have;

		if (p->done || p->broken)
			continue;
		p->nbase = stats_window(base->v, base->seq, base->nr, p->seq,
					p->nr, window);
		have = p->nbase && p->nr;
		if (have && stats_compare(window, p->nbase, p->v, p->nr, plan,
					  &cmp) < 0)
			return -1;
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
 * Every bench, once the other checks ran: the base and the patches that
 * apply, in rounds (bench_rounds()).  Counted a position each: run when
 * it got runs now, reused when not.
 */
static int run_benches(struct engine *e)
{
	size_t n = e->v->nr_patches, i, k, npos;
	struct bench_pos *bp = xcalloc(n + 1, sizeof(*bp));
	int r = 0;

	for (k = 0; k < e->checks->nr && r >= 0; k++) {
		const struct check *c = &e->checks->items[k];

		if (c->kind != CHECK_BENCH)
			continue;
		npos = 0;
		for (i = 0; i <= n; i++) {
			if (i && e->only >= 0 && (size_t)e->only != i)
				continue;
			memset(&bp[npos], 0, sizeof(*bp));
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
		}
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
	}
	if (e->progress)
		fputs("\r\033[K", stderr);
	return r;
}

/* Does check c need the tree of position i built first? */
static int needs_build(const struct check *c)
{
	return c->kind == CHECK_KTAP || c->kind == CHECK_BENCH;
}

static int ensure_built(struct engine *e, size_t i, const git_oid *tree)
{
	size_t k;

	for (k = 0; k < e->checks->nr; k++) {
		const struct check *b = &e->checks->items[k];
		struct strbuf key = STRBUF_INIT;
		git_oid built;
		int r;

		if (b->kind != CHECK_BUILD)
			continue;
		marker_read(e, b, &built);
		if (git_oid_equal(&built, tree))
			return 0;
		/* build again: the stored result stays, the tree is needed */
		strbuf_addf(&key, "tree:%s", oid_short(tree, 40));
		progress(e, i, b, "building for the next check");
		r = run_build(e, b, i, tree, key.buf);
		strbuf_release(&key);
		return r;
	}
	return 0;
}

static int run_one(struct engine *e, const struct check *c, size_t i,
		   const git_oid *tree, const char *key);

int engine_run(struct engine *e)
{
	size_t i, k, n = e->v->nr_patches;
	int r = 0;

	if (series_version_mail_only(e->v))
		return error("%s v%d was recorded from mail only; apply it "
			     "first ('respin import %s@v%d --base REF')",
			     e->s->name, e->v->number, e->s->name,
			     e->v->number);
	if (e->jobs > 1) {
		/* the worktree must exist for the tree's checkpatch */
		r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, 0));
		if (!r)
			r = lint_in_parallel(e);
		if (r < 0)
			return r;
	}
	for (i = 0; i <= n && r >= 0; i++) {
		git_oid tree;

		if (tree_of(e->repo, engine_commit(e->v, i), &tree) < 0)
			return -1;
		for (k = 0; k < e->checks->nr && r >= 0; k++) {
			const struct check *c = &e->checks->items[k];
			struct strbuf key = STRBUF_INIT;
			struct result old;

			if (!applies_at(e, c, i))
				continue;
			if (c->kind == CHECK_LINT && e->jobs > 1)
				continue;	/* done by lint_in_parallel() */
			if (c->kind == CHECK_BENCH)
				continue;	/* done by run_benches() */
			if (run_interrupted()) {
				r = run_error_interrupted();
				break;
			}
			r = engine_key(e->repo, e->v, c, i, &key);
			if (r < 0)
				break;
			r = results_get(e->rs, c->hash, key.buf, &old);
			if (r < 0 && r != RESPIN_ENOTFOUND) {
				strbuf_release(&key);
				break;
			}
			if (!r && ((e->rerun && c->kind != CHECK_BUILD) ||
				   !strcmp(old.status, "ERROR"))) {
				/*
				 * again: the new result replaces it (an ERROR
				 * is no verdict, such as a job cancelled)
				 */
				result_release(&old);
				r = RESPIN_ENOTFOUND;
			}
			if (!r) {
				e->reused++;
				if (strcmp(old.status, "PASS")) {
					e->failed++;
					strbuf_addf(&e->report, "%s at %zu/%zu: "
						    "%s%s%s (stored, not run "
						    "again)\n", c->name, i,
						    e->v->nr_patches, old.status,
						    old.summary && strcmp(old.summary,
						    old.status) ? ": " : "",
						    old.summary && strcmp(old.summary,
						    old.status) ? old.summary : "");
				}
				result_release(&old);
				strbuf_release(&key);
				continue;
			}
			r = run_one(e, c, i, &tree, key.buf);
			strbuf_release(&key);
		}
	}
	if (r >= 0)
		r = run_benches(e);
	if (e->progress)
		fputs("\r\033[K", stderr);
	return r;
}

/*
 * The job of check c at i ended with no verdict (cancelled, preempted,
 * its node failed, lost): what its runner made of it (a timeout) is
 * replaced by an ERROR naming the job, stored so that results show it;
 * an ERROR is run again by the next respin check.
 */
static int record_lost(struct engine *e, const struct check *c, size_t i,
		       const char *key, size_t mark, size_t failed,
		       size_t errors)
{
	struct result out;
	int r;

	strbuf_setlen(&e->report, mark);
	e->failed = failed;
	e->errors = errors + 1;
	strbuf_addf(&e->report, "%s at %zu/%zu: ERROR: %s; the next respin "
		    "check runs it again\n", c->name, i, e->v->nr_patches,
		    e->lost);
	set_result(&out, c, key, "ERROR", e->lost, 0);
	r = results_put(e->rs, &out, e->lost, strlen(e->lost));
	result_release(&out);
	e->lost[0] = '\0';
	return r;
}

static int run_one(struct engine *e, const struct check *c, size_t i,
		   const git_oid *tree, const char *key)
{
	size_t mark = e->report.len, failed = e->failed, errors = e->errors;
	int r;

	strbuf_reset(&e->running);
	strbuf_addf(&e->running, "%s at %zu/%zu", c->name, i, e->v->nr_patches);
	progress(e, i, c, "checking out");
	r = worktree_checkout(e->repo, &e->wt, engine_commit(e->v, i));
	if (r < 0)
		return r;
	if (needs_build(c)) {
		r = ensure_built(e, i, tree);
		if (r < 0)
			return r;
	}
	progress(e, i, c, "running");
	e->now = c;
	e->lost[0] = '\0';
	switch (c->kind) {
	case CHECK_BUILD:
		r = run_build(e, c, i, tree, key);
		break;
	case CHECK_LINT:
		r = run_lint(e, c, i, tree, key);
		break;
	case CHECK_COMMAND:
		r = run_command(e, c, i, tree, key);
		break;
	case CHECK_KTAP:
		r = run_ktap(e, c, i, tree, key);
		break;
	case CHECK_BENCH:
		r = error("bench %s runs in run_benches()", c->name);
		break;
	}
	if (!r && e->lost[0])
		r = record_lost(e, c, i, key, mark, failed, errors);
	if (!r)
		e->ran++;
	return r;
}
