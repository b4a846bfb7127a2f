#!/bin/sh
# respin bisect: which patch of a version broke a check, by binary
# search over stored results (real git trees, checks run by the engine):
# fewer runs than testing every patch, stored results never run again,
# a KTAP subtest bisected on its own, a flaky check called flaky.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false

# the base has a KTAP file the check prints; six patches: 2 breaks
# subtest alpha, 4 adds BROKEN (and keeps it), 5 breaks subtest beta
git checkout -q mm-unstable &&
printf "KTAP version 1\n1..2\nok 1 alpha\nok 2 beta\n" >ktap.out &&
git add ktap.out && git commit -qm "selftests: the KTAP file" &&
git checkout -q -b work mm-unstable || exit 1
for i in 1 2 3 4 5 6; do
	echo "$i" >"p$i"
	case $i in
	2) sed -i "s/^ok 1 alpha/not ok 1 alpha/" ktap.out ;;
	4) echo broken >BROKEN ;;
	5) sed -i "s/^ok 2 beta/not ok 2 beta/" ktap.out ;;
	esac
	git add -A && git commit -qm "p$i: patch $i" || exit 1
done
respin track b --base mm-unstable >/dev/null || { echo "Bail out! no series"; exit 1; }

git config respin.check.nb.kind command
git config respin.check.nb.command "echo x >>\"$TRASH/nb.runs\"; test ! -e BROKEN"

test_expect_success 'a failing command check: bisected to the patch, in fewer runs than every patch' '
	respin bisect b --check nb --retries 0 >out 2>err &&
	cat out &&
	test_grep "^Bisected to 4/6 [0-9a-f]\{12\} \"p4: patch 4\": nb fails; passes at 3/6$" out &&
	test $(wc -l <"$TRASH/nb.runs") -lt 7 &&
	test_grep "^b v1, nb: $(wc -l <"$TRASH/nb.runs") runs (0 retries), 0 stored results; testing every patch: 7$" out
'

test_expect_success 'again: every result it needs is stored, nothing runs' '
	rm -f "$TRASH/nb.runs" &&
	respin bisect b --check nb --retries 0 --json >j &&
	test_path_is_missing "$TRASH/nb.runs" &&
	test_grep "\"answer\": \"found\"" j && test_grep "\"patch\": 4," j &&
	test_grep "\"title\": \"p4: patch 4\"" j && test_grep "\"runs\": 0," j &&
	test_grep "\"line\": \"Bisected to 4/6" j
'

test_expect_success 'stored results of respin check are used: only the gap is run' '
	git config respin.check.nb2.kind command &&
	git config respin.check.nb2.command "echo x >>\"$TRASH/nb2.runs\"; test ! -e BROKEN" &&
	respin check b --only nb2 --patch 3 >/dev/null 2>&1 &&
	test_expect_code 1 respin check b --only nb2 --patch 5 >/dev/null 2>&1 &&
	rm -f "$TRASH/nb2.runs" &&
	respin bisect b --check nb2 --retries 0 >out &&
	test_grep "^Bisected to 4/6" out &&
	test $(wc -l <"$TRASH/nb2.runs") = 1 &&
	test_grep "^  3/6 *good *stored" out && test_grep "^  4/6 *bad *ran" out
'

test_expect_success 'retries at the boundary: a steady failure is still blamed' '
	rm -f "$TRASH/nb.runs" &&
	respin bisect b --check nb >out &&
	test $(wc -l <"$TRASH/nb.runs") = 4 &&
	test_grep "^Bisected to 4/6 .*; 3 of 3 runs failed there, 0 of 3 before$" out
'

test_expect_success 'a flaky check at the boundary: called flaky, not blamed, exit 1' '
	git config respin.check.fl.kind command &&
	git config respin.check.fl.command "n=\$(cat \"$TRASH/fl.n\" 2>/dev/null || echo 0); echo \$((n + 1)) >\"$TRASH/fl.n\"; test ! -e BROKEN || test \$((n % 2)) = 1" &&
	test_expect_code 1 respin bisect b --check fl --json >j &&
	test_grep "\"answer\": \"flaky\"" j &&
	test_grep "\"line\": \"Not bisected: fl is flaky at the boundary" j
'

