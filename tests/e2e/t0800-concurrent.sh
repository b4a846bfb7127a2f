#!/bin/sh
# Concurrent runs: one respin at a time checks a series (its lock); a
# second one stops, naming the holder, or waits (--wait), and never
# shares the worktree; different series are checked at once; two
# 'respin track NEW' at once never lose a record.  Each is compared
# with a serial run.
. "$(dirname "$0")/lib.sh"

ROUNDS=${RESPIN_T0800_ROUNDS:-20}

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches || exit 1
# b: other trees than a's, so nothing of one is reused by the other
git checkout -q -b other mm-unstable
tick; echo "int other;" >mm/other.c && git add mm/other.c && git commit -qm "mm: other"
tick; echo "int other2;" >>mm/other.c && git commit -qam "mm: other 2"
respin track b --base mm-unstable >/dev/null || exit 1
git checkout -q work
git config respin.check.tree.kind command

# The check fails unless the worktree holds the tree of the patch it
# checks, at its start and at its end: a shared worktree shows as FAIL.
# $1 goes into the definition, so each round computes afresh.
tree_check() {
	git config respin.check.tree.command "git --no-optional-locks diff --quiet \$RESPIN_TREE -- && sleep 0.15 && git --no-optional-locks diff --quiet \$RESPIN_TREE -- && echo tree ok # $1"
}

# "N run, M reused, F failed" of an output file: prints N.
ran() {
	sed -n 's/^\([0-9]*\) run, [0-9]* reused, 0 failed$/\1/p' "$1"
}

test_expect_success 'serial: each check passes, the table to compare with' '
	tree_check serial &&
	respin check a >out && test_grep "^3 run, 0 reused, 0 failed$" out &&
	respin results a >want-a && cat want-a &&
	test "$(grep -c " ok " want-a)" = 3 &&
	respin check b >out && test_grep "^2 run, 0 reused, 0 failed$" out &&
	respin results b >want-b
'

test_expect_success 'the tree check fails on a wrong tree, passes on the right one' '
	cmd=$(git config respin.check.tree.command) &&
	(cd .git/respin/worktrees/a && RESPIN_TREE=$(git rev-parse HEAD^{tree}) && eval "$cmd") &&
	! (cd .git/respin/worktrees/a && RESPIN_TREE=$(git rev-parse HEAD~1^{tree}) && eval "$cmd")
'

test_expect_success "$ROUNDS staggered pairs of 'respin check a --wait': both succeed, none shares" '
	r=0 && while [ $r -lt $ROUNDS ]; do
		r=$((r + 1)) && tree_check wait$r &&
		{ respin check a --wait >o1 2>e1 & } && p1=$! &&
		sleep 0.1 &&
		{ respin check a --wait >o2 2>e2 & } && p2=$! &&
		wait $p1 && wait $p2 &&
		test "$(( $(ran o1) + $(ran o2) ))" = 3 &&
		respin results a >got && check_same want-a got || {
			echo "round $r:"; cat o1 e1 o2 e2; return 1; }
	done
'

test_expect_success "$ROUNDS staggered pairs without --wait: one stops naming the other, or reuses" '
	stopped=0 && r=0 && while [ $r -lt $ROUNDS ]; do
		r=$((r + 1)) && tree_check stop$r &&
		{ respin check a >o1 2>e1 & } && p1=$! &&
		sleep 0.1 &&
		{ respin check a >o2 2>e2 & } && p2=$! &&
		rc1=0 && rc2=0 && { wait $p1 || rc1=$?; } && { wait $p2 || rc2=$?; } &&
		test $rc1 = 0 && test_grep "^3 run, 0 reused, 0 failed$" o1 &&
		if [ $rc2 = 128 ]; then
			stopped=$((stopped + 1)) &&
			test_grep "^fatal: series .a. is being checked by another respin (pid $p1, .respin check a@v1., since [0-9:]*): its worktree and build directory are in use$" e2 &&
			test_grep "^hint: wait for it to finish, or give --wait to wait for it; .kill $p1. stops it$" e2 &&
			test ! -s o2
		else
			test $rc2 = 0 && test_grep "^0 run, 3 reused, 0 failed$" o2
		fi &&
		respin results a >got && check_same want-a got || {
			echo "round $r: $rc1 $rc2"; cat o1 e1 o2 e2; return 1; }
	done &&
	echo "check pairs without --wait: $stopped of $ROUNDS stopped" >>"$TRASH/figures" &&
	test $stopped -gt 0
