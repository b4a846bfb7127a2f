// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = kselftest: the tree's own selftests (targets = vm ..., each a
 * directory of tools/testing/selftests; vm and mm are one), built from
 * the patch's tree and run in the patch's kernel.  At each position:
 *
 *  1. each target is built into the cache (.git/respin/kselftest/KEY)
 *     unless it has it: KEY hashes the compiler, the way, the git trees
 *     the build reads (the way's paths, the target's directory and the
 *     $(top_srcdir)/ files its Makefile names), so a patch touching
 *     none of them builds nothing.  The guest way (the default,
 *     ci/kselftest-guest.c) installs the target as the kernel's
 *     Makefile does; the initramfs way (ci/kselftest-initramfs.c)
 *     builds its TEST_GEN_PROGS static.  Both need the tree's headers,
 *     made in the build directory first (make headers);
 *  2. the way runs the targets in the build's bzImage;
 *  3. the check's KTAP has a test a target: the runner's tests, then
 *     each program that did not build, "not ok N NAME # build failed".
 *
 * The KTAP decides (PASS, FAIL); QEMU missing, a kernel that did not
 * boot, a missing target are ERRORs and the check's timeout a TIMEOUT
 * (none stored).  What a patch adds, removes, breaks or fixes is found
 * by comparing its KTAP with the position before (ci/kselftest.c,
 * shown by ci/grid.c).
 */
#include "ci/kselftest-run.h"
#include "ci/kselftest.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/json.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int in_tree(const char *dir, void *data)
{
	const char *root = data;
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/" KS_SELFTESTS, root);
	r = engine_file_exists(p.buf, dir);
	strbuf_release(&p);
	return r;
}

void ks_runner_path(const struct check *c, const char *name,
		    struct strbuf *out)
{
	if (c->runner)
		strbuf_addstr(out, c->runner);
	else
		respin_tool_path(name, out);	/* or PATH */
}

void ks_runner_check(const struct check *c, const char *runner,
		     struct strbuf *cmd)
{
	strbuf_addstr(cmd,
		"command -v \"${QEMU:-qemu-system-x86_64}\" >/dev/null || { "
		"echo \"respin: ${QEMU:-qemu-system-x86_64} is not installed "
		"(Debian: apt-get install qemu-system-x86, or make deps)\"; "
		"exit 127; }; command -v ");
	strbuf_add_sq(cmd, runner);
	strbuf_addstr(cmd, " >/dev/null || { printf 'respin: no runner %s "
		      "(respin.check.%s.runner)\\n' ");
	strbuf_add_sq(cmd, runner);
	strbuf_addch(cmd, ' ');
	strbuf_add_sq(cmd, c->name);
	strbuf_addstr(cmd, "; exit 127; }; "
		      "err=\"$RESPIN_BUILD/.respin-kselftest.err\"; ");
}

void ks_runner_stderr(struct strbuf *cmd)
{
	strbuf_addstr(cmd, " 2>\"$err\"; rc=$?; sed 's/^/" KS_RUNNER_MARK "/' "
		      "\"$err\"; rm -f \"$err\"; exit $rc");
}

void ks_split_output(const struct run_result *res, struct strbuf *rest,
		     struct strbuf *said)
{
	const char *p = res->output.buf, *end = p + res->output.len;
	size_t mark = sizeof(KS_RUNNER_MARK) - 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n >= mark && !strncmp(p, KS_RUNNER_MARK, mark)) {
			strbuf_add(said, p + mark, n - mark);
			strbuf_addch(said, '\n');
		} else {
			strbuf_add(rest, p, n);
			strbuf_addch(rest, '\n');
		}
		p += n + 1;
	}
}

