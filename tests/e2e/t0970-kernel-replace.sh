#!/bin/sh
# respin tree and respin replace on the real linux 6.1 tree: an
# integration branch on mm-unstable with two mm/ series, a fixup and
# commits of no series; v1 of the first series replaced by its v2 (one
# patch changed, one added); the result equals the branch rebuilt by
# hand with git cherry-pick.  Nothing is built: the tree is the point.
. "$(dirname "$0")/lib.sh"

KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	{ cat "$TRASH/kt.log"; echo "Bail out! no kernel tree"; exit 1; }

setup() {
	git clone -q --shared "$KSRC" linux && cd linux &&
	git config user.name "A U Thor" && git config user.email author@example.org &&
	git config respin.check.build.enabled false &&
	# versions as a maintainer takes them from the list, made by track
	# with no mail (see lib-integ.sh): each recorded change a number
	git config respin.numbering track &&
	git branch -q mm-unstable origin/mm-unstable 2>/dev/null || true
	git checkout -q -b s1 mm-unstable &&
	echo "/* s1 */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: note the free pages" -m "Signed-off-by: A U Thor <author@example.org>" &&
	sed -i "0,/^#include <linux\/swap.h>$/s//#include <linux\/swap.h>\n\/* s1 two *\//" mm/vmscan.c &&
	git commit -qam "mm/vmscan: a note" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track s1 --base mm-unstable >/dev/null &&
	git checkout -q -b s2 mm-unstable &&
	echo "/* s2 */" >>mm/page_alloc.c &&
	git commit -qam "mm/page_alloc: a note at the end" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track s2 --base mm-unstable >/dev/null &&
	git checkout -q -b integ mm-unstable &&
	echo "/* other */" >>mm/mmap.c && git commit -qam "mm/mmap: of no series" &&
	git cherry-pick s1~1 s1 >/dev/null &&
	echo "/* fix */" >>mm/vmscan.c && git commit -qam "mm-vmscan-a-note-fix" &&
	git cherry-pick s2 >/dev/null &&
	echo "/* later */" >>mm/mmap.c && git commit -qam "mm/mmap: later, of no series" &&
	git checkout -q s1 &&
	sed -i "s/\/\* s1 two \*\//\/* s1 two, v2 *\//" mm/vmscan.c && git commit -q -a --amend --no-edit &&
	echo "/* s1 three */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: a third" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track s1 >/dev/null &&
	git checkout -q mm-unstable
}
setup >"$TRASH/setup.log" 2>&1
setup_rc=$?
cd "$TRASH/linux" 2>/dev/null

test_expect_success 'the real tree, two series in an integration branch' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0
'

test_expect_success 'respin tree finds both series, the fixup and the rest' '
	respin tree integ --base mm-unstable >out && cat out &&
	test_grep "^integ: 6 commits above .*, 2 tracked series in it, 2 commits match none$" out &&
	test_grep "^s1 v1: 2/2 patches (2 by patch-id), 1 fixup; v2 is known$" out &&
	test_grep "^s2 v1: 1/1 patches (1 by patch-id)$" out
'

test_expect_success 'replace s1 v1 -> v2: the same tree as by hand, the fixup kept' '
	git branch before integ &&
	respin replace s1 --in integ >out && cat out &&
	test_grep "^integ: s1 v1 -> v2: 1 the same, 1 changed, 1 added, 0 dropped$" out &&
	test_grep "1 fixup kept, 0 left out" out &&
	git checkout -q -b want "before~5" &&
	git cherry-pick s1~2 s1~1 s1 >/dev/null &&
	git cherry-pick before~2 before~1 before >/dev/null &&
	test "$(git rev-parse want^{tree})" = "$(git rev-parse integ^{tree})" &&
	git checkout -q mm-unstable &&
	respin tree integ --base mm-unstable >out2 &&
	test_grep "^s1 v2: 3/3 patches (3 by patch-id), 1 fixup$" out2
'

test_done
