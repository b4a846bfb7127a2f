#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/bench/list-show.sh: how fast are "respin list" and "respin show"
# with many series?
#
# In a temporary directory: a repository with BENCH_SERIES (500) series
# of BENCH_PATCHES (10) patches each, written with git fast-import and
# recorded with "respin track"; then the median of BENCH_RUNS (20) runs
# of "respin list", "respin list --json" and "respin show NAME" (with
# hyperfine when installed, else a date +%s%N loop).  Prints e.g.
#
#   list (500 series): 12.3 ms
#   list --json (500 series): 13.0 ms
#   show: 2.1 ms
#
# and whether each is within the goal of BENCH_GOAL_MS (50) ms.  Exits
# 1 when one is not and --check was given.  Uses $RESPIN_BUILD/respin
# (default ./build/respin).  BENCH_KEEP=1 keeps the directory.
set -eu

check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*) echo "usage: $0 [--check]" >&2; exit 129 ;;
esac

. "$(dirname "$0")/lib.sh"
bench_init list-show
nseries=${BENCH_SERIES:-500}
npatches=${BENCH_PATCHES:-10}
runs=${BENCH_RUNS:-20}
goal=${BENCH_GOAL_MS:-50}
ms_now() { date +%s%N | cut -c1-13; }

# ------------------------------------------------------------ the repo
t0=$(ms_now)
git init -q -b main "$repo"
cd "$repo"
git config gc.auto 0
git config user.name 'C O Mitter'
git config user.email 'committer@example.org'

# The base (mark 1) and, for each series s, a branch sNNN of npatches
# commits, each changing mm/sNNN.c.  One stream, one fast-import.
awk -v S="$nseries" -v P="$npatches" '
function data(s) { printf "data %d\n%s\n", length(s), s }
BEGIN {
	base = "// SPDX-License-Identifier: GPL-2.0\n/* the base */\n"
	print "blob"; print "mark :1"; data(base)
	print "commit refs/heads/main"; print "mark :2"
	print "author A U Thor <author@example.org> 1700000000 +0000"
	print "committer C O Mitter <committer@example.org> 1700000000 +0000"
	data("Linux 6.1-bench\n")
	print "M 100644 :1 mm/base.c"
	print ""
	print "reset refs/heads/mm-unstable"; print "from :2"; print ""
	t = 1700000000
	for (s = 1; s <= S; s++) {
		name = sprintf("s%03d", s)
		body = "// SPDX-License-Identifier: GPL-2.0\n"
		for (p = 1; p <= P; p++) {
			t += 60
			body = body sprintf("int %s_fn%d(void)\n{\n\treturn %d;\n}\n", name, p, p)
			printf "commit refs/heads/%s\n", name
			print "author A U Thor <author@example.org> " t " +0000"
			print "committer C O Mitter <committer@example.org> " t " +0000"
			data(sprintf("mm/%s: add %s_fn%d()\n\nPatch %d of series %s.\n\nSigned-off-by: A U Thor <author@example.org>\n", name, name, p, p, name))
			if (p == 1)
				print "from :2"
			printf "M 100644 inline mm/%s.c\n", name
			data(body)
			print ""
		}
	}
}' | git fast-import --quiet
t1=$(ms_now)

# ------------------------------------------------------ respin track
i=1
while [ "$i" -le "$nseries" ]; do
	name=$(printf 's%03d' "$i")
	"$respin" track "$name" --base mm-unstable --tip "$name" >/dev/null
	i=$((i + 1))
done
t2=$(ms_now)
echo "setup: fast-import of $((nseries * npatches)) commits $((t1 - t0)) ms," \
	"$nseries respin track $((t2 - t1)) ms ($(( (t2 - t1) / nseries )) ms each)" >&2

"$respin" list >"$tmp/list.out"
n=$(wc -l <"$tmp/list.out")
[ "$n" -ge "$nseries" ] || {
	echo "list-show: respin list shows $n lines, wanted $nseries" >&2
	exit 1
}
show_name=$(printf 's%03d' $(( (nseries + 1) / 2 )))

# ------------------------------------------------------------ measure
# median_ms CMD...: the median wall time of CMD in ms, one decimal, and
# with hyperfine the mean CPU time (user + system), steadier on a busy
# machine.
median_ms() {
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N --style none --warmup 3 --runs "$runs" \
			--export-csv "$tmp/hf.csv" -- "$*" >/dev/null 2>&1
		# command,mean,stddev,median,user,system,min,max (seconds)
		awk -F, 'NR == 2 { printf "%.1f %.1f\n", $4 * 1000, ($5 + $6) * 1000 }' "$tmp/hf.csv"
	else
		"$@" >/dev/null; "$@" >/dev/null
		: >"$tmp/times"
		j=0
		while [ "$j" -lt "$runs" ]; do
			a=$(date +%s%N); "$@" >/dev/null; b=$(date +%s%N)
			echo $((b - a)) >>"$tmp/times"
			j=$((j + 1))
		done
		sort -n "$tmp/times" | awk '{ v[NR] = $1 }
			END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			      printf "%.1f\n", m / 1e6 }'
	fi
}

status=0
# report WHAT "MEDIAN [CPU]"
report() {
	set -- "$1" $2
	verdict=$(awk -v v="$2" -v g="$goal" 'BEGIN { print (v <= g) ? "ok" : "OVER" }')
	[ "$verdict" = ok ] || status=1
	echo "$1: $2 ms (${3:+cpu $3 ms; }goal <= $goal ms: $verdict)"
}
report "list ($nseries series)" "$(median_ms "$respin" list)"
report "list --json ($nseries series)" "$(median_ms "$respin" list --json)"
report "show" "$(median_ms "$respin" show "$show_name")"
report "show --json" "$(median_ms "$respin" show "$show_name" --json)"

[ "$check" = 0 ] || exit $status
