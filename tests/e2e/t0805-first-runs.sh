#!/bin/sh
# First checks of different series started at once in a repository that
# has never been checked (no results database, no worktrees yet): each
# succeeds, every time.  A race in making the database's schema, its
# WAL mode or the worktrees shows in some rounds only, so it runs many.
. "$(dirname "$0")/lib.sh"

ROUNDS=${RESPIN_T0805_ROUNDS:-50}

make_fixture tpl && cd tpl || { echo "Bail out! no fixture"; exit 1; }
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
git config respin.check.quick.kind command
git config respin.check.quick.command "test -d mm"
for s in a b c; do
	git checkout -q -b "w-$s" mm-unstable &&
	echo "int $s;" >"mm/$s.c" && git add "mm/$s.c" && git commit -qm "mm: $s" &&
	respin track "$s" --base mm-unstable >/dev/null || exit 1
done
git checkout -q mm-unstable
test ! -e .git/respin/results.db || { echo "Bail out! a database already"; exit 1; }
cd "$TRASH"

test_expect_success "$ROUNDS rounds of three first checks at once: all succeed" '
	i=0 &&
	while test $i -lt $ROUNDS; do
		i=$((i + 1)) &&
		cp -a tpl "r$i" && cd "r$i" &&
		{ respin check a >out-a 2>err-a & } && pa=$! &&
		{ respin check b >out-b 2>err-b & } && pb=$! &&
		{ respin check c >out-c 2>err-c & } && pc=$! &&
		ra=0 && rb=0 && rc=0 &&
		{ wait $pa || ra=$?; } && { wait $pb || rb=$?; } &&
		{ wait $pc || rc=$?; } &&
		test "$ra$rb$rc" = 000 || {
			echo "round $i: exit $ra $rb $rc"; cat err-a err-b err-c; return 1; }
		cd .. && rm -rf "r$i" || return 1
	done
'

test_done
