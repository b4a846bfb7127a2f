#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GIT_DIR, git --git-dir and GIT_WORK_TREE are honoured as git honours
# them: respin works on the repository they name, not on the one (or
# none) around the current directory.
. "$(dirname "$0")/lib.sh"

make_fixture repo &&
(cd repo && git checkout -q -b work mm-unstable &&
 echo x >>mm/vmscan.c && git commit -qam "mm: one" &&
 respin track s1 --base mm-unstable >/dev/null) &&
git init -q other && git -C other commit -q --allow-empty -m other &&
mkdir outside
REPO=$TRASH/repo/.git

test_expect_success 'GIT_DIR=... respin list, outside any repository' '
	(cd outside && GIT_DIR=$REPO respin list >../out 2>../err) &&
	cat out err &&
	test_grep "^s1 " out
'

test_expect_success 'GIT_DIR wins over the repository around the directory' '
	(cd other && GIT_DIR=$REPO respin list >../out 2>../err) &&
	cat out err &&
	test_grep "^s1 " out &&
	(cd other && respin list >../out2) &&
	test ! -s out2
'

test_expect_success 'git --git-dir=... respin list' '
	(cd other && git --git-dir="$REPO" respin list >../out 2>../err) &&
	cat out err &&
	test_grep "^s1 " out
'

test_expect_success 'GIT_DIR with GIT_WORK_TREE: respin track records HEAD there' '
	(cd outside && GIT_DIR=$REPO GIT_WORK_TREE=$TRASH/repo \
		respin track s2 --base mm-unstable >../out 2>../err) &&
	cat out err &&
	git -C repo for-each-ref refs/respin/series/s2 >refs &&
	test -s refs &&
	test ! -d outside/.git
'

test_expect_code 128 'GIT_DIR naming no repository: refused' '
	(cd repo && GIT_DIR=$TRASH/outside respin list) >out 2>err
'

test_expect_success 'the message names GIT_DIR' '
	cat out err &&
	test_grep "^fatal: not a git repository: GIT_DIR=$TRASH/outside" err
'

test_done
