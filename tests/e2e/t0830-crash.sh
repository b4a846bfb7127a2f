#!/bin/sh
# Crash consistency: import, track and check killed with SIGKILL at
# random moments (50 kills in all).  After each kill git fsck is clean,
# refs/respin are at the old or the new state, the results database
# passes PRAGMA integrity_check, and a rerun gives what an uninterrupted
# run gives.  The moments come from a seed, printed first: replay a
# failure with RESPIN_T0830_SEED=N.
. "$(dirname "$0")/lib.sh"

SEED=${RESPIN_T0830_SEED:-$(date +%s)}
KILLS=${RESPIN_T0830_KILLS:-50}
SQL="$RESPIN_BUILD/tests/helpers/db-sql"
echo "# seed $SEED (RESPIN_T0830_SEED=$SEED replays it)"
RNG=$SEED

# pick N: a random number 0..N-1 in $PICK (a linear congruential one).
pick() {
	RNG=$(( (RNG * 1103515245 + 12345) % 2147483648 ))
	PICK=$(( (RNG / 65536) % $1 ))
}

# ms: milliseconds since the epoch.
ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# kill_at MS CMD...: runs CMD in the background, SIGKILLs it after MS
# milliseconds; $KILLED is 1 when it was still running then.
kill_at() {
	_ms=$1 && shift &&
	{ "$@" >"$TRASH/kill.out" 2>&1 & } && _p=$! &&
	sleep $((_ms / 1000)).$(printf %03d $((_ms % 1000))) &&
	kill -KILL $_p 2>/dev/null
	wait $_p
	_rc=$?
	KILLED=0 && { [ $_rc != 137 ] || KILLED=1; } &&
	{ [ $_rc = 137 ] || [ $_rc = 0 ] || { echo "exit $_rc:"; cat "$TRASH/kill.out"; return 1; }; }
}

# sound: git fsck clean, and the results database (if any) intact.
sound() {
	git fsck --no-progress --no-dangling >"$TRASH/fsck" 2>&1 &&
	test ! -s "$TRASH/fsck" || { echo "git fsck:"; cat "$TRASH/fsck"; return 1; }
	if [ -f .git/respin/results.db ]; then
		test "$("$SQL" .git/respin/results.db "PRAGMA integrity_check")" = ok ||
		{ echo "integrity_check failed"; return 1; }
	fi
}

# at_old_or_new REF OLD NEW: the ref is at one of them ("" = no ref).
at_old_or_new() {
	_v=$(git rev-parse -q --verify "$1") || _v=""
	[ "$_v" = "$2" ] || [ "$_v" = "$3" ] ||
	{ echo "$1 is at '$_v', neither the old '$2' nor the new '$3'"; return 1; }
}

# rerun CMD...: runs CMD; a ref lock a kill left behind is removed as
# the message says (counted), then CMD runs again.
STALE=0
rerun() {
	"$@" >"$TRASH/rerun.out" 2>&1 && return 0
	_lock=$(sed -n "s/^fatal: .*: it is locked: \(.*\) exists$/\1/p" "$TRASH/rerun.out")
	[ -n "$_lock" ] || { echo "rerun failed:"; cat "$TRASH/rerun.out"; return 1; }
	STALE=$((STALE + 1)) && rm -f "$_lock" &&
	"$@" >"$TRASH/rerun.out" 2>&1 || { echo "rerun failed:"; cat "$TRASH/rerun.out"; return 1; }
}

# The repository everything starts from: the fixture with three patches.
make_fixture src && cd src && git checkout -q -b work mm-unstable &&
	commit_three_patches && respin track a --base mm-unstable >/dev/null &&
	respin format a --stdout >"$TRASH/a.mbox" && cd "$TRASH" ||
	{ echo "Bail out! no fixture"; exit 1; }
git clone -q src tmpl && git -C tmpl branch -q mm-unstable origin/mm-unstable
test "$(git -C tmpl symbolic-ref HEAD)" = refs/heads/work || { echo "Bail out! the clone is not on work"; exit 1; }

NI=$((KILLS / 3)); NT=$((KILLS / 3)); NC=$((KILLS - NI - NT))
LANDED=0

# ---- import: each kill in a fresh copy, compared with an uninterrupted one
cp -a tmpl imp-ref && (cd imp-ref && respin import s "$TRASH/a.mbox" --base mm-unstable >/dev/null &&
	respin show s --json | grep -v change_id >"$TRASH/imp-want")
