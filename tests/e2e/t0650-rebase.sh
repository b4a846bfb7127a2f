#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin rebase: the latest version picked onto a new base patch by
# patch (3-way), recorded as the next version marked rebased; results
# of unchanged trees reused; a conflict stops in a real git worktree
# until --continue or --abort, with nothing recorded before.
. "$(dirname "$0")/lib.sh"

# The fixture with its first three patches on branch topic
# (mm/compaction.c, mm/vmscan.c, mm/page_alloc.c), checked out.
sh "$SRC_DIR/tools/make-fixture.sh" --series 3 k >/dev/null && cd k ||
	{ echo "Bail out! no fixture"; exit 1; }
WT=$(pwd)/.git/respin/rebase/k

# base_change FILE PERL-SUBSTITUTION MESSAGE: a commit on mm-unstable.
base_change() {
	git checkout -q mm-unstable &&
	perl -0pi -e "$2" "$1" &&
	! git diff --quiet &&
	tick &&
	git commit -qam "$3" &&
	git checkout -q topic
}

# tip N: the tip of version N, from respin show --json.
tip() {
	respin show k@v$1 --json | sed -n 's/^  "tip": "\([0-9a-f]*\)",$/\1/p'
}

# same_pairs N: respin diff pairs every patch with "=", N of them.
same_pairs() {
	test "$(grep -c "^ *[0-9]*: *[0-9a-f]* = *[0-9]*: " diff.out)" = "$1" &&
	test_grep ! "^ *[0-9-]*: *[0-9a-f-]* [!<>] " diff.out
}

test_expect_success 'setup: v1 tracked and checked' '
	respin track k --base mm-unstable >out &&
	test_grep "^k v1: 3 patches on mm-unstable" out &&
	git config respin.check.build.enabled false &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.lines.kind command &&
	git config respin.check.lines.command "wc -l mm/*.c" &&
	respin check k >out &&
	test_grep "^[1-9][0-9]* run, 0 reused, 0 failed$" out
'

test_expect_success 'mm-unstable rebuilt with the same tree: rebased, every result reused' '
	mark_sent k &&
	git branch -f mm-unstable \
		$(git commit-tree -m "mm-unstable rebuilt" mm-unstable^{tree}) &&
	respin rebase k >out &&
	test_grep "^  1/3 applied cleanly: mm/compaction: warn once" out &&
	test_grep "^k v2 recorded: 3 patches of v1 rebased onto mm-unstable ($(git rev-parse --short=12 mm-unstable)), tip " out &&
	test "$(git rev-parse $(tip 2)^{tree})" = "$(git rev-parse $(tip 1)^{tree})" &&
	test "$(git rev-parse $(tip 2)~3)" = "$(git rev-parse mm-unstable)" &&
	respin check k >out &&
	test_grep "^0 run, [1-9][0-9]* reused, 0 failed$" out &&
	respin diff k >diff.out && same_pairs 3
'

test_expect_success 'the version is marked rebased in show and list' '
	respin show k >out &&
	test_grep "^rebased    from v1$" out &&
	test_grep "^source     rebase of v1 onto mm-unstable" out &&
	respin show k --json >j &&
	test_grep "\"rebased_from\": 1," j &&
	test_grep "\"rebased\": \"clean\"" j &&
	respin show k@v1 --json >j1 &&
	test_grep "\"rebased_from\": null" j1 &&
	respin list >out &&
	test_grep "^k  *v2 *3 patches .*  rebased from v1$" out &&
	respin list --json >out &&
	test_grep "\"rebased_from\": 1" out
'

test_expect_success 'an older respin keeps the mark: it is a line of its own in vN/meta' '
	git cat-file -p refs/respin/series/k:v2/meta >meta &&
	test_grep "^rebased-from 1$" meta &&
	test_grep "^ rebased clean$" meta
'

test_expect_success 'dry run on a base with an unrelated commit: all clean, nothing written' '
	mark_sent k &&
	base_change kernel/printk.c "s/(\n)/\$1\/\* printk: more to come \*\/\n/" \
		"printk: a comment" &&
	git for-each-ref >refs.before && git count-objects -v >objs.before &&
	respin rebase k --dry-run >out &&
	test_grep "^k v2 (3 patches) onto mm-unstable (" out &&
	test "$(grep -c "^  [1-3]/3 applies cleanly: " out)" = 3 &&
	test_grep "^nothing written (--dry-run); without it this would be recorded as v3$" out &&
	git for-each-ref >refs.after && git count-objects -v >objs.after &&
	check_same refs.before refs.after && check_same objs.before objs.after &&
	test_path_is_missing "$WT" && test_path_is_missing "$WT.state"
