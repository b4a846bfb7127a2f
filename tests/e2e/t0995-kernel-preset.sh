#!/bin/sh
# respin check --preset mm on the real linux 6.1 tree: what an mm
# contributor runs, from one option.  A 4-patch mm/ series
# (lib-kpreset.sh): patch 1 adds a function to mm/madvise.c that sparse
# (not declared), kernel-doc (a parameter not described) and W=1 (no
# previous prototype, and kernel-doc's) each warn about, patch 2 adds a
# test program to tools/testing/selftests/vm whose two KTAP subtests
# run in the guest from patch 2 on, patch 3 breaks one subtest of the
# tree's own vm/madv_populate, and patch 4 breaks MAP_FIXED_NOREPLACE
# in mm/mmap.c, which only map_fixed_noreplace tests, and only
# run_vmtests.sh runs that.  The preset runs the whole vm target in
# each patch's kernel: installed by the kernel's Makefile, run by the
# tree's run_kselftest.sh through tools/respin-guest with the host's
# userspace.  The build's .config is the preset's tiny-qemu one, in a
# build directory of its own: the series' plain check before it (the
# user's tinyconfig + COMPACTION, as in issue 22) keeps its own.
#
# Each finding is attributed to exactly its patch, by name; a second
# run (the preset from respin.check.preset this time) reuses every
# result; a v2 that changes only patch 3 runs only the checks of
# patches 3 and 4 and installs the vm tests once.
#
# The repository (its own clone, kpreset) and its build directories
# live in the test cache and are reused between runs; the patches carry
# a run-unique comment, so the checks really run.  tools/bench/preset.sh
# times this series against the same steps by hand, and
# tools/bench/kselftest.sh the vm target against run_kselftest.sh by
# hand in the same guest.
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
command -v sparse >/dev/null || test_skip_all "sparse is not installed (apt-get install sparse)"
command -v rsync >/dev/null && [ -f /usr/include/numa.h ] ||
	test_skip_all "installing the vm selftests needs rsync and libnuma-dev (make deps)"
[ -x "$RESPIN_BUILD/../tools/respin-guest" ] ||
	[ -x "$RESPIN_BUILD/../libexec/respin/respin-guest" ] ||
	test_skip_all "no guest runner beside respin (tools/respin-guest)"
KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
REPO=$RESPIN_TEST_CACHE/kpreset
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new

VM=tools/testing/selftests/vm
. "$SRC_DIR/tests/e2e/lib-kpreset.sh"

# The user's .config: tinyconfig and COMPACTION (made the same way each
# run, so the same: its build stays; the one there goes first, or
# kbuild refuses O= in a source tree that has a .config)
user_config() {
	rm -f .config &&
	make -s ARCH=x86_64 O="$TRASH/ucfg" tinyconfig >/dev/null &&
	scripts/config --file "$TRASH/ucfg/.config" --enable COMPACTION &&
	make -s ARCH=x86_64 O="$TRASH/ucfg" olddefconfig >/dev/null &&
	cp "$TRASH/ucfg/.config" .config
}

