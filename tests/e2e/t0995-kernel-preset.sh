#!/bin/sh
# respin check --preset mm on the real linux 6.1 tree: what an mm
# contributor runs, from one option.  A 3-patch mm/ series where
# patch 1 adds a function to mm/madvise.c that sparse (not declared),
# kernel-doc (a parameter not described) and W=1 (no previous
# prototype, and kernel-doc's) each warn about, patch 2 adds a test
# program to tools/testing/selftests/vm whose two KTAP subtests run in
# the guest from patch 2 on, and patch 3 breaks one subtest of the
# tree's own vm/madv_populate.  The build's .config is the preset's
# tiny-qemu one: a tinyconfig for QEMU plus what mm/Makefile builds
# madvise.c under and the vm selftests' config asks for, with their
# Kconfig dependencies (GUP_TEST brings DEBUG_FS, MEM_SOFT_DIRTY
# CHECKPOINT_RESTORE and /proc/self/pagemap, which madv_populate reads).
#
# Each finding is attributed to exactly its patch; a second run (the
# preset from respin.check.preset this time) reuses every result; a v2
# that changes only patch 3 runs only patch 3's checks and builds only
# its selftests.
#
# The repository (its own clone, kpreset) and its build directory live
# in the test cache and are reused between runs; the patches carry a
# run-unique comment, so the checks really run.  tools/bench/preset.sh
# times this series against the same steps by hand.
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] ||
	test_skip_all "no static libc (apt-get install libc6-dev)"
command -v sparse >/dev/null || test_skip_all "sparse is not installed (apt-get install sparse)"
KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
REPO=$RESPIN_TEST_CACHE/kpreset
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new

VM=tools/testing/selftests/vm
. "$SRC_DIR/tests/e2e/lib-kpreset.sh"

{
	kernel_test_repo "$REPO" "$KSRC" --no-config &&
	{ git config --unset respin.check.preset || :; } &&
	kpreset_series kp-work "$RUN" &&
	respin track kp --base mm-unstable --tip kp-work
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
CACHE=$REPO/.git/respin/kselftest
BUILD=$REPO/.git/respin/build/kp@tiny-qemu

# per check, "new broken gone" (selftests) or the count of new
# findings (the static kinds) for patches 1..3
found() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $k (qw(sparse w1 kdoc)) {
			print "$k: ", join(" ", map { my $c = $_->{results}{$k};
				$c ? scalar @{$c->{new_warnings}} : "-" } @p[1..3]), "\n";
		}
		for my $i (1..3) {
			my $c = $p[$i]{results}{selftests};
			print "selftests at $i: ", join(" ", map { $c->{$_} ?
				join(",", @{$c->{$_}}) || "-" : "?" }
				qw(new_tests broken_tests gone_tests)), "\n";
		}
	' <"$1"
}

programs() {
	ls "$CACHE" 2>/dev/null | grep -cv '\.tmp\.' || :
}

test_expect_success 'the real tree, a 3-patch mm series' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success '--preset mm lists the checks it runs' '
	respin check --list --preset mm >list &&
	cat list &&
	test_grep "^checkpatch .*\[built in\]$" list &&
	for c in build sparse w1 kdoc selftests
	do
		test_grep "^$c .*\[.*preset mm\]$" list || return 1
	done
'

test_expect_success 'respin check --preset mm runs them all at each patch' '
	before=$(programs) &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kp --preset mm >out 2>err ||
		{ tail -n 30 err out; false; }; } &&
	echo "# first check: $(( $(date +%s) - start )) s" &&
	cat out &&
	test_grep -E "^(20 run, 0|18 run, 2) reused, [1-9][0-9]* failed$" out &&
	test_grep "^hint: .respin results kp --preset mm. shows them" err &&
	after=$(programs) &&
	echo "# program sets: $before before, $after after" &&
	test $(( after - before )) -ge 2 && test $(( after - before )) -le 3
'

test_expect_success 'the .config: tiny-qemu with the options and their dependencies' '
	for o in ADVISE_SYSCALLS USERFAULTFD TRANSPARENT_HUGEPAGE GUP_TEST DEBUG_FS \
		MEM_SOFT_DIRTY CHECKPOINT_RESTORE PROC_PAGE_MONITOR SERIAL_8250_CONSOLE
	do
		test_grep "^CONFIG_$o=y$" "$BUILD/.config" || return 1
	done &&
	respin results kp --preset mm --check build --patch 0 >log &&
	test_grep "^respin: kconfig = tiny-qemu: .* ADVISE_SYSCALLS .*GUP_TEST" log &&
	test_grep "^kernel-config-tiny: enabled for the options wanted: .*DEBUG_FS" log
'

test_expect_success 'each finding is attributed to exactly its patch' '
	respin results kp --preset mm --json >r && found r >got && cat got &&
	cat >want <<-\EOF &&
	sparse: 1 0 0
	w1: 2 0 0
	kdoc: 1 0 0
	selftests at 1: - - -
	selftests at 2: vm/respin_probe/anonymous mapping,vm/respin_probe/unmapping it - -
	selftests at 3: - vm/madv_populate/MADV_POPULATE_READ -
	EOF
	check_same want got &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my \$r = \$d->{patches}[1]{results};
		exit 2 unless \$r->{sparse}{new_warnings}[0] =~
			/^mm\/madvise.c: warning: symbol .respin_advice. was not declared. Should it be static\?\$/;
		exit 3 unless \$r->{kdoc}{new_warnings}[0] =~
			/^mm\/madvise.c: warning: Function parameter or member .behavior. not described in .respin_advice.\$/;
		exit 4 unless grep { /no previous prototype for .respin_advice./ } @{\$r->{w1}{new_warnings}};
		# patches 2 and 3 touch only the selftests: no kernel object
		for my \$i (2, 3) {
			exit 5 unless \$d->{patches}[\$i]{results}{sparse}{summary} eq q(no kernel .c files);
		}
		for my \$i (0..3) {
			printf qq(# selftests at %d: %s, %.1f s\n), \$i,
				\$d->{patches}[\$i]{results}{selftests}{summary},
				\$d->{patches}[\$i]{results}{selftests}{duration};
		}
	" <r &&
	respin results kp --preset mm >t && cat t &&
	test_grep "^ *1/3 .* +1 .* +2 .* +1 .*mm/madvise: add respin_advice()$" t &&
	test_grep "^ *2/3 .*vm [0-9]*/[0-9]*.*, 2 new .*selftests/vm: a probe" t &&
	test_grep "^ *3/3 .*vm [0-9]*/[0-9]*.*, 1 broken .*madv_populate" t
'

test_expect_success 'a second check, the preset from git config, runs nothing' '
	git config respin.check.preset mm &&
	test_expect_code 1 respin check kp >out 2>err &&
	test_grep -E "^0 run, 20 reused, [1-9][0-9]* failed$" out
'

test_expect_success 'a v2 that changes only patch 3 runs only its checks' '
	before=$(programs) &&
	sed -i "s/(!ret && 0,/(!ret \&\& 1 == 0,/" $VM/madv_populate.c &&
	git commit -q --amend -a --no-edit &&
	respin track kp --tip HEAD >/dev/null &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kp >out 2>err ||
		{ tail -n 5 err; false; }; } &&
	echo "# v2 check: $(( $(date +%s) - start )) s" &&
	test_grep -E "^6 run, 14 reused, [1-9][0-9]* failed$" out &&
	test $(( $(programs) - before )) = 1 &&
	respin results kp --json >r && found r >got &&
	check_same want got
'

test_done
