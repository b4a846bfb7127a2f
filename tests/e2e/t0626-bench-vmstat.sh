#!/bin/sh
# A bench's /proc/vmstat deltas (respin.check.NAME.vmstat, issue 22):
# counted around the command by respin-bench-run on this machine's
# real /proc/vmstat, stored a run at a time beside the metric, compared
# like it; in results --json, in the cover letter's Ops table and in
# respin results --format mmtests (checked line by line); part of the
# definition; and the settings' errors.  The work the patch adds is
# real: tests/helpers/memwork mlocks 1024 pages a run (counted in
# unevictable_pgs_mlocked, which other processes rarely move) and
# faults 4 transparent huge pages on both sides.  The metric itself is
# tests/helpers/synthbench's (seeded: its table is exact).
. "$(dirname "$0")/lib.sh"

SYNTH="$RESPIN_BUILD/tests/helpers/synthbench"
MEMWORK="$RESPIN_BUILD/tests/helpers/memwork"
[ -x "$SYNTH" ] && [ -x "$MEMWORK" ] || { echo "Bail out! no $SYNTH or $MEMWORK: make units"; exit 1; }
[ -r /proc/vmstat ] || test_skip_all "no /proc/vmstat to read here"
"$MEMWORK" 1024 || test_skip_all "mlock of 1024 pages refused here (RLIMIT_MEMLOCK)"

git init -q t && cd t || exit 1
echo "base" >README && git add README && git commit -qm base && git branch base
git checkout -q -b ml base &&
echo 1024 >memwork-pages && echo 3 >synth-effect && git add . &&
git commit -qm "mm: lock 1024 pages a run, 3% slower" &&
respin track ml --base base >/dev/null &&
git checkout -q base || { echo "Bail out! no series"; exit 1; }
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
mkdir "$TRASH/state"

git config respin.check.vm.kind bench
git config respin.check.vm.metric lat
git config respin.check.vm.higher false
git config respin.check.vm.runs 5..5
git config respin.check.vm.vmstat "unevictable_pgs_mlocked thp_fault_alloc compact_*"
git config respin.check.vm.command "SYNTH_STATE=$TRASH/state $SYNTH lat 1 1 && $MEMWORK \$(cat memwork-pages 2>/dev/null || echo 0) 8 && echo respin-metric: latency 5"

test_expect_success 'check: the deltas of every run stored beside the metric' '
	respin check ml >out 2>err && cat out err &&
	test_grep "^2 run, 0 reused, 0 failed$" out &&
	respin results ml --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$i (0, 1) {
			my \$c = \$d->{patches}[\$i]{results}{vm};
			my \$n = @{\$c->{samples}};
			exit 10 + \$i unless \$n == 5;
			my \$sum = 0; \$sum += \$_ for @{\$c->{samples}};
			exit 18 unless abs(\$c->{mean} - \$sum / \$n) < 1e-9 && \$c->{stddev} > 0;
			my \$v = \$c->{vmstat} or exit 12;
			# the counters the globs name, and only those
			for (keys %\$v) {
				exit 13 unless /^(compact_.*|unevictable_pgs_mlocked|thp_fault_alloc)\$/;
				exit 14 unless @{\$v->{\$_}{samples}} == \$n;
				exit 15 if grep { \$_ != int(\$_) } @{\$v->{\$_}{samples}};
			}
			exit 16 unless \$v->{unevictable_pgs_mlocked} && \$v->{compact_stall};
			exit 17 unless \$c->{metrics}{latency}{mean} == 5;
		}
		my \$b = \$d->{patches}[0]{results}{vm}{vmstat}{unevictable_pgs_mlocked};
		my \$p = \$d->{patches}[1]{results}{vm}{vmstat}{unevictable_pgs_mlocked};
		print qq(mlocked: base \$b->{mean}, patch \$p->{mean} \$p->{verdict}\n);
		exit 20 unless \$b->{mean} < 50 && !defined \$b->{verdict};
		exit 21 if grep { \$_ < 1024 } @{\$p->{samples}};
		exit 22 unless \$p->{mean} < 1100;
		exit 23 unless \$p->{verdict} eq q(higher) && \$p->{significant};
		exit 24 if defined \$p->{change_pct};	# from 0: no %
		exit 25 unless \$p->{n_base} == 5 && \$p->{n_patch} == 5;
		my \$l = \$d->{patches}[1]{results}{vm}{metrics}{latency};
		exit 26 unless \$l->{verdict} eq q(same);
	" <r
'

