#!/bin/sh
# track and import while git gc --prune=now runs over and over beside
# them: git prunes every unreachable object at once, so an object that
# respin wrote before its ref pointed at it could go.  Nothing recorded
# may lose an object: git fsck stays clean, every series reads back.
. "$(dirname "$0")/lib.sh"

ROUNDS=${RESPIN_T0831_ROUNDS:-40}

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config gc.auto 0
git checkout -q -b w mm-unstable || exit 1
# git's own commands race with --prune=now too: what they write is made
# before the gc starts, and only respin writes while it runs.
i=0
while test $i -lt $ROUNDS; do
	i=$((i + 1))
	echo "int v$i;" >"mm/r$i.c" && git add "mm/r$i.c" &&
	git commit -qm "mm: round $i" && git branch "b$i" &&
	git format-patch -q --stdout -1 \
		--add-header="Message-Id: <round-$i@example.org>" >"$TRASH/r$i.mbox" ||
	{ echo "Bail out! no commits"; exit 1; }
done
git checkout -q mm-unstable

gc_loop() {
	while test -f "$TRASH/gc-on"; do
		git gc -q --prune=now >/dev/null 2>&1
	done
}

test_expect_success "$ROUNDS rounds of track and import beside git gc --prune=now" '
	touch "$TRASH/gc-on" &&
	{ gc_loop & } && gcpid=$! &&
	i=0 && fail= &&
	while test $i -lt $ROUNDS; do
		i=$((i + 1)) &&
		{ respin track "t$i" --tip "b$i" --base "b$i~1" >/dev/null 2>"$TRASH/err" ||
		  { fail="track $i: $(cat "$TRASH/err")"; break; }; } &&
		{ respin import "m$i" "$TRASH/r$i.mbox" --base "b$i~1" >/dev/null 2>"$TRASH/err" ||
		  { fail="import $i: $(cat "$TRASH/err")"; break; }; } || return 1
	done &&
	rm -f "$TRASH/gc-on" && wait $gcpid &&
	{ test -z "$fail" || { echo "$fail"; false; }; } &&
	{ git fsck --strict --no-dangling >fsck 2>&1 || { cat fsck; false; }; } &&
	i=0 &&
	while test $i -lt $ROUNDS; do
		i=$((i + 1)) &&
		respin show "t$i" >/dev/null && respin show "m$i" >/dev/null &&
		respin diff "t$i" v1 v1 >/dev/null || return 1
	done
'

test_done
