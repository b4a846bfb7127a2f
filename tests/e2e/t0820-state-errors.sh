#!/bin/sh
# Errors in respin's own state say what, why and what to do, and are
# never taken for "nothing there": a damaged results database stops the
# check before anything runs; a lock left by someone else names its file;
# a checkout a killed respin left half done is finished.
. "$(dirname "$0")/lib.sh"

SQL="$RESPIN_BUILD/tests/helpers/db-sql"
DB=.git/respin/results.db

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches || exit 1
git config respin.check.count.kind command
git config respin.check.count.command "echo run >>\"$TRASH/ran\"; echo ok"

test_expect_success 'setup: three results stored' '
	respin check a >out && test_grep "^3 run, 0 reused, 0 failed$" out &&
	test "$(wc -l <"$TRASH/ran")" = 3 &&
	test "$("$SQL" $DB "PRAGMA integrity_check")" = ok
'

test_expect_success 'db-sql reports a missing table, exit 128' '
	rc=0 && { "$SQL" $DB "SELECT * FROM nosuch" 2>err || rc=$?; } && cat err &&
	test $rc = 128 && test_grep "no such table: nosuch" err
'

# The index that finds a result by (definition, key) is damaged: a
# lookup fails, but the database opens and its first page is sound.
test_expect_success 'a damaged results index stops the check before anything runs' '
	cp $DB* "$TRASH/" &&
	"$SQL" $DB "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	page=$("$SQL" $DB "SELECT rootpage FROM sqlite_master WHERE name = '\''sqlite_autoindex_results_1'\''") &&
	size=$("$SQL" $DB "PRAGMA page_size") &&
	test -n "$page" && test -n "$size" &&
	perl -e "print chr(255) x 64" |
		dd of=$DB bs=1 seek=$(( (page - 1) * size )) conv=notrunc 2>/dev/null &&
	rc=0 && { respin check a >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 &&
	test_grep "^fatal: the results database .*/results.db is damaged (step: database disk image is malformed)$" err &&
	test_grep "^hint: respin never starts over on its own: move the file away (results will be recomputed) or restore it from a backup$" err &&
	test "$(wc -l <"$TRASH/ran")" = 3 && test ! -s out
'

test_expect_success 'with -j 2 (lint jobs in parallel) too' '
	git config respin.check.lint2.kind lint &&
	git config respin.check.lint2.command "cat >/dev/null; echo run >>\"$TRASH/ran\"" &&
	rc=0 && { respin check a -j 2 >out 2>err || rc=$?; } && cat out err &&
	git config --remove-section respin.check.lint2 &&
	test $rc = 128 && test_grep "is damaged" err &&
	test "$(wc -l <"$TRASH/ran")" = 3
'

test_expect_success 'respin results says so too (exit 128)' '
	rc=0 && { respin results a >out 2>err || rc=$?; } && cat err &&
	test $rc = 128 && test_grep "is damaged" err
'

test_expect_success 'with the database restored, everything is reused' '
	rm -f $DB* && cp "$TRASH"/results.db* .git/respin/ &&
	respin check a >out && test_grep "^0 run, 3 reused, 0 failed$" out &&
	test "$(wc -l <"$TRASH/ran")" = 3
'

test_expect_success 'a damaged samples index stops a bench before it runs again' '
	git config respin.check.speed.kind bench &&
	git config respin.check.speed.metric t &&
	git config respin.check.speed.runs 2 &&
	git config respin.check.speed.command "echo run >>\"$TRASH/benched\"; echo respin-metric: t 1" &&
	respin check a --only speed >out 2>err && cat out err &&
	test "$(wc -l <"$TRASH/benched")" = 8 &&
	cp $DB* "$TRASH/" &&
	"$SQL" $DB "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	page=$("$SQL" $DB "SELECT rootpage FROM sqlite_master WHERE name = '\''samples_by_key'\''") &&
	size=$("$SQL" $DB "PRAGMA page_size") &&
	perl -e "print chr(255) x 64" |
		dd of=$DB bs=1 seek=$(( (page - 1) * size )) conv=notrunc 2>/dev/null &&
	git config respin.check.speed.runs 3 &&
	rc=0 && { respin check a --only speed >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 && test_grep "^fatal: the results database .* is damaged" err &&
	test "$(wc -l <"$TRASH/benched")" = 8 &&
	rm -f $DB* && cp "$TRASH"/results.db* .git/respin/ &&
	git config --remove-section respin.check.speed
'

test_expect_code 128 'a stale ref lock is named, with what to do' '
	lock=$PWD/.git/refs/respin/series/a.lock &&
	: >"$lock" && tick &&
	echo "int x;" >>mm/vmscan.c && git commit -qam x &&
	rc=0 && { respin track a 2>err || rc=$?; } && rm -f "$lock" && cat err &&
	test_grep "^fatal: cannot update refs/respin/series/a (series .a.): it is locked: $lock exists$" err &&
	test_grep "^hint: another git or respin is writing it now, or one was killed while it did; if none is running, remove $lock and try again$" err &&
	exit $rc
'

test_expect_code 128 "a lock on the worktree's index is named, with what to do" '
	respin track a >/dev/null &&
	lock=$(cd .git/respin/worktrees/a && git rev-parse --absolute-git-dir)/index.lock &&
	: >"$lock" &&
	rc=0 && { respin check a 2>err || rc=$?; } && rm -f "$lock" && cat err &&
	test_grep "^fatal: cannot check out [0-9a-f]* in .*/.git/respin/worktrees/a: it is locked: $lock exists$" err &&
	test_grep "^hint: another git or respin is writing it now, or one was killed while it did; if none is running, remove $lock and try again$" err &&
	exit $rc
'

test_expect_success 'a worktree with your changes is not overwritten' '
	(cd .git/respin/worktrees/a && echo mine >>mm/compaction.c) &&
	rc=0 && { respin check a 2>err || rc=$?; } && cat err && test $rc = 128 &&
	test_grep "has changes (mm/compaction.c); respin will not overwrite them" err &&
	(cd .git/respin/worktrees/a && git checkout -q -- mm/compaction.c)
'

test_expect_success 'a checkout a killed respin left half done is finished' '
	wt=.git/respin/worktrees/a &&
	gd=$(cd $wt && git rev-parse --absolute-git-dir) && lock=$gd/index.lock &&
	: >"$lock" && : >"$gd/HEAD.lock" && : >$wt.checkout &&
	echo half >>$wt/mm/compaction.c && echo stray >$wt/mm/stray.c &&
	respin check a >out 2>err && cat out err &&
	test_grep "^1 run, 3 reused, 0 failed$" out &&
	test ! -e $wt.checkout && test ! -e "$lock" && test ! -e "$gd/HEAD.lock" &&
	test ! -e $wt/mm/stray.c &&
	test -z "$(git -C $wt status --porcelain)" &&
	test "$(git -C $wt rev-parse HEAD)" = "$(git rev-parse work)"
'

test_done
