#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo: respin's main job on a built-in example.  Makes a small
# kernel-shaped repository, records a 3-patch series as v1, marks it
# sent, reworks it the way a v2 usually goes (a patch changed after
# review, two swapped, one added), records v2, shows what changed
# between them, checks every patch (build, checkpatch, selftests) and
# writes the mail.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../build}"
PATH="$RESPIN_BUILD:$PATH"
dir=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/respin-demo.XXXXXX")}
export GIT_AUTHOR_NAME="Demo Developer" GIT_AUTHOR_EMAIL="dev@example.org"
export GIT_COMMITTER_NAME="Demo Developer" GIT_COMMITTER_EMAIL="dev@example.org"

run() {
	printf '\n$ %s\n' "$*"
	"$@"
}

sh "$here/make-fixture.sh" "$dir/linux" --series 3 >/dev/null
cd "$dir/linux"
git checkout -q topic

echo "A kernel-shaped tree in $dir/linux with a 3-patch series on mm-unstable."
run git log --oneline mm-unstable..topic
run respin track demo --base mm-unstable
# v1 goes to the list (respin send does it and records its Message-ID;
# here, by hand): a version is numbered by what was sent, so the next
# change recorded is v2.
run respin track demo --mark-sent "<demo-v1-0@example.org>"

# v2: review asked for a change in patch 2, patches 1 and 3 swap, and a
# new patch 4 joins.
p1=$(git rev-parse topic~2) p2=$(git rev-parse topic~1) p3=$(git rev-parse topic)
git checkout -q -b topic-v2 mm-unstable
git cherry-pick "$p3" "$p1" >/dev/null
git cherry-pick -n "$p2" >/dev/null
f=$(git diff --cached --name-only | head -n 1)
printf '/* reviewed: keep this simple */\n' >>"$f"
git add "$f"
git commit -q -C "$p2"
printf '/* a new patch in v2 */\n' >>"$f"
git commit -q -am "mm: document the v2 change" -m "Signed-off-by: Demo Developer <dev@example.org>"

run respin track demo --tip topic-v2
run respin list
run respin show demo
run respin diff demo v1 v2
run respin status

# Per-patch checks: the fixture has no checkpatch.pl of its own; use the
# one tools/kernel-tree.sh keeps, when it is there.
cp=${RESPIN_CACHE:-$HOME/.cache/respin}/checkpatch/checkpatch.pl
if [ -x "$cp" ]; then
	git config respin.check.checkpatch.command \
		"perl $cp --terse --show-types --showfile --no-tree -"
else
	git config respin.check.checkpatch.enabled false
fi
git config respin.check.selftests.kind ktap
git config respin.check.selftests.command \
	'make -s -C tools/testing/selftests/mm O=$RESPIN_BUILD/selftests run_tests'
run respin check demo@v1
run respin check demo
run respin results demo
run respin diff demo v1 v2 --results -s
printf '%s\n' "mm: small fixes to compaction" "" \
	"Two small fixes found while reading mm/compaction.c." "" \
	"Changes in v2:" "- Keep it simple, as the reviewer asked." >"$dir/cover.txt"
run respin cover demo --file "$dir/cover.txt"
run respin cover demo
run respin format demo -o "$dir/outgoing"
echo
echo "The example repository stays in $dir/linux; try 'cd $dir/linux && respin --help'."
