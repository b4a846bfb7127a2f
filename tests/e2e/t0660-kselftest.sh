#!/bin/sh
# kind = kselftest with initramfs = true (the static programs' way, for
# a kernel without 9p; t0661 tests the default way) on the fixture,
# without a kernel: the tree's own
# selftests (target "vm", which the fixture has as "mm": the alias)
# built by its own Makefile against the headers "make headers" puts in
# the build directory, run by a stand-in for respin-qemu-ktap that runs
# them here and prints KTAP as the real one does.  Each new, broken or
# unbuildable test is attributed to exactly its patch; the programs are
# built once per tree of the selftests (a patch to the kernel alone
# reuses them); a second run reuses every result; a v2 changing patch 3
# runs only patch 3; results, diff --results, the cover letter and
# the patch mails show the cells; and the errors a user can meet: no such target,
# no targets, a bad target name, no QEMU, a kernel that does not boot,
# the check's timeout.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }

# ---- the stand-in runner: respin-qemu-ktap's arguments and output ----
cat >"$TRASH/runner" <<'EOF'
#!/bin/sh
# --timeout T --test-timeout S [--append A] BZIMAGE DIR
echo "$*" >>"$RUNNER_LOG"
tt=45
while [ $# -gt 2 ]; do
	case $1 in
	--test-timeout) tt=$2; shift 2 ;;
	*) shift ;;
	esac
done
[ -n "${RUNNER_EXIT:-}" ] && { echo "respin-qemu-ktap: the kernel panicked before the tests started" >&2; exit "$RUNNER_EXIT"; }
[ -n "${RUNNER_TIMEOUT:-}" ] && { echo "respin-qemu-ktap: timed out after $RUNNER_TIMEOUT s before the tests started (kernel hang?)" >&2; exit 2; }
[ -n "${RUNNER_SLEEP:-}" ] && sleep "$RUNNER_SLEEP"
echo "KTAP version 1"
n=$(ls "$2" | wc -l)
echo "1..$n"
i=0
for t in $(ls "$2"); do
	i=$((i + 1))
	out=$(cd "$2" && timeout "$tt" "./$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/    /'
	case $rc in
	0) echo "ok $i $t" ;;
	4) echo "ok $i $t # SKIP" ;;
	124) echo "not ok $i $t # TIMEOUT $tt seconds" ;;
	*) echo "not ok $i $t # exit=$rc" ;;
	esac
done
EOF
chmod +x "$TRASH/runner"
RUNNER_LOG=$TRASH/runner.log
QEMU=true	# the runner is a stand-in: any program will do
export RUNNER_LOG QEMU

# the base: "make headers" and a lib.mk-like selftests tree in mm/
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
	mkdir -p $T/mm &&
	printf '%s\n' \
		'TEST_GEN_PROGS := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_PROGS))' \
		'all: $(TEST_GEN_PROGS)' \
		'LDFLAGS += $(USERLDFLAGS)' \
		'$(OUTPUT)/%: %.c' \
		'	$(CC) -Wall $(KHDR_INCLUDES) $(LDFLAGS) $< -o $@' >$T/lib.mk &&
	printf 'TEST_GEN_PROGS := alpha beta\ninclude ../lib.mk\n' >$T/mm/Makefile &&
	printf 'timeout=7\n' >$T/mm/settings &&
	cat >$T/mm/alpha.c <<-\EOF &&
	#include <stdio.h>
	#include <respin_uapi.h>
	int main(void)
	{
		printf("TAP version 13\n1..2\n");
		printf("ok 1 one\n");
		printf("%sok 2 two\n", RESPIN_UAPI == 7 ? "" : "not ");
		return 0;
	}
	EOF
	printf 'int main(void) { return 4; }\n' >$T/mm/beta.c &&
	git add -A && git commit -qm "fixture: selftests in the style of lib.mk" &&
	git checkout -q -b work
}

