# SPDX-License-Identifier: GPL-2.0-or-later
# The end-to-end test library: source it from tests/e2e/tNNNN-*.sh.
#
# Each test script runs in a fresh temporary directory with its own
# HOME and a fixed clock, with respin (from $RESPIN_BUILD, default
# ./build) first on PATH.  It prints TAP:
#
#   test_expect_success 'what it checks' '
#           commands; the last status decides
#   '
#   test_expect_code 128 'what' 'commands'   # status must be 128
#   test_done
#
# Helpers: check_same FILE_WANT FILE_GOT (shows a diff), refs_snapshot
# FILE (every ref under refs/respin with its value), make_fixture DIR
# (the small kernel-shaped repository from tools/make-fixture.sh).

set -u
TEST_NAME=$(basename "$0" .sh)
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
: "${RESPIN_BUILD:=$SRC_DIR/build}"
SHARED_DIR=${RESPIN_SHARED:-$SRC_DIR/../shared}
export RESPIN_BUILD SRC_DIR SHARED_DIR

# Big caches (the kernel tree, checkpatch, the year of mail) are shared
# between tests and runs: where they live is decided before HOME moves.
: "${RESPIN_TEST_CACHE:=${RESPIN_CACHE:-$HOME/.cache/respin}}"
export RESPIN_TEST_CACHE

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/respin-$TEST_NAME.XXXXXX")
trap 'cd /; [ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"' EXIT
export HOME="$TRASH/home"
mkdir -p "$HOME"
cd "$TRASH" || exit 1

export PATH="$RESPIN_BUILD:$PATH"
export TZ=UTC LC_ALL=C LANG=C
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.org'
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL='committer@example.org'
export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'
unset GIT_DIR GIT_WORK_TREE EDITOR VISUAL GIT_EDITOR
git config --global user.name 'C O Mitter'
git config --global user.email 'committer@example.org'
git config --global init.defaultBranch main
git config --global gc.auto 0
git config --global advice.detachedHead false

test_count=0
test_failed=0

# Advances the fixed clock by N seconds (default 60).
tick() {
	_t=${GIT_COMMITTER_DATE%% *}
	_t=$((_t + ${1:-60}))
	export GIT_COMMITTER_DATE="$_t +0000" GIT_AUTHOR_DATE="$_t +0000"
}

_test_report() {
	test_count=$((test_count + 1))
	if [ "$1" = 0 ]; then
		echo "ok $test_count - $2"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $2"
		# On stderr, so that prove (and so the CI log) shows why.
		sed 's/^/# /' "$TRASH/.out" 2>/dev/null | tail -n 40 >&2
	fi
}

# test_expect_success DESC SCRIPT: SCRIPT (run with "set -e" semantics
# off; its last status counts) must succeed.
test_expect_success() {
	( eval "$2" ) >"$TRASH/.out" 2>&1
	_test_report $? "$1"
}

# test_expect_code CODE DESC SCRIPT: SCRIPT must exit with CODE.
test_expect_code() {
	( eval "$3" ) >"$TRASH/.out" 2>&1
	_rc=$?
	[ "$_rc" = "$1" ] || echo "expected exit $1, got $_rc" >>"$TRASH/.out"
	[ "$_rc" = "$1" ]
	_test_report $? "$2"
}

test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" = 0 ]
	exit $?
}

# check_same WANT GOT: compare two files, show the diff when they differ.
check_same() {
	diff -u "$1" "$2"
}

# refs_snapshot FILE: every respin ref and its value.
refs_snapshot() {
	git for-each-ref --format='%(refname) %(objectname)' refs/respin >"$1"
}

# grep_q PATTERN FILE: like grep -q but shows FILE when nothing matches.
grep_q() {
	grep -q -e "$1" "$2" && return 0
	echo "no match for '$1' in $2:"; cat "$2"; return 1
}

# checkpatch_path: prints the path of a checkpatch.pl (made by
# tools/kernel-tree.sh in the shared cache on first use).
checkpatch_path() {
	if [ ! -x "$RESPIN_TEST_CACHE/checkpatch/checkpatch.pl" ]; then
		RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" \
			>/dev/null 2>"$TRASH/kernel-tree.log" || {
			cat "$TRASH/kernel-tree.log" >&2; return 1; }
	fi
	echo "$RESPIN_TEST_CACHE/checkpatch/checkpatch.pl"
}

make_fixture() {
	sh "$SRC_DIR/tools/make-fixture.sh" "$1" >/dev/null
}

# make_checked_fixture DIR: the fixture in DIR on a branch "work" from
# mm-unstable, with the real checkpatch.pl configured; the caller then
# cd's into DIR.
make_checked_fixture() {
	_cp=$(checkpatch_path) || return 1
	make_fixture "$1" &&
	git -C "$1" checkout -q -b work mm-unstable &&
	git -C "$1" config respin.check.checkpatch.command \
		"perl $_cp --terse --show-types --showfile --no-tree -"
}

# commit_three_patches: three patches on mm/ in the current fixture:
# 1 a real fix, 2 adds a compiler warning (an unused variable), 3 a
# checkpatch error (trailing whitespace).
commit_three_patches() {
	tick
	sed -i 's/^\tif (!free_blocks_total)$/\tif (!free_blocks_total || !requested)/' mm/compaction.c
	git commit -qam "mm/compaction: guard fragmentation_index() against a zero request" \
		-m "A zero request cannot fragment anything: return 0 early." \
		-m "Signed-off-by: A U Thor <author@example.org>" || return 1
	tick
	sed -i 's/^\tunsigned int o;$/\tunsigned int o;\n\tint unused_marker;/' mm/compaction.c
	git commit -qam "mm/compaction: prepare a marker for later" \
		-m "Nothing uses it yet." \
		-m "Signed-off-by: A U Thor <author@example.org>" || return 1
	tick
	printf '\nint vmscan_extra(void) { return 1; }   \n' >>mm/vmscan.c
	git commit -qam "mm/vmscan: add vmscan_extra()" \
		-m "A helper for later." \
		-m "Signed-off-by: A U Thor <author@example.org>"
}
