// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kind = kselftest with initramfs = true: for a kernel without 9p.
 * Each target's TEST_GEN_PROGS are built static (USERLDFLAGS=-static,
 * KHDR_INCLUDES the tree's headers in the build directory) into the
 * cache (a program that does not build is named in "failed"), and run
 * in the build's bzImage under QEMU by tools/respin-qemu-ktap, one
 * boot a target, each test killed after the target's settings
 * "timeout=" (default 45 s).  The initramfs has no shell and no
 * libraries: the shell scripts of TEST_PROGS (6.1's run_vmtests.sh)
 * do not run this way.
 */
#include "ci/kselftest-run.h"
#include "ci/kselftest.h"
#include "tools/lib/error.h"
#include "tools/lib/run.h"

#include <dirent.h>
#include <string.h>

/* The build command: what it does is part of the key. */
static void programs_command(const struct ks_target *t, struct strbuf *cmd)
{
	strbuf_addstr(cmd, "src=" KS_SELFTESTS "/");
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

static int has_programs(const struct ks_target *t)
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

static void run_command_text(const struct check *c, const struct ks_target *t,
			     struct strbuf *cmd)
{
	struct strbuf runner = STRBUF_INIT, dir = STRBUF_INIT;
	int test_timeout = t->timeout > 0 ? t->timeout : (int)c->timeout;

	ks_runner_path(c, "respin-qemu-ktap", &runner);
	strbuf_addf(&dir, "%s/programs", t->cache.buf);
	ks_runner_check(c, runner.buf, cmd);
	strbuf_add_sq(cmd, runner.buf);
	strbuf_addf(cmd, " --timeout %d --test-timeout %d", (int)c->timeout,
		    test_timeout > 0 ? test_timeout : KSELFTEST_TIMEOUT);
	if (c->append) {
		strbuf_addstr(cmd, " --append ");
		strbuf_add_sq(cmd, c->append);
	}
	strbuf_addstr(cmd, " \"$RESPIN_BUILD/arch/x86/boot/bzImage\" ");
	strbuf_add_sq(cmd, dir.buf);
	ks_runner_stderr(cmd);
	strbuf_release(&runner);
	strbuf_release(&dir);
}

static int run_target(const struct check_job *j, struct ks_target *t,
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
		ks_step_time(what.buf, &res);
		strbuf_release(&what);
	}
	ks_split_output(&res, &t->ktap, &said);
	/* the runner's own timeout (the check's): before or in the tests */
	if (res.timed_out || (res.exited && (res.exit_code == 2 ||
					     res.exit_code == 3) &&
			      strstr(said.buf, "timed out after"))) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "the %s tests", t->name);
		r = ks_run_timed_out(j, what.buf, v);
		strbuf_release(&what);
	} else if (res.exited && res.exit_code == 127) {
		r = ks_run_no_runner(j, t->ktap.buf, v);
	} else if (!res.exited || (res.exit_code != 0 &&
				   res.exit_code != 3)) {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, "ERROR: the kernel did not run "
			      "the tests");
		engine_report(e, j->c, j->i, "ERROR: the %s tests did not run "
			      "(%s exit %d):\n", t->name, "respin-qemu-ktap",
			      res.exited ? res.exit_code : 128 + res.signal);
		ks_report_tail(e, said.len ? said.buf : res.output.buf,
			       said.len ? said.len : res.output.len, 12);
		r = 1;
	} else {
		t->ran_ok = !res.exit_code && ks_ktap_passes(&t->ktap);
	}
out:
	run_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&step);
	strbuf_release(&said);
	return r;
}

static int run_all(const struct check_job *j, struct ks_target *t, size_t n,
		   struct check_verdict *v)
{
	size_t k;
	int r = 0;

	for (k = 0; !r && k < n; k++)
		r = run_target(j, &t[k], v);
	return r;
}

static const char *const key_paths[] = {
	KS_SELFTESTS "/lib.mk", KS_SELFTESTS "/kselftest.h",
	KS_SELFTESTS "/kselftest_harness.h", KS_SELFTESTS "/kselftest",
	"include/uapi", "arch/x86/include/uapi", "tools/include",
	"scripts/headers_install.sh", "scripts/unifdef.c",
};

const struct ks_way ks_way_initramfs = {
	.key = "respin-kselftest-programs 1",
	.key_paths = key_paths,
	.nr_key_paths = sizeof(key_paths) / sizeof(*key_paths),
	.build_verb = "building",
	.build_command = programs_command,
	.run = run_all,
};