/* "PATH OID" of path in tree, "PATH -" when it has none. */
static void key_path(git_tree *tree, const char *path, struct strbuf *sb)
{
	git_tree_entry *te = NULL;

	strbuf_addf(sb, "%s ", path);
	if (!git_tree_entry_bypath(&te, tree, path))
		strbuf_add_oid(sb, git_tree_entry_id(te), GIT_OID_HEXSZ);
	else
		strbuf_addch(sb, '-');
	strbuf_addch(sb, '\n');
	git_tree_entry_free(te);
}

/* The files of the tree a target's Makefile names as $(top_srcdir)/X. */
static void key_top_srcdir(git_tree *tree, const char *makefile,
			   struct strbuf *sb)
{
	static const char mark[] = "$(top_srcdir)/";
	const char *p = makefile;
	struct strbuf path = STRBUF_INIT;

	while ((p = strstr(p, mark))) {
		size_t n;

		p += sizeof(mark) - 1;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789_-./");
		strbuf_reset(&path);
		strbuf_add(&path, p, n);
		while (path.len && path.buf[path.len - 1] == '/')
			strbuf_setlen(&path, path.len - 1);
		if (path.len && !strstr(path.buf, ".."))
			key_path(tree, path.buf, sb);
		p += n;
	}
	strbuf_release(&path);
}

/*
 * The compiler the selftests' make uses (lib.mk sets CC to gcc, which
 * the environment does not change): its --version's first line, asked
 * once.  Nodes of a cluster are taken to have the same one.
 */
static const char *compiler_version(void)
{
	static struct strbuf v = STRBUF_INIT;
	static int asked;
	static const char *const argv[] = {
		"gcc", "--version", NULL
	};
	struct run_opts o = { 0 };
	struct run_result res;

	if (asked)
		return v.buf;
	asked = 1;
	o.argv = argv;
	o.timeout = 30;
	run_result_init(&res);
	if (!run_program(&o, &res) && res.exited && !res.exit_code)
		strbuf_add(&v, res.output.buf,
			   strcspn(res.output.buf, "\n"));
	else
		strbuf_addstr(&v, "unknown");
	run_result_release(&res);
	return v.buf;
}

/* Where the builds are kept: .git/respin/kselftest. */
static void programs_root(const struct engine *e, struct strbuf *out)
{
	strbuf_addf(out, "%srespin/kselftest",
		    git_repository_commondir(e->repo));
}

static int target_key(struct engine *e, const struct check_job *j,
		      const struct ks_way *way, struct ks_target *t)
{
	struct strbuf sb = STRBUF_INIT, mk = STRBUF_INIT, p = STRBUF_INIT;
	git_tree *tree = NULL;
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];
	size_t k;

	if (git_tree_lookup(&tree, e->repo, &j->tree) < 0)
		return error_git("cannot read the tree of position %zu", j->i);
	strbuf_addf(&sb, "%s\ntarget %s\ncc %s\n", way->key, t->name,
		    compiler_version());
	strbuf_addf(&p, KS_SELFTESTS "/%s", t->name);
	key_path(tree, p.buf, &sb);
	for (k = 0; k < way->nr_key_paths; k++)
		key_path(tree, way->key_paths[k], &sb);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/" KS_SELFTESTS "/%s/Makefile", e->wt.path, t->name);
	if (!strbuf_read_file(&mk, p.buf))
		key_top_srcdir(tree, mk.buf, &sb);
	git_tree_free(tree);
	git_odb_hash(&oid, sb.buf, sb.len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	programs_root(e, &t->cache);
	strbuf_addf(&t->cache, "/%s", hex);
	strbuf_release(&sb);
	strbuf_release(&mk);
	strbuf_release(&p);
	return 0;
}

static void target_release(struct ks_target *t)
{
	free(t->name);
	strbuf_release(&t->cache);
	strbuf_release(&t->failed);
	strbuf_release(&t->ktap);
}

static int cached(const struct ks_target *t)
{
	return engine_file_exists(t->cache.buf, "failed");
}

/*
 * The builds no check used for KSELFTEST_KEEP_DAYS go: a build is
 * marked used (its directory's time) each time it runs; once a run.
 */
