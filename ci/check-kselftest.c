// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = kselftest: the tree's own selftests (targets = vm ..., each a
 * directory of tools/testing/selftests; vm and mm are one), built from
 * the patch's tree and run in the patch's kernel.  At each position:
 *
 *  1. each target's TEST_GEN_PROGS are built static (USERLDFLAGS=-static,
 *     KHDR_INCLUDES the tree's headers, installed into the build
 *     directory by make headers_install), unless the programs cache
 *     (.git/respin/kselftest/KEY) has them: KEY hashes the git trees of
 *     the target, the selftests' lib.mk and kselftest headers, the uapi
 *     headers, tools/include and the $(top_srcdir)/ files the target's
 *     Makefile names, so a patch touching none of them builds nothing;
 *  2. the programs are run in the build's bzImage under QEMU by
 *     tools/respin-qemu-ktap, one boot a target, each test killed after
 *     the target's settings "timeout=" (default 45 s);
 *  3. the check's KTAP has a test a target: the runner's tests, then
 *     each program that did not build, "not ok N NAME # build failed".
 *
 * The KTAP decides (PASS, FAIL); QEMU missing, a kernel that did not
 * boot or broke while the tests ran, a missing target are ERRORs and
 * the check's timeout a TIMEOUT (none stored).  What a patch adds,
 * removes, breaks or fixes is found by comparing its KTAP with the
 * position before (ci/kselftest.c, shown by ci/grid.c).
 */
#include "ci/kind.h"
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

#define SELFTESTS "tools/testing/selftests"

struct target {
	const char *asked;	/* as configured (borrowed) */
	char *name;		/* as the tree has it */
	int timeout;		/* per test, settings */
	struct strbuf cache;	/* its programs' cache directory */
	struct strbuf failed;	/* the programs that did not build */
	struct strbuf ktap;	/* the runner's KTAP */
	int ran_ok;		/* the runner's KTAP passed */
};

static int in_tree(const char *dir, void *data)
{
	const char *root = data;
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/" SELFTESTS, root);
	r = engine_file_exists(p.buf, dir);
	strbuf_release(&p);
	return r;
}

/* The runner: respin.check.NAME.runner, else the one beside respin. */
static void runner_path(const struct check *c, struct strbuf *out)
{
	if (c->runner)
		strbuf_addstr(out, c->runner);
	else
		respin_tool_path("respin-qemu-ktap", out);	/* or PATH */
}

/* "PATH OID" of path in tree, "PATH -" when it has none. */
static void key_path(git_repository *repo, git_tree *tree, const char *path,
		     struct strbuf *sb)
{
	git_tree_entry *te = NULL;

	strbuf_addf(sb, "%s ", path);
	if (!git_tree_entry_bypath(&te, tree, path))
		strbuf_add_oid(sb, git_tree_entry_id(te), GIT_OID_HEXSZ);
	else
		strbuf_addch(sb, '-');
	strbuf_addch(sb, '\n');
	git_tree_entry_free(te);
	(void)repo;
}

/* The files of the tree a target's Makefile names as $(top_srcdir)/X. */
static void key_top_srcdir(git_repository *repo, git_tree *tree,
			   const char *makefile, struct strbuf *sb)
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
			key_path(repo, tree, path.buf, sb);
		p += n;
	}
	strbuf_release(&path);
}

static const char *const key_paths[] = {
	SELFTESTS "/lib.mk", SELFTESTS "/kselftest.h",
	SELFTESTS "/kselftest_harness.h", SELFTESTS "/kselftest",
	"include/uapi", "arch/x86/include/uapi", "tools/include",
	"scripts/headers_install.sh", "scripts/unifdef.c",
};