# 1 the kernel only, 2 a new test "gamma", 3 breaks alpha's "two" and
# adds "delta", which does not build
make_series() {
	T=tools/testing/selftests/mm &&
	tick &&
	echo "/* a kernel change */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: a comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	printf '#include <stdio.h>\nint main(void) { printf("1..2\\nok 1 one\\nok 2 two\\n"); return 0; }\n' >$T/gamma.c &&
	sed -i "s/alpha beta/alpha beta gamma/" $T/Makefile &&
	git add $T/gamma.c &&
	git commit -qam "selftests/mm: gamma" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	sed -i "s/RESPIN_UAPI == 7/RESPIN_UAPI == 8/" $T/alpha.c &&
	printf 'int main(void) { return nosuch; }\n' >$T/delta.c &&
	sed -i "s/alpha beta gamma/alpha beta gamma delta/" $T/Makefile &&
	git add $T/delta.c &&
	git commit -qam "selftests/mm: alpha expects more, delta" -m "Signed-off-by: A U Thor <author@example.org>"
}

setup_base && make_series || { echo "Bail out! cannot make the series"; exit 1; }
respin track k --base ks-base >/dev/null
git config respin.check.checkpatch.enabled false
git config respin.check.build.enabled false
git config respin.check.ks.kind kselftest
git config respin.check.ks.targets vm
git config respin.check.ks.initramfs true
git config respin.check.ks.runner "$TRASH/runner"
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

programs() {
	ls "$CACHE" 2>/dev/null | grep -cv '\.tmp\.' || :
}

test_expect_success 'check --list names the kind and its targets' '
	respin check --list >out &&
	test_grep "^ks  *kselftest selftests vm: built static, run in QEMU" out
'

test_expect_success 'the first check builds and runs the tests at each position' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^4 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 3/3: mm: did not build: delta (the log: .*/log)$" err &&
	test_grep "ks at 3/3: FAIL: mm 3/6 (1 skip), 2 failed$" err &&
	test "$(programs)" = 3
'

test_expect_success 'the runner: the settings timeout, the build'"'"'s bzImage' '
	test "$(wc -l <"$RUNNER_LOG")" = 4 &&
	test_grep "^--timeout 600 --test-timeout 7 .*/respin/build/k/arch/x86/boot/bzImage .*/respin/kselftest/[0-9a-f]*/programs$" "$RUNNER_LOG"
'

test_expect_success 'each finding is attributed to exactly its patch' '
	changes >got &&
	cat >want <<-\EOF &&
	- - - -
	mm/gamma/one,mm/gamma/two - - -
	mm/delta mm/alpha/two - -
	EOF
	check_same want got &&
	respin results k >t &&
	test_grep "^base  *mm 2/3 (1 skip)$" t &&
	test_grep "^ *1/3  *mm 2/3 (1 skip)  *mm/compaction: a comment$" t &&
	test_grep "^ *2/3  *mm 4/5 (1 skip), 2 new  *selftests/mm: gamma$" t &&
	test_grep "^ *3/3  *mm 3/6 (1 skip), 2 failed, 1 new, 1 broken  *selftests/mm: alpha" t
'

