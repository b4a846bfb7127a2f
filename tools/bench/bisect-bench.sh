#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bench bisect trial (issue 11): a 6-patch series whose patch 3
# makes the synthetic bench (tests/helpers/synthbench) 3% slower at 2%
# noise, bisected by respin bisect through the real engine, once per
# seed; how often patch 3 is named, a wrong patch, or none, and the
# median bench runs a bisect takes.  Goals: patch 3 >= 95%, a wrong
# patch <= 2%.
set -eu
. "$(dirname "$0")/lib.sh"
bench_init bisect-bench
TRIALS=${BENCH_TRIALS:-100}
SYNTH=$build/tests/helpers/synthbench
[ -x "$SYNTH" ] || { echo "bisect-bench: no $SYNTH (make units)" >&2; exit 1; }
git init -q "$repo" && cd "$repo"
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
echo base >README && git add README && git commit -qm base && git branch -q base
for i in 1 2 3 4 5 6; do
	echo "$i" >"p$i"
	[ $i = 3 ] && echo 3 >synth-effect
	git add -A && git commit -qm "p$i: patch $i"
done
"$respin" track s --base base >/dev/null
right=0 wrong=0 none=0
: >"$tmp/runs"
seed=1
while [ $seed -le "$TRIALS" ]; do
	mkdir -p "$tmp/state$seed"
	git config respin.check.t$seed.kind bench
	git config respin.check.t$seed.metric lat
	git config respin.check.t$seed.higher false
	git config respin.check.t$seed.command "SYNTH_STATE=$tmp/state$seed $SYNTH lat $seed 2"
	"$respin" bisect s --check "t$seed" --json >"$tmp/j" 2>/dev/null || true
	patch=$(sed -n 's/^  "patch": \([0-9]*\),$/\1/p' "$tmp/j")
	answer=$(sed -n 's/^  "answer": "\([a-z]*\)",$/\1/p' "$tmp/j")
	sed -n 's/^  "runs": \([0-9]*\),$/\1/p' "$tmp/j" >>"$tmp/runs"
	if [ "$answer" = found ] && [ "$patch" = 3 ]; then
		right=$((right + 1))
	elif [ "$answer" = found ]; then
		wrong=$((wrong + 1))
	else
		none=$((none + 1))
		[ -z "${BENCH_VERBOSE:-}" ] || sed -n 's/^  "line": //p' "$tmp/j" >&2
	fi
	seed=$((seed + 1))
done
median=$(sort -n "$tmp/runs" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "bisect-bench: 3% at patch 3 of 6, 2% noise, $TRIALS seeds: patch 3 named $right, a wrong patch $wrong, none named $none; median $median bench runs a bisect"