'

test_expect_success 'rebased onto it: the range-diff shows every patch unchanged' '
	mark_sent k &&
	respin rebase k >out &&
	test_grep "^k v3 recorded: 3 patches of v2 rebased" out &&
	respin diff k >diff.out && same_pairs 3 &&
	respin diff k v1 v3 >diff.out && same_pairs 3 &&
	git show $(tip 3)~3:kernel/printk.c >printk && test_grep "printk: more to come" printk
'

test_expect_success 'a base change inside a hunk context: that patch needs a 3-way merge' '
	mark_sent k &&
	base_change mm/vmscan.c \
		"s/\tif \(zone->nr_inactive < zone->nr_active\)\n/\tif (zone->nr_active > zone->nr_inactive)\n/" \
		"mm/vmscan: turn a comparison" &&
	respin rebase k --dry-run >out &&
	test_grep "^  1/3 applies cleanly: " out &&
	test_grep "^  2/3 needs a 3-way merge: mm/vmscan: do not scan far past nr_to_reclaim$" out &&
	test_grep "^  3/3 applies cleanly: " out &&
	respin rebase k >out &&
	test_grep "^  2/3 applied with a 3-way merge: mm/vmscan: do not scan far past nr_to_reclaim$" out &&
	respin show k >out &&
	test_grep "^rebased    from v3; 1 patch by a 3-way merge$" out &&
	test_grep "^  2/3 .* mm/vmscan: do not scan far past nr_to_reclaim \[3-way\]$" out
'

test_expect_success 'a conflict: the patch, file and hunk named; nothing recorded' '
	mark_sent k &&
	base_change mm/vmscan.c \
		"s/\tnr_reclaimed = shrink_inactive_list\(zone, nr_scan\);/\tnr_reclaimed = shrink_inactive_list(zone, nr_scan + 1);/" \
		"mm/vmscan: scan one more" &&
	git for-each-ref >refs.before && respin show k --json >show.before &&
	test_expect_code 1 respin rebase k >out &&
	test_grep "^  1/3 applied cleanly: " out &&
	test_grep "^patch 2/3 \"mm/vmscan: do not scan far past nr_to_reclaim\" conflicts on mm-unstable ($(git rev-parse --short=12 mm-unstable)):$" out &&
	test_grep "^  mm/vmscan.c: content conflict, markers at lines [0-9]*-[0-9]*$" out &&
	test_grep "^    the patch.s hunk @@ -[0-9,]* +[0-9,]* @@ .* meets a change of the base$" out &&
	test_grep "resolve the conflict in $WT$" out &&
	git for-each-ref >refs.after && respin show k --json >show.after &&
	check_same refs.before refs.after && check_same show.before show.after
'

test_expect_success 'the worktree is a real git worktree with the markers' '
	lines=$(sed -n "s/.*markers at lines \([0-9]*\)-.*/\1/p" out) &&
	test "$(sed -n "${lines}p" "$WT/mm/vmscan.c")" = "<<<<<<< HEAD" &&
	git -C "$WT" status >st &&
	test_grep "both modified: *mm/vmscan.c" st &&
	git worktree list >wl && test_grep "^$WT " wl &&
	test_path_is_file .git/respin/rebase/k.state
'

test_expect_success 'a second rebase is refused while one is in progress' '
	mark_sent k &&
	test_expect_code 128 respin rebase k 2>err &&
	test_grep "fatal: a rebase of k is in progress (patch 2/3 of v4 onto mm-unstable" err &&
	test_grep "hint: .* --continue" err &&
	test_expect_code 128 respin rebase k --dry-run 2>err &&
	test_grep "in progress" err
'

test_expect_success '--abort leaves everything as it was' '
	respin rebase k --abort >out &&
	test_grep "^rebase of k stopped; nothing was recorded" out &&
	git for-each-ref >refs.after && respin show k --json >show.after &&
	check_same refs.before refs.after && check_same show.before show.after &&
	test_path_is_missing "$WT" && test_path_is_missing .git/respin/rebase/k.state &&
	git worktree list >wl && test_grep ! "^$WT " wl &&
	git status --porcelain -uno >st && test_must_be_empty st
'

test_expect_success 'a worktree without a state (a crash before it was written) goes at the next rebase' '
	mark_sent k &&
	test_expect_code 1 respin rebase k >out &&
	rm .git/respin/rebase/k.state &&
	test_path_is_dir "$WT" &&
	test_expect_code 1 respin rebase k >out &&
	test_grep "^patch 2/3 .* conflicts on mm-unstable" out &&
	test_path_is_file .git/respin/rebase/k.state
