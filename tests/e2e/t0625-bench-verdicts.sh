#!/bin/sh
# Benchmark verdicts through the real respin check (issue 11): a
# synthetic bench with a known effect and noise (tests/helpers/
# synthbench, seeded) on small one-patch series; the verdicts and what
# results --json, the tables and the cover letter say of them; the base
# shared by every patch and its runs interleaved with the patch's; kept
# build artifacts; the threshold and artifacts settings and their
# errors.  The many-trial part of the statistical trial is the unit test
# t-verdict (same loop, no processes); make bench runs it all through
# respin check (tools/bench/verdicts.sh).
. "$(dirname "$0")/lib.sh"

SYNTH="$RESPIN_BUILD/tests/helpers/synthbench"
[ -x "$SYNTH" ] || { echo "Bail out! no $SYNTH: make units"; exit 1; }

# A repository with a base and one-patch series: each patch sets the
# bench's effect in synth-effect.
git init -q t && cd t || exit 1
echo "base" >README && git add README && git commit -qm base && git branch base
series() {	# NAME EFFECT
	git checkout -q -b "$1" base &&
	echo "$2" >synth-effect && git add synth-effect &&
	git commit -qm "$1: the effect is $2%" &&
	respin track "$1" --base base >/dev/null
}
series slow 3 && series flat 0 && series seed -2.7 || { echo "Bail out! no series"; exit 1; }
git checkout -q base
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
mkdir "$TRASH/state"

# bench NAME METRIC SEED NOISE [DRIFT]: a synthbench check
bench() {
	git config respin.check.$1.kind bench &&
	git config respin.check.$1.metric $2 &&
	git config respin.check.$1.command \
		"SYNTH_STATE=$TRASH/state $SYNTH $2 $3 $4 ${5:-}"
}

