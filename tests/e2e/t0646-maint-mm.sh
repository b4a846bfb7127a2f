#!/bin/sh
# The maintainer's side on a branch kept as mm-unstable is (lib-mm.sh):
# akpm's quilt-named -fix commits (underscores kept) are found; tree
# takes the version that was sent over an unsent rebase of it, and a
# patch two series match is reported once; thanks finds what tree
# finds; replace carries the maintainer's part of each commit (his
# Signed-off-by last, Cc:, the Link: to the new mail in the old form)
# and the review tags given since, and lists what it added.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-mm.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
make_mm || { echo "Bail out! no maintainer branch"; exit 1; }
git branch mmu-before mmu
cat "$TRASH/lru-v2.mbox" "$TRASH/lru-v3.mbox" "$TRASH/replies.mbox" >"$TRASH/all.mbox"

test_expect_success 'the quilt-named -fix (underscores kept) is a fixup of 1/2' '
	respin tree mmu --base mm-unstable >out &&
	cat out &&
	test_grep "^lru v2: 2/2 patches (1 by patch-id, 1 by Link), 1 changed, 1 fixup$" out &&
	test_grep "^    fix [0-9a-f]* mm-lru_gen-batch-update-counters-on-aging-fix (fixes 1/2)$" out &&
	test_grep "^mmu: 6 commits above .*, 2 tracked series in it, 2 commits match none$" out &&
	respin tree mmu --base mm-unstable --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my (\$l) = grep { \$_->{name} eq q(lru) } @{\$d->{series}};
		exit 2 unless @{\$l->{fixups}} == 1 && \$l->{fixups}[0]{fixes} == 1;
	" <j
'

test_expect_success 'status of a series based on the branch counts the fix' '
	git checkout -q -b top mmu &&
	mm_ci mm/top.c one "mm/top_level: on top" &&
	respin track top --base mmu >/dev/null &&
	git checkout -q mmu && git cherry-pick top >/dev/null &&
	echo fix >>mm/top.c && git commit -q -a -m "mm-top_level-on-top-fix" &&
	git checkout -q mm-unstable &&
	respin status top --json >j &&
	test_grep "\"fixups\": 1," j &&
	git branch -f mmu mmu-before && git update-ref -d refs/respin/series/top
'

test_expect_success 'tree: the version sent, not an unsent rebase of it' '
	rm -rf ../k2 && cp -a . ../k2 && (
		cd ../k2 &&
		git checkout -q -b moved mm-unstable && mm_ci misc/c.c one "misc: later" &&
		git checkout -q mm-unstable &&
		respin rebase lru --onto moved >/dev/null &&
		respin list >list && test_grep "^lru  *v3 " list &&
		respin tree mmu --base mm-unstable >out &&
		cat out &&
		test_grep "^lru v2: 2/2 patches" out
	)
'

test_expect_success 'fixup from the sent v2 to an unsent rebase: lines <= 75, no unsent vN' '
	rm -rf ../k3 && cp -a . ../k3 && (
		cd ../k3 &&
		git checkout -q -b moved mm-unstable && mm_ci misc/c.c one "misc: later" &&
		git checkout -q -b lru-next lru-v2 && echo "two, next" >mm/pcp.c &&
		git commit -q -a --amend --no-edit &&
		git rebase -q --onto moved mm-unstable lru-next &&
		respin track lru --tip lru-next --base moved >/dev/null &&
		respin list >list && test_grep "^lru  *v3 " list &&
		respin fixup lru v2 v3 --force >fix.mbox &&
		cat fix.mbox &&
		awk "/^---\$/ { exit } body { print } /^\$/ { body = 1 }" fix.mbox >body &&
		test_grep "^The changes since v2 of \"lru things\", as one patch on top of v2" body &&
		test_grep ! "v3" body &&
		awk "length > 75 { print; bad = 1 } END { exit bad }" body
	)
'

test_expect_success 'tree: a patch two series match is reported once, under the better' '
	rm -rf ../k2 && cp -a . ../k2 && (
		cd ../k2 &&
		respin track batch --base mm-unstable --tip lru-v2 >/dev/null &&
		respin tree mmu --base mm-unstable >out &&
		cat out &&
		test_grep "^lru v2: 2/2 patches (1 by patch-id, 1 by Link), 1 changed, 1 fixup$" out &&
		test_grep ! "^batch " out &&
		test_grep "2 tracked series in it" out
	)
'

