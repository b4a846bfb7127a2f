#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin.check.NAME.guest = true on the real linux 6.1 tree: checks
# whose command runs inside each patch's own kernel (the build check's
# tiny-qemu bzImage under QEMU, the host's root over 9p).  The series
# of lib-kguest.sh: patch 1 adds a line to /proc/meminfo, patch 2 a
# WARN_ON_ONCE() that reading it triggers, patch 3 a comment elsewhere.
# A command check and a ktap check that read /proc/meminfo in the
# guest fail on the base and pass from patch 1 on; the runtime warning
# is patch 2's, not patch 3's (which has it too); a bench in the guest
# takes its runs, one boot each, and carries the warning as well; the
# RESPIN_* variables and RESPIN_OUT are there in the guest; a second
# run reuses every result.
#
# The repository (its own clone, kguest) and its build directory live
# in the test cache and are reused between runs; the patches carry a
# run-unique comment, so the checks really run.
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] ||
	test_skip_all "no static libc for the guest's init (apt-get install libc6-dev)"
KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
REPO=$RESPIN_TEST_CACHE/kguest
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new
# the runner's caches (its init, the KVM probe's answer): the user's
export RESPIN_CACHE=$RESPIN_TEST_CACHE

. "$SRC_DIR/tests/e2e/lib-kguest.sh"

{
	kernel_test_repo "$REPO" "$KSRC" --no-config &&
	# (a run stopped midway may have left v2's bench)
	{ git config --remove-section respin.check.faults 2>/dev/null || :; } &&
	kguest_series kg-work "$RUN" &&
	respin track kg --base mm-unstable --tip kg-work &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.build.kconfig tiny-qemu &&
	git config respin.check.build.artifacts arch/x86/boot/bzImage &&
	git config respin.check.meminfo.kind command &&
	git config respin.check.meminfo.command \
		"grep \"^RespinProbe:\" /proc/meminfo && env | grep ^RESPIN_ | sort >\"\$RESPIN_OUT/env\"" &&
	git config respin.check.meminfo.guest true &&
	git config respin.check.meminfo.timeout 300 &&
	git config respin.check.probe.kind ktap &&
	git config respin.check.probe.command \
		"echo \"KTAP version 1\"; echo 1..2; grep -q ^RespinProbe: /proc/meminfo && echo \"ok 1 probe\" || echo \"not ok 1 probe\"; test \"\$(id -u)\" = 0 && echo \"ok 2 root\" || echo \"not ok 2 root\"" &&
	git config respin.check.probe.guest true &&
	git config respin.check.probe.timeout 300 &&
	git config respin.check.lines.kind bench &&
	git config respin.check.lines.command \
		"echo \"respin-metric: lines \$(cat /proc/meminfo /proc/meminfo | wc -l)\"" &&
	git config respin.check.lines.runs 2 &&
	git config respin.check.lines.guest true &&
	git config respin.check.lines.timeout 300
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
OUT=$REPO/.git/respin/guest/kg

# per check, the new runtime warnings at patches 1..3
found() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $k (qw(meminfo probe lines)) {
			print "$k: ", join(" | ", map { my $c = $_->{results}{$k};
				$c ? join(",", @{$c->{new_runtime_warnings}}) || "-" : "?"
				} @p[1..3]), "\n";
		}
		for my $k (qw(meminfo probe)) {
			print "$k status: ", join(" ", map { $_->{results}{$k}{status} } @p), "\n";
		}
	' <"$1"
}

test_expect_success 'the real tree, a 3-patch series, guest checks' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success 'respin check --list says they run in the kernel' '
	respin check --list >list &&
	test_grep "^meminfo .*(in the patch.s kernel: respin-guest)$" list &&
	respin check --list --json >list.json &&
	test_grep "\"guest\": true" list.json
'

test_expect_success 'respin check: the guest commands run in each patch.s kernel' '
	start=$(date +%s) &&
	{ test_expect_code 1 respin check kg >out 2>err ||
		{ tail -n 40 err out; false; }; } &&
	echo "# first check: $(( $(date +%s) - start )) s" &&
	cat out err &&
	# every patch.s 12 run (their patches are new each run); the base
	# is the same tree each run, so its checks may have been stored by an
	# earlier run, all or some (a bench on this repository stores the
	# base.s build alone)
	sed -n "s/^\([0-9]*\) run, \([0-9]*\) reused, 2 failed$/\1 \2/p" out >counts &&
	read ran reused <counts &&
	test $((ran + reused)) -eq 16 && test "$ran" -ge 12 &&
	test_grep -E "^meminfo at 0/3: FAIL \((exit 1|stored, not run again)\)" err &&
	test_grep "^probe at 0/3: FAIL" err &&
	test_grep "^meminfo at 2/3: a new kernel warning: WARNING: at fs/proc/meminfo.c meminfo_proc_show$" err &&
	test_grep ! "at 3/3: a new kernel warning" err &&
	test_grep ! "at 1/3: a new kernel warning" err
'

