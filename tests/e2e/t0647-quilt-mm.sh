#!/bin/sh
# The maintainer's side on a quilt stack kept as mm is (lib-mm.sh's
# branch as a series file and akpm-named patch files, the -fix with
# underscores): respin tree --quilt reports it as tree does the branch;
# replace --quilt puts v3's patch files in place of v2's in the series
# order, with the same trailers carried, keeps the -fix patch, and the
# real quilt applies the result.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-mm.sh"

command -v quilt >/dev/null || { skip_all="no quilt (tools/install-deps.sh)"; test_done; }
make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
make_mm || { echo "Bail out! no maintainer branch"; exit 1; }
Q=$TRASH/q
mm_quilt mm-unstable..mmu "$Q" || { echo "Bail out! no quilt stack"; exit 1; }
cat "$TRASH/lru-v2.mbox" "$TRASH/lru-v3.mbox" "$TRASH/replies.mbox" >"$TRASH/all.mbox"
FIX=mm-lru_gen-batch-update-counters-on-aging-fix.patch

test_expect_success 'the stack is as akpm names it' '
	cat "$Q/series" &&
	test_grep "^$FIX\$" "$Q/series" &&
	test_grep "^mm-lru_gen-batch-update-counters-on-aging.patch\$" "$Q/series"
'

test_expect_success 'tree --quilt: the series in it, the -fix found, by patch file' '
	respin tree --quilt "$Q" --base mm-unstable >out &&
	cat out &&
	test_grep "^$Q: 6 patches above .*, 2 tracked series in it, 2 patches match none$" out &&
	test_grep "^lru v2: 2/2 patches (1 by patch-id, 1 by Link), 1 changed, 1 fixup$" out &&
	test_grep "^    1/2 mm-lru_gen-batch-update-counters-on-aging.patch mm/lru_gen: batch update counters on aging (patch-id)$" out &&
	test_grep "^    fix $FIX mm-lru_gen-batch-update-counters-on-aging-fix (fixes 1/2)$" out &&
	test_grep "^other v1: 1/1 patches" out &&
	respin tree --quilt "$Q" --base mm-unstable --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my (\$l) = grep { \$_->{name} eq q(lru) } @{\$d->{series}};
		exit 2 unless @{\$l->{fixups}} == 1 && \$l->{fixups}[0]{patch} eq q($FIX);
		exit 3 unless \$l->{patches}[1]{patch} eq q(mm-page_alloc-protect-pcp-lists-with-a-spinlock.patch);
	" <j
'

test_expect_success 'tree --quilt: a patch that does not apply is named' '
	rm -rf "$TRASH/bad" && cp -r "$Q" "$TRASH/bad" &&
	sed -i "s/^+one/+nothing like it/" "$TRASH/bad/mm-lru_gen-batch-update-counters-on-aging.patch" &&
	test_expect_code 128 respin tree --quilt "$TRASH/bad" --base mm-unstable 2>err &&
	cat err &&
	test_grep "$FIX" err &&
	test_grep "does not apply" err
'

test_expect_success 'tree --quilt: akpm'"'"'s diff form; a patch file of no headers' '
	test_grep "^--- a/mm/lru.c~mm-lru_gen-batch-update-counters-on-aging-fix\$" "$Q/$FIX" &&
	test_grep "^+++ a/mm/lru.c\$" "$Q/$FIX" &&
	test_grep ! "^diff --git" "$Q/$FIX" &&
	rm -rf "$TRASH/plain" && cp -r "$Q" "$TRASH/plain" &&
	printf "%s\n" "mm: a patch of no headers" "" "Signed-off-by: O Ther <other@example.org>" \
		"---" "--- /dev/null" "+++ a/mm/plain.c" "@@ -0,0 +1 @@" "+plain" >"$TRASH/plain/plain.patch" &&
	echo plain.patch >>"$TRASH/plain/series" &&
	respin tree --quilt "$TRASH/plain" --base mm-unstable -v >out &&
	cat out &&
	test_grep "^    plain.patch mm: a patch of no headers$" out &&
	test_grep "7 patches above .*, 3 patches match none$" out
'

test_expect_success 'replace --quilt --dry-run: what it would carry; nothing written' '
	respin import lru "$TRASH/lru-v3.mbox" --base mm-unstable >/dev/null 2>&1 &&
	rm -rf "$TRASH/q-before" && cp -r "$Q" "$TRASH/q-before" &&
	respin replace lru --quilt "$Q" --base mm-unstable --source "$TRASH/all.mbox" --dry-run >out &&
	cat out &&
	diff -r "$TRASH/q-before" "$Q" &&
	test_grep "^$Q: lru v2 -> v3 (dry run): 1 the same, 1 changed, 0 added, 0 dropped$" out &&
	test_grep "^    + Link: https://lore.kernel.org/r/lru-v3-2@example.org (was lru-v2-2@example.org)$" out &&
	test_grep "^    + Signed-off-by: Andrew Morton <akpm@linux-foundation.org> (the committer'"'"'s, last)$" out &&
	test_grep "^  1/2 mm/lru_gen: batch update counters on aging: carried from mm-lru_gen-batch-update-counters-on-aging.patch$" out &&
	test_grep "^  1 later patch re-applied, 1 fixup kept, 0 left out$" out &&
	test_grep "^  would write mm-page_alloc-protect-pcp-lists-with-a-spinlock.patch$" out &&
	test_grep "^  would write $Q/series$" out &&
	test_grep ! "would write $FIX" out
