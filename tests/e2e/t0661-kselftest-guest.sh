#!/bin/sh
# kind = kselftest, the default way, on the fixture without a kernel:
# each target installed by the kernel's own selftests Makefile, lib.mk
# and run_kselftest.sh (copied from the cached 6.1 tree: the real
# framework, not a look-alike), run by a stand-in for tools/respin-guest
# that runs the guest's command here (the host's userspace, as the
# guest has it; TMPDIR its tmpfs).  The fixture's mm target has a
# run_vmtests.sh that prints 6.1's lines, whose tests become subtests.
# Each broken or unbuildable test is attributed to exactly its patch,
# by name; the installs are cached by the trees they read; a second
# run reuses everything; tests = picks tests and passes their
# arguments; the settings timeout is scaled by slowdown; and the
# errors: no QEMU, no runner, a guest that never ran the command, one
# that stopped in it, the check's timeout.
. "$(dirname "$0")/lib.sh"

KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" --print-dir) ||
	test_skip_all "no cached kernel tree for the selftests framework (tools/kernel-tree.sh makes it)"
command -v rsync >/dev/null || test_skip_all "rsync is not installed (the selftests' install uses it)"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }

# ---- the stand-in runner: respin-guest's arguments, the command here ----
cat >"$TRASH/guest" <<'EOF'
#!/bin/sh
# [--timeout S] [--memory M] [--smp N] [--append A] BZIMAGE -- COMMAND...
# (a line a run: the script's newlines as |)
printf '%s\n' "$*" | tr '\n' '|' >>"$GUEST_LOG" && echo >>"$GUEST_LOG"
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
if [ -n "${GUEST_EXIT:-}" ]; then
	echo "respin-guest: the guest never ran the command: Kernel panic - not syncing: VFS" >&2
	exit "$GUEST_EXIT"
fi
mkdir -p "$TRASH/guest-tmp"
if [ -n "${GUEST_STOP:-}" ]; then
	# the kernel stops after that many lines
	TMPDIR=$TRASH/guest-tmp "$@" | head -n "$GUEST_STOP"
	echo "respin-guest: the guest stopped while the command ran: Kernel panic - not syncing: Fatal exception" >&2
	exit 123
fi
TMPDIR=$TRASH/guest-tmp exec "$@"
EOF
chmod +x "$TRASH/guest"
GUEST_LOG=$TRASH/guest.log
QEMU=true	# the runner is a stand-in: any program will do
export GUEST_LOG QEMU TRASH

# the base: "make headers", the kernel's selftests framework, and an mm
# target in the style of 6.1's vm: programs run by run_vmtests.sh
setup_base() {
	git checkout -q -b ks-base mm-unstable &&
	python3 - <<'EOPY' &&
p = 'Makefile'
s = open(p).read()
s = s.replace("clean:\n", "headers:\n\t@mkdir -p $(objtree)/usr/include\n"
	"\t@echo '#define RESPIN_UAPI 7' >$(objtree)/usr/include/respin_uapi.h\n\nclean:\n", 1)
open(p, 'w').write(s)
EOPY
	T=tools/testing/selftests &&
	git rm -q -r $T/mm &&
	mkdir -p $T/mm $T/kselftest scripts &&
	for f in Makefile lib.mk run_kselftest.sh kselftest.h kselftest_harness.h \
		kselftest/runner.sh kselftest/prefix.pl kselftest/module.sh
	do
		cp "$KSRC/$T/$f" "$T/$f" || return 1
	done &&
	cp "$KSRC/scripts/subarch.include" scripts/ &&
	printf '%s\n' 'CFLAGS = -Wall $(KHDR_INCLUDES)' \
		'TEST_GEN_FILES = alpha beta' 'TEST_GEN_PROGS = gamma' \
		'TEST_PROGS := run_vmtests.sh slow.sh' 'include ../lib.mk' >$T/mm/Makefile &&
	printf 'timeout=1\n' >$T/mm/settings &&
	cat >$T/mm/run_vmtests.sh <<-\EOF &&
	#!/bin/bash
	# the lines of 6.1's run_vmtests.sh; -t quick runs alpha only
	exitcode=0
	run_test() {
		local title="running $*"
		local sep=$(echo -n "$title" | tr "[:graph:][:space:]" -)
		printf "%s\n%s\n%s\n" "$sep" "$title" "$sep"
		"$@"
		local ret=$?
		if [ $ret -eq 0 ]; then
			echo "[PASS]"
		elif [ $ret -eq 4 ]; then
			echo "[SKIP]"
			exitcode=4
		else
			echo "[FAIL]"
			exitcode=1
		fi
	}
	run_test ./alpha
	[ "$*" = "-t quick" ] && exit $exitcode
	run_test ./beta one
	run_test ./beta ./huge/two
	[ ! -e ./delta ] || run_test ./delta
	exit $exitcode
	EOF
	cat >$T/mm/slow.sh <<-\EOF &&
	#!/bin/bash
	# two seconds: past settings' timeout unless it is scaled
	printf -- "-------------\nrunning ./nap\n-------------\n"
	sleep 2
	echo "[PASS]"
	EOF
	chmod +x $T/mm/run_vmtests.sh $T/mm/slow.sh &&
	cat >$T/mm/alpha.c <<-\EOF &&
	#include <stdio.h>
	#include <respin_uapi.h>
	int main(void)
	{
		printf("alpha: uapi %d\n", RESPIN_UAPI);
		return RESPIN_UAPI == 7 ? 0 : 1;
	}
	EOF
	cat >$T/mm/beta.c <<-\EOF &&
	#include <string.h>
	int main(int argc, char **argv)
	{
		return argc > 1 && strstr(argv[1], "two") ? 4 : 0;
	}
	EOF
	cat >$T/mm/gamma.c <<-\EOF &&
	#include <stdio.h>
	int main(void)
	{
		printf("TAP version 13\n1..2\nok 1 one\nok 2 two\n");
		return 0;
	}
	EOF
	git add -A && git commit -qm "fixture: the kernel's selftests framework, an mm target" &&
	git checkout -q -b work
}