start=$(ms); (cd imp-ref && respin import t "$TRASH/a.mbox" --base mm-unstable >/dev/null); IMP_MS=$(( $(ms) - start + 5 ))

test_expect_success "import killed at random moments ($NI kills)" '
	n=0 && while [ $n -lt $NI ]; do
		n=$((n + 1)) && rm -rf imp && cp -a tmpl imp && cd imp &&
		pick $((IMP_MS * 6 / 5)) &&
		kill_at $PICK respin import s "$TRASH/a.mbox" --base mm-unstable &&
		LANDED=$((LANDED + KILLED)) &&
		sound &&
		if git rev-parse -q --verify refs/respin/series/s >/dev/null; then
			# the new state, whole
			respin show s --json | grep -v change_id >got &&
			check_same "$TRASH/imp-want" got
		else
			rerun respin import s "$TRASH/a.mbox" --base mm-unstable
		fi &&
		respin show s --json | grep -v change_id >got && check_same "$TRASH/imp-want" got &&
		sound && cd "$TRASH" || { echo "import kill $n at ${PICK}ms"; return 1; }
	done &&
	echo "$LANDED" >"$TRASH/landed"
'
LANDED=$(cat "$TRASH/landed" 2>/dev/null || echo 0)

# ---- track: each kill records the next version; the new state is what
# an uninterrupted run in a copy gives (the clock is fixed)
cp -a tmpl trk && (cd trk && respin track a --base mm-unstable >/dev/null)
start=$(ms); (cd trk && respin track a >/dev/null); TRK_MS=$(( $(ms) - start + 5 ))

test_expect_success "track killed at random moments ($NT kills)" '
	cd trk && n=0 && while [ $n -lt $NT ]; do
		n=$((n + 1)) && tick &&
		echo "int t$n;" >>mm/vmscan.c && git commit -qam "mm: t$n" &&
		old=$(git rev-parse refs/respin/series/a) &&
		rm -rf ../trk-new && cp -a . ../trk-new &&
		new=$(cd ../trk-new && respin track a >/dev/null && git rev-parse refs/respin/series/a) &&
		pick $((TRK_MS * 6 / 5)) &&
		kill_at $PICK respin track a &&
		LANDED=$((LANDED + KILLED)) &&
		sound && at_old_or_new refs/respin/series/a "$old" "$new" &&
		if [ "$(git rev-parse refs/respin/series/a)" = "$old" ]; then
			rerun respin track a
		fi &&
		at_old_or_new refs/respin/series/a "$new" "$new" &&
		sound || { echo "track kill $n at ${PICK}ms"; return 1; }
	done &&
	echo "$LANDED $STALE" >"$TRASH/landed"
'
read LANDED STALE <"$TRASH/landed" 2>/dev/null || true
cd "$TRASH"

# ---- check: a command that fails unless the worktree holds the tree of
# the patch it checks; each kill under a definition of its own, so each
# round checks out and checks patches 1, 2 and 3 again
cp -a tmpl chk && cd chk && respin track a --base mm-unstable >/dev/null &&
	git config respin.check.build.enabled false &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.tree.kind command
tree_check() {
	git config respin.check.tree.command "git --no-optional-locks diff --quiet \$RESPIN_TREE -- && sleep 0.05 && git --no-optional-locks diff --quiet \$RESPIN_TREE -- && echo tree ok # $1"
}
tree_check serial && respin check a >/dev/null && respin results a >"$TRASH/chk-want"
tree_check timing && start=$(ms) && respin check a >/dev/null; CHK_MS=$(( $(ms) - start + 5 ))

test_expect_success "check killed at random moments ($NC kills)" '
	n=0 && while [ $n -lt $NC ]; do
		n=$((n + 1)) && tree_check kill$n &&
		pick $((CHK_MS * 6 / 5)) &&
		kill_at $PICK respin check a &&
		LANDED=$((LANDED + KILLED)) &&
		sound && refs_snapshot refs && grep -q "^refs/respin/series/a " refs &&
		rerun respin check a --wait &&
		respin results a >got && check_same "$TRASH/chk-want" got &&
		sound || { echo "check kill $n at ${PICK}ms"; return 1; }
	done &&
	echo "$LANDED $STALE" >"$TRASH/landed"
'
read LANDED STALE <"$TRASH/landed" 2>/dev/null || true
cd "$TRASH"

echo "# $KILLS kills ($NI import, $NT track, $NC check; uninterrupted they take ${IMP_MS}, ${TRK_MS}, ${CHK_MS} ms), $LANDED while the command ran; $STALE stale ref locks removed as the message said; seed $SEED"
test_done