test_expect_success 'the programs are built against the tree'"'"'s headers' '
	for d in "$CACHE"/*/programs
	do
		test -x "$d/alpha" || return 1
	done &&
	test_grep "^delta$" "$CACHE"/*/failed &&
	test_grep "nosuch" "$CACHE"/*/log
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 4 reused, 1 failed$" out &&
	test "$(wc -l <"$RUNNER_LOG")" = 4
'

test_expect_success 'a v2 changing only patch 3 builds and runs only patch 3' '
	sed -i "s/return nosuch/return 0/" tools/testing/selftests/mm/delta.c &&
	git commit -q --amend -a --no-edit &&
	mark_sent k && respin track k --tip HEAD >/dev/null &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^1 run, 3 reused, 1 failed$" out &&
	test "$(programs)" = 4 &&
	test "$(wc -l <"$RUNNER_LOG")" = 5 &&
	changes >got &&
	printf "%s\n" "- - - -" "mm/gamma/one,mm/gamma/two - - -" "mm/delta mm/alpha/two - -" >want &&
	check_same want got
'

test_expect_success 'another compiler: the programs are built again' '
	mkdir -p "$TRASH/cc" &&
	cat >"$TRASH/cc/gcc" <<-\EOF &&
	#!/bin/sh
	[ "$1" != --version ] || { echo "gcc (respin test) 99"; exit 0; }
	exec /usr/bin/gcc "$@"
	EOF
	chmod +x "$TRASH/cc/gcc" &&
	# (another append: another definition, so that the check runs)
	git config respin.check.ks.append respin.cc=1 &&
	test_when_finished "git config --unset respin.check.ks.append" &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^4 run, 0 reused, 1 failed$" out &&
	test "$(programs)" = 4 &&
	git config respin.check.ks.append respin.cc=2 &&
	test_expect_code 1 env PATH="$TRASH/cc:$PATH" respin check k >out 2>err &&
	test_grep "^4 run, 0 reused, 1 failed$" out &&
	test "$(programs)" = 7
'

test_expect_success 'program sets no check ran for 30 days go; those it runs stay' '
	mkdir "$CACHE/0000old" "$CACHE/0000new" &&
	for d in "$CACHE"/*
	do
		touch -d "40 days ago" "$d" || return 1
	done &&
	touch -d "20 days ago" "$CACHE/0000new" &&
	git config respin.check.ks.append respin.cc=3 &&
	test_when_finished "git config --unset respin.check.ks.append" &&
	test_expect_code 1 respin check k --patch 3 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_path_is_missing "$CACHE/0000old" &&
	test_path_is_dir "$CACHE/0000new" &&
	# the set patch 3 ran, and the one of 20 days
	test "$(programs)" = 2 &&
	test -n "$(find "$CACHE" -mindepth 1 -maxdepth 1 -newer "$CACHE/0000new" ! -name 0000new)"
'

test_expect_success 'diff --results names the subtests that changed' '
	respin diff k v1 v2 --results >d 2>&1 &&
	test_grep "results: ks: mm/delta: FAIL -> PASS" d
'

test_expect_success 'the cover letter and the patch mails show the cells' '
	respin cover k >c &&
	test_grep "^2/3  *mm 4/5 (1 skip), 2 new$" c &&
	test_grep "^3/3  *mm 4/6 (1 skip), 1 failed, 1 new, 1 broken$" c &&
	respin format k -o fmt >/dev/null &&
	test_grep "^respin: ks mm 4/5 (1 skip), 2 new$" fmt/v2-0002-*.patch
'

test_expect_success 'bisect --subtest finds the patch that broke a kselftest subtest' '
	respin bisect k --check ks --subtest "mm/alpha/two" --retries 0 >out &&
	cat out &&
	test_grep "^Bisected to 3/3 [0-9a-f]\{12\} \"selftests/mm: alpha expects more, delta\": ks subtest mm/alpha/two fails (FAIL mm/alpha/two); passes at 2/3$" out
'

test_expect_success 'a target the tree does not have: ERROR naming it, not stored' '
	git config respin.check.ks2.kind kselftest &&
	git config respin.check.ks2.targets "vm nosuch" &&
	test_expect_code 1 respin check k --only ks2 --patch 1 >out 2>err &&
	test_grep "ks2 at 1/3: ERROR: target .nosuch.: the tree has no tools/testing/selftests/nosuch$" err &&
	test_expect_code 1 respin check k --only ks2 --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	git config respin.check.ks2.targets mm &&
	git rm -q -r tools/testing/selftests/mm &&
	git commit -qm "no selftests" &&
	git config respin.check.ks3.kind kselftest &&
	git config respin.check.ks3.targets vm &&
	respin track k3 --base HEAD~ --tip HEAD >/dev/null &&
	test_expect_code 1 respin check k3 --only ks3 --patch 1 >out 2>err &&
	test_grep "ks3 at 1/1: ERROR: target .vm.: the tree has no tools/testing/selftests/vm (nor tools/testing/selftests/mm)$" err &&
	git config --unset respin.check.ks3.kind &&
	git config --unset respin.check.ks3.targets &&
	git reset -q --hard HEAD~
'

test_expect_success 'no targets, or a name that is no directory: config errors' '
	git config respin.check.ks2.targets "../etc" &&
	test_must_fail respin check k >out 2>err &&
	test_grep "respin.check.ks2.targets: .../etc. is not a directory name under tools/testing/selftests" err &&
	git config --unset respin.check.ks2.targets &&
	test_must_fail respin check k >out 2>err &&
	test_grep "check .ks2. has no targets: set respin.check.ks2.targets" err &&
	git config --unset respin.check.ks2.kind
'

test_expect_success 'no QEMU: ERROR with what to install, not stored' '
	git config respin.check.ks.append "quiet" &&
	QEMU=/nonexistent/qemu test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: ERROR: respin: /nonexistent/qemu is not installed (Debian: apt-get install qemu-system-x86, or make deps)" err
'

test_expect_success 'no runner: ERROR naming the key, not stored' '
	git config respin.check.ks.runner "$TRASH/no runner" &&
	test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: ERROR: respin: no runner $TRASH/no runner (respin.check.ks.runner)$" err &&
	git config respin.check.ks.runner "$TRASH/runner"
'

test_expect_success 'the headers or the tests cannot be made: ERROR with the end of make' '
	git checkout -q -b broken-make &&
	sed -i "s/^headers:/headers: nosuch-prerequisite/" Makefile &&
	echo timeout=8 >tools/testing/selftests/mm/settings &&
	git commit -qam "no headers, and new programs to build" &&
	echo "\$(error a broken Makefile)" >tools/testing/selftests/mm/Makefile &&
	sed -i "s/^headers: nosuch-prerequisite/headers:/" Makefile &&
	git commit -qam "a broken selftests Makefile" &&
	respin track kb --base work --tip broken-make >/dev/null &&
	test_expect_code 1 respin check kb --only ks --patch 1 >out 2>err &&
	test_grep "ks at 1/2: ERROR making the headers (exit 2); the last lines:" err &&
	test_grep "nosuch-prerequisite" err &&
	test_expect_code 1 respin check kb --only ks --patch 2 >out 2>err &&
	test_grep "ks at 2/2: ERROR building the mm tests (exit 1); the last lines:" err &&
	test_grep "respin: cannot list the programs of tools/testing/selftests/mm (make failed)" err &&
	test_grep "Makefile:1: \*\*\* a broken Makefile" err &&
	git checkout -q work
'

test_expect_success 'a kernel that does not boot: ERROR with the runner'"'"'s words' '
	RUNNER_EXIT=2 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "ks at 1/3: ERROR: the mm tests did not run (respin-qemu-ktap exit 2):" err &&
	test_grep "the kernel panicked before the tests started" err &&
	test_grep "^--timeout 600 --test-timeout 7 --append quiet " "$RUNNER_LOG"
'

test_expect_success 'the check'"'"'s timeout: TIMEOUT, not stored' '
	git config respin.check.ks.timeout 1 &&
	RUNNER_SLEEP=30 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "ks at 1/3: TIMEOUT after 1 s running the mm tests (respin.check.ks.timeout)" err &&
	RUNNER_TIMEOUT=1 test_expect_code 1 respin check k --patch 1 >out 2>err &&
	test_grep "ks at 1/3: TIMEOUT after 1 s running the mm tests (respin.check.ks.timeout)" err &&
	git config --unset respin.check.ks.timeout &&
	git config --unset respin.check.ks.append &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 4 reused, 1 failed$" out
'

test_done
