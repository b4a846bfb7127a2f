// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = kselftest, the default way: as mm developers run the tests.
 * Each target is installed as the kernel's Makefile does,
 *
 *	make -C tools/testing/selftests TARGETS=vm O=$RESPIN_BUILD install
 *		INSTALL_PATH=CACHE/install
 *
 * (a program that does not build is named in "failed" and installed
 * as a script that says so and fails, so that the rest still run),
 * and run in the build's bzImage by tools/respin-guest, with the
 * host's root filesystem as the guest's: one boot for all targets,
 * each target's installed tree copied to a tmpfs first (tests write
 * beside themselves), its settings' timeout times the check's
 * slowdown, then the tree's own run_kselftest.sh -c TARGET (or -t
 * TARGET:TEST for respin.check.NAME.tests, with a test's arguments in
 * KSELFTEST_TEST_ARGS).  Shell tests run too (6.1's run_vmtests.sh,
 * whose lines become subtests: ci/kselftest.c, ci/vmtests.c).
 */
#include "ci/kselftest-run.h"
#include "ci/kselftest.h"
#include "tools/lib/error.h"
#include "tools/lib/run.h"

#include <stdlib.h>
#include <string.h>

/* Brackets each target's output in the guest's. */
#define BEGIN_MARK "respin-kselftest: begin "
#define END_MARK "respin-kselftest: end "

static void install_command(const struct ks_target *t, struct strbuf *cmd)
{
	strbuf_addstr(cmd, "src=" KS_SELFTESTS "; t=");
	strbuf_add_sq(cmd, t->name);
	strbuf_addstr(cmd, "; dest=");
	strbuf_add_sq(cmd, t->cache.buf);
	strbuf_addstr(cmd,
		"; out=$dest.tmp.$$; bt=$RESPIN_BUILD/kselftest/$t; "
		"rm -rf \"$out\" && mkdir -p \"$out\" || exit 1; "
		/* the programs make builds, where it puts them */
		"progs=$(make -s --no-print-directory -C \"$src/$t\" "
		"OUTPUT=\"$bt\" --eval 'respin-list: ; @echo "
		"$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) "
		"$(TEST_GEN_FILES)' respin-list) || { echo \"respin: cannot "
		"list the programs of $src/$t (make failed)\"; "
		"rm -rf \"$out\"; exit 1; }; "
		"echo \"respin: programs of $src/$t:\" $progs; "
		"inst() { make -k --no-print-directory -C \"$src\" "
		"TARGETS=\"$t\" O=\"$RESPIN_BUILD\" -j$(nproc) install "
		"INSTALL_PATH=\"$out/install\" "
		"KSFT_INSTALL_PATH=\"$out/install\" >>\"$out/log\" 2>&1; }; "
		": >\"$out/failed\"; stubs=; "
		/*
		 * One that did not build: a stub that fails, and again.  A
		 * program make names as failed goes first: what is there is
		 * another tree's (a Makefile without .DELETE_ON_ERROR).
		 */
		"if ! inst; then sed -n 's/.*\\*\\*\\* \\[[^]]*: \\(.*\\)\\] "
		"Error.*/\\1/p' \"$out/log\" | while read -r f; do "
		"case \" $progs \" in *\" $f \"*) rm -f \"$f\" ;; esac; done; "
		"for p in $progs; do [ -e \"$p\" ] && continue; "
		"n=${p##*/}; echo \"$n\" >>\"$out/failed\"; "
		"mkdir -p \"${p%/*}\" && printf '#!/bin/sh\\necho \"respin: %s "
		"did not build\"\\nexit 1\\n' \"$n\" >\"$p\" && chmod +x \"$p\" "
		"&& stubs=\"$stubs $p\"; done; "
		"if [ -n \"$stubs\" ]; then rm -rf \"$out/install\"; "
		"echo \"respin: did not build:\" $(cat \"$out/failed\") "
		">>\"$out/log\"; inst; fi; "
		/* (make builds them again next time) */
		"[ -z \"$stubs\" ] || rm -f $stubs; fi; "
		"cat \"$out/log\"; "
		"[ -f \"$out/install/run_kselftest.sh\" ] && "
		"[ -f \"$out/install/kselftest-list.txt\" ] || { echo \"respin: "
		"make installed no run_kselftest.sh and kselftest-list.txt\"; "
		"rm -rf \"$out\"; exit 1; }; "
		"rm -rf \"$dest\" && mv \"$out\" \"$dest\"");
}

/*
 * run_kselftest.sh's arguments for target t: -t T:TEST for each of
 * respin.check.NAME.tests in it (with its arguments' variable), else
 * -c T; the variables into env ("NAME='ARGS' ").
 */
static void runner_args(const struct check *c, const char *target,
			struct strbuf *args, struct strbuf *env)
{
	struct kselftest_test kt = KSELFTEST_TEST_INIT;
	struct strbuf err = STRBUF_INIT, var = STRBUF_INIT;
	const char *alias = kselftest_alias(target), *p = c->tests;