test_expect_success 'the cover letter has the Ops table' '
	respin cover ml >c &&
	sed -n "/^vm, \/proc\/vmstat, the mean change a run, v1, against the base:$/,/^\$/p" c >ops &&
	cat ops &&
	test_grep "^ *base *1/1$" ops &&
	test_grep "^Ops unevictable_pgs_mlocked  *[0-9.]* (   0.00%)  *10[0-9][0-9]\.[0-9][0-9] \*     n/a\*$" ops &&
	test_grep "; Ops: the mean /proc/vmstat" c &&
	if grep -q "\[never\]" /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
	then
		test_grep ! "^Ops THP fault alloc" ops
	else
		test_grep "^Ops THP fault alloc  *[0-9.]* (   0.00%)  *[0-9.]* [(*] *-\?[0-9.]*%[)*]$" ops
	fi
'

test_expect_success 'results --format mmtests: the tables, line by line' '
	respin results ml --format mmtests >mm && cat mm &&
	sed -n "1,13p" mm >main &&
	cat >want <<-\EOW &&
	vm (lat, lower is better, the same within +-2%), v1, against the base:
	                                base                1/1
	Amean     vm        99.66 (   0.00%)  102.51 *  -2.86%*
	Amean     latency    5.00 (   0.00%)    5.00 (   0.00%)
	Stddev    vm         0.83 (   0.00%)    0.84 (  -0.46%)
	Stddev    latency    0.00 (   0.00%)    0.00 (   0.00%)
	CoeffVar  vm         0.84 (   0.00%)    0.82 (   2.34%)
	CoeffVar  latency    0.00 (   0.00%)    0.00 (   0.00%)
	Min       vm        98.76 (   0.00%)  101.18 (  -2.45%)
	Min       latency    5.00 (   0.00%)    5.00 (   0.00%)
	Max       vm       100.53 (   0.00%)  103.25 (  -2.70%)
	Max       latency    5.00 (   0.00%)    5.00 (   0.00%)
	Runs      vm                       5                  5
	EOW
	check_same want main &&
	test -z "$(sed -n 14p mm)" &&
	sed -n "15p" mm >title &&
	echo "vm, /proc/vmstat, the mean change a run, v1, against the base:" >want &&
	check_same want title &&
	sed -n "16p" mm >head && test_grep "^ \{30,\}base \{10,\}1/1$" head &&
	sed -n "17,\$p" mm >rows &&
	while read -r line; do
		echo "$line" | grep -q "^Ops [A-Za-z_ ]*[a-z]  *[0-9]*\.[0-9][0-9] (   0\.00%)  *[0-9]*\.[0-9][0-9] [(*] *\(-\?[0-9]*\.[0-9][0-9]%\|n/a\)[)*]$" ||
		{ echo "not an Ops row: $line"; return 1; }
	done <rows &&
	# every row as long as the header: the columns line up
	awk "NR >= 16 && length(\$0) != w && w { bad = 1 } NR == 16 { w = length(\$0) } END { exit bad }" mm &&
	# the cover letter prints the same tables
	sed -n "/^vm (lat,/,/^---$/p" ../t/c | sed "\$d" >in-cover &&
	printf "\n" >>mm &&
	check_same mm in-cover
'

test_expect_success 'the deltas are part of the definition: other globs run again' '
	respin check ml >out && test_grep "^0 run, 2 reused, 0 failed$" out &&
	git config respin.check.vm.vmstat "unevictable_pgs_mlocked nosuch_*" &&
	respin check ml >out 2>err && test_grep "^2 run, 0 reused, 0 failed$" out &&
	respin results ml --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my @k = keys %{\$d->{patches}[1]{results}{vm}{vmstat}};
		exit 2 unless @k == 1 && \$k[0] eq q(unevictable_pgs_mlocked);
	" <r &&
	respin results ml --check vm --patch 1 >log &&
	test_grep "^respin-bench-run: no /proc/vmstat counter matches nosuch_\*$" log &&
	test_grep "^respin-metric: vmstat:unevictable_pgs_mlocked [0-9]*$" log &&
	respin check --list --json >list &&
	test_grep "\"vmstat\": \"unevictable_pgs_mlocked nosuch_\*\"" list &&
	respin check --list >list &&
	test_grep "^vm .*(vmstat unevictable_pgs_mlocked nosuch_\*)$" list
'