'

test_expect_success 'a worktree removed by hand is set up again at --continue' '
	git worktree remove -f -f "$WT" &&
	test_expect_code 1 respin rebase k --continue >out 2>err &&
	test_grep "^warning: the rebase.s worktree $WT is gone; it is set up again with the conflict$" err &&
	test_grep "^patch 2/3 .* conflicts on mm-unstable" out &&
	test_grep "^<<<<<<< " "$WT/mm/vmscan.c"
'

test_expect_success '--continue with the conflict unresolved or changes not added: refused' '
	test_expect_code 128 respin rebase k --continue 2>err &&
	test_grep "^fatal: conflicts not resolved yet: mm/vmscan.c$" err &&
	test_grep "^hint: edit the files in $WT, .git add. them there" err &&
	sed -i -e "/^<<<<<<< /d" -e "/^=======\$/d" -e "/^>>>>>>> /d" \
		-e "/shrink_inactive_list(zone, nr_scan);\$/d" "$WT/mm/vmscan.c" &&
	git -C "$WT" add mm/vmscan.c &&
	echo "/* stray */" >>"$WT/mm/compaction.c" &&
	test_expect_code 128 respin rebase k --continue 2>err &&
	test_grep "^fatal: changes in $WT not added: mm/compaction.c$" err &&
	git -C "$WT" checkout -q mm/compaction.c &&
	git for-each-ref >refs.after && check_same refs.before refs.after
'

test_expect_success '--continue commits the resolution and records the version' '
	cp .git/respin/rebase/k.state state.saved &&
	respin rebase k --continue >out &&
	test_grep "^  2/3 resolved by hand: mm/vmscan: do not scan far past nr_to_reclaim$" out &&
	test_grep "^  3/3 applied cleanly: " out &&
	test_grep "^k v5 recorded: 3 patches of v4 rebased onto mm-unstable" out &&
	git show $(tip 5):mm/vmscan.c >v &&
	test_grep "shrink_inactive_list(zone, nr_scan + 1);" v &&
	test_grep "nr_scan = min(nr_scan, sc->nr_to_reclaim" v &&
	test "$(git log -1 --format=%an $(tip 5)~1)" = "A U Thor" &&
	test "$(git log -1 --format=%s $(tip 5)~1)" = "mm/vmscan: do not scan far past nr_to_reclaim" &&
	respin show k >out &&
	test_grep "^  2/3 .* \[resolved\]$" out &&
	test_path_is_missing "$WT" && test_path_is_missing .git/respin/rebase/k.state &&
	git worktree list >wl && test_grep ! "^$WT " wl &&
	respin diff k -s >diff.out &&
	test_grep "^1: *[0-9a-f]* = 1: " diff.out &&
	test_grep "^2: *[0-9a-f]* ! 2: " diff.out &&
	test_grep "^3: *[0-9a-f]* = 3: " diff.out
'

test_expect_success 'a crash after recording, before the state went: --continue only cleans up' '
	cp state.saved .git/respin/rebase/k.state &&
	git for-each-ref >refs.before &&
	respin rebase k --continue >out &&
	test_grep "^k v5 was recorded already; the rebase.s state is removed$" out &&
	test_path_is_missing .git/respin/rebase/k.state &&
	git for-each-ref >refs.after && check_same refs.before refs.after
'

test_expect_success 'a resolution committed in the worktree with git is taken as it is' '
	mark_sent k &&
	base_change mm/page_alloc.c \
		"s/\t\tfree \+= zone->nr_free\[order\] << order;/\t\tfree += (unsigned long)zone->nr_free[order] << order;/" \
		"mm/page_alloc: widen before shifting" &&
	test_expect_code 1 respin rebase k >out &&
	test_grep "^patch 3/3 \"mm/page_alloc: add zone_free_pages_order()\" conflicts" out &&
	test_grep "^  mm/page_alloc.c: content conflict" out &&
	git -C "$WT" checkout --theirs mm/page_alloc.c &&
	git -C "$WT" add mm/page_alloc.c &&
	git -C "$WT" commit -q -m "mm/page_alloc: add zone_free_pages_order()" \
		-m "Taken over the widened base." &&
	c=$(git -C "$WT" rev-parse HEAD) &&
	respin rebase --continue >out &&
	test_grep "^  3/3 resolved by hand: mm/page_alloc: add zone_free_pages_order()$" out &&
	test_grep "^k v6 recorded" out &&
	test "$(tip 6)" = "$c" &&
	git show $(tip 6):mm/page_alloc.c >pa &&
	test_grep "return zone_free_pages_order(zone, 0);" pa
