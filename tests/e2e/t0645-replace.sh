#!/bin/sh
# respin replace: swap the version of a series inside an integration
# branch (the five-series fixture of lib-integ.sh): the result equals the
# branch rebuilt by hand with git; a conflicting replacement moves
# nothing and names the patch; obsolete fixups are refused or, asked
# to, left out; a checked-out branch with changes is refused.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-integ.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
make_integ || { echo "Bail out! no integration branch"; exit 1; }
git branch integ-before integ

test_expect_success 'E v2 -> v3: one patch changed, one added, one dropped' '
	respin replace E --in integ >out &&
	cat out &&
	test_grep "^integ: E v2 -> v3: 1 the same, 1 changed, 1 added, 1 dropped$" out &&
	test_grep "^  changed 2/3 e: two$" out && test_grep "^  added   3/3 e: four$" out &&
	test_grep "^  dropped 3/3 e: three$" out &&
	test_grep "^  1 later commit re-applied$" out &&
	test_grep "^integ is now $(git rev-parse --short=12 integ) (was $(git rev-parse --short=12 integ-before))$" out
'

test_expect_success 'the result equals the branch rebuilt by hand: base, every series, v3 in place' '
	git checkout -q -b want "integ-before~4" &&
	git cherry-pick e-work~2 e-work~1 e-work >/dev/null &&
	git cherry-pick integ-before >/dev/null &&
	test "$(git rev-parse want^{tree})" = "$(git rev-parse integ^{tree})" &&
	git checkout -q upstream &&
	test "$(git rev-parse integ~4)" = "$(git rev-parse integ-before~4)" &&
	git log --format=%s integ-before~4..integ >subjects &&
	printf "%s\n" "misc: three of no series" "e: four" "e: two" "e: one" >want-subjects &&
	check_same want-subjects subjects &&
	respin tree integ --base upstream >tree && test_grep "^E v3: 3/3 patches (3 by patch-id)$" tree &&
	git reflog show integ -1 --format=%gs >why && test_grep "respin replace E v2 -> v3" why
'

test_expect_success 'the fixups of the series go along: C v1 -> v2 keeps both' '
	respin replace C --in integ --dry-run >out &&
	test_grep "^integ: C v1 -> v2 (dry run): 1 the same, 1 changed, 0 added, 0 dropped$" out &&
	test_grep "2 fixups kept, 0 left out" out &&
	test "$(git rev-parse integ)" = "$(git rev-parse integ@{0})"
'

test_expect_success 'a version whose patch conflicts: nothing moved, the patch named' '
	git checkout -q -b e4 e-work &&
	mkdir -p d && echo "one, v4" >d/d.c && git add d/d.c &&
	git commit -q -m "e: d too" && respin track E >/dev/null &&
	git checkout -q upstream &&
	git for-each-ref >refs-before && respin show E --json >show-before &&
	test_expect_code 128 respin replace E --in integ 2>err &&
	test_grep "E v4 does not go in integ: patch 4/4 \"e: d too\": conflict in d/d.c; integ and the store are as they were" err &&
	git for-each-ref >refs-after && check_same refs-before refs-after &&
	respin show E --json >show-after && check_same show-before show-after
'

test_expect_success 'an obsolete fixup: refused, named; --drop-obsolete leaves it out' '
	git checkout -q -b c3 c-work~1 &&
	printf "one\nfix\n" >c/core.c && git commit -q -a --amend --no-edit &&
	git cherry-pick c-work >/dev/null && respin track C --tip c3 >/dev/null &&
	git checkout -q upstream &&
	git for-each-ref >refs-before &&
	test_expect_code 128 respin replace C --in integ 2>err &&
	test_grep "the fixup [0-9a-f]* \"c-core-make-one-fix\" of C v1: v3 has it already (it comes out empty); --drop-obsolete leaves it out" err &&
	git for-each-ref >refs-after && check_same refs-before refs-after &&
	respin replace C --in integ --drop-obsolete >out &&
	test_grep "1 fixup kept, 1 left out" out &&
	test_grep "^  left out [0-9a-f]* c-core-make-one-fix (obsolete)$" out &&
	git log --format=%s integ >log && test_grep "^c-core-make-one-fix-2$" log &&
	test_grep ! "^c-core-make-one-fix$" log &&
	test "$(git show integ:c/core.c)" = "$(printf "one\nfix\nfix2")"