static void prune_program_sets(const struct engine *e)
{
	static int done;
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT;
	time_t old = time(NULL) - (time_t)KSELFTEST_KEEP_DAYS * 86400;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (done)
		return;
	done = 1;
	programs_root(e, &dir);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, de->d_name);
		if (!lstat(p.buf, &st) && S_ISDIR(st.st_mode) &&
		    st.st_mtime < old && remove_tree(p.buf) < 0)
			error_clear();	/* (tried again next time) */
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	strbuf_release(&p);
}

/* Each word of c->targets, found in the tree: 0, or 1 said (ERROR). */
static int find_targets(const struct check_job *j, struct ks_target **out,
			size_t *nr)
{
	struct engine *e = j->e;
	const char *p = j->c->targets;
	struct ks_target *v = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf word = STRBUF_INIT;
	int r = 0;

	while (strbuf_next_word(&word, &p, " \t,")) {
		const char *name = kselftest_resolve(word.buf, in_tree,
						     e->wt.path);

		if (!name) {
			const char *alias = kselftest_alias(word.buf);

			engine_report(e, j->c, j->i, "ERROR: target '%s': the "
				      "tree has no " KS_SELFTESTS "/%s%s%s%s\n",
				      word.buf, word.buf,
				      alias ? " (nor " KS_SELFTESTS "/" : "",
				      alias ? alias : "", alias ? ")" : "");
			r = 1;
			break;
		}
		ALLOC_GROW(v, n, alloc);
		memset(&v[n], 0, sizeof(v[n]));
		v[n].name = xstrdup(name);
		strbuf_init(&v[n].cache, 0);
		strbuf_init(&v[n].failed, 0);
		strbuf_init(&v[n].ktap, 0);
		n++;
	}
	strbuf_release(&word);
	*out = v;
	*nr = n;
	return r;
}

static void target_settings(const struct engine *e, struct ks_target *t)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;

	strbuf_addf(&p, "%s/" KS_SELFTESTS "/%s/settings", e->wt.path,
		    t->name);
	if (strbuf_read_file(&text, p.buf) < 0)
		strbuf_reset(&text);
	t->timeout = kselftest_settings_timeout(text.buf, text.len);
	strbuf_release(&p);
	strbuf_release(&text);
}

void ks_report_tail(struct engine *e, const char *text, size_t len,
		    size_t lines)
{
	run_tail_lines(&e->report, text, len, lines);
	if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
		strbuf_addch(&e->report, '\n');
}

int ks_step_failed(const struct check_job *j, const char *what,
		   const struct run_result *res, double timeout,
		   struct check_verdict *v)
{
	struct engine *e = j->e;

	if (res->timed_out) {
		v->status = RESULT_TIMEOUT;
		strbuf_addf(&v->summary, "timeout after %.0fs", timeout);
		engine_report(e, j->c, j->i, "TIMEOUT after %.0f s %s "
			      "(respin.check.%s.timeout)\n", timeout, what,
			      j->c->name);
		return 1;
	}
	if (res->exited && !res->exit_code)
		return 0;
	v->status = RESULT_ERROR;
	strbuf_addstr(&v->summary, "ERROR");
	if (res->exited)
		engine_report(e, j->c, j->i, "ERROR %s (exit %d); the last "
			      "lines:\n", what, res->exit_code);
	else
		engine_report(e, j->c, j->i, "ERROR %s (signal %d); the last "
			      "lines:\n", what, res->signal);
	ks_report_tail(e, res->output.buf, res->output.len, 10);
	return 1;
}

/*
 * "# respin: STEP: N.N s" for the log (KTAP diagnostics after the
 * tests); one position at a time (the kind never runs in threads).
 */
static struct strbuf step_times = STRBUF_INIT;