# 1 the kernel only, 2 breaks alpha, 3 adds delta, which does not build
make_series() {
	T=tools/testing/selftests/mm &&
	tick &&
	echo "/* a kernel change */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: a comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	sed -i "s/RESPIN_UAPI == 7/RESPIN_UAPI == 8/" $T/alpha.c &&
	git commit -qam "selftests/mm: alpha expects more" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	printf 'int main(void) { return nosuch; }\n' >$T/delta.c &&
	sed -i "s/= alpha beta/= alpha beta delta/" $T/Makefile &&
	git add $T/delta.c &&
	git commit -qam "selftests/mm: delta" -m "Signed-off-by: A U Thor <author@example.org>"
}

setup_base && make_series || { echo "Bail out! cannot make the series"; exit 1; }
respin track k --base ks-base >/dev/null
git config respin.check.checkpatch.enabled false
git config respin.check.build.enabled false
git config respin.check.ks.kind kselftest
git config respin.check.ks.targets vm
git config respin.check.ks.runner "$TRASH/guest"
CACHE=$(git rev-parse --git-common-dir)/respin/kselftest

# "new broken gone fixed" at patches 1..3
changes() {
	respin results k --json | perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $i (1..3) {
			my $c = $p[$i]{results}{ks};
			print join(" ", map { $c->{$_} ? join(",", @{$c->{$_}}) || "-" : "?" }
				qw(new_tests broken_tests gone_tests fixed_tests)), "\n";
		}
	'
}

installs() {
	ls "$CACHE" 2>/dev/null | grep -cv '\.tmp\.' || :
}

test_expect_success 'check --list: installed, run by run_kselftest.sh in the guest' '
	respin check --list >out &&
	test_grep "^ks  *kselftest selftests vm: installed, run by run_kselftest.sh in the patch.s kernel (respin-guest)$" out
'

test_expect_success 'the first check installs and runs the target at each position' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^4 run, 0 reused, 2 failed$" out &&
	test_grep "ks at 3/3: mm: did not build: delta (the log: .*/log)$" err &&
	# (the base, patch 2, patch 3: patch 1 touches no selftest)
	test "$(installs)" = 3 &&
	# (the worktree the tests are installed from stays clean)
	git -C .git/respin/worktrees/k status --porcelain >st &&
	test_must_be_empty st
'

