#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin fixup: the change from vA to vB as one "-fix" patch mail; real
# git am of it on vA's tip gives vB's tree exactly.
. "$(dirname "$0")/lib.sh"

sh "$SRC_DIR/tools/make-fixture.sh" --series 3 k >/dev/null && cd k ||
	{ echo "Bail out! no fixture"; exit 1; }

# tip N: the tip of version N, from respin show --json.
tip() {
	respin show k@v$1 --json | sed -n 's/^  "tip": "\([0-9a-f]*\)",$/\1/p'
}

# am_gives MAIL FROM TO: git am of MAIL on FROM's tip gives TO's tree.
am_gives() {
	git checkout -q --detach "$(tip $2)" &&
	git am -q "$1" &&
	test "$(git rev-parse HEAD^{tree})" = "$(git rev-parse "$(tip $3)^{tree}")" &&
	git checkout -q topic
}

test_expect_success 'setup: v1, and v2 with the code of patch 2 changed' '
	respin track k --base mm-unstable >/dev/null &&
	git checkout -q -b v2 topic~1 &&
	sed -i "s/sc->nr_to_reclaim - sc->nr_reclaimed + 1)/sc->nr_to_reclaim - sc->nr_reclaimed)/" mm/vmscan.c &&
	tick && git commit -q -a --amend --no-edit &&
	git cherry-pick topic >/dev/null &&
	mark_sent k && respin track k >out && test_grep "^k v2: 3 patches" out &&
	git checkout -q topic
'

test_expect_success 'one patch changed: "<its title>-fix", from the user' '
	respin fixup k v1 v2 >fix.mbox &&
	test_grep "^From 0\{40\} Mon Sep 17 00:00:00 2001$" fix.mbox &&
	test_grep "^From: A U Thor <author@example.org>$" fix.mbox &&
	test_grep "^Date: [A-Z][a-z][a-z], [0-9]* [A-Z][a-z][a-z] 20[0-9][0-9] [0-9:]* +0000$" fix.mbox &&
	test_grep "^Subject: \[PATCH\] mm/vmscan: do not scan far past nr_to_reclaim-fix$" fix.mbox &&
	test_grep "^The changes since v1 of \"k\", as one patch on top of v1: with it applied," fix.mbox &&
	test_grep "^the tree is the series. as it is now (not sent as a version of its own)\.$" fix.mbox &&
	test_grep "^- 2/3 \"mm/vmscan: do not scan far past nr_to_reclaim\": code changed$" fix.mbox &&
	test_grep ! "^- [13]/3" fix.mbox &&
	test_grep "^Signed-off-by: A U Thor <author@example.org>$" fix.mbox &&
	test_grep "^ mm/vmscan.c | 2 +-$" fix.mbox
'

test_expect_success 'git am of it on v1 gives v2 exactly' '
	am_gives fix.mbox 1 2 &&
	git checkout -q --detach "$(tip 1)" && git am -q fix.mbox &&
	test "$(git log -1 --format=%s)" = "mm/vmscan: do not scan far past nr_to_reclaim-fix" &&
	test "$(git log -1 --format="%an <%ae>")" = "A U Thor <author@example.org>" &&
	git checkout -q topic
'

test_expect_success 'several changes, a binary file, a rename, a mode: "<title>-fixes"' '
	git checkout -q -b v3 v2~2 &&
	sed -i "s/WARN_ON_ONCE(order >= MAX_ORDER)/WARN_ON_ONCE(order > MAX_ORDER - 1)/" mm/compaction.c &&
	! git diff --quiet &&
	tick && git commit -q -a --amend --no-edit &&
	git cherry-pick v2~1 v2 >/dev/null &&
	printf "\000\001\002fw\377\n" >mm/firmware.bin &&
	git mv mm/vmscan.c mm/reclaim.c &&
	chmod +x tools/testing/selftests/mm/Makefile &&
	git add -A mm tools && tick &&
	git commit -q -m "mm: firmware and a rename" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	mark_sent k && respin track k >out && test_grep "^k v3: 4 patches" out &&
	printf "mm: reclaim and compaction tweaks\n\nThe body.\n" >cover.txt &&
	respin cover k --file cover.txt >/dev/null &&
	git checkout -q topic &&
	respin fixup k v2 v3 >fix3.mbox &&
	test_grep "^Subject: \[PATCH\] mm: reclaim and compaction tweaks-fixes$" fix3.mbox &&
	test_grep "^- 1/4 \"mm/compaction: warn once on an impossible order in$" fix3.mbox &&
	test_grep "^  fragmentation_index()\": code changed$" fix3.mbox &&
	test_grep "^- New patch 4/4: \"mm: firmware and a rename\"$" fix3.mbox &&
	test_grep "^GIT binary patch$" fix3.mbox &&
	test_grep "^rename from mm/vmscan.c$" fix3.mbox &&
	am_gives fix3.mbox 2 3