# verdict SERIES CHECK: the verdict of patch 1 (and its fields) in
# results --json, as "verdict n_base n_patch runs_needed"
verdict() {
	respin results "$1" --json | perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		my $c = $d->{patches}[1]{results}{$ARGV[0]} or exit 3;
		print join(" ", $c->{verdict}, $c->{n_base}, $c->{n_patch},
			   $c->{runs_needed} // "null"), "\n";
	' "$2"
}

test_expect_success 'a 3% regression at 2% noise is worse, for each seed' '
	rm -f "$TRASH/state/order" &&
	for seed in 1 2 3; do
		bench lat$seed lat $seed 2 &&
		git config respin.check.lat$seed.higher false &&
		respin check slow --only lat$seed >out 2>err &&
		test_grep "^2 run, 0 reused, 0 failed$" out &&
		verdict slow lat$seed >v && cat v &&
		test_grep "^worse [0-9]* [0-9]* null$" v || return 1
	done
'

test_expect_success 'the base and the patch take turns: base, patch, patch, base' '
	head -n 8 "$TRASH/state/order" | cut -d" " -f1 | tr "\n" " " >first &&
	echo >>first && echo "0 1 1 0 0 1 1 0 " >want && check_same want first
'

test_expect_success 'results --json: verdict, change, its interval, n, runs needed' '
	respin results slow --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$c = \$d->{patches}[1]{results}{lat1};
		my (\$lo, \$hi) = @{\$c->{interval_pct}};
		exit 2 unless \$c->{verdict} eq q(worse) && \$c->{significant};
		exit 3 unless \$lo > 0 && \$lo <= \$c->{change_pct} && \$c->{change_pct} <= \$hi;
		exit 4 unless \$lo < 3 && 3 < \$hi;	# it covers the true +3%
		exit 5 unless \$c->{gain_pct} == -\$c->{change_pct};
		my \$all = @{\$d->{patches}[0]{results}{lat1}{samples}};
		exit 6 unless \$c->{n_base} <= \$all && \$c->{n_base} >= \$c->{n_patch};
		exit 7 unless \$c->{n_patch} == @{\$c->{samples}} && \$c->{n_patch} >= 5;
		exit 8 unless !defined \$c->{runs_needed} && \$c->{threshold_pct} == 2;
	" <r
'

test_expect_success 'a bench decided is not run again' '
	respin check slow --only lat1 >out &&
	test_grep "^0 run, 2 reused, 0 failed$" out
'

test_expect_success 'no effect at 2% noise: never better or worse' '
	for seed in 1 2 3; do
		bench flat$seed lat 1$seed 2 &&
		respin check flat --only flat$seed >out 2>err &&
		verdict flat flat$seed >v && cat v &&
		test_grep "^\(same\|inconclusive\) " v || return 1
	done
'

test_expect_success 'the seed'"'"'s case (-2.7% at 7.1%, 40 runs at most): inconclusive with the runs needed, never the same' '
	for seed in 1 2 3 4; do
		bench ops$seed ops 2$seed 7.1 &&
		git config respin.check.ops$seed.runs 5..40 &&
		respin check seed --only ops$seed >out 2>err &&
		verdict seed ops$seed >v && cat v >>all || return 1
	done &&
	cat all &&
	test_grep ! "^same" all && test_grep ! "^better" all &&
	# every inconclusive one ran to the maximum and says what it needs
	test_grep "^inconclusive 40 40 [0-9]*$" all &&
	awk "/^inconclusive/ { if (\$4 <= 40) bad = 1 } END { exit bad }" all &&
	test_grep ! "^inconclusive .* null$" all
'

test_expect_success 'the table marks it: ?, with the runs a side needed' '
	respin results seed >t && cat t &&
	test_grep "^ *1/1 .*-[0-9.]*% ? (n=40, [0-9]* needed)" t
'

test_expect_success 'the cover letter: ? cells and the runs needed' '
	respin cover seed >c &&
	sed -n "/^ops1 (ops, higher is better, the same within +-2%)/,/^Runs/p" c >tab && cat tab &&
	test_grep "^Amean     ops1 .* ? *-[0-9.]*%?$" tab &&
	test_grep "^Runs      ops1 *40 *40 ([0-9]* needed)$" tab
'

test_expect_success 'the report marks the cell inconclusive' '
	respin report seed >page.html &&
	test_grep "<td class=\"pass inconclusive\"" page.html
'

test_expect_success 'the threshold decides what counts as the same, when read' '
	verdict flat flat1 >before && test_grep "^same " before &&
	git config respin.check.flat1.threshold 0.1% &&
	verdict flat flat1 >after && cat after &&
	test_grep "^inconclusive [0-9]* [0-9]* [0-9]*$" after &&
	git config --unset respin.check.flat1.threshold
'

test_expect_success 'a bad threshold: exit 128, naming the key' '
	for bad in abc 0 -1 150 2x; do
		git config respin.check.flat1.threshold "$bad" &&
		test_expect_code 128 respin check flat --only flat1 >out 2>err &&
		test_grep "^fatal: respin.check.flat1.threshold: .$bad. is not a percentage above 0 and at most 100" err &&
		test_expect_code 128 respin results flat 2>err &&
		test_grep "respin.check.flat1.threshold" err || return 1
	done &&
	git config --unset respin.check.flat1.threshold
'

test_expect_success 'a patch whose bench run gives no value: ERROR naming it, the base kept' '
	git config respin.check.half.kind bench &&
	git config respin.check.half.metric v &&
	git config respin.check.half.command "test -e synth-effect || echo respin-metric: v 1" &&
	test_when_finished "git config --remove-section respin.check.half" &&
	test_expect_code 1 respin check slow --only half >out 2>err && cat out err &&
	test_grep "^half at 1/1: ERROR: no metric in its output$" err &&
	test_grep "^hint: print a line .respin-metric: v VALUE., or set respin.check.half.pattern$" err &&
	test_grep "^2 run, 0 reused, 1 failed$" out &&
	respin results slow --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit 2 unless @{\$d->{patches}[0]{results}{half}{samples}} == 1;
		exit 3 unless !@{\$d->{patches}[1]{results}{half}{samples}};
	" <r
'

# Two patches with different needs: patch 1 is +10% (decided at once),
# patch 2 takes it back (no change from the base: it runs on, and the
# base with it).  The machine drifts, +0.3 a run.  The base's runs are
# shared and taken in turns with the patches' (base, 1, 2, 2, 1, base,
# ...); each patch is judged against the base's runs of its own span,
# so neither the drift nor the base's later runs are blamed on a patch.
test_expect_success 'two patches share the base; runs interleave; drift is not blamed' '
	git checkout -q -b two base &&
	echo 10 >synth-effect && git add synth-effect && git commit -qm "two: +10%" &&
	echo 0 >synth-effect && git commit -qam "two: back" &&
	respin track two --base base >/dev/null && git checkout -q base &&
	rm -f "$TRASH/state/order" "$TRASH/state/runs" &&
	bench drift lat 7 0.5 0.3 &&
	respin check two --only drift >out 2>err && cat out err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	head -n 12 "$TRASH/state/order" | cut -d" " -f1 | tr "\n" " " >first && echo >>first &&
	echo "0 1 2 2 1 0 0 1 2 2 1 0 " >want && check_same want first &&
	respin results two --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my \$nb = @{\$p[0]{results}{drift}{samples}};
		my (\$a, \$b) = map { \$p[\$_]{results}{drift} } 1, 2;
		print qq(base \$nb; 1/2 \$a->{n_base} vs \$a->{n_patch}: \$a->{verdict} \$a->{change_pct}; 2/2 \$b->{n_base} vs \$b->{n_patch}: \$b->{verdict}\n);
		exit 2 unless \$a->{verdict} eq q(better) && \$a->{change_pct} > 5;
		exit 3 if \$b->{verdict} =~ /better|worse/;
		# the base ran as long as the longer patch, not once per patch
		exit 4 unless \$b->{n_patch} > \$a->{n_patch} && \$nb <= \$b->{n_patch} + 1;
		exit 5 unless \$a->{n_base} < \$nb;
	" <r &&
	respin check two --only drift >out && test_grep "^0 run, 3 reused, 0 failed$" out &&
	# the drift is real: the last runs read higher than the first, by
	# far more than the noise (so run in blocks, it would be blamed)
	awk "NR <= 6 { a += \$2 } { v[NR] = \$2 } END {
		for (i = NR - 5; i <= NR; i++) b += v[i];
		exit !(b / 6 - a / 6 > 4) }" "$TRASH/state/order"