git config respin.check.kt.kind ktap
git config respin.check.kt.command "cat ktap.out"

test_expect_success 'a ktap check: the first patch where it fails' '
	respin bisect b --check kt --retries 0 >out &&
	test_grep "^Bisected to 2/6 [0-9a-f]\{12\} \"p2: patch 2\": kt fails; passes at 1/6$" out
'

test_expect_success '--subtest: only that subtest decides' '
	respin bisect b --check kt --subtest beta --retries 0 >out &&
	cat out &&
	test_grep "^Bisected to 5/6 [0-9a-f]\{12\} \"p5: patch 5\": kt subtest beta fails (FAIL beta); passes at 4/6$" out &&
	respin bisect b --check kt --subtest "al*" --retries 0 >out &&
	test_grep "^Bisected to 2/6" out
'

test_expect_success '--subtest that matches nothing: untestable, exit 1' '
	test_expect_code 1 respin bisect b --check kt --subtest gamma --retries 0 >out &&
	test_grep "no subtest matching gamma" out &&
	test_grep "^Not bisected: kt subtest gamma cannot be tested at 6/6$" out
'

test_expect_success 'nothing fails: nothing to bisect, exit 1' '
	git config respin.check.fine.kind command &&
	git config respin.check.fine.command true &&
	test_expect_code 1 respin bisect b --check fine >out &&
	test_grep "^Nothing to bisect: fine passes at 6/6$" out
'

test_expect_success 'it fails on the base already: not the series, exit 1' '
	git config respin.check.never.kind command &&
	git config respin.check.never.command false &&
	test_expect_code 1 respin bisect b --check never >out &&
	test_grep "^Not the series: never fails on the base already$" out
'

test_expect_success 'bad use: 129 with what to do; an unknown series: 128' '
	test_expect_code 129 respin bisect b 2>err && test_grep "give --check NAME" err &&
	test_expect_code 129 respin bisect b --check nosuch 2>err &&
	test_grep "no check named .nosuch." err &&
	git config respin.check.checkpatch.enabled true &&
	test_expect_code 129 respin bisect b --check checkpatch 2>err &&
	test_grep "looks at each patch alone" err &&
	git config respin.check.checkpatch.enabled false &&
	test_expect_code 129 respin bisect b --check nb --subtest x 2>err &&
	test_grep "subtest goes with a ktap or kselftest check" err &&
	test_expect_code 129 respin bisect b --check nb --retries -3 2>err &&
	git config respin.bisect.retries lots &&
	test_expect_code 129 respin bisect b --check nb 2>err &&
	test_grep "respin.bisect.retries is .lots." err &&
	git config --unset respin.bisect.retries &&
	test_expect_code 128 respin bisect nosuch --check nb 2>err &&
	test_grep "no series named" err
'

# Benches: the synthetic bench of t0625 (tests/helpers/synthbench), a
# time where lower is better; patch 3 of 6 makes it 3% slower at 2%
# noise, and it stays so.
SYNTH="$RESPIN_BUILD/tests/helpers/synthbench"
mkdir -p "$TRASH/state"
git checkout -q -b slow mm-unstable || exit 1
for i in 1 2 3 4 5 6; do
	echo "$i" >"q$i"
	[ $i = 3 ] && echo 3 >synth-effect
	git add -A && git commit -qm "q$i: patch $i" || exit 1
done
respin track q --base mm-unstable >/dev/null || exit 1
git checkout -q mm-unstable
bench() {	# NAME SEED
	git config respin.check.$1.kind bench &&
	git config respin.check.$1.metric lat &&
	git config respin.check.$1.higher false &&
	git config respin.check.$1.command "SYNTH_STATE=$TRASH/state $SYNTH lat $2 2"
}

test_expect_success 'a bench: the patch that made it 3% slower, against the one before it' '
	for seed in 1 2 3; do
		bench b$seed $seed &&
		respin bisect q --check b$seed --json >j$seed || { cat j$seed; return 1; }
		test_grep "\"answer\": \"found\"" j$seed && test_grep "\"patch\": 3," j$seed &&
		perl -MJSON::PP -e "
			local \$/; my \$d = decode_json(<STDIN>);
			my \$p = \$d->{against_before}; my \$b = \$d->{against_base};
			exit 2 unless \$p->{verdict} eq q(worse) && \$b->{verdict} eq q(worse);
			my (\$lo, \$hi) = @{\$p->{interval_pct}};
			exit 3 unless \$lo > 0 && \$lo < 3 && 3 < \$hi + 2;
			exit 4 unless \$d->{before} == 2 && \$d->{runs} > 0;
		" <j$seed || return 1
	done
