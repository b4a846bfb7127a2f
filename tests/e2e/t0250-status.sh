#!/bin/sh
# respin status: base drift and the in-memory apply check.
. "$(dirname "$0")/lib.sh"

git init -q repo && cd repo || exit 1
mkdir mm
seq 1 40 | sed 's/^/line /' >mm/a.c
seq 1 40 | sed 's/^/row /' >mm/b.c
git add mm && git commit -qm base && git branch mm-unstable
sed -i 's/^line 5$/line 5 patched/' mm/a.c && git commit -qam "mm: patch a"
sed -i 's/^row 30$/row 30 patched/' mm/b.c && git commit -qam "mm: patch b"
respin track s --base mm-unstable >/dev/null

test_expect_success 'an unchanged base: applies cleanly' '
	respin status >out &&
	test_grep "^s v1 (2 patches) on mm-unstable: base unchanged; applies cleanly$" out
'

test_expect_success 'the base gains unrelated commits: counted, still applies' '
	git checkout -q mm-unstable &&
	echo new >mm/c.c && git add mm/c.c && git commit -qm "base 1" &&
	sed -i "s/^line 30$/line 30 upstream/" mm/a.c && git commit -qam "base 2" &&
	git checkout -q main &&
	respin status s >out &&
	test_grep "base gained 2 commits since v1; applies cleanly$" out
'

test_expect_success 'the check writes nothing into the repository' '
	git count-objects -v >"$TRASH/before" &&
	respin status >/dev/null && respin status --json >/dev/null &&
	git count-objects -v >"$TRASH/after" &&
	check_same "$TRASH/before" "$TRASH/after" &&
	git status --porcelain --untracked-files=no >"$TRASH/st" && test ! -s "$TRASH/st"
'

test_expect_success 'a conflicting base: the first patch that fails is named' '
	git checkout -q mm-unstable &&
	sed -i "s/^row 30$/row 30 conflicting/" mm/b.c && git commit -qam "base 3" &&
	git checkout -q main &&
	test_expect_code 1 respin status >out &&
	test_grep "base gained 3 commits since v1; patch 2/2 \"mm: patch b\" does not apply (mm/b.c: " out
'

test_expect_success 'status --json says the same' '
	test_expect_code 1 respin status --json >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>)->[0];
		exit 3 unless \$d->{gained} == 3 && !\$d->{applies};
		exit 4 unless \$d->{first_failing}{index} == 2;
		exit 5 unless \$d->{first_failing}{path} eq q(mm/b.c);
	" <out
'

test_expect_success 'a rewritten base (mm-unstable rebuilt) counts lost commits' '
	new=$(git commit-tree -m "rebuilt base" "$(git rev-parse mm-unstable~3^{tree})") &&
	git branch -f mm-unstable $new &&
	respin status >out && cat out &&
	test_grep "base gained 1 commit and lost 1 (rewritten) since v1; applies cleanly" out
'

test_expect_success 'a base ref that is gone is reported, not fatal' '
	git checkout -q main && git branch -D -q mm-unstable &&
	respin status >out && cat out &&
	test_grep "base mm-unstable is gone" out
'

test_expect_success 'an unknown series' '
	test_expect_code 128 respin status nosuch 2>err &&
	test_grep "no series named" err
'

test_done
