#!/bin/sh
# respin rm and respin rename: a series and what respin keeps under its
# name (ref, check worktree and build directory, settings) removed or
# moved, refused while a check holds it; respin's worktrees are marked
# as respin's in git worktree list, and a rebase conflict names its
# worktree on a line of its own.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches || { echo "Bail out! no series"; exit 1; }
git config respin.check.hello.kind command &&
git config respin.check.hello.command "true" || exit 1
LOCKS=$(pwd)/.git/respin/worktrees

test_expect_success 'setup: a check made the worktree; a setting; a second series' '
	respin check a >/dev/null 2>&1 &&
	test_path_is_dir .git/respin/worktrees/a &&
	git config respin.series.a.to "list@example.org" &&
	git config respin.series.a.subjectPrefix "PATCH mm" &&
	git checkout -q -b b-work mm-unstable && echo b >b.txt && git add b.txt &&
	git commit -q -m "b: one" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track b --base mm-unstable >/dev/null && git checkout -q work
'

test_expect_success 'git worktree list marks the check worktree as respin'"'"'s' '
	git worktree list --porcelain >wl &&
	cat wl &&
	test_grep "^worktree .*/.git/respin/worktrees/a$" wl &&
	test_grep "^locked respin: the checks of series a (respin rm a removes it)$" wl
'

test_expect_success 'rm and rename refuse while a check holds the series' '
	{ flock -o "$LOCKS/a.lock" sleep 30 & } && pid=$! &&
	n=0 && while flock -n "$LOCKS/a.lock" true; do
		n=$((n + 1)) && test $n -lt 100 && sleep 0.1 || return 1
	done &&
	test_expect_code 128 respin rm a 2>err &&
	kill $pid &&
	cat err && test_grep "series .a. is in use.*a.lock is locked; nothing was removed$" err &&
	git rev-parse -q --verify refs/respin/series/a &&
	test_path_is_dir .git/respin/worktrees/a
'

test_expect_success 'rename: versions and history kept, settings moved, the old name gone' '
	respin show a --json >show.before &&
	respin rename a a2 >out &&
	cat out &&
	test_grep "^renamed series a to a2$" out &&
	test_grep "^moved its 2 settings (respin.series.a.\*)$" out &&
	test_must_fail git rev-parse -q --verify refs/respin/series/a &&
	respin show a2 --json >show.after &&
	sed "s/\"a\"/\"a2\"/" show.before >want &&
	check_same want show.after &&
	test "$(git config respin.series.a2.to)" = "list@example.org" &&
	test_must_fail git config respin.series.a.to &&
	git log --format=%s refs/respin/series/a2 >hist && test_grep "respin rename a a2" hist &&
	test_path_is_missing .git/respin/worktrees/a &&
	git worktree list >wl && test_grep ! "respin/worktrees/a" wl
'

test_expect_success 'rename onto an existing series, or a bad name: refused' '
	test_expect_code 129 respin rename a2 b 2>err &&
	test_grep "there is a series b already" err &&
	test_expect_code 129 respin rename a2 "bad name" 2>err &&
	test_expect_code 128 respin rename nosuch x 2>err && test_grep "nosuch" err &&
	git rev-parse -q --verify refs/respin/series/a2
'

test_expect_success 'rm: the ref, worktree, build directory and settings gone; others stay' '
	git config respin.check.hello.command "true again" &&
	respin check a2 >/dev/null 2>&1 &&
	test_path_is_dir .git/respin/worktrees/a2 &&
	respin rm a2 >out &&
	cat out &&
	test_grep "^removed series a2 (1 version)$" out &&
	test_grep "^removed its worktree .*/.git/respin/worktrees/a2$" out &&
	test_grep "^removed its 2 settings (respin.series.a2.\*)$" out &&
	test_must_fail git rev-parse -q --verify refs/respin/series/a2 &&
	test_path_is_missing .git/respin/worktrees/a2 &&
	test_must_fail git config respin.series.a2.to &&
	git worktree list >wl && test_grep ! "respin/worktrees/a2" wl &&
	respin list >list && test_grep "^b " list && test_grep ! "^a2 " list &&
	test_expect_code 128 respin rm a2 2>err && test_grep "a2" err &&
	test_expect_code 129 respin rm 2>err
'

test_expect_success 'a rebase conflict: the worktree on a line of its own, locked as respin'"'"'s' '
	git checkout -q -b c-work mm-unstable && echo one >c.txt && git add c.txt &&
	git commit -q -m "c: one" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track c --base mm-unstable >/dev/null &&
	git checkout -q -b c-base mm-unstable && echo other >c.txt && git add c.txt &&
	git commit -q -m "base: c" && git checkout -q work &&
	test_expect_code 1 respin rebase c --onto c-base >out &&
	cat out &&
	test_grep "^resolve the conflict in $(pwd)/.git/respin/rebase/c$" out &&
	git worktree list --porcelain >wl &&
	test_grep "^locked respin: a rebase of series c waits here" wl &&
	respin rebase c --abort >/dev/null &&
	respin rm c >out && test_grep "^removed series c" out
'

test_done
