#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-patch CI benchmarks on the real kernel tree (tinyconfig), using the
# repository tests/e2e/t0960-kernel-check.sh keeps in the cache (run
# that test once first; it makes the series and a warm build):
#  1. respin check --only build on the 3-patch series, against the same
#     work by hand (git checkout + make at the base and at each patch),
#     same worktree, same build directory, same run;
#  2. re-checking after only the last patch changed, against the full
#     run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
RESPIN="$RESPIN_BUILD/respin"
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
repo=$cache/kcheck
if [ ! -d "$repo/.git/respin/worktrees/kc" ]; then
	echo "check: skipped: run tests/e2e/t0960-kernel-check.sh first" \
	     "(it makes $repo)"
	exit 0
fi
cd "$repo"
wt=$repo/.git/respin/worktrees/kc
bd=$repo/.git/respin/build/kc
db=.git/respin/results.db
ms() { date +%s%3N; }
commits=$("$RESPIN" show kc --json | sed -n 's/^      "commit": "\([0-9a-f]*\)",/\1/p')
base=$("$RESPIN" show kc --json | sed -n 's/^  "base": "\([0-9a-f]*\)",/\1/p')
n=$(echo "$commits" | wc -l)

warm() {
	git -C "$wt" checkout -q --detach "$base"
	make -s -C "$wt" ARCH=x86_64 O="$bd" -j"$(nproc)" >/dev/null 2>&1
}

# by hand: checkout + make at the base and at each patch
warm
s=$(ms)
for c in $base $commits; do
	git -C "$wt" checkout -q --detach "$c"
	make -s -C "$wt" ARCH=x86_64 O="$bd" -j"$(nproc)" >/dev/null 2>&1
done
hand=$(( $(ms) - s ))

# respin, with an empty results store (the real one is put back)
warm
rm -f "$bd/.respin-built"
mv "$db" "$db.bench-saved"
rm -f "$db-wal" "$db-shm"
trap 'rm -f "$db" "$db-wal" "$db-shm"; mv "$db.bench-saved" "$db"' EXIT
s=$(ms)
"$RESPIN" check kc --only build >/dev/null 2>&1 || true
full=$(( $(ms) - s ))
echo "check-build: respin check --only build $full ms, by hand (checkout + make) $hand ms, ratio $(awk -v a="$full" -v b="$hand" 'BEGIN { printf "%.2f", a / b }')x ($((n)) patches + base, tinyconfig)"

# only the last patch changes: a v(N+1) with patch N amended
git checkout -q -B kc-bench "$(echo "$commits" | tail -n 1)"
printf '/* bench %s */\n' "$(date +%s%N)" >>mm/compaction.c
git commit -q --amend -a --no-edit
"$RESPIN" track kc --tip kc-bench >/dev/null
s=$(ms)
"$RESPIN" check kc --only build >/dev/null 2>&1 || true
again=$(( $(ms) - s ))
echo "check-recheck-last: $again ms after only patch $n changed, full run $full ms: $(awk -v a="$again" -v b="$full" 'BEGIN { printf "%.2f", a / b }') of it (1/N = $(awk -v n="$n" 'BEGIN { printf "%.2f", 1 / n }'))"