'

test_expect_success 'a seeded trial: patch 3 named for each of 10 seeds, never another' '
	for seed in 21 22 23 24 25 26 27 28 29 30; do
		bench t$seed $seed &&
		{ respin bisect q --check t$seed --json >jt 2>/dev/null || true; } &&
		sed -n "s/^  \"patch\": \([0-9]*\),$/\1/p" jt >>named || return 1
	done &&
	sort named | uniq -c | sed "s/^ *//" >counts && cat counts &&
	echo "10 3" >want && check_same want counts
'

test_expect_success 'the one line a reply can quote; again, the stored runs serve' '
	first=$(sed -n "s/^  \"runs\": \([0-9]*\),$/\1/p" j1) &&
	respin bisect q --check b1 >out && cat out &&
	c3=$(git rev-parse --short=12 slow~3) &&
	test_grep "^Bisected to 3/6 $c3 \"q3: patch 3\": lat +[0-9.]*% ± [0-9.]*% (worse; lower is better), n=[0-9]* vs [0-9]* runs against 2/6; +[0-9.]*% against the base$" out &&
	again=$(sed -n "s/^q v1, bench b1: \([0-9]*\) runs\{0,1\} taken$/\1/p" out) &&
	test "$again" -lt "$first"
'

test_expect_success 'the runs: n= the patch'"'"'s first, then what it is held to, on every line' '
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$p = \$d->{against_before}; my \$b = \$d->{against_base};
		my \$want = qq(n=\$p->{n_patch} vs \$p->{n_before} runs);
		index(\$d->{line}, \$want) >= 0 or die qq(line: \$d->{line}: no \$want\\n);
		my (\$pos) = grep { \$_->{patch} == 3 } @{\$d->{positions}};
		my \$w = qq(n=\$b->{n_patch} vs \$b->{n_before});
		index(\$pos->{why}, \$w) >= 0 or die qq(3/6: \$pos->{why}: no \$w\\n);
	" <j1 &&
	respin bisect q --check b1 >out &&
	sed -n "s/^  3\/6 against 2\/6: worse .*, n=\([0-9]*\) vs \([0-9]*\)$/\1 \2/p" out >pair &&
	sed -n "s/^Bisected to .*, n=\([0-9]*\) vs \([0-9]*\) runs against 2\/6;.*/\1 \2/p" out >line &&
	test -s pair && check_same pair line
'

test_expect_success 'a later patch that undoes it is said' '
	git checkout -q -b undo mm-unstable &&
	echo 1 >r1 && git add r1 && git commit -qm "r1: one" &&
	echo 3 >synth-effect && git add synth-effect && git commit -qm "r2: slower" &&
	echo 3 >r3 && git add r3 && git commit -qm "r3: three" &&
	echo 0 >synth-effect && git add synth-effect && git commit -qm "r4: fast again" &&
	respin track r --base mm-unstable >/dev/null && git checkout -q mm-unstable &&
	bench ub 7 &&
	respin check r --only ub >/dev/null 2>&1 &&
	respin bisect r --check ub >out && cat out &&
	test_grep "^Bisected to 2/4 [0-9a-f]\{12\} \"r2: slower\": .*; undone by 4/4 \"r4: fast again\"$" out
'

test_expect_success 'a bench that does not move: nothing to bisect, exit 1' '
	git checkout -q -b flat mm-unstable &&
	echo 1 >f1 && git add f1 && git commit -qm "f1: nothing" &&
	echo 2 >f2 && git add f2 && git commit -qm "f2: nothing" &&
	respin track f --base mm-unstable >/dev/null && git checkout -q mm-unstable &&
	bench fb 11 &&
	test_expect_code 1 respin bisect f --check fb >out &&
	test_grep "^Nothing to bisect: fb at 2/2 is not worse than the base$" out
'

test_done
