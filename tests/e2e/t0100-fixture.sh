#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/make-fixture.sh: the small kernel-shaped repository.
. "$(dirname "$0")/lib.sh"

FIXTURE=$SRC_DIR/tools/make-fixture.sh

test_expect_success 'make-fixture creates main and mm-unstable and prints the path' '
	sh "$FIXTURE" fx >out &&
	test "$(cat out)" = "$TRASH/fx" &&
	cd fx &&
	test "$(git rev-parse main)" = "$(git rev-parse mm-unstable)" &&
	test "$(git rev-list --count main)" = 1 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/main &&
	test -z "$(git status --porcelain)" &&
	for f in Makefile COPYING MAINTAINERS .gitignore scripts/README \
		mm/compaction.c mm/vmscan.c mm/page_alloc.c \
		include/linux/mm.h tools/testing/selftests/mm/Makefile; do
		git cat-file -e "HEAD:$f" || { echo "no $f"; exit 1; }
	done &&
	test_must_fail git cat-file -e HEAD:scripts/checkpatch.pl
'

test_expect_success 'the fixture builds with make and runs, leaving git status clean' '
	cd fx &&
	make >../make.out 2>../make.err &&
	test_grep "^  CC      mm/compaction.o" ../make.out &&
	test_grep "^  LD      vmlinux" ../make.out &&
	test ! -s ../make.err &&
	./vmlinux >../run.out &&
	test_grep "compaction for order 4: success" ../run.out &&
	test -z "$(git status --porcelain)"
'

test_expect_success 'make O=dir builds out of tree, W=1 stays quiet' '
	cd fx &&
	make O=../obj W=1 >../make.out 2>../make.err &&
	test -x ../obj/vmlinux && test -f ../obj/mm/vmscan.o &&
	test ! -s ../make.err &&
	test -z "$(git status --porcelain)"
'

test_expect_success 'a compiler warning is reported kbuild-style; WERROR=1 fails' '
	git clone -q fx fxw && cd fxw &&
	sed "s/^\tunsigned int o;$/\tunsigned int o, unused_var;/" mm/compaction.c >c.tmp &&
	mv c.tmp mm/compaction.c && test_must_fail git diff --quiet &&
	make O=../objw >../make.out 2>../make.err &&
	test_grep "^mm/compaction.c:[0-9]*:[0-9]*: warning: unused variable .unused_var." ../make.err &&
	test_must_fail make O=../objw2 WERROR=1 >/dev/null 2>&1
'

test_expect_success 'the mm selftest prints KTAP' '
	cd fx &&
	make -s -C tools/testing/selftests/mm OUTPUT="$TRASH/st" >../st.build 2>&1 &&
	"$TRASH/st/compaction_test" >../ktap.out &&
	sed -n 1p ../ktap.out | grep -qx "KTAP version 1" &&
	sed -n 2p ../ktap.out | grep -qx "1\.\.4" &&
	test_grep "^ok 1 page_alloc_split$" ../ktap.out &&
	test_grep "^ok [0-9]* [a-z_]* # SKIP " ../ktap.out &&
	test_grep ! "^not ok" ../ktap.out &&
	test -z "$(git status --porcelain)"
'

test_expect_success 'KSFT_FIXTURE_FAIL makes a subtest fail' '
	test_expect_code 1 env KSFT_FIXTURE_FAIL=compaction_fragmented \
		"$TRASH/st/compaction_test" >ktap2.out &&
	test_grep "^not ok 2 compaction_fragmented$" ktap2.out &&
	test_grep "^ok 3 reclaim_inactive$" ktap2.out
'

test_expect_success '--series 3 puts 3 signed-off patches to mm/ on topic' '
	sh "$FIXTURE" --series 3 fx3 >/dev/null &&
	cd fx3 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/topic &&
	test "$(git rev-list --count mm-unstable..topic)" = 3 &&
	test "$(git merge-base mm-unstable topic)" = "$(git rev-parse main)" &&
	for c in $(git rev-list mm-unstable..topic); do
		git log -1 --format=%B $c | grep -q "^Signed-off-by: A U Thor <author@example.org>$" &&
		git log -1 --format=%s $c | grep -q "^mm/[a-z_]*: " &&
		git diff-tree --no-commit-id --name-only -r $c | grep -q "^mm/.*\.c$" ||
		{ git log -1 --stat $c; exit 1; }
	done &&
	test -z "$(git status --porcelain)"
'

test_expect_success 'every patch of --series 6 builds W=1 WERROR=1 and passes the selftest' '
	sh "$FIXTURE" --series 6 fx7 >/dev/null &&
	git clone -q fx7 fx7w && cd fx7w &&
	for c in $(git rev-list --reverse origin/mm-unstable~0 origin/topic); do
		git checkout -q $c &&
		make O="$TRASH/o7" W=1 WERROR=1 >/dev/null &&
		make -s -C tools/testing/selftests/mm OUTPUT="$TRASH/st7" >/dev/null &&
		"$TRASH/st7/compaction_test" >ktap || { echo "at $c"; cat ktap; exit 1; }
	done
'

test_expect_success 'object ids are reproducible' '
	sh "$FIXTURE" --series 3 fx3b >/dev/null &&
	GIT_AUTHOR_NAME=Other GIT_COMMITTER_DATE="1800000000 +0000" \
		sh "$FIXTURE" --series=3 fx3c >/dev/null &&
	for r in main mm-unstable topic; do
		a=$(git -C fx3 rev-parse $r) &&
		test "$a" = "$(git -C fx3b rev-parse $r)" &&
		test "$a" = "$(git -C fx3c rev-parse $r)" || exit 1
	done
'

test_expect_success 'make-fixture refuses a non-empty directory' '
	mkdir full && echo keep >full/file &&
	test_must_fail sh "$FIXTURE" full >out 2>err &&
	test_grep "not empty" err &&
	test "$(ls -A full)" = file && test "$(cat full/file)" = keep &&
	mkdir empty && sh "$FIXTURE" empty >/dev/null &&
	test -d empty/.git
'

test_expect_success 'make-fixture rejects a bad --series' '
	test_must_fail sh "$FIXTURE" --series x bad 2>err &&
	test_grep "number" err && test ! -e bad
'

test_expect_success 'respin track and show work on the fixture' '
	make_fixture plain && cd fx3 &&
	respin track k --base mm-unstable >../track.out &&
	respin list >../list.out &&
	test_grep "^k " ../list.out &&
	respin show k >../show.out &&
	for s in $(git log --format=%h --abbrev=12 mm-unstable..topic); do
		test_grep "$s" ../show.out || exit 1
	done &&
	test_grep "3/3 .*mm/page_alloc: add zone_free_pages_order()" ../show.out
'

test_done