'

test_expect_success 'different series are checked at once' '
	r=0 && while [ $r -lt 5 ]; do
		r=$((r + 1)) && tree_check both$r &&
		start=$(date +%s%N) &&
		{ respin check a >o1 2>e1 & } && p1=$! &&
		{ respin check b >o2 2>e2 & } && p2=$! &&
		wait $p1 && wait $p2 &&
		test_grep "^3 run, 0 reused, 0 failed$" o1 &&
		test_grep "^2 run, 0 reused, 0 failed$" o2 &&
		respin results a >got && check_same want-a got &&
		respin results b >got && check_same want-b got || {
			echo "round $r:"; cat o1 e1 o2 e2; return 1; }
	done
'

test_expect_success 'the lock is released: nothing is left holding it' '
	tree_check after && respin check a >out && test_grep "^3 run, 0 reused" out &&
	test ! -s .git/respin/worktrees/a.lock
'

# The serial outcome of "track NEW (3 patches)" then "track NEW --tip
# work~1 (2 patches)": v1 with 3 patches, v2 with 2 (or the other way
# round when the second ran first).  Each record must show as a version
# to be counted: in the default numbering the second would revise v1
# (nothing sent), so these rounds number every recorded change.
versions() {
	for v in 1 2; do
		respin show "$1@v$v" --json | grep -c "\"patch_id\"" || return 1
	done | tr '\n' ' '
}

test_expect_success "$ROUNDS pairs of 'respin track NEW' at once: nothing is lost" '
	git config respin.numbering track &&
	test_when_finished "git config --unset respin.numbering" &&
	lost=0 && raced=0 && r=0 && while [ $r -lt $ROUNDS ]; do
		r=$((r + 1)) &&
		{ respin track new$r --base mm-unstable --tip work >o1 2>e1 & } && p1=$! &&
		{ respin track new$r --base mm-unstable --tip work~1 >o2 2>e2 & } && p2=$! &&
		rc1=0 && rc2=0 && { wait $p1 || rc1=$?; } && { wait $p2 || rc2=$?; } &&
		for k in 1 2; do
			eval rc=\$rc$k &&
			if [ $rc = 128 ]; then
				raced=$((raced + 1)) &&
				test_grep "^fatal: series .new$r. was created by someone else while respin worked; nothing was recorded$" e$k &&
				test_grep "^hint: .respin show new$r. shows it; run the command again to add to it$" e$k &&
				tip=work && { [ $k = 1 ] || tip=work~1; } &&
				respin track new$r --tip $tip >o$k || return 1
			else
				test $rc = 0
			fi || return 1
		done &&
		respin list >list && test_grep "^new$r " list &&
		got=$(versions new$r) &&
		{ [ "$got" = "3 2 " ] || [ "$got" = "2 3 " ]; } || {
			echo "round $r: $rc1 $rc2 versions: $got"; cat o1 e1 o2 e2; return 1; }
	done &&
	echo "track pairs: $raced of $ROUNDS raced on creating the series, none lost" >>"$TRASH/figures"
'

test_expect_success 'after all of it: git fsck is clean' '
	git fsck --no-progress --no-dangling 2>&1 | tee fsck && test ! -s fsck
'

sed "s/^/# /" "$TRASH/figures" 2>/dev/null
test_done