/* The build command: what it does is part of the key. */
static void build_command_text(const struct target *t, struct strbuf *cmd)
{
	strbuf_addstr(cmd, "src=" SELFTESTS "/");
	strbuf_add_sq(cmd, t->name);
	strbuf_addstr(cmd, "; dest=");
	strbuf_add_sq(cmd, t->cache.buf);
	strbuf_addstr(cmd,
		"; out=$dest.tmp.$$; rm -rf \"$out\" && "
		"mkdir -p \"$out/build\" \"$out/programs\" || exit 1; "
		"progs=$(make -s --no-print-directory -C \"$src\" "
		"OUTPUT=\"$out/build\" --eval 'respin-list: ; @echo "
		"$(TEST_GEN_PROGS)' respin-list) || { echo \"respin: cannot "
		"list the programs of $src (make failed)\"; rm -rf \"$out\"; "
		"exit 1; }; "
		"echo \"respin: programs of $src:\" $progs; "
		"[ -z \"$progs\" ] || make -k --no-print-directory -C \"$src\" "
		"-j$(nproc) OUTPUT=\"$out/build\" "
		"KHDR_INCLUDES=\"-isystem $RESPIN_BUILD/usr/include\" "
		"USERLDFLAGS=-static $progs >\"$out/log\" 2>&1; "
		"cat \"$out/log\" 2>/dev/null; : >\"$out/failed\"; "
		"for p in $progs; do "
		"if [ -f \"$p\" ] && [ -x \"$p\" ]; then "
		"cp \"$p\" \"$out/programs/\" || exit 1; "
		"else basename \"$p\" >>\"$out/failed\"; fi; done; "
		"rm -rf \"$out/build\" \"$dest\" && mv \"$out\" \"$dest\"");
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

/* Where the program sets are kept: .git/respin/kselftest. */
static void programs_root(const struct engine *e, struct strbuf *out)
{
	strbuf_addf(out, "%srespin/kselftest",
		    git_repository_commondir(e->repo));
}

static int target_key(struct engine *e, const struct check_job *j,
		      struct target *t)
{
	struct strbuf sb = STRBUF_INIT, mk = STRBUF_INIT, p = STRBUF_INIT;
	git_tree *tree = NULL;
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];
	size_t k;

	if (git_tree_lookup(&tree, e->repo, &j->tree) < 0)
		return error_git("cannot read the tree of position %zu", j->i);
	/* bump the number when build_command_text() changes */
	strbuf_addf(&sb, "respin-kselftest-programs 1\ntarget %s\ncc %s\n",
		    t->name, compiler_version());
	strbuf_addf(&p, SELFTESTS "/%s", t->name);
	key_path(e->repo, tree, p.buf, &sb);
	for (k = 0; k < sizeof(key_paths) / sizeof(*key_paths); k++)
		key_path(e->repo, tree, key_paths[k], &sb);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/" SELFTESTS "/%s/Makefile", e->wt.path, t->name);
	if (!strbuf_read_file(&mk, p.buf))
		key_top_srcdir(e->repo, tree, mk.buf, &sb);
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

static void target_release(struct target *t)
{
	free(t->name);
	strbuf_release(&t->cache);
	strbuf_release(&t->failed);
	strbuf_release(&t->ktap);
}

static int cached(const struct target *t)
{
	return engine_file_exists(t->cache.buf, "failed");
}

/*
 * The program sets no check used for KSELFTEST_KEEP_DAYS go: a set is
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
static int find_targets(const struct check_job *j, struct target **out,
			size_t *nr)
{
	struct engine *e = j->e;
	const char *p = j->c->targets;
	struct target *v = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf word = STRBUF_INIT;
	int r = 0;

	while (strbuf_next_word(&word, &p, " \t,")) {
		const char *name = kselftest_resolve(word.buf, in_tree,
						     e->wt.path);

		if (!name) {
			const char *alias = kselftest_alias(word.buf);

			engine_report(e, j->c, j->i, "ERROR: target '%s': the "
				      "tree has no " SELFTESTS "/%s%s%s%s\n",
				      word.buf, word.buf,
				      alias ? " (nor " SELFTESTS "/" : "",
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

static void target_settings(const struct engine *e, struct target *t)
{
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;

	strbuf_addf(&p, "%s/" SELFTESTS "/%s/settings", e->wt.path, t->name);
	if (strbuf_read_file(&text, p.buf) < 0)
		strbuf_reset(&text);
	t->timeout = kselftest_settings_timeout(text.buf, text.len);
	strbuf_release(&p);
	strbuf_release(&text);
}

/* Copies out's end into the report, after a line. */
static void report_tail(struct engine *e, const struct run_result *res,
			size_t lines)
{
	run_tail_lines(&e->report, res->output.buf, res->output.len, lines);
	if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
		strbuf_addch(&e->report, '\n');
}

/*
 * A step that did not run to a good end: the verdict says so (1), or
 * 0.  what: "building the vm tests".
 */
static int step_failed(const struct check_job *j, const char *what,
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
	report_tail(e, res, 10);
	return 1;
}

/*
 * "# respin: STEP: N.N s" for the log (KTAP diagnostics after the
 * tests); one position at a time (the kind never runs in threads).
 */
static struct strbuf step_times = STRBUF_INIT;

static void step_time(const char *what, const struct run_result *res)
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
	step_time("making the headers", &res);
	if (!r && step_failed(j, "making the headers", &res,
			      j->c->timeout, v))
		r = 1;
	v->seconds += res.seconds;
	run_result_release(&res);
	return r;
}