{
	kernel_test_repo "$REPO" "$KSRC" --no-config &&
	user_config &&
	{ git config --unset respin.check.preset || :; } &&
	kpreset_series kp-work "$RUN" &&
	respin track kp --base mm-unstable --tip kp-work
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
CACHE=$REPO/.git/respin/kselftest
BUILD=$REPO/.git/respin/build/kp@tiny-qemu
PLAIN=$REPO/.git/respin/build/kp

# per check, the count of new findings (the static kinds) for patches
# 1..4, and the selftests' changes at each patch ("new broken gone
# fixed flipped"; gone tests as their parents, "PARENT/*")
found() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $k (qw(sparse w1 kdoc)) {
			print "$k: ", join(" ", map { my $c = $_->{results}{$k};
				$c ? scalar @{$c->{new_warnings}} : "-" } @p[1..4]), "\n";
		}
		for my $i (1..4) {
			my $c = $p[$i]{results}{selftests};
			my %gone = map { (my $up = $_) =~ s{/[^/]*$}{/*}; ($up => 1) }
				@{$c->{gone_tests} || []};
			$c->{gone_tests} = [sort keys %gone];
			print "selftests at $i: ", join(" ", map { $c->{$_} ?
				join(",", @{$c->{$_}}) || "-" : "?" }
				qw(new_tests broken_tests gone_tests fixed_tests flipped_tests)), "\n";
		}
	' <"$1"
}

installs() {
	ls "$CACHE" 2>/dev/null | grep -cv '\.tmp\.' || :
}

test_expect_success 'the real tree, a 4-patch mm series' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success '--preset mm lists the checks it runs' '
	respin check --list --preset mm >list &&
	cat list &&
	test_grep "^checkpatch .*\[built in\]$" list &&
	test_grep "^selftests  *kselftest selftests mm: installed, run by run_kselftest.sh" list &&
	for c in build sparse w1 kdoc selftests
	do
		test_grep "^$c .*\[.*preset mm\]$" list || return 1
	done
'

test_expect_success 'a plain check first: the user'"'"'s .config, its own build directory' '
	start=$(date +%s) &&
	respin check kp --only build --patch 0 >out 2>err &&
	echo "# plain build of the base: $(( $(date +%s) - start )) s" &&
	test_grep -E "^(1 run, 0|0 run, 1) reused, 0 failed$" out &&
	test_grep "^CONFIG_COMPACTION=y$" "$PLAIN/.config" &&
	test_grep ! "^CONFIG_HUGETLBFS=y$" "$PLAIN/.config" &&
	test_grep "^current [0-9a-f]*$" "$PLAIN/.respin-config"
'

test_expect_success 'respin check --preset mm runs them all at each patch' '
	before=$(installs) &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kp --preset mm >out 2>err ||
		{ tail -n 30 err out; false; }; } &&
	echo "# first check: $(( $(date +%s) - start )) s" &&
	cat out &&
	test_grep -E "^(26 run, 0|24 run, 2) reused, [1-9][0-9]* failed$" out &&
	test_grep "^hint: .respin results kp --preset mm. shows them" err &&
	after=$(installs) &&
	echo "# installed targets: $before before, $after after" &&
	test $(( after - before )) -ge 2 && test $(( after - before )) -le 3
'

test_expect_success 'the .config: tiny-qemu, in its own directory; the plain one kept' '
	for o in ADVISE_SYSCALLS USERFAULTFD TRANSPARENT_HUGEPAGE GUP_TEST DEBUG_FS \
		MEM_SOFT_DIRTY CHECKPOINT_RESTORE PROC_PAGE_MONITOR SERIAL_8250_CONSOLE \
		HUGETLBFS KSM COMPACTION SYSVIPC 9P_FS NET_9P_VIRTIO
	do
		test_grep "^CONFIG_$o=y$" "$BUILD/.config" || return 1
	done &&
	test_grep "^tiny-qemu [0-9]* .*ADVISE_SYSCALLS" "$BUILD/.respin-config" &&
	test_grep ! "^CONFIG_HUGETLBFS=y$" "$PLAIN/.config" &&
	respin results kp --preset mm --check build --patch 0 >log &&
	test_grep "^respin: kconfig = tiny-qemu: .* ADVISE_SYSCALLS .*GUP_TEST" log &&
	test_grep "^kernel-config-tiny: enabled for the options wanted: .*ZONE_DEVICE" log
'

# (mremap_test finds its room with MAP_FIXED_NOREPLACE too: at patch 4
# it maps over itself and crashes before its first subtest, so its
# subtests are gone and the test is a failing one of its own.)
test_expect_success 'each finding is attributed to exactly its patch, by name' '
	respin results kp --preset mm --json >r && found r >got && cat got &&
	cat >want <<-\EOF &&
	sparse: 1 0 0 0
	w1: 2 0 0 0
	kdoc: 1 0 0 0
	selftests at 1: - - - - -
	selftests at 2: vm/respin_probe/anonymous mapping,vm/respin_probe/unmapping it - - - -
	selftests at 3: - vm/madv_populate/MADV_POPULATE_READ,vm/run_vmtests.sh/madv_populate/MADV_POPULATE_READ - - -
	selftests at 4: vm/run_vmtests.sh/mremap_test vm/run_vmtests.sh/map_fixed_noreplace vm/run_vmtests.sh/mremap_test/* - -
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
		for my \$i (0..4) {
			printf qq(# selftests at %d: %s, %.1f s\n), \$i,
				\$d->{patches}[\$i]{results}{selftests}{summary},
				\$d->{patches}[\$i]{results}{selftests}{duration};
		}
	" <r &&
	respin results kp --preset mm >t && cat t &&
	test_grep "^ *1/4 .* +1 .* +2 .* +1 .*mm/madvise: add respin_advice()$" t &&
	test_grep "^ *2/4 .*vm [0-9]*/[0-9]*.*, 2 new .*selftests/vm: a probe" t &&
	test_grep "^ *3/4 .*vm [0-9]*/[0-9]*.*, 2 broken .*madv_populate" t &&
	test_grep "^ *4/4 .*vm [0-9]*/[0-9]*.*, 1 broken .*MAP_FIXED_NOREPLACE" t
'

test_expect_success 'the whole vm target ran: run_vmtests.sh and its tests' '
	respin results kp --preset mm --check selftests --patch 4 >log &&
	test_grep "^        not ok [0-9]* map_fixed_noreplace$" log &&
	test_grep "^        ok [0-9]* compaction_test$" log &&
	test_grep "^        ok [0-9]* userfaultfd anon 20 16$" log &&
	test_grep "^    [a-z ]*ok [0-9]* run_vmtests.sh" log &&
	test_grep "^# respin: running the tests in the kernel: [0-9.]* s$" log &&
	respin results kp --preset mm --check selftests --patch 3 >log3 &&
	test_grep "^        ok [0-9]* map_fixed_noreplace$" log3
'

test_expect_success 'a second check, the preset from git config, runs nothing' '
	git config respin.check.preset mm &&
	test_expect_code 1 respin check kp >out 2>err &&
	test_grep -E "^0 run, 26 reused, [1-9][0-9]* failed$" out
'

test_expect_success 'a v2 that changes only patch 3 runs only the checks of 3 and 4' '
	before=$(installs) &&
	git checkout -q kp-work~1 &&
	sed -i "s/(!ret && 0,/(!ret \&\& 1 == 0,/" $VM/madv_populate.c &&
	git commit -q --amend -a --no-edit &&
	git cherry-pick kp-work >/dev/null &&
	git branch -f kp-work HEAD &&
	git checkout -q kp-work &&
	mark_sent kp && respin track kp --tip HEAD >/dev/null &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kp >out 2>err ||
		{ tail -n 5 err; false; }; } &&
	echo "# v2 check: $(( $(date +%s) - start )) s" &&
	test_grep -E "^11 run, 15 reused, [1-9][0-9]* failed$" out &&
	test $(( $(installs) - before )) = 1 &&
	respin results kp --json >r && found r >got &&
	check_same want got
'

test_done