	while (p && kselftest_tests_next(&p, &kt, &err) > 0) {
		if (strcmp(kt.collection.buf, target) &&
		    (!alias || strcmp(kt.collection.buf, alias)))
			continue;
		strbuf_addstr(args, " -t ");
		strbuf_add_sq(args, target);
		strbuf_addch(args, ':');
		strbuf_add_sq(args, kt.test.buf);
		if (kt.args.len) {
			strbuf_reset(&var);
			kselftest_args_variable(kt.test.buf, &var);
			strbuf_addf(env, "%s=", var.buf);
			strbuf_add_sq(env, kt.args.buf);
			strbuf_addch(env, ' ');
		}
	}
	if (!args->len) {
		strbuf_addstr(args, " -c ");
		strbuf_add_sq(args, target);
	}
	kselftest_test_release(&kt);
	strbuf_release(&err);
	strbuf_release(&var);
}

/* What runs in the guest: each target copied, its timeouts, its run. */
static void guest_script(const struct check *c, const struct ks_target *t,
			 size_t n, struct strbuf *sh)
{
	struct strbuf args = STRBUF_INIT, env = STRBUF_INIT;
	size_t k;

	/*
	 * What a booted system has and the tests use: run_kselftest.sh
	 * writes to /dev/stdout (devtmpfs has no such links: udev makes
	 * them), gup_test and others read /sys/kernel/debug.
	 */
	strbuf_addstr(sh, "for f in stdin:0 stdout:1 stderr:2; do "
		      "[ -e /dev/${f%:*} ] || ln -s /proc/self/fd/${f#*:} "
		      "/dev/${f%:*} 2>/dev/null; done; [ -e /dev/fd ] || "
		      "ln -s /proc/self/fd /dev/fd 2>/dev/null; "
		      "[ ! -d /sys/kernel/debug ] || mountpoint -q "
		      "/sys/kernel/debug || mount -t debugfs debugfs "
		      "/sys/kernel/debug 2>/dev/null\n");
	/* (the guest's /tmp is its own: a tmpfs) */
	strbuf_addstr(sh, "r=${TMPDIR:-/tmp}/respin-kselftest; rm -rf \"$r\" && "
		      "mkdir -p \"$r\" || { echo \"respin: cannot make $r in "
		      "the guest\"; exit 1; }\n");
	for (k = 0; k < n; k++) {
		int timeout = t[k].timeout > 0 ? t[k].timeout * c->slowdown :
			      t[k].timeout;

		strbuf_reset(&args);
		strbuf_reset(&env);
		runner_args(c, t[k].name, &args, &env);
		strbuf_addf(sh, "echo '" BEGIN_MARK "%s'\n", t[k].name);
		strbuf_addf(sh, "d=$r/%zu; cp -a ", k + 1);
		strbuf_add_sq(sh, t[k].cache.buf);
		strbuf_addstr(sh, "/install \"$d\" || { echo \"respin: cannot "
			      "copy the tests to $d in the guest\"; exit 1; }\n");
		/* (runner.sh reads settings line by line: the last wins) */
		strbuf_addf(sh, "printf 'timeout=%d\\n' >>\"$d\"/", timeout);
		strbuf_add_sq(sh, t[k].name);
		strbuf_addstr(sh, "/settings\n(cd \"$d\" && ");
		strbuf_add(sh, env.buf, env.len);
		strbuf_addf(sh, "./run_kselftest.sh%s 2>&1 | cat)\n", args.buf);
		strbuf_addf(sh, "echo '" END_MARK "%s'\n", t[k].name);
	}
	strbuf_release(&args);
	strbuf_release(&env);
}

/*
 * The one call of the guest runner, tools/respin-guest:
 *	respin-guest [--timeout SECS] [--memory SIZE] [--smp N]
 *		[--append TEXT] BZIMAGE -- COMMAND [ARG...]
 * COMMAND's stdout, stderr and exit status come back as its own; it
 * exits 124 at its timeout, 125 when the guest never ran COMMAND, 123
 * when the guest stopped while it ran.
 */
static void runner_call(const struct check *c, const char *runner,
			const char *script, struct strbuf *cmd)
{
	strbuf_add_sq(cmd, runner);
	strbuf_addf(cmd, " --timeout %d --memory ", (int)c->timeout);
	strbuf_add_sq(cmd, c->memory);
	strbuf_addf(cmd, " --smp %d", c->smp);
	if (c->append) {
		strbuf_addstr(cmd, " --append ");
		strbuf_add_sq(cmd, c->append);
	}
	strbuf_addstr(cmd, " \"$RESPIN_BUILD/arch/x86/boot/bzImage\" -- "
		      "sh -c ");
	strbuf_add_sq(cmd, script);
	strbuf_addstr(cmd, " respin-kselftest");
}

