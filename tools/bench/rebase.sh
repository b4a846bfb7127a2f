#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin rebase against git rebase, in the same run: a 50-patch series on
# a tree of 5,000 files moved onto a base 200 commits on (every 20th of
# them touching a line next to a patch: a 3-way merge), each timed as
# the median of 3 runs; and respin fixup of two 50-patch versions.
set -eu
. "$(dirname "$0")/lib.sh"
bench_init rebase
git init -q "$repo" && cd "$repo"
git config gc.auto 0
# every version recorded is a new number (none is sent here)
git config respin.numbering track

# now: seconds since the epoch, with nanoseconds
now() { date +%s.%N; }
# sub A B: A - B
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a - b }'; }
# median3 A B C
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

awk 'BEGIN {
	for (d = 1; d <= 50; d++) {
		system("mkdir -p d" d)
		for (f = 0; f < 100; f++) {
			file = "d" d "/f" f ".c"
			for (l = 1; l <= 40; l++)
				printf "int d%d_f%d_line%d;\n", d, f, l > file
			close(file)
		}
	}
}'
git add -A && git commit -qm base && git branch -q mm
git checkout -q -b topic mm
i=1
while [ $i -le 50 ]; do
	sed -i "20s/.*/int patched_$i;/" d$i/f0.c
	git commit -qam "d$i: patch $i"
	i=$((i + 1))
done
"$respin" track s --base mm >/dev/null
meta=$(git rev-parse refs/respin/series/s)

git checkout -q mm
j=1
while [ $j -le 200 ]; do
	d=$(( (j % 50) + 1 ))
	if [ $((j % 20)) = 0 ]; then
		sed -i "22s/.*/int moved_$j;/" d$d/f0.c	# next to patch d's line
	else
		sed -i "$((j % 40 + 1))s/.*/int base_$j;/" d$d/f$((j % 97 + 1)).c
	fi
	git commit -qam "base $j"
	j=$((j + 1))
done
git checkout -q topic

t_dry="" t_respin="" t_git=""
for run in 1 2 3; do
	a=$(now)
	"$respin" rebase s --dry-run >"$tmp/dry" || { echo "rebase: dry run failed" >&2; exit 1; }
	b=$(now)
	"$respin" rebase s >"$tmp/out" || { echo "rebase: respin failed" >&2; exit 1; }
	c=$(now)
	git update-ref refs/respin/series/s "$meta"
	git checkout -q -B scripted topic
	d=$(now)
	git rebase -q --onto mm topic~50 scripted >/dev/null 2>&1 ||
		{ echo "rebase: git rebase failed" >&2; exit 1; }
	e=$(now)
	git checkout -q topic
	t_dry="$t_dry $(sub "$b" "$a")"
	t_respin="$t_respin $(sub "$c" "$b")"
	t_git="$t_git $(sub "$e" "$d")"
done
threeway=$(grep -c "3-way merge" "$tmp/out")
# the two give the same tree
"$respin" rebase s >/dev/null
tip=$("$respin" show s --json | sed -n 's/^  "tip": "\([0-9a-f]*\)",$/\1/p')
[ "$(git rev-parse "$tip^{tree}")" = "$(git rev-parse scripted^{tree})" ] ||
	{ echo "rebase: respin and git rebase made different trees" >&2; exit 1; }

# a v3 with one patch changed, on v2's base: the fixup of v2..v3
git checkout -q -B v3 "$tip"
sed -i "30s/.*/int changed_in_v3;/" d50/f0.c
git commit -q -a --amend --no-edit
"$respin" track s >/dev/null
git checkout -q topic
t_fix=""
for run in 1 2 3; do
	a=$(now)
	"$respin" fixup s v2 v3 -o "$tmp/fix.patch" >/dev/null
	b=$(now)
	t_fix="$t_fix $(sub "$b" "$a")"
done
grep -q "^Subject: .*-fix$" "$tmp/fix.patch" ||
	{ echo "rebase: the fixup has no -fix subject" >&2; exit 1; }

m_dry=$(median3 $t_dry) m_respin=$(median3 $t_respin) m_git=$(median3 $t_git)
m_fix=$(median3 $t_fix)
echo "rebase: 50 patches, 5,000 files, base 200 commits on ($threeway 3-way): respin rebase $(printf %.2f "$m_respin") s (--dry-run $(printf %.2f "$m_dry") s), git rebase --onto $(printf %.2f "$m_git") s (git takes $(awk -v g="$m_git" -v r="$m_respin" 'BEGIN { printf "%.1f", g / r }')x as long); same tree"
echo "fixup: 50-patch v2..v3, one patch changed: respin fixup $(printf %.3f "$m_fix") s"