test_expect_success 'the runner: the guest, the build'"'"'s bzImage, the tests copied' '
	test "$(wc -l <"$GUEST_LOG")" = 4 &&
	test_grep "^--timeout 600 --memory 1G --smp 2 .*/respin/build/k/arch/x86/boot/bzImage -- sh -c .*run_kselftest.sh -c .mm." "$GUEST_LOG" &&
	for d in "$CACHE"/*/install
	do
		test -x "$d/run_kselftest.sh" && test -x "$d/mm/alpha" &&
		test -x "$d/mm/run_vmtests.sh" && test_grep "^mm:run_vmtests.sh$" "$d/kselftest-list.txt" || return 1
	done
'

test_expect_success 'each finding is attributed to exactly its patch, by name' '
	changes >got &&
	cat >want <<-\EOF &&
	- - - -
	- mm/run_vmtests.sh/alpha - -
	mm/delta,mm/run_vmtests.sh/delta - - -
	EOF
	check_same want got &&
	respin results k >t &&
	test_grep "^base  *mm 5/6 (1 skip)$" t &&
	test_grep "^ *1/3  *mm 5/6 (1 skip)  *mm/compaction: a comment$" t &&
	test_grep "^ *2/3  *mm 4/6 (1 skip), 1 failed, 1 broken  *selftests/mm: alpha" t &&
	test_grep "^ *3/3  *mm 4/8 (1 skip), 3 failed, 2 new  *selftests/mm: delta$" t
'

test_expect_success 'the subtests of run_vmtests.sh, their names and states' '
	respin results k --check ks --patch 3 >log &&
	sed -n "/^--- log ---$/,\$p" log >ktap &&
	for l in "        not ok 1 alpha" "        ok 2 beta one" \
		"        ok 3 beta two # SKIP" "        not ok 4 delta" \
		"    not ok 2 run_vmtests.sh # exit=1" "        ok 1 nap" \
		"    not ok 4 delta # build failed" "    # ok 2 two" \
		"        # respin: delta did not build" "        # alpha: uapi 7"
	do
		grep -qxF "$l" ktap || { echo "no line \"$l\" in:"; cat ktap; return 1; }
	done
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 4 reused, 2 failed$" out &&
	test "$(wc -l <"$GUEST_LOG")" = 4
'

test_expect_success 'a v2 changing only patch 3 installs and runs only patch 3' '
	sed -i "s/return nosuch/return 0/" tools/testing/selftests/mm/delta.c &&
	git commit -q --amend -a --no-edit &&
	respin track k --tip HEAD >/dev/null &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^1 run, 3 reused, 2 failed$" out &&
	test "$(installs)" = 4 &&
	test "$(wc -l <"$GUEST_LOG")" = 5 &&
	respin results k >t &&
	test_grep "^ *3/3  *mm 5/7 (1 skip), 1 failed, 1 new  *selftests/mm: delta$" t
'

test_expect_success 'a v3 that breaks delta again: not the v2 build of it, a stub' '
	sed -i "s/return 0;/return nosuch2;/" tools/testing/selftests/mm/delta.c &&
	git commit -q --amend -a --no-edit &&
	respin track k --tip HEAD >/dev/null &&
	test_path_is_file .git/respin/build/k/kselftest/mm/delta &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^1 run, 3 reused, 2 failed$" out &&
	test_grep "ks at 3/3: mm: did not build: delta (the log: .*/log)$" err &&
	respin results k --check ks --patch 3 >log &&
	test_grep "^        # respin: delta did not build$" log &&
	test_grep "^    not ok 4 delta # build failed$" log
'

test_expect_success 'bisect --subtest finds the patch that broke a run_vmtests.sh test' '
	respin bisect k --check ks --subtest "mm/run_vmtests.sh/alpha" --retries 0 >out &&
	test_grep "^Bisected to 2/3 [0-9a-f]\{12\} \"selftests/mm: alpha expects more\": ks subtest mm/run_vmtests.sh/alpha fails" out
'

test_expect_success 'tests = picks tests, with their arguments' '
	git config respin.check.ks-quick.kind kselftest &&
	git config respin.check.ks-quick.targets mm &&
	git config respin.check.ks-quick.tests "vm:run_vmtests.sh -t quick" &&
	git config respin.check.ks-quick.runner "$TRASH/guest" &&
	respin check --list >list &&
	test_grep "^ks-quick  *kselftest selftests mm (vm:run_vmtests.sh -t quick): installed" list &&
	respin check k --only ks-quick --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	tail -n 1 "$GUEST_LOG" >args &&
	test_grep "KSELFTEST_RUN_VMTESTS_SH_ARGS=.-t quick. ./run_kselftest.sh -t .mm.:.run_vmtests.sh." args &&
	respin results k --check ks-quick --patch 1 >log &&
	test_grep "^        1..1$" log &&
	test_grep "^        ok 1 alpha$" log &&
	test_grep ! "beta" log