int ks_run_timed_out(const struct check_job *j, const char *what,
		     struct check_verdict *v)
{
	v->status = RESULT_TIMEOUT;
	strbuf_addf(&v->summary, "timeout after %.0fs", j->c->timeout);
	engine_report(j->e, j->c, j->i, "TIMEOUT after %.0f s running %s "
		      "(respin.check.%s.timeout)\n", j->c->timeout, what,
		      j->c->name);
	return 1;
}

int ks_run_no_runner(const struct check_job *j, const char *said,
		     struct check_verdict *v)
{
	v->status = RESULT_ERROR;
	strbuf_addstr(&v->summary, "ERROR: no QEMU or no runner");
	engine_report(j->e, j->c, j->i, "ERROR: %s", said);
	return 1;
}

int ks_ktap_passes(const struct strbuf *ktap)
{
	struct ktap_result kr;
	int ok;

	ktap_result_init(&kr);
	ok = !ktap_parse(ktap->buf, ktap->len, &kr) &&
	     kr.verdict == KTAP_VERDICT_PASS;
	error_clear();
	ktap_result_release(&kr);
	return ok;
}

void ks_step_time(const char *what, const struct run_result *res)
{
	strbuf_addf(&step_times, "# respin: %s: %.1f s\n", what, res->seconds);
}

static int install_headers(const struct check_job *j,
			   struct check_verdict *v)
{
	struct run_result res;
	int r;

	engine_step(j->e, j->i, j->c, "making the headers");
	run_result_init(&res);
	r = engine_exec(j->e, j->c, j->i, &j->tree, "headers",
			"make -s ARCH=x86_64 O=\"$RESPIN_BUILD\" "
			"headers", j->c->timeout, NULL, 0, &res);
	ks_step_time("making the headers", &res);
	if (!r && ks_step_failed(j, "making the headers", &res,
				 j->c->timeout, v))
		r = 1;
	v->seconds += res.seconds;
	run_result_release(&res);
	return r;
}

static int build_target(const struct check_job *j, const struct ks_way *way,
			struct ks_target *t, struct check_verdict *v)
{
	struct strbuf cmd = STRBUF_INIT, step = STRBUF_INIT,
		      what = STRBUF_INIT;
	struct run_result res;
	int r;

	strbuf_addf(&what, "%s the %s tests", way->build_verb, t->name);
	engine_step(j->e, j->i, j->c, what.buf);
	way->build_command(t, &cmd);
	strbuf_addf(&step, "build-%s", t->name);
	run_result_init(&res);
	r = engine_exec(j->e, j->c, j->i, &j->tree, step.buf, cmd.buf,
			j->c->timeout, NULL, 0, &res);
	ks_step_time(what.buf, &res);
	if (!r && ks_step_failed(j, what.buf, &res, j->c->timeout, v))
		r = 1;
	v->seconds += res.seconds;
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&step);
	strbuf_release(&what);
	return r;
}

/* The programs that did not build, named with their build log. */
static void read_failed(const struct check_job *j, struct ks_target *t)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/failed", t->cache.buf);
	if (strbuf_read_file(&t->failed, p.buf) < 0)
		strbuf_reset(&t->failed);
	if (t->failed.len) {
		struct strbuf names = STRBUF_INIT;
		size_t k;

		strbuf_add(&names, t->failed.buf, t->failed.len);
		strbuf_rtrim(&names);
		for (k = 0; k < names.len; k++)
			if (names.buf[k] == '\n')
				names.buf[k] = ' ';
		engine_report(j->e, j->c, j->i, "%s: did not build: %s (the "
			      "log: %s/log)\n", t->name, names.buf,
			      t->cache.buf);
		strbuf_release(&names);
	}
	strbuf_release(&p);
}

/* The check's KTAP: a test a target. */
static void whole_ktap(const struct ks_target *v, size_t n,
		       struct strbuf *out)
{
	size_t k;