'

test_expect_success 'replace --quilt: v3 in v2s place, trailers carried, the -fix kept' '
	respin replace lru --quilt "$Q" --base mm-unstable --source "$TRASH/all.mbox" >out &&
	cat out &&
	grep -v "^#" "$Q/series" >names &&
	printf "%s\n" misc-one-of-no-series.patch \
		mm-vmscan-scan-less-under-pressure.patch \
		mm-lru_gen-batch-update-counters-on-aging.patch \
		mm-page_alloc-protect-pcp-lists-with-a-spinlock.patch \
		$FIX misc-two-of-no-series.patch >want &&
	check_same want names &&
	test_grep "^#NEXT_PATCHES_START mm-unstable$" "$Q/series" &&
	cmp "$TRASH/q-before/$FIX" "$Q/$FIX" &&
	cmp "$TRASH/q-before/misc-two-of-no-series.patch" "$Q/misc-two-of-no-series.patch" &&
	sed -n "1,/^---\$/p" "$Q/mm-page_alloc-protect-pcp-lists-with-a-spinlock.patch" | sed "/^Date: /d" >got2 &&
	cat >want2 <<-\EOF &&
	From: A U Thor <author@example.org>
	Subject: mm/page_alloc: protect PCP lists with a spinlock

	Why: because.

	Signed-off-by: A U Thor <author@example.org>
	Acked-by: R E Viewer <reviewer@example.org>
	Link: https://lore.kernel.org/r/lru-v3-2@example.org
	Cc: Wei Xu <weixugc@google.com>
	Cc: Yu Zhao <yuzhao@google.com>
	Signed-off-by: Andrew Morton <akpm@linux-foundation.org>
	---
	EOF
	check_same want2 got2 &&
	test_grep "^Reviewed-by: R E Viewer" "$Q/mm-lru_gen-batch-update-counters-on-aging.patch" &&
	ls "$Q" | grep -v "^series\$" | sort >files && sort want >want.sorted &&
	check_same want.sorted files &&
	respin tree --quilt "$Q" --base mm-unstable >tree &&
	test_grep "^lru v3: 2/2 patches (2 by patch-id), 1 fixup$" tree
'

test_expect_success 'quilt push -a applies the result on the base' '
	rm -rf ../qw && git worktree add -q ../qw mm-unstable --detach &&
	(
		cd ../qw &&
		QUILT_PATCHES="$Q" quilt push -a >push.out &&
		test_grep "^Now at patch .*misc-two-of-no-series.patch" push.out &&
		echo "two, v3" >want && check_same want mm/pcp.c &&
		test "$(tail -n1 mm/lru.c)" = fix
	)
'

test_expect_success 'v4 has the fix: the -fix patch is obsolete, refused or left out' '
	git checkout -q -b lru4 lru-v3~1 && echo fix >>mm/lru.c &&
	git commit -q -a --amend --no-edit && git cherry-pick lru-v3 >/dev/null &&
	mm_mail lru 4 mm-unstable..lru4 >"$TRASH/lru-v4.mbox" &&
	git checkout -q mm-unstable &&
	respin import lru "$TRASH/lru-v4.mbox" --base mm-unstable >/dev/null 2>&1 &&
	rm -rf "$TRASH/q-v3" && cp -r "$Q" "$TRASH/q-v3" &&
	test_expect_code 128 respin replace lru --quilt "$Q" --base mm-unstable --source "$TRASH/lru-v4.mbox" 2>err &&
	cat err &&
	test_grep "mm-lru_gen-batch-update-counters-on-aging-fix" err &&
	test_grep "drop-obsolete" err &&
	diff -r "$TRASH/q-v3" "$Q" &&
	respin replace lru --quilt "$Q" --base mm-unstable --source "$TRASH/lru-v4.mbox" --drop-obsolete >out &&
	cat out &&
	test_grep "^  removed $FIX (obsolete)$" out &&
	test_grep ! "$FIX" "$Q/series" &&
	test_path_is_missing "$Q/$FIX" &&
	rm -rf ../qw4 && git worktree add -q ../qw4 mm-unstable --detach &&
	(
		cd ../qw4 &&
		QUILT_PATCHES="$Q" quilt push -a >push.out &&
		test "$(grep -c "^fix\$" mm/lru.c)" = 1
	)
'

test_expect_success 'replace --quilt: no series file, a branch and a stack' '
	test_expect_code 128 respin replace lru --quilt "$TRASH/nowhere" --base mm-unstable 2>err &&
	test_grep "nowhere/series" err &&
	test_expect_code 129 respin replace lru --quilt "$Q" --in mmu 2>err &&
	test_grep "not both" err
'

test_done