'

test_expect_success 'a test the tree does not have: ERROR with run_kselftest.sh'"'"'s words' '
	git config respin.check.ks-quick.tests "mm:nosuch.sh" &&
	test_expect_code 1 respin check k --only ks-quick --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks-quick at 1/3: ERROR: the mm tests printed no TAP; the last lines:" err &&
	test_grep "No such test .mm:nosuch.sh." err
'

test_expect_success 'settings timeouts times slowdown; without it a test times out' '
	git config respin.check.ks-quick.tests mm:slow.sh &&
	respin check k --only ks-quick --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	git config respin.check.ks-quick.slowdown 1 &&
	test_expect_code 1 respin check k --only ks-quick --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks-quick at 1/3: FAIL: mm 0/1, 1 failed" err &&
	respin results k --check ks-quick --patch 1 >log &&
	test_grep "^        not ok 1 nap # TIMEOUT 1 seconds$" log &&
	test_grep "^    not ok 1 slow.sh # TIMEOUT 1 seconds$" log
'

test_expect_success 'bad tests, memory, smp, slowdown or initramfs: exit 128 naming the key' '
	for v in "run_vmtests.sh" "vm:../x" "net:x.sh" "vm:x -t a;b"
	do
		git config respin.check.ks-quick.tests "$v" &&
		test_expect_code 128 respin check --list >out 2>err &&
		test_grep "respin.check.ks-quick.tests: " err || return 1
	done &&
	git config respin.check.ks-quick.tests "net:x.sh" &&
	test_expect_code 128 respin check k 2>err &&
	test_grep "respin.check.ks-quick.tests: .net:x.sh. is not in one of the check.s targets (mm)" err &&
	git config respin.check.ks-quick.tests vm:slow.sh &&
	git config respin.check.ks-quick.memory 1T2 &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.ks-quick.memory: .1T2. is not a size like 1G or 512M" err &&
	git config respin.check.ks-quick.memory 2G &&
	git config respin.check.ks-quick.smp 0 &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.ks-quick.smp: .0. is not a whole number from 1 to 1000" err &&
	git config respin.check.ks-quick.smp 2 &&
	git config respin.check.ks-quick.slowdown ten &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.ks-quick.slowdown: .ten. is not a whole number from 1 to 1000" err &&
	git config respin.check.ks-quick.slowdown 10 &&
	git config respin.check.ks-quick.initramfs maybe &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.ks-quick.initramfs: .maybe. is not true or false" err &&
	git config --remove-section respin.check.ks-quick
'

test_expect_success 'no QEMU, no runner: ERROR with what to do, not stored' '
	git config respin.check.ks.append "quiet" &&
	QEMU=/nonexistent/qemu test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: ERROR: respin: /nonexistent/qemu is not installed (Debian: apt-get install qemu-system-x86, or make deps)" err &&
	git config respin.check.ks.runner "$TRASH/no runner" &&
	test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "ks at 1/3: ERROR: respin: no runner $TRASH/no runner (respin.check.ks.runner)$" err &&
	git config respin.check.ks.runner "$TRASH/guest"
'

test_expect_success 'a guest that never ran the tests: ERROR with the runner'"'"'s words' '
	GUEST_EXIT=125 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: ERROR: the tests did not run (respin-guest exit 125):" err &&
	test_grep "the guest never ran the command: Kernel panic" err &&
	test_grep "^--timeout 600 --memory 1G --smp 2 --append quiet " "$GUEST_LOG"
'

test_expect_success 'a guest that stopped in a test: FAIL, the test it stopped in named' '
	GUEST_STOP=14 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: the guest stopped while the tests ran (respin-guest exit 123):" err &&
	test_grep "Kernel panic - not syncing: Fatal exception" err &&
	respin results k --check ks --patch 1 >log &&
	test_grep "^        not ok 1 alpha # the guest stopped while the tests ran$" log &&
	test_grep "^    Bail out! the guest stopped while the tests ran$" log &&
	test_grep "^not ok 1 mm$" log
'

test_expect_success 'the check'"'"'s timeout: TIMEOUT, not stored' '
	git config respin.check.ks.append "again" &&
	GUEST_EXIT=124 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: TIMEOUT after 600 s running the tests in the kernel (respin.check.ks.timeout)" err &&
	git config --unset respin.check.ks.append &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 4 reused, 2 failed$" out
'

test_done