	strbuf_addf(out, "KTAP version 1\n1..%zu\n", n);
	for (k = 0; k < n; k++) {
		int ok;

		kselftest_block(out, v[k].ktap.buf, v[k].ktap.len,
				v[k].failed.buf);
		ok = !v[k].failed.len && (v[k].ran_ok || !v[k].ktap.len);
		strbuf_addf(out, "%sok %zu %s\n", ok ? "" : "not ", k + 1,
			    v[k].name);
	}
}

static void judge(const struct check_job *j, const struct strbuf *ktap,
		  struct check_verdict *v)
{
	struct ktap_result kr;
	struct json js;

	ktap_result_init(&kr);
	if (ktap_parse(ktap->buf, ktap->len, &kr) < 0) {
		error_clear();
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR: no KTAP");
	} else if (kr.verdict == KTAP_VERDICT_ERROR) {
		v->status = RESULT_ERROR;
		strbuf_addf(&v->summary, "ERROR: %s", kr.reason ? kr.reason :
			    "broken KTAP");
		engine_report(j->e, j->c, j->i, "%s\n", v->summary.buf);
	} else {
		v->status = kr.verdict == KTAP_VERDICT_PASS ? RESULT_PASS :
			    RESULT_FAIL;
		kselftest_cell(&kr, &v->summary);
		if (v->status == RESULT_FAIL)
			engine_report(j->e, j->c, j->i, "FAIL: %s\n",
				      v->summary.buf);
	}
	json_init(&js, &v->details, 0);
	ktap_result_to_json(&js, &kr, KTAP_JSON_LEAVES);
	ktap_result_release(&kr);
}

static int kselftest_run(const struct check_job *j)
{
	const struct ks_way *way = j->c->initramfs ? &ks_way_initramfs :
				   &ks_way_guest;
	struct engine *e = j->e;
	struct check_verdict v = CHECK_VERDICT_INIT;
	struct strbuf ktap = STRBUF_INIT;
	struct ks_target *t = NULL;
	size_t n = 0, k;
	int r, headers = 0;

	strbuf_reset(&step_times);
	r = find_targets(j, &t, &n);
	if (r > 0) {
		v.status = RESULT_ERROR;
		strbuf_addstr(&v.summary, "ERROR: no such target");
	}
	for (k = 0; !r && k < n; k++) {
		target_settings(e, &t[k]);
		r = target_key(e, j, way, &t[k]);
		if (!r && !cached(&t[k])) {
			if (!headers)
				r = install_headers(j, &v);
			headers = 1;
			if (!r)
				r = build_target(j, way, &t[k], &v);
		}
		if (!r)
			read_failed(j, &t[k]);
	}
	for (k = 0; !r && k < n; k++)
		/* (used now: kept another KSELFTEST_KEEP_DAYS) */
		utimensat(AT_FDCWD, t[k].cache.buf, NULL, 0);
	if (!r)
		r = way->run(j, t, n, &v);
	if (!r)
		prune_program_sets(e);
	if (r < 0)
		goto out;
	if (!r) {
		whole_ktap(t, n, &ktap);
		judge(j, &ktap, &v);
	}
	/* after the tests: diagnostics, no part of any */
	strbuf_add(&ktap, step_times.buf, step_times.len);
	v.log = ktap.buf;
	v.log_len = ktap.len;
	r = store_result(j, &v);
out:
	for (k = 0; k < n; k++)
		target_release(&t[k]);
	free(t);
	strbuf_release(&ktap);
	strbuf_release(&step_times);
	check_verdict_release(&v);
	return r;
}

/* what a kselftest check runs (the runner's path is not it) */
static void kselftest_definition(const struct check *c, struct strbuf *out)
{
	if (c->initramfs)
		strbuf_addf(out, "kselftest 1\ntargets %s\nappend %s\n",
			    c->targets ? c->targets : "",
			    c->append ? c->append : "");
	/* (2: installed and run by run_kselftest.sh in a guest) */
	else
		strbuf_addf(out, "kselftest 2\ntargets %s\ntests %s\n"
			    "append %s\nmemory %s\nsmp %d\nslowdown %d\n",
			    c->targets ? c->targets : "",
			    c->tests ? c->tests : "",
			    c->append ? c->append : "", c->memory, c->smp,
			    c->slowdown);
}

