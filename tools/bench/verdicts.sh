#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The statistical trial of benchmark verdicts (issue 11), through the
# real respin check: a synthetic bench (tests/helpers/synthbench, a
# seeded program printing "respin-metric: NAME VALUE") with a known
# effect and Gaussian noise, on one-patch series of a small repository,
# VERDICT_TRIALS seeded trials a case (default 200).  Each trial is its
# own check definition (the seed is in the command), so it starts with
# no samples.  Prints, a case a line, the confusion matrix (the share
# of each verdict), the median runs a side, and for the inconclusive
# ones the median of the runs a side they say they need.
#   regression: a 3% regression (a time, lower is better) at 2% noise,
#               runs 5..30: goal worse >= 95%, same or better <= 1%
#   none:       no effect at 2% noise, runs 5..30: goal better or
#               worse <= 5%
#   seed:       -2.7% of a rate (higher is better) at 7.1% noise, runs
#               5..40: goal never the same; inconclusive with the runs
#               needed (the true need is about 109 a side for 80% power)
set -eu
. "$(dirname "$0")/lib.sh"
bench_init verdicts
synth=$build/tests/helpers/synthbench
[ -x "$synth" ] || { echo "verdicts: no $synth (make units)" >&2; exit 1; }
trials=${VERDICT_TRIALS:-200}

git init -q "$repo" && cd "$repo"
echo base >README && git add README && git commit -qm base && git branch base
for s in "slow 3" "flat 0" "seed -2.7"; do
	set -- $s
	git checkout -q -b "$1" base
	echo "$2" >synth-effect && git add synth-effect
	git commit -qm "$1: the effect is $2%"
	"$respin" track "$1" --base base >/dev/null
done
git checkout -q base
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
mkdir "$tmp/state"

# case NAME SERIES METRIC NOISE HIGHER RUNS DESCRIPTION
run_case() {
	name=$1 series=$2 metric=$3 noise=$4 higher=$5 runs=$6 what=$7
	git config respin.check.$name.kind bench
	git config respin.check.$name.metric "$metric"
	git config respin.check.$name.higher "$higher"
	git config respin.check.$name.runs "$runs"
	: >"$tmp/$name.txt"
	s=$(date +%s)
	i=0
	while [ $i -lt "$trials" ]; do
		git config respin.check.$name.command \
			"SYNTH_STATE=$tmp/state $synth $metric $((1000 * i + 7)) $noise"
		"$respin" check "$series" --only "$name" >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		"$respin" results "$series" --json | perl -MJSON::PP -e '
			local $/; my $d = decode_json(<STDIN>);
			my $c = $d->{patches}[1]{results}{$ARGV[0]};
			print join(" ", $c->{verdict}, $c->{n_patch},
				   $c->{runs_needed} // 0), "\n";
		' "$name" >>"$tmp/$name.txt"
		i=$((i + 1))
	done
	secs=$(( $(date +%s) - s ))
	awk -v what="$what" -v name="$name" -v secs="$secs" '
		function median(a, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
					t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
				}
			if (!n) return 0
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ v[$1]++; runs[NR] = $2; if ($1 == "inconclusive") need[++k] = $3 }
		END {
			printf "verdicts-%s: %s, %d trials through respin check " \
			       "(%d s): worse %.1f%%, same %.1f%%, better %.1f%%, " \
			       "inconclusive %.1f%%; median runs a side %g", name,
			       what, NR, secs, 100 * v["worse"] / NR,
			       100 * v["same"] / NR, 100 * v["better"] / NR,
			       100 * v["inconclusive"] / NR, median(runs, NR)
			if (k)
				printf "; inconclusive ones need a median %g a side", median(need, k)
			printf "\n"
		}' "$tmp/$name.txt"
}

run_case regression slow lat 2 false 5..30 "3% regression at 2% noise, runs 5..30"
run_case none flat lat 2 false 5..30 "no effect at 2% noise, runs 5..30"
run_case seed seed ops 7.1 true 5..40 "-2.7% at 7.1% noise, runs 5..40"