test_expect_success 'thanks finds the patch the maintainer edited, by its Link:' '
	respin thanks lru --in mmu --source "$TRASH/lru-v2.mbox" >draft &&
	cat draft &&
	test_grep "^\[2/2\] mm/page_alloc: protect PCP lists with a spinlock$" draft &&
	test_grep ! "(not in mmu)" draft &&
	test_grep "^      commit: $(git rev-parse --short=12 mmu~1)$" draft
'

test_expect_success 'replace --dry-run: what it would carry, per commit; nothing moved' '
	respin import lru "$TRASH/lru-v3.mbox" --base mm-unstable >/dev/null 2>&1 &&
	respin replace lru --in mmu --source "$TRASH/all.mbox" --dry-run >out &&
	cat out &&
	test "$(git rev-parse mmu)" = "$(git rev-parse mmu-before)" &&
	test_grep "^mmu: lru v2 -> v3 (dry run): 1 the same, 1 changed, 0 added, 0 dropped$" out &&
	test_grep "^  1/2 mm/lru_gen: batch update counters on aging: carried from [0-9a-f]*$" out &&
	test_grep "^    + Reviewed-by: R E Viewer <reviewer@example.org> (given to v2 1/2)$" out &&
	test_grep "^    + Link: https://lkml.kernel.org/r/lru-v3-1@example.org (was lru-v2-1@example.org)$" out &&
	test_grep "^    + Link: https://lore.kernel.org/r/lru-v3-2@example.org (was lru-v2-2@example.org)$" out &&
	test_grep "^    + Acked-by: R E Viewer <reviewer@example.org> (given to v3 2/2)$" out &&
	test_grep "^    + Cc: Wei Xu <weixugc@google.com>$" out &&
	test_grep "^    + Signed-off-by: Andrew Morton <akpm@linux-foundation.org> (the committer'"'"'s, last)$" out
'

test_expect_success 'replace: each commit as akpm would have applied v3' '
	respin replace lru --in mmu --source "$TRASH/all.mbox" >out &&
	cat out &&
	git log --format=%s mm-unstable..mmu >subjects &&
	printf "%s\n" "misc: two of no series" \
		"mm-lru_gen-batch-update-counters-on-aging-fix" \
		"mm/page_alloc: protect PCP lists with a spinlock" \
		"mm/lru_gen: batch update counters on aging" \
		"mm/vmscan: scan less under pressure" "misc: one of no series" >want &&
	check_same want subjects &&
	git cat-file commit mmu~3 | sed "1,/^$/d" >got1 &&
	cat >want1 <<-\EOF &&
	mm/lru_gen: batch update counters on aging

	Why: because.

	Signed-off-by: A U Thor <author@example.org>
	Reviewed-by: R E Viewer <reviewer@example.org>
	Link: https://lkml.kernel.org/r/lru-v3-1@example.org
	Cc: Wei Xu <weixugc@google.com>
	Cc: Yu Zhao <yuzhao@google.com>
	Signed-off-by: Andrew Morton <akpm@linux-foundation.org>
	EOF
	check_same want1 got1 &&
	git cat-file commit mmu~2 | sed "1,/^$/d" >got2 &&
	cat >want2 <<-\EOF &&
	mm/page_alloc: protect PCP lists with a spinlock

	Why: because.

	Signed-off-by: A U Thor <author@example.org>
	Acked-by: R E Viewer <reviewer@example.org>
	Link: https://lore.kernel.org/r/lru-v3-2@example.org
	Cc: Wei Xu <weixugc@google.com>
	Cc: Yu Zhao <yuzhao@google.com>
	Signed-off-by: Andrew Morton <akpm@linux-foundation.org>
	EOF
	check_same want2 got2 &&
	test "$(git log -1 --format="%an <%ae>|%cn <%ce>" mmu~2)" = "A U Thor <author@example.org>|Andrew Morton <akpm@linux-foundation.org>" &&
	test "$(git show mmu~2:mm/pcp.c)" = "two, v3" &&
	git log -1 --format=%B mmu~1 >fix && test_grep "^Cc: Kairui Song" fix &&
	respin tree mmu --base mm-unstable >tree &&
	test_grep "^lru v3: 2/2 patches (2 by patch-id), 1 fixup$" tree
'

test_expect_success 'thanks for v3 after the replace: both by patch-id' '
	respin thanks lru --in mmu --source "$TRASH/lru-v3.mbox" >draft &&
	test_grep ! "(not in mmu)" draft
'

test_done