/*
 * "vm:run_vmtests.sh -t mmap vm:madv_populate": kselftest_tests_next()
 * reads them; each collection one of targets (or its other name).
 */
static int tests_check(const char *key, const char *v, const char *targets)
{
	struct kselftest_test t = KSELFTEST_TEST_INIT;
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	const char *p = v;
	int r, n = 0;

	while ((r = kselftest_tests_next(&p, &t, &err)) > 0) {
		const char *alias = kselftest_alias(t.collection.buf);
		const char *q = targets ? targets : "";
		int found = 0;

		n++;
		while (!found && strbuf_next_word(&name, &q, " \t,"))
			found = !strcmp(name.buf, t.collection.buf) ||
				(alias && !strcmp(name.buf, alias));
		if (!found) {
			r = error("%s: '%s:%s' is not in one of the check's "
				  "targets (%s)", key, t.collection.buf,
				  t.test.buf, targets ? targets : "none set");
			break;
		}
	}
	if (r < 0 && err.len)
		r = error("%s: %s", key, err.buf);
	else if (!r && !n)
		r = error("%s: no test (like 'vm:run_vmtests.sh')", key);
	kselftest_test_release(&t);
	strbuf_release(&err);
	strbuf_release(&name);
	return r < 0 ? r : 0;
}

/* (kind.h) targets are a must; tests within them; the guest's defaults */
static int kselftest_settle(struct check *c)
{
	struct strbuf key = STRBUF_INIT;
	int r = 0;

	if (!c->targets)
		return error("check '%s' has no targets: set "
			     "respin.check.%s.targets (like 'vm')",
			     c->name, c->name);
	if (c->tests) {
		strbuf_addf(&key, "respin.check.%s.tests", c->name);
		r = tests_check(key.buf, c->tests, c->targets);
		strbuf_release(&key);
		if (r < 0)
			return r;
	}
	if (!c->memory)
		c->memory = xstrdup(KSELFTEST_MEMORY);
	if (!c->smp)
		c->smp = KSELFTEST_SMP;
	if (!c->slowdown)
		c->slowdown = KSELFTEST_SLOWDOWN;
	return 0;
}

static void kselftest_describe(const struct check *c, struct strbuf *out)
{
	if (c->initramfs)
		strbuf_addf(out, "selftests %s: built static, run in QEMU "
			    "(respin-qemu-ktap)", c->targets);
	else
		strbuf_addf(out, "selftests %s%s%s%s: installed, run by "
			    "run_kselftest.sh in the patch's kernel "
			    "(respin-guest)", c->targets, c->tests ? " (" : "",
			    c->tests ? c->tests : "", c->tests ? ")" : "");
}

static void kselftest_describe_json(const struct check *c, struct json *j)
{
	json_string_member(j, "targets", c->targets);
	if (c->tests)
		json_string_member(j, "tests", c->tests);
	json_bool_member(j, "initramfs", c->initramfs);
}

const struct check_kind_ops check_kselftest_ops = {
	.kind = CHECK_KSELFTEST,
	/* (make headers in the build directory, its bzImage) */
	.needs = KIND_NEEDS_BUILD | KIND_ON_BASE | KIND_BUILD_DIR |
		 KIND_OWN_COMMAND,
	.results = KIND_RESULTS_SUBTESTS,
	.details = KIND_DETAILS_SELFTESTS,
	.definition = kselftest_definition,
	.settle = kselftest_settle,
	.describe = kselftest_describe,
	.describe_json = kselftest_describe_json,
	.run = kselftest_run,
};