'

test_expect_success 'a checked-out branch with changes: refused; clean, the worktree follows' '
	git checkout -q integ &&
	echo dirty >>a/a.c &&
	test_expect_code 128 respin replace A --in integ --version 1 2>err &&
	test_grep "integ is checked out and the worktree has changes not committed" err &&
	git checkout -q -- a/a.c &&
	respin replace A --in integ --version 1 >out &&
	test "$(cat a/a.c)" = "$(git show integ:a/a.c)" &&
	git status --porcelain --untracked-files=no >st && test_must_be_empty st &&
	git checkout -q upstream
'

test_expect_success 'checked out, E v3 -> v2: index and worktree follow; a commit keeps it' '
	git checkout -q integ &&
	git ls-files -s >index-before &&
	respin replace E --in integ --version 2 >out &&
	test_grep "^integ: E v3 -> v2: " out &&
	git status --porcelain --untracked-files=no >st && test_must_be_empty st &&
	git diff --cached --quiet HEAD &&
	test "$(cat e/e2.c)" = "$(git show integ:e/e2.c)" &&
	test_path_is_missing e/e4.c && test -f e/e3.c &&
	git ls-files -s >index-after && ! cmp -s index-before index-after &&
	git commit -q --allow-empty -m "next" &&
	test "$(git rev-parse HEAD^{tree})" = "$(git rev-parse HEAD~1^{tree})" &&
	git reset -q --hard HEAD~1 &&
	git checkout -q upstream
'

test_expect_success 'checked out in another worktree: that worktree follows; dirty there is refused' '
	git worktree add -q "$TRASH/other" integ &&
	echo dirty >>"$TRASH/other/a/a.c" &&
	test_expect_code 128 respin replace E --in integ --version 3 2>err &&
	test_grep "integ is checked out in $TRASH/other and the worktree has changes not committed" err &&
	git -C "$TRASH/other" checkout -q -- a/a.c &&
	respin replace E --in integ --version 3 >out &&
	test_grep "^integ: E v2 -> v3: " out &&
	git -C "$TRASH/other" status --porcelain --untracked-files=no >st &&
	test_must_be_empty st &&
	test "$(cat "$TRASH/other/e/e2.c")" = "$(git show integ:e/e2.c)" &&
	test -f "$TRASH/other/e/e4.c" &&
	git worktree remove "$TRASH/other"
'

test_expect_success 'a git rebase or cherry-pick rewriting the branch: refused, nothing moved' '
	git checkout -q integ &&
	git rev-parse integ >tip-before &&
	git -c sequence.editor="sed -i 1s/^pick/edit/" rebase -q -i HEAD~2 >/dev/null 2>&1 &&
	test_expect_code 128 respin replace E --in integ --version 2 2>err &&
	test_grep "integ is being rewritten by a git rebase in $TRASH/k: finish it or abort it first" err &&
	git rev-parse integ >tip-after && check_same tip-before tip-after &&
	git rebase --abort &&
	echo conflict >e/e2.c && git commit -q -a -m "e2 changed" &&
	test_must_fail git cherry-pick e-v2~1 >/dev/null 2>&1 &&
	test_expect_code 128 respin replace E --in integ --version 2 2>err &&
	test_grep "integ is being rewritten by a git cherry-pick in $TRASH/k" err &&
	git cherry-pick --abort && git reset -q --hard HEAD~1 &&
	git checkout -q upstream
'

test_expect_success 'bad use and what is not there' '
	test_expect_code 129 respin replace E 2>err && test_grep "give --in BRANCH" err &&
	test_expect_code 129 respin replace E --in nosuch 2>err &&
	test_grep "nosuch is not a local branch" err &&
	test_expect_code 128 respin replace nosuch --in integ 2>err &&
	test_grep "nosuch is not in integ" err &&
	test_expect_code 128 respin replace E --in integ --version 9 2>err &&
	test_grep "E has no v9" err &&
	respin replace B --in integ >out && test_grep "B v1 is in it already; nothing to do" out
'

test_done
