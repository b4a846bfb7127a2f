#!/bin/sh
# kind = kselftest on the real linux 6.1 tree: a 3-patch mm/ series
# where patch 1 changes only the kernel (mm/madvise.c), patch 2 adds a
# test program to tools/testing/selftests/vm (and TEST_GEN_PROGS) whose
# two KTAP subtests run in the guest from patch 2 on, and patch 3
# breaks one subtest of the tree's own vm/madv_populate.  The vm tests
# are built static from each patch's tree against its installed
# headers and run in each patch's kernel under QEMU (tinyconfig plus
# PROC_PAGE_MONITOR, for madv_populate's /proc/self/pagemap).  The
# tree's own split_huge_page_test fails everywhere (no THP in a
# tinyconfig): an old failure, nobody's, so every position FAILs and
# only what changes is attributed.
#
# Each finding is attributed to exactly its patch; a second run reuses
# every result; a v2 changing only patch 3 builds only patch 3's tests
# (the programs of the base and patches 1-2 come from the cache).
#
# The repository (its own clone, kselftest) and its build directory
# live in the test cache and are reused between runs; the patches carry
# a run-unique comment (patch 1 in the kernel, 2 and 3 in the tests),
# so the checks really run and patches 2 and 3 build their programs
# (the base's results may be stored from an earlier run).
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] ||
	test_skip_all "no static libc (apt-get install libc6-dev)"
KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
REPO=$RESPIN_TEST_CACHE/kselftest
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new

setup() {
	kernel_test_repo "$REPO" "$KSRC" PROC_PAGE_MONITOR
}

VM=tools/testing/selftests/vm

make_series() {
	git checkout -q -B kst-work mm-unstable &&
	sed -i "0,/^#include/s//\/* run $RUN *\/\n#include/" mm/madvise.c &&
	git commit -qam "mm/madvise: note the run" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	cat >$VM/respin_probe.c <<-EOF &&
	// SPDX-License-Identifier: GPL-2.0
	/* run $RUN: an anonymous page, mapped and unmapped */
	#include <sys/mman.h>
	#include "../kselftest.h"

	int main(void)
	{
		char *p;

		ksft_print_header();
		ksft_set_plan(2);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ksft_test_result(p != MAP_FAILED, "anonymous mapping\n");
		if (p != MAP_FAILED)
			p[0] = 1;
		ksft_test_result(p != MAP_FAILED && !munmap(p, 4096),
				 "unmapping it\n");
		ksft_finished();
	}
	EOF
	sed -i "s/^TEST_GEN_PROGS += split_huge_page_test$/&\nTEST_GEN_PROGS += respin_probe/" $VM/Makefile &&
	git add $VM/respin_probe.c &&
	git commit -qam "selftests/vm: a probe of anonymous mappings" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	python3 - "$RUN" <<-\EOPY &&
	import sys
	p = 'tools/testing/selftests/vm/madv_populate.c'
	s = open(p).read()
	old = '\tret = madvise(addr, SIZE, MADV_POPULATE_READ);\n\tksft_test_result(!ret, "MADV_POPULATE_READ\\n");\n'
	assert old in s
	new = old.replace('(!ret,', '(!ret && 0,').replace('\tret =', '\t/* run %s */\n\tret =' % sys.argv[1])
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "selftests/vm: madv_populate: expect less" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

{
	setup && make_series &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.ks.kind kselftest &&
	git config respin.check.ks.targets mm &&
	respin track kst --base mm-unstable --tip kst-work
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
CACHE=$REPO/.git/respin/kselftest

# "new broken gone fixed" for patches 1..3, one line each
changes() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $i (1..3) {
			my $c = $p[$i]{results}{ks};
			print join(" ", map { $c->{$_} ? join(",", @{$c->{$_}}) || "-" : "?" }
				qw(new_tests broken_tests gone_tests fixed_tests)), "\n";
		}
	' <"$1"
}

programs() {
	ls "$CACHE" 2>/dev/null | grep -cv '\.tmp\.' || :
}

test_expect_success 'the real tree, a tinyconfig, a 3-patch series' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success 'check builds and runs the vm tests at each position' '
	before=$(programs) &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kst >out 2>err ||
		{ tail -n 30 err out; false; }; } &&
	echo "# first check: $(( $(date +%s) - start )) s" &&
	cat out &&
	test_grep -E "^(8 run, 0|7 run, 1|6 run, 2) reused, [1-4] failed$" out &&
	after=$(programs) &&
	echo "# program sets: $before before, $after after" &&
	test $(( after - before )) -ge 2 && test $(( after - before )) -le 3
'

test_expect_success 'each finding is attributed to exactly its patch' '
	respin results kst --json >r && changes r >got && cat got &&
	cat >want <<-\EOF &&
	- - - -
	vm/respin_probe/anonymous mapping,vm/respin_probe/unmapping it - - -
	- vm/madv_populate/MADV_POPULATE_READ - -
	EOF
	check_same want got &&
	respin results kst >t && cat t &&
	test_grep "^ *2/3 .*vm [0-9]*/[0-9]*.*, 2 new .*selftests/vm: a probe" t &&
	test_grep "^ *3/3 .*vm [0-9]*/[0-9]*.*, [0-9]* failed, 1 broken .*madv_populate" t &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		for my \$i (0..3) {
			printf qq(# ks at %d: %s, %.1f s\n), \$i, \$p[\$i]{results}{ks}{summary},
				\$p[\$i]{results}{ks}{duration};
		}
	" <r &&
	for i in 0 1 2 3
	do
		respin results kst --check ks --patch $i >log &&
		sed -n "s/^# respin: /# at $i: /p" log || return 1
	done
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check kst >out 2>err &&
	test_grep -E "^0 run, 8 reused, [1-4] failed$" out
'

test_expect_success 'a v2 that changes only patch 3 builds only its tests' '
	before=$(programs) &&
	sed -i "s/(!ret && 0,/(!ret \&\& 1 == 0,/" $VM/madv_populate.c &&
	git commit -q --amend -a --no-edit &&
	respin track kst --tip HEAD >/dev/null &&
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kst >out 2>err ||
		{ tail -n 5 err; false; }; } &&
	echo "# v2 check: $(( $(date +%s) - start )) s" &&
	test_grep -E "^2 run, 6 reused, [1-4] failed$" out &&
	test $(( $(programs) - before )) = 1 &&
	respin results kst --json >r && changes r >got &&
	check_same want got
'

test_done
