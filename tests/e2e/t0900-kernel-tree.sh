#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/kernel-tree.sh: Debian's linux-source-6.1 as a cached git
# repository.  Slow the first time (a few minutes: download, unpack,
# git add), quick once cached.  The cache is shared with the user's
# (lib.sh gives the test its own HOME, so pick it before sourcing).
: "${RESPIN_CACHE:=$HOME/.cache/respin}"
export RESPIN_CACHE
. "$(dirname "$0")/lib.sh"

KTREE=$SRC_DIR/tools/kernel-tree.sh

test_expect_success 'kernel-tree.sh makes (or reuses) the cached tree' '
	{
		sh "$KTREE" >"$TRASH/ktree.out" 2>"$TRASH/ktree.err" ||
		{ cat "$TRASH/ktree.err"; false; }
	} &&
	test "$(cat "$TRASH/ktree.out")" = "$RESPIN_CACHE/linux-6.1"
'
KDIR=$(cat "$TRASH/ktree.out" 2>/dev/null || echo /nonexistent)

test_expect_success 'the tree has the kernel, mm-unstable and a clean status' '
	cd "$KDIR" &&
	test -f mm/compaction.c && test -f scripts/checkpatch.pl &&
	git cat-file -e mm-unstable:mm/compaction.c &&
	git cat-file -e HEAD:.mailmap &&
	test "$(git rev-parse mm-unstable)" = "$(git rev-parse main)" &&
	git status --porcelain >"$TRASH/status" &&
	test ! -s "$TRASH/status" &&
	test "$(git config gc.auto)" = 0
'

test_expect_success 'checkpatch and its data files are side by side' '
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		test -s "$RESPIN_CACHE/checkpatch/$f" || exit 1
	done &&
	test -x "$RESPIN_CACHE/checkpatch/checkpatch.pl"
'

test_expect_success 'a second run reuses the cache (no rebuild: well under a minute)' '
	a=$(date +%s%N) &&
	sh "$KTREE" >again.out &&
	b=$(date +%s%N) &&
	test "$(cat again.out)" = "$KDIR" &&
	echo "cached run: $(( (b - a) / 1000000 )) ms" &&
	test $(( (b - a) / 1000000 )) -lt 60000 &&
	sh "$KTREE" --print-dir >dir.out && test "$(cat dir.out)" = "$KDIR"
'

git -C "$KDIR" for-each-ref >"$TRASH/refs.before" 2>/dev/null

test_expect_success 'a shared clone of mm-unstable takes two mm/ patches' '
	git clone -q --shared --branch mm-unstable "$KDIR" k &&
	cd k &&
	git checkout -q -b topic &&
	sed -i "s/^ \* Memory compaction for the reduction of external fragmentation\. Note that$/ * Memory compaction for the reduction of external fragmentation (the\n * kind that makes high-order allocations fail). Note that/" mm/compaction.c &&
	test_must_fail git diff --quiet &&
	git commit -q -a -m "mm/compaction: say what external fragmentation is" \
		-m "The header comment names external fragmentation but not what it
does to the allocator: say so." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	sed -i "s/^int vm_swappiness = 60;$/int vm_swappiness = 50;/" mm/vmscan.c &&
	grep -q "^int vm_swappiness = 50;$" mm/vmscan.c &&
	git commit -q -a -m "mm/vmscan: lower the default swappiness to 50" \
		-m "Prefer dropping page cache a little more than swapping." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	test "$(git rev-list --count mm-unstable..topic)" = 2
'

test_expect_success 'respin track and show on the kernel tree' '
	cd k &&
	respin track k --base mm-unstable >../track.out &&
	respin show k >../show.out &&
	test_grep "mm/compaction: say what external fragmentation is" ../show.out &&
	test_grep "mm/vmscan: lower the default swappiness to 50" ../show.out &&
	test_grep "$(git rev-parse --short=12 mm-unstable)" ../show.out &&
	respin list >../list.out && test_grep "^k " ../list.out
'

test_expect_success 'the cached checkpatch runs on the patches' '
	cd k &&
	git format-patch -q -o ../p mm-unstable..topic &&
	"$RESPIN_CACHE/checkpatch/checkpatch.pl" --no-tree --terse ../p/*.patch
'

test_expect_success 'the cache is left as it was' '
	git -C "$KDIR" for-each-ref >"$TRASH/refs.after" &&
	check_same "$TRASH/refs.before" "$TRASH/refs.after" &&
	git -C "$KDIR" status --porcelain >status2 &&
	test ! -s status2 &&
	git -C "$KDIR" for-each-ref refs/respin >kdir-refs &&
	test ! -s kdir-refs
'

test_done