static int build_target(const struct check_job *j, struct target *t,
			struct check_verdict *v)
{
	struct strbuf cmd = STRBUF_INIT, step = STRBUF_INIT,
		      what = STRBUF_INIT;
	struct run_result res;
	int r;

	strbuf_addf(&what, "building the %s tests", t->name);
	engine_step(j->e, j->i, j->c, what.buf);
	build_command_text(t, &cmd);
	strbuf_addf(&step, "build-%s", t->name);
	run_result_init(&res);
	r = engine_exec(j->e, j->c, j->i, &j->tree, step.buf, cmd.buf,
			j->c->timeout, NULL, 0, &res);
	step_time(what.buf, &res);
	if (!r && step_failed(j, what.buf, &res, j->c->timeout, v))
		r = 1;
	v->seconds += res.seconds;
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&step);
	strbuf_release(&what);
	return r;
}

/* The programs that did not build, named with their build log. */
static void read_failed(const struct check_job *j, struct target *t)
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

static int has_programs(const struct target *t)
{
	struct strbuf p = STRBUF_INIT;
	struct dirent *d;
	DIR *dir;
	int r = 0;

	strbuf_addf(&p, "%s/programs", t->cache.buf);
	dir = opendir(p.buf);
	while (dir && !r && (d = readdir(dir)))
		r = d->d_name[0] != '.';
	if (dir)
		closedir(dir);
	strbuf_release(&p);
	return r;
}

/* The runner's stderr, marked: no part of the KTAP. */
#define RUNNER_MARK "respin-runner: "

static void run_command_text(const struct check *c, const struct target *t,
			     struct strbuf *cmd)
{
	struct strbuf runner = STRBUF_INIT, dir = STRBUF_INIT;
	int test_timeout = t->timeout > 0 ? t->timeout : (int)c->timeout;

	runner_path(c, &runner);
	strbuf_addf(&dir, "%s/programs", t->cache.buf);
	strbuf_addstr(cmd,
		"command -v \"${QEMU:-qemu-system-x86_64}\" >/dev/null || { "
		"echo \"respin: ${QEMU:-qemu-system-x86_64} is not installed "
		"(Debian: apt-get install qemu-system-x86, or make deps)\"; "
		"exit 127; }; err=\"$RESPIN_BUILD/.respin-kselftest.err\"; "
		"command -v ");
	strbuf_add_sq(cmd, runner.buf);
	strbuf_addstr(cmd, " >/dev/null || { printf 'respin: no runner %s "
		      "(respin.check.%s.runner)\\n' ");
	strbuf_add_sq(cmd, runner.buf);
	strbuf_addch(cmd, ' ');
	strbuf_add_sq(cmd, c->name);
	strbuf_addstr(cmd, "; exit 127; }; ");
	strbuf_add_sq(cmd, runner.buf);
	strbuf_addf(cmd, " --timeout %d --test-timeout %d", (int)c->timeout,
		    test_timeout > 0 ? test_timeout : KSELFTEST_TIMEOUT);
	if (c->append) {
		strbuf_addstr(cmd, " --append ");
		strbuf_add_sq(cmd, c->append);
	}
	strbuf_addstr(cmd, " \"$RESPIN_BUILD/arch/x86/boot/bzImage\" ");
	strbuf_add_sq(cmd, dir.buf);
	strbuf_addstr(cmd, " 2>\"$err\"; rc=$?; sed 's/^/" RUNNER_MARK "/' "
		      "\"$err\"; rm -f \"$err\"; exit $rc");
	strbuf_release(&runner);
	strbuf_release(&dir);
}