'

# Artifacts: a build that leaves out/effect, a bench that reads it from
# $RESPIN_BUILD.  Kept by tree, switching sides builds nothing again.
test_expect_success 'kept artifacts: the sides alternate without building again' '
	git checkout -q -b art base && echo 10 >synth-effect && git add synth-effect &&
	git commit -qm "art: +10%" && respin track art --base base >/dev/null &&
	git checkout -q base &&
	git config respin.check.build.enabled true &&
	git config respin.check.build.command "echo built >>\"$TRASH/builds\"; mkdir -p \"\$RESPIN_BUILD/out\"; { cat synth-effect 2>/dev/null || echo 0; } >\"\$RESPIN_BUILD/out/effect\"" &&
	git config respin.check.build.artifacts "out/effect" &&
	git config respin.check.art.kind bench &&
	git config respin.check.art.metric v &&
	git config respin.check.art.runs 6..6 &&
	git config respin.check.art.command "SYNTH_STATE=$TRASH/state SYNTH_EFFECT=\$RESPIN_BUILD/out/effect $SYNTH v 5 0.5" &&
	rm -f "$TRASH/builds" &&
	respin check art --only build,art >out 2>err && cat out err &&
	test_grep "^4 run, 0 reused, 0 failed$" out &&
	test "$(wc -l <"$TRASH/builds")" = 2 &&
	for t in $(git rev-parse base^{tree} art^{tree}); do
		ls .git/respin/artifacts/*/$t/out/effect || return 1
	done &&
	verdict art art >v && cat v && test_grep "^better 6 6 null$" v
'

test_expect_success 'without kept artifacts, each switch builds the side again, and reads the right build' '
	git config --unset respin.check.build.artifacts &&
	git config respin.check.art.command "SYNTH_STATE=$TRASH/state SYNTH_EFFECT=\$RESPIN_BUILD/out/effect $SYNTH v 6 0.5" &&
	rm -f "$TRASH/builds" &&
	respin check art --only build,art >out 2>err && cat out err &&
	test "$(wc -l <"$TRASH/builds")" -gt 4 &&
	verdict art art >v && cat v && test_grep "^better 6 6 null$" v
'

test_expect_success 'an artifact the build does not make: ERROR naming it' '
	git config respin.check.build.artifacts "out/effect out/missing" &&
	git config respin.check.build.command "echo again >/dev/null; mkdir -p \"\$RESPIN_BUILD/out\"; { cat synth-effect 2>/dev/null || echo 0; } >\"\$RESPIN_BUILD/out/effect\"" &&
	test_expect_code 1 respin check art --only build >out 2>err && cat err &&
	test_grep "^build at 0/1: ERROR: respin.check.build.artifacts: the build of tree [0-9a-f]* made no out/missing$" err
'

test_expect_success 'artifacts outside the build directory: exit 128, naming the key' '
	for bad in /etc/passwd ../x "out/../../x"; do
		git config respin.check.build.artifacts "$bad" &&
		test_expect_code 128 respin check art --only build 2>err &&
		test_grep "^fatal: respin.check.build.artifacts: .$bad. is not a path inside the build directory" err || return 1
	done &&
	git config respin.check.build.artifacts " " &&
	test_expect_code 128 respin check art --only build 2>err &&
	test_grep "^fatal: respin.check.build.artifacts: no paths given" err &&
	git config --unset respin.check.build.artifacts
'

test_done