'

test_expect_success '--branch: refused on a dirty checkout, or a branch elsewhere; nothing recorded' '
	mark_sent k &&
	git reset -q --hard $(tip 6) &&
	base_change kernel/printk.c "s/more to come/more to come, soon/" "printk: soon" &&
	git for-each-ref >refs.before &&
	echo "/* wip */" >>mm/vmscan.c &&
	test_expect_code 128 respin rebase k --branch topic 2>err &&
	test_grep "^fatal: branch topic is checked out and the work tree has changes (mm/vmscan.c)$" err &&
	git checkout -q mm/vmscan.c &&
	git branch other mm-unstable &&
	test_expect_code 128 respin rebase k --branch other 2>err &&
	test_grep "^fatal: branch other is not at the tip of the version rebased" err &&
	test_expect_code 128 respin rebase k --branch nosuch 2>err &&
	test_grep "^fatal: no branch .nosuch." err &&
	git branch -D -q other &&
	git for-each-ref >refs.after && check_same refs.before refs.after
'

test_expect_success '--branch moves the branch and its checkout to the new tip' '
	mark_sent k &&
	respin rebase k --branch topic >out &&
	test_grep "^k v7 recorded" out &&
	test_grep "^branch topic moved to v7 (was $(git rev-parse --short=12 $(tip 6)))$" out &&
	test "$(git rev-parse HEAD)" = "$(tip 7)" &&
	test "$(git symbolic-ref HEAD)" = refs/heads/topic &&
	git status --porcelain -uno >st && test_must_be_empty st &&
	test_grep "more to come, soon" kernel/printk.c
'

test_expect_success 'onto the base it is on already: nothing to do' '
	mark_sent k &&
	git for-each-ref >refs.before &&
	respin rebase k >out &&
	test_grep "^k v7 is on mm-unstable (.*) already; nothing to rebase$" out &&
	git for-each-ref >refs.after && check_same refs.before refs.after
'

test_expect_success 'errors: no such series, nothing in progress, a bad --onto' '
	mark_sent k &&
	test_expect_code 128 respin rebase nosuch 2>err &&
	test_grep "^fatal: no series named .nosuch." err &&
	test_expect_code 128 respin rebase k --continue 2>err &&
	test_grep "^fatal: no rebase of k is in progress$" err &&
	test_expect_code 128 respin rebase k --abort 2>err &&
	test_grep "^fatal: no rebase of k is in progress$" err &&
	test_expect_code 128 respin rebase --continue 2>err &&
	test_grep "^fatal: no rebase is in progress$" err &&
	test_expect_code 128 respin rebase k --onto no/such/ref 2>err &&
	test_grep "^fatal: unknown revision .no/such/ref.$" err &&
	test_grep "^hint: --onto takes a branch, a tag or a commit" err
'

test_expect_success 'a version recorded from mail only: nothing to pick' '
	respin import lru "$TEST_DATA/mail/lru_gen-batch/v1.mbox" --mail-only >/dev/null &&
	test_expect_code 128 respin rebase lru --onto mm-unstable 2>err &&
	test_grep "^fatal: lru v1 was recorded from mail without commits: there is nothing to pick$" err
'

test_expect_success 'the series changed during a pause: --continue records nothing' '
	mark_sent k &&
	base_change mm/vmscan.c "s/nr_scan \+ 1\);/nr_scan + 2);/" \
		"mm/vmscan: scan two more" &&
	test_expect_code 1 respin rebase k >out &&
	printf "k: the series\n\nIts text.\n" >"$TRASH/cover.txt" &&
	respin cover k --file "$TRASH/cover.txt" >/dev/null &&
	git for-each-ref >refs.before &&
	test_expect_code 128 respin rebase k --continue 2>err &&
	test_grep "^fatal: series k changed since the rebase started" err &&
	test_grep "^hint: .respin rebase k --abort., then rebase the latest version again$" err &&
	git for-each-ref >refs.after && check_same refs.before refs.after &&
	respin rebase k --abort >/dev/null
'

test_expect_success 'usage errors' '
	test_expect_code 129 respin rebase 2>err &&
	test_grep "which series" err &&
	test_expect_code 129 respin rebase k --continue --abort 2>err &&
	test_expect_code 129 respin rebase k --continue --onto main 2>err &&
	test_expect_code 129 respin rebase k@v2 2>err &&
	test_grep "latest version" err &&
	test_expect_code 129 respin rebase a b 2>err
'

test_done