'

test_expect_success '-o FILE: the same mail in a file' '
	respin fixup k v2 v3 >fix3.mbox &&
	respin fixup k v2 v3 -o out.patch >out &&
	test_grep "^out.patch: \[fixup of v2 to v3\] mm: reclaim and compaction tweaks-fixes$" out &&
	check_same fix3.mbox out.patch
'

test_expect_success 'different bases: refused unless --force, which carries the base change' '
	git checkout -q mm-unstable &&
	echo "/* more */" >>kernel/printk.c && tick && git commit -q -a -m "printk: more" &&
	git checkout -q topic &&
	mark_sent k && respin rebase k >/dev/null &&
	test_expect_code 128 respin fixup k v3 v4 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: v3 is on $(git rev-parse --short=12 mm-unstable~1) and v4 on $(git rev-parse --short=12 mm-unstable): a diff of the two would carry every change between the bases$" err &&
	test_grep "^hint: give --force" err &&
	respin fixup k v3 v4 --force >fix4.mbox &&
	test_grep "^v3 and the series now stand on different bases: this carries the change$" fix4.mbox &&
	test_grep "^between the bases too.$" fix4.mbox &&
	test_grep "^ kernel/printk.c | 1 +$" fix4.mbox &&
	am_gives fix4.mbox 3 4
'

test_expect_success 'versions that end in the same tree: nothing to fix up' '
	git branch -f mm-unstable \
		$(git commit-tree -m "mm-unstable rebuilt" mm-unstable^{tree}) &&
	mark_sent k && respin rebase k >/dev/null &&
	test_expect_code 1 respin fixup k v4 v5 >out 2>err &&
	test_must_be_empty out &&
	test_grep "^nothing to fix up: v4 and v5 of k end in the same tree$" err
'

test_expect_success 'a binary file changed: full index lines, and git am applies it' '
	git checkout -q -b v6 "$(tip 5)" &&
	printf "\000\001\002fw2\377\n" >mm/firmware.bin &&
	tick && git commit -q -a --amend -m "mm: firmware 2 and a rename" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	mark_sent k && respin track k >out && test_grep "^k v6: 4 patches" out &&
	git checkout -q topic &&
	respin fixup k v5 v6 >fix6.mbox &&
	test_grep "^Subject: \[PATCH\] mm: firmware 2 and a rename-fix$" fix6.mbox &&
	test_grep "^index [0-9a-f]\{40\}\.\.[0-9a-f]\{40\} 100644$" fix6.mbox &&
	am_gives fix6.mbox 5 6
'

test_expect_success 'versions recorded from mail only: no tree to diff' '
	respin import lru "$TEST_DATA/mail/lru_gen-batch/v1.mbox" --mail-only >/dev/null &&
	respin import lru "$TEST_DATA/mail/lru_gen-batch/v2.mbox" --mail-only >/dev/null &&
	test_expect_code 128 respin fixup lru v1 v2 2>err &&
	test_grep "^fatal: v1 was recorded from mail without commits: there is no tree to diff$" err
'

test_expect_success 'errors: no such series or version, usage' '
	test_expect_code 128 respin fixup nosuch v1 v2 2>err &&
	test_grep "^fatal: no series named .nosuch." err &&
	test_expect_code 128 respin fixup k v1 v9 2>err &&
	test_grep "^fatal: series .k. has no v9 (it has v1, v2, v3, v4, v5, v6)$" err &&
	test_expect_code 129 respin fixup k v2 v2 2>err &&
	test_grep "two different versions" err &&
	test_expect_code 129 respin fixup k v1 x 2>err &&
	test_grep "not a version: .x." err &&
	test_expect_code 129 respin fixup k v1 2>err &&
	test_expect_code 129 respin fixup k v1 v2 v3 2>err
'

test_done
