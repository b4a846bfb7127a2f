#!/bin/sh
# respin tree: the tracked series inside an integration branch built as
# mm-unstable is (five series, one with a patch's subject and another's
# code edited by the maintainer, one with two -fix commits, one found
# by its Link:), with the version, the evidence, fixups and newer
# versions; commits of no series listed as such.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-integ.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
make_integ || { echo "Bail out! no integration branch"; exit 1; }

test_expect_success 'all five series, each in the right version' '
	respin tree integ --base upstream >out &&
	cat out &&
	test_grep "^integ: 16 commits above $(git rev-parse --short=12 upstream), 5 tracked series in it, 3 commits match none$" out &&
	test_grep "^A v2: 2/2 patches (2 by patch-id)$" out &&
	test_grep "^B v1: 3/3 patches (2 by patch-id, 1 by subject and author), 1 changed$" out &&
	test_grep "^C v1: 2/2 patches (2 by patch-id), 2 fixups; v2 is known$" out &&
	test_grep "^D v1: 1/1 patches (1 by Link), 1 changed$" out &&
	test_grep "^E v2: 3/3 patches (3 by patch-id); v3 is known$" out
'

test_expect_success 'the evidence per patch, the fixups, the commits of no series (JSON)' '
	respin tree integ --base upstream --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my %s = map { \$_->{name} => \$_ } @{\$d->{series}};
		my \$b = \$s{B}{patches};
		exit 2 unless \$b->[1]{evidence}[0] eq q(patch-id) && !\$b->[1]{changed};
		exit 3 unless \$b->[2]{evidence}[0] eq q(subject-author) && \$b->[2]{changed};
		my \$f = \$s{C}{fixups};
		exit 4 unless @\$f == 2 && \$f->[0]{fixes} == 1 && \$f->[1]{subject} eq q(c-core-make-one-fix-2);
		exit 5 unless \$s{C}{newest_known} == 2 && \$s{C}{version} == 1;
		exit 6 unless grep { \$_ eq q(link) } @{\$s{D}{patches}[0]{evidence}};
		my @u = map { \$_->{subject} } @{\$d->{untracked}};
		exit 7 unless qq(@u) eq q(misc: one of no series misc: two of no series misc: three of no series);
		exit 8 unless \$d->{commits} == 16;
	" <j
'

test_expect_success 'a missing patch is said; without --base it walks down to the root' '
	git checkout -q -b integ2 integ &&
	git rebase -q --onto "integ~3" "integ~2" integ2 &&
	respin tree integ2 >out &&
	test_grep "^E v2: 2/3 patches (2 by patch-id), 1 missing; v3 is known$" out &&
	test_grep "^    2/3 missing      e: two$" out &&
	test_grep "^integ2: 16 commits above $(git rev-parse --short=12 mm-unstable), 5 tracked series in it, 4 commits match none$" out
'

test_expect_success '--source: a newer version on the list is said' '
	git checkout -q -b a3 a-work &&
	git commit -q --amend -m "a: add two, best" -m "Signed-off-by: A U Thor <author@example.org>" &&
	git format-patch -q --stdout --subject-prefix="PATCH v3" -2 >"$TRASH/a3.mbox" &&
	git checkout -q upstream &&
	respin tree integ --base upstream --source "$TRASH/a3.mbox" >out &&
	test_grep "^A v2: 2/2 patches (2 by patch-id); v3 is on the list$" out &&
	test_grep "^B v1: 3/3 patches" out && test_grep ! "^B v1.*on the list" out &&
	respin tree integ --base upstream --source "$TRASH/a3.mbox" --json >j &&
	test_grep "\"newest_on_list\": 3," j &&
	test_expect_code 128 respin tree integ --source "$TRASH/nosuch.mbox" 2>err &&
	test_grep "nosuch.mbox" err
'

test_expect_success '-v lists the commits of no series' '
	respin tree integ --base upstream -v >out &&
	test_grep "^not tracked:$" out &&
	test_grep "^    [0-9a-f]* misc: two of no series$" out
'

test_expect_success 'status: a version its base took in says so, and what to base the next on' '
	git checkout -q -b mmu upstream &&
	ci u/mmu one "misc: before" &&
	git checkout -q -b g-work mmu &&
	ci g/g.c one "g: one" && ci g/g2.c two "g: two" &&
	respin track G --base mmu >/dev/null &&
	git checkout -q mmu && before=$(git rev-parse HEAD) &&
	git cherry-pick g-work~1 g-work >/dev/null &&
	ci g/g.c fix "g-one-fix" && ci u/mmu2 two "misc: after" &&
	git checkout -q upstream &&
	respin status G >out &&
	cat out &&
	test_grep "^G v1 (2 patches) on mmu: base gained 4 commits since v1; v1 is in mmu (2/2 patches, 1 with a fixup); base v2 on $(git rev-parse --short=12 $before) (respin rebase --onto $(git rev-parse --short=12 $before))$" out &&
	respin status G --json >j &&
	test_grep "\"next_base\": \"$before\"" j && test_grep "\"fixups\": 1," j
'

test_expect_success 'status: a base that moved without the series says nothing of it' '
	git checkout -q -b h-work mmu && ci h/h.c one "h: one" &&
	respin track H --base mmu >/dev/null &&
	git checkout -q mmu && ci u/mmu3 three "misc: later" &&
	git checkout -q upstream &&
	respin status H >out &&
	test_grep "^H v1 (1 patch) on mmu: base gained 1 commit since v1; applies cleanly$" out
'

test_expect_success 'bad input: 129 for a revision that is none, or no branch' '
	test_expect_code 129 respin tree nosuch 2>err &&
	test_grep "nosuch: not a revision here" err &&
	test_expect_code 129 respin tree 2>err && test_grep "which branch" err &&
	test_expect_code 129 respin tree integ --base nosuch 2>err &&
	test_expect_code 129 respin tree integ --max 0 2>err
'

test_done