test_expect_success 'the warning is patch 2.s only; fails before patch 1, passes after' '
	respin results kg --json >r && found r >got && cat got &&
	cat >want <<-\EOF &&
	meminfo: - | WARNING: at fs/proc/meminfo.c meminfo_proc_show | -
	probe: - | WARNING: at fs/proc/meminfo.c meminfo_proc_show | -
	lines: - | WARNING: at fs/proc/meminfo.c meminfo_proc_show | -
	meminfo status: FAIL PASS PASS PASS
	probe status: FAIL PASS PASS PASS
	EOF
	check_same want got &&
	respin results kg >t && cat t &&
	test_grep "^ *2/3 .*ok, +1 kernel warning .*warn when it is read$" t &&
	test_grep ! "^ *3/3 .*kernel warning" t &&
	respin results kg --check meminfo --patch 2 >d &&
	test_grep "^new       WARNING: at fs/proc/meminfo.c meminfo_proc_show$" d &&
	test_grep "^respin-guest-end: exit 0$" d &&
	test_grep "^respin-guest-dmesg:$" d &&
	test_grep "WARNING: CPU: 0 PID: [0-9]* at fs/proc/meminfo.c:[0-9]* meminfo_proc_show" d &&
	respin results kg --check meminfo --patch 3 >d3 &&
	test_grep ! "^new " d3
'

test_expect_success 'the bench ran in the guest, one boot a run' '
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$p (@{\$d->{patches}}) {
			my \$c = \$p->{results}{lines};
			my %v = map { \$_ => 1 } @{\$c->{samples}};
			print scalar(@{\$c->{samples}}), q( ), join(q(,), sort keys %v), qq(\n);
		}
	" <r >got &&
	cat got &&
	# the base: 2 more runs for each run of the test (the same tree)
	base=$(head -n 1 got | cut -d" " -f2) &&
	n=$(head -n 1 got | cut -d" " -f1) &&
	test $n -ge 2 && test $((n % 2)) = 0 &&
	printf "%s %s\n2 %s\n2 %s\n2 %s\n" $n $base $((base + 2)) $((base + 2)) \
		$((base + 2)) >want &&
	check_same want got
'

test_expect_success 'the RESPIN_* variables in the guest, and RESPIN_OUT' '
	sed "s/=.*//" "$OUT/meminfo/env" >names &&
	cat >want <<-\EOF &&
	RESPIN_BUILD
	RESPIN_OUT
	RESPIN_PATCH
	RESPIN_PATCHES
	RESPIN_SERIES
	RESPIN_SRC
	RESPIN_TREE
	EOF
	check_same want names &&
	test_grep "^RESPIN_PATCH=3$" "$OUT/meminfo/env" &&
	test_grep "^RESPIN_SERIES=kg$" "$OUT/meminfo/env" &&
	test_grep "^RESPIN_OUT=$OUT/meminfo$" "$OUT/meminfo/env" &&
	test_grep "^RESPIN_SRC=$REPO/.git/respin/worktrees/kg$" "$OUT/meminfo/env"
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check kg >out 2>err &&
	test_grep "^0 run, 16 reused, 2 failed$" out
'

test_expect_success 'guest is part of the definition: the same command on the host is another check' '
	git config respin.check.meminfo.guest false &&
	test_when_finished "git config respin.check.meminfo.guest true" &&
	respin check --list --json >l2 &&
	test_must_fail cmp list.json l2 &&
	test_expect_code 1 respin check kg --only meminfo --patch 2 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out
'

test_expect_success 'guest on a kind that cannot: an error naming the key' '
	git config respin.check.build.guest true &&
	test_when_finished "git config --unset respin.check.build.guest" &&
	test_expect_code 128 respin check kg 2>err &&
	test_grep "respin.check.build.guest: only command, ktap and bench checks run in the guest" err &&
	git config respin.check.build.guest maybe &&
	test_expect_code 128 respin check kg 2>err &&
	test_grep "respin.check.build.guest: .maybe. is not true or false" err
'

test_expect_success 'v2 adds a patch that slows every page fault: its bench in the guest' '
	git checkout -q kg-work &&
	kguest_delay_patch "$RUN" &&
	mark_sent kg && respin track kg >track.out &&
	git config respin.check.faults.kind bench &&
	git config respin.check.faults.recipe stress-ng-vm &&
	git config respin.check.faults.vmstat "pgfault pgalloc_*" &&
	git config respin.check.faults.guest true &&
	git config respin.check.faults.append transparent_hugepage=never &&
	git config respin.check.faults.runs 3..10 &&
	git config respin.check.faults.timeout 120 &&
	start=$(date +%s) &&
	{ respin check kg --patch 4 >out 2>err ||
		{ tail -n 40 err out; false; }; } &&
	echo "# v2 check of patch 4: $(( $(date +%s) - start )) s" &&
	cat out err &&
	test_grep -E "^[0-9]+ run, [0-9]+ reused, 0 failed$" out
'

test_expect_success 'the page-fault bench in the guest: worse at patch 4 only' '
	respin results kg --json >r2 &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my @p = @{\$d->{patches}};
		print join(q( ), map { \$_->{results}{faults}{verdict} // q(-) } @p[1..4]), qq(\n);
	" <r2 >got && cat got &&
	echo "- - - worse" >want &&
	check_same want got
'

test_expect_success 'its /proc/vmstat rows in the mmtests table: fewer faults a run' '
	respin results kg --format mmtests >tables && cat tables &&
	sed -n "/^faults, \/proc\/vmstat,/,/^\$/p" tables >ops &&
	test_grep "^Ops pgfault  *[0-9]" ops &&
	test_grep "^Ops .* allocs  *[0-9]" ops &&
	# the delay leaves fewer page faults in the recipe.s 3 s: the
	# mean a run at patch 4 (the last column) below the base.s
	grep "^Ops pgfault " ops | perl -ne "
		my @v = /([0-9]+\.[0-9]+) [(*]/g;
		exit !(@v >= 2 && \$v[-1] < \$v[0]);
	"
'

test_done
