#!/bin/sh
# A repository copied with cp -a after a check carries respin's
# worktrees, whose .git files name the original's .git/worktrees.  A
# check in the copy must run in a worktree of the copy's own, leave the
# original's worktree as it was, and store what the copy's tree gives.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
git config respin.check.where.kind command
# prints the git dir the check runs in; fails where mm/a.c says "orig"
git config respin.check.where.command 'git rev-parse --absolute-git-dir && ! grep -q orig mm/a.c'
git checkout -q -b w mm-unstable && echo "int a;" >mm/a.c && git add mm/a.c &&
	git commit -qm "mm: a" && respin track a --base mm-unstable >/dev/null &&
	respin check a >/dev/null || { echo "Bail out! no first check"; exit 1; }
cd "$TRASH"

test_expect_success 'the copy checks in a worktree of its own; the original is untouched' '
	git -C k/.git/respin/worktrees/a rev-parse HEAD >orig-head &&
	cp -a k k2 && cd k2 &&
	git config respin.check.where.command "git rev-parse --absolute-git-dir # 2" &&
	respin check a >out && test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin results a --check where --patch 1 >res &&
	test_grep "^$TRASH/k2/\\.git/worktrees/" res &&
	test_grep ! "$TRASH/k/" res &&
	sed "s/^gitdir: //" .git/respin/worktrees/a/.git >gd &&
	test_grep "^$TRASH/k2/\\.git/worktrees/" gd &&
	cd .. &&
	git -C k/.git/respin/worktrees/a rev-parse HEAD >now-head &&
	check_same orig-head now-head &&
	git -C k worktree list --porcelain >k-list &&
	test_grep ! "k2" k-list &&
	git -C k2 worktree list --porcelain >k2-list &&
	test_grep ! "$TRASH/k/" k2-list
'

test_expect_success 'the original still checks in its own' '
	cd k &&
	git config respin.check.where.command "git rev-parse --absolute-git-dir # 3" &&
	respin check a >out && test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin results a --check where --patch 1 >res &&
	test_grep "^$TRASH/k/\\.git/worktrees/" res
'

test_done