test_expect_success 'a bench with no vmstat and no recipe runs its command as it is' '
	git config respin.check.plain.kind bench &&
	git config respin.check.plain.runs 2 &&
	git config respin.check.plain.command "echo \"respin-metric: plain 1\"; echo \"respin-metric: other 2\"; ps -o args= -p \$\$" &&
	test_when_finished "git config --remove-section respin.check.plain" &&
	respin check ml --only plain >out 2>err &&
	respin results ml --check plain --patch 1 >log &&
	test_grep ! "respin-bench-run" log && test_grep ! "vmstat:" log &&
	respin results ml --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$c = \$d->{patches}[1]{results}{plain};
		exit 2 if \$c->{vmstat};
		exit 3 unless \$c->{metrics}{other}{mean} == 2;
		exit 4 if \$c->{metrics}{plain};	# the metric is not its own secondary
	" <r
'

test_expect_success 'respin-bench-run not beside respin: exit 128, naming it' '
	mkdir -p "$TRASH/alone" && cp "$RESPIN_BUILD/respin" "$TRASH/alone/respin" &&
	git config respin.check.vm.vmstat "unevictable_pgs_mlocked" &&
	git config respin.check.vm.runs 6..6 &&
	test_expect_code 128 "$TRASH/alone/respin" check ml --only vm >out 2>err &&
	cat err &&
	test_grep "^fatal: bench vm: respin-bench-run, which runs a recipe or counts /proc/vmstat, is not beside respin" err &&
	git config respin.check.vm.runs 5..5
'

test_expect_success 'bad settings: exit 128, naming the key' '
	test_when_finished "git config respin.check.vm.vmstat unevictable_pgs_mlocked" &&
	for bad in "Compact_*" "compact_[" "compact-stall" "  "; do
		git config respin.check.vm.vmstat "$bad" &&
		test_expect_code 128 respin check ml 2>err &&
		test_grep "^fatal: respin.check.vm.vmstat: " err &&
		test_expect_code 128 respin results ml 2>err &&
		test_grep "^fatal: respin.check.vm.vmstat: " err || return 1
	done &&
	git config respin.check.vm.vmstat "Compact_*" &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.vm.vmstat: .Compact_\*. is not a glob of /proc/vmstat counter names (lower-case letters, digits, ._. and the wildcards \* ? \[...\]; or all)$" err &&
	git config respin.check.vm.vmstat "compact_[" &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.vm.vmstat: .compact_\[. has a .\[. without its .\]." err &&
	git config respin.check.vm.vmstat "" &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.vm.vmstat: no counters named" err
'

test_expect_success 'a recipe: unknown, with a command, with another metric; vmstat off a bench' '
	git config respin.check.vm.recipe stress &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.vm.recipe: .stress. is not a recipe (there are: stress-ng-vm, fio-randread)$" err &&
	git config respin.check.vm.recipe stress-ng-vm &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.vm.recipe: .vm. has a command too (respin.check.vm.command): give one of the two$" err &&
	git config --unset respin.check.vm.recipe &&
	git config respin.check.r.kind bench &&
	git config respin.check.r.recipe fio-randread &&
	git config respin.check.r.metric bw &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.r.metric: the recipe fio-randread gives the metric .MiB/s. itself: leave metric and pattern out$" err &&
	git config --remove-section respin.check.r &&
	git config respin.check.c.kind command &&
	git config respin.check.c.command true &&
	git config respin.check.c.vmstat "compact_*" &&
	test_expect_code 128 respin check ml 2>err &&
	test_grep "^fatal: respin.check.c.vmstat: only a bench check (kind = bench) has it; .c. is of kind command$" err &&
	git config --remove-section respin.check.c &&
	respin check ml >out && test_grep "^[0-9] run, [0-9] reused, 0 failed$" out
'

test_expect_success 'results --format: an unknown one, with --json, with --check (129); no bench (128)' '
	test_expect_code 129 respin results ml --format yaml 2>err &&
	test_grep "^error: --format: .yaml. is not text, json or mmtests$" err &&
	test_expect_code 129 respin results ml --json --format mmtests 2>err &&
	test_grep "^error: --json and --format mmtests: give one$" err &&
	test_expect_code 129 respin results ml --format mmtests --check vm --patch 1 2>err &&
	test_grep "^error: --format shows every check: it takes no --check$" err &&
	respin results ml --format json >j && respin results ml --json >k && check_same k j &&
	respin results ml --format text >t1 && respin results ml >t2 && check_same t2 t1 &&
	git config respin.check.vm.enabled false &&
	test_expect_code 128 respin results ml --format mmtests 2>err &&
	test_grep "^fatal: no bench results stored for ml v1: run .respin check ml@v1. with a bench check (kind = bench)$" err &&
	git config --unset respin.check.vm.enabled
'

test_done