/* The line of text starting with mark and ending in name, or NULL. */
static const char *find_mark(const char *text, const char *mark,
			     const char *name)
{
	size_t m = strlen(mark), n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, mark, m) && !strncmp(p + m, name, n) &&
		    (p[m + n] == '\n' || !p[m + n]))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/*
 * Each target's part of the guest's output into its ktap; stopped: why
 * the output ended early (NULL: it did not).  A target whose part
 * never began bails out with that.  The first target whose part, ended,
 * holds no TAP at all (run_kselftest.sh refused: "No such test
 * 'vm:x'") into no_tap, with what it printed: 1, else 0.
 */
static int take_targets(const char *out, struct ks_target *t, size_t n,
			const char *stopped, struct strbuf *no_tap)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const char *b = find_mark(out, BEGIN_MARK, t[k].name), *e;

		if (!b) {
			strbuf_addf(&t[k].ktap, "Bail out! %s\n", stopped ?
				    stopped : "its tests did not start");
			continue;
		}
		b = strchr(b, '\n');
		b = b ? b + 1 : out + strlen(out);
		e = find_mark(b, END_MARK, t[k].name);
		if (e && !memmem(b, (size_t)(e - b), "TAP version ", 12)) {
			strbuf_addf(no_tap, "ERROR: the %s tests printed no TAP; "
				    "the last lines:\n", t[k].name);
			run_tail_lines(no_tap, b, (size_t)(e - b), 10);
			return 1;
		}
		kselftest_translate(b, e ? (size_t)(e - b) : strlen(b),
				    e ? NULL : stopped ? stopped :
				    "the guest's output ended here", &t[k].ktap);
		t[k].ran_ok = e && ks_ktap_passes(&t[k].ktap);
	}
	return 0;
}

static int run_all(const struct check_job *j, struct ks_target *t, size_t n,
		   struct check_verdict *v)
{
	struct engine *e = j->e;
	struct strbuf cmd = STRBUF_INIT, script = STRBUF_INIT,
		      runner = STRBUF_INIT, out = STRBUF_INIT,
		      said = STRBUF_INIT, no_tap = STRBUF_INIT;
	struct run_result res;
	/* the runner stops itself at the check's timeout: a margin */
	double timeout = j->c->timeout + 10;
	int r, code;

	engine_step(e, j->i, j->c, "running the tests in the kernel");
	ks_runner_path(j->c, "respin-guest", &runner);
	guest_script(j->c, t, n, &script);
	ks_runner_check(j->c, runner.buf, &cmd);
	runner_call(j->c, runner.buf, script.buf, &cmd);
	ks_runner_stderr(&cmd);
	run_result_init(&res);
	r = engine_exec(e, j->c, j->i, &j->tree, "guest", cmd.buf, timeout,
			NULL, 0, &res);
	if (r < 0)
		goto out;
	v->seconds += res.seconds;
	ks_step_time("running the tests in the kernel", &res);
	ks_split_output(&res, &out, &said);
	code = res.exited ? res.exit_code : 128 + res.signal;
	if (res.timed_out || code == 124) {
		r = ks_run_timed_out(j, "the tests in the kernel", v);
	} else if (code == 127) {
		r = ks_run_no_runner(j, out.buf, v);
	} else if ((code == 0 || code == 123) &&
		   take_targets(out.buf, t, n, code ? "the guest stopped "
				"while the tests ran" : NULL, &no_tap)) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR: no TAP");
		engine_report(e, j->c, j->i, "%s", no_tap.buf);
		if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
			strbuf_addch(&e->report, '\n');
		r = 1;
	} else if (code == 0 || code == 123) {
		/* 123: the kernel stopped in a test (a panic): its failure */
		if (code) {
			engine_report(e, j->c, j->i, "the guest stopped while "
				      "the tests ran (respin-guest exit 123):\n");
			ks_report_tail(e, said.buf, said.len, 12);
		}
	} else {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, code == 125 ? "ERROR: the kernel "
			      "did not run the tests" : "ERROR: the tests did "
			      "not run");
		engine_report(e, j->c, j->i, "ERROR: the tests did not run "
			      "(respin-guest exit %d):\n", code);
		if (said.len)
			ks_report_tail(e, said.buf, said.len, 12);
		else
			ks_report_tail(e, out.buf, out.len, 12);
		r = 1;
	}
out:
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&script);
	strbuf_release(&runner);
	strbuf_release(&out);
	strbuf_release(&said);
	strbuf_release(&no_tap);
	return r;
}

/*
 * The key: the whole selftests directory (the install reads its
 * Makefile, lib.mk, kselftest/, run_kselftest.sh and files of other
 * targets such as x86/check_cc.sh), the headers it builds against.
 */
static const char *const key_paths[] = {
	KS_SELFTESTS, "include/uapi", "arch/x86/include/uapi",
	"tools/include", "scripts/headers_install.sh", "scripts/unifdef.c",
	"scripts/subarch.include",
};

const struct ks_way ks_way_guest = {
	.key = "respin-kselftest-install 1",
	.key_paths = key_paths,
	.nr_key_paths = sizeof(key_paths) / sizeof(*key_paths),
	.build_verb = "installing",
	.build_command = install_command,
	.run = run_all,
};