/* Splits the run's output: the KTAP into ktap, the runner's lines out. */
static void split_output(const struct run_result *res, struct strbuf *ktap,
			 struct strbuf *said)
{
	const char *p = res->output.buf, *end = p + res->output.len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n >= sizeof(RUNNER_MARK) - 1 &&
		    !strncmp(p, RUNNER_MARK, sizeof(RUNNER_MARK) - 1)) {
			strbuf_add(said, p + sizeof(RUNNER_MARK) - 1,
				   n - (sizeof(RUNNER_MARK) - 1));
			strbuf_addch(said, '\n');
		} else {
			strbuf_add(ktap, p, n);
			strbuf_addch(ktap, '\n');
		}
		p += n + 1;
	}
}

static int run_target(const struct check_job *j, struct target *t,
		      struct check_verdict *v)
{
	struct engine *e = j->e;
	struct strbuf cmd = STRBUF_INIT, step = STRBUF_INIT,
		      said = STRBUF_INIT;
	struct run_result res;
	/* the runner stops itself at the check's timeout: a margin */
	double timeout = j->c->timeout + 10;
	int r;

	if (!has_programs(t))
		return 0;	/* nothing to boot for */
	engine_step(e, j->i, j->c, "running the tests in QEMU");
	run_command_text(j->c, t, &cmd);
	strbuf_addf(&step, "run-%s", t->name);
	run_result_init(&res);
	r = engine_exec(e, j->c, j->i, &j->tree, step.buf, cmd.buf, timeout,
			NULL, 0, &res);
	if (r < 0)
		goto out;
	v->seconds += res.seconds;
	{
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "running the %s tests in QEMU", t->name);
		step_time(what.buf, &res);
		strbuf_release(&what);
	}
	split_output(&res, &t->ktap, &said);
	/* the runner's own timeout (the check's): before or in the tests */
	if (res.timed_out || (res.exited && (res.exit_code == 2 ||
					     res.exit_code == 3) &&
			      strstr(said.buf, "timed out after"))) {
		v->status = RESULT_TIMEOUT;
		strbuf_addf(&v->summary, "timeout after %.0fs", j->c->timeout);
		engine_report(e, j->c, j->i, "TIMEOUT after %.0f s running "
			      "the %s tests (respin.check.%s.timeout)\n",
			      j->c->timeout, t->name, j->c->name);
		r = 1;
	} else if (res.exited && res.exit_code == 127) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR: no QEMU or no runner");
		engine_report(e, j->c, j->i, "ERROR: %s", t->ktap.buf);
		r = 1;
	} else if (!res.exited || (res.exit_code != 0 &&
				   res.exit_code != 3)) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR: the kernel did not run "
			      "the tests");
		engine_report(e, j->c, j->i, "ERROR: the %s tests did not run "
			      "(%s exit %d):\n", t->name, "respin-qemu-ktap",
			      res.exited ? res.exit_code : 128 + res.signal);
		run_tail_lines(&e->report, said.len ? said.buf : res.output.buf,
			       said.len ? said.len : res.output.len, 12);
		if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
			strbuf_addch(&e->report, '\n');
		r = 1;
	} else {
		struct ktap_result kr;

		ktap_result_init(&kr);
		t->ran_ok = !res.exit_code &&
			    !ktap_parse(t->ktap.buf, t->ktap.len, &kr) &&
			    kr.verdict == KTAP_VERDICT_PASS;
		error_clear();
		ktap_result_release(&kr);
	}
out:
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&step);
	strbuf_release(&said);
	return r;
}

/* The check's KTAP: a test a target. */
static void whole_ktap(const struct target *v, size_t n, struct strbuf *out)
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
	struct engine *e = j->e;
	struct check_verdict v = CHECK_VERDICT_INIT;
	struct strbuf ktap = STRBUF_INIT;
	struct target *t = NULL;
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
		r = target_key(e, j, &t[k]);
		if (!r && !cached(&t[k])) {
			if (!headers)
				r = install_headers(j, &v);
			headers = 1;
			if (!r)
				r = build_target(j, &t[k], &v);
		}
		if (!r)
			read_failed(j, &t[k]);
	}
	for (k = 0; !r && k < n; k++) {
		/* (used now: kept another KSELFTEST_KEEP_DAYS) */
		utimensat(AT_FDCWD, t[k].cache.buf, NULL, 0);
		r = run_target(j, &t[k], &v);
	}
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

const struct check_kind_ops check_kselftest_ops = {
	.kind = CHECK_KSELFTEST,
	/* (make headers in the build directory, its bzImage) */
	.needs = KIND_NEEDS_BUILD | KIND_ON_BASE | KIND_BUILD_DIR,
	.run = kselftest_run,
};
