#!/bin/sh
# respin track / list / show on real git repositories.
. "$(dirname "$0")/lib.sh"

# A repository with a base branch mm-unstable and three patches on top.
git init -q repo && cd repo || exit 1
mkdir mm
printf 'int a(void)\n{\n\treturn 0;\n}\n' >mm/a.c
printf 'int b(void)\n{\n\treturn 1;\n}\n' >mm/b.c
git add mm && git commit -qm "base" && git branch mm-unstable
for i in 1 2 3; do
	tick
	printf '/* change %s */\n' $i >>mm/a.c
	git commit -qam "mm: change $i" -m "Signed-off-by: A U Thor <author@example.org>"
done

test_expect_success 'a first track creates the series and v1' '
	respin track foo --base mm-unstable >out &&
	test_grep "^foo v1: 3 patches on mm-unstable" out &&
	git rev-parse -q --verify refs/respin/series/foo
'

test_expect_success 'show lists the patches with their patch-ids' '
	respin show foo >out &&
	test_grep "^series     foo v1" out &&
	test_grep "change-id  [0-9]\{8\}-foo-[0-9a-f]\{12\}$" out &&
	for i in 1 2 3; do
		c=$(git rev-parse --short=12 HEAD~$((3 - i))) &&
		pid=$(git show HEAD~$((3 - i)) | git patch-id --stable | cut -c1-12) &&
		test_grep "  $i/3 $c $pid mm: change $i$" out || return 1
	done
'

test_expect_success 'the same patches again record nothing' '
	refs_snapshot before &&
	respin track foo >out &&
	test_grep "already has these 3 patches; nothing recorded" out &&
	refs_snapshot after && check_same before after
'

test_expect_success 'v1 sent, a reworded message makes v2; the base is remembered' '
	mark_sent foo && tick &&
	git commit -q --amend -m "mm: change 3, reworded" &&
	respin track foo >out &&
	test_grep "^foo v2: 3 patches on mm-unstable" out &&
	respin show foo@v1 >v1 && test_grep "mm: change 3$" v1 &&
	respin show foo@2 >v2 && test_grep "mm: change 3, reworded$" v2
'

test_expect_success 'the patches of every version stay reachable' '
	for c in $(respin show foo@v1 --json | sed -n "s/.*\"commit\": \"\([0-9a-f]*\)\".*/\1/p"); do
		git merge-base --is-ancestor $c refs/respin/series/foo || return 1
	done &&
	git reflog expire --expire=now --all && git gc -q --prune=now &&
	respin show foo@v1 >out && test_grep "mm: change 1" out
'

test_expect_success 'show --json' '
	respin show foo --json >out &&
	test_grep "\"version\": 2" out && test_grep "\"versions\": \[" out &&
	test_grep "\"patch_id\": \"[0-9a-f]\{40\}\"" out &&
	test_grep "\"subject\": \"mm: change 3, reworded\"" out
'

test_expect_success '--version starts the numbering elsewhere' '
	git checkout -q -b other mm-unstable &&
	echo "/* other */" >>mm/b.c && git commit -qam "mm: other" &&
	respin track bar --base mm-unstable --version 4 >out &&
	test_grep "^bar v4: 1 patch on mm-unstable" out &&
	respin show bar >out && test_grep "^series     bar v4" out
'

test_expect_success '--tip picks the last patch' '
	respin track two --base mm-unstable --tip main~1 >out &&
	test_grep "^two v1: 2 patches" out
'

test_expect_success 'list shows one line a series' '
	respin list >out &&
	test $(wc -l <out) = 3 &&
	test_grep "^bar  *v4  *1 patch  *mm-unstable" out &&
	test_grep "^foo  *v2  *3 patches  *mm-unstable" out &&
	test_grep "^two  *v1  *2 patches" out
'

test_expect_success 'list --json' '
	respin list --json >out &&
	test_grep "\"name\": \"foo\"" out &&
	test_grep "\"latest_version\": 2" out &&
	test_grep "\"base_ref\": \"refs/heads/mm-unstable\"" out &&
	perl -MJSON::PP -e "local \$/; my \$d = decode_json(<STDIN>); exit(@\$d == 3 ? 0 : 1)" <out
'

test_expect_success 'git respin works too' '
	git respin list >out && test_grep "^foo" out
'

test_expect_success '--help works everywhere, even outside a repository' '
	respin track --help >out && test_grep "usage: respin track" out &&
	(cd "$TRASH" && respin list --help >out && test_grep "usage: respin list" out) &&
	respin --help >out && test_grep "track" out
'

# ---- errors: a message, git's exit codes, refs untouched ----
# v2 sent: the next change recorded (after the lock test) is v3
mark_sent foo
refs_snapshot "$TRASH/refs-before"
refs_unchanged() { refs_snapshot "$TRASH/refs-now" && check_same "$TRASH/refs-before" "$TRASH/refs-now"; }

test_expect_success 'outside a git repository' '
	cd "$TRASH" &&
	test_expect_code 128 respin list 2>err &&
	test_grep "not a git repository" err
'

test_expect_success 'an unknown series' '
	test_expect_code 128 respin show nosuch 2>err &&
	test_grep "no series named .nosuch." err
'

test_expect_success 'an unknown version names the ones there are' '
	test_expect_code 128 respin show foo@v9 2>err &&
	test_grep "has no v9 (it has v1, v2)" err
'

test_expect_success 'a new series without --base' '
	test_expect_code 129 respin track newone 2>err &&
	test_grep "is new: say what it is based on with --base" err &&
	refs_unchanged
'

test_expect_success 'a bad series name' '
	test_expect_code 129 respin track "../x" --base mm-unstable 2>err &&
	test_grep "not a valid series name" err &&
	refs_unchanged
'

test_expect_success 'an unknown option' '
	test_expect_code 129 respin track foo --frobnicate 2>err &&
	test_grep "unknown option" err
'

# (the commit stays: the next tests and v3 below build on it)
git checkout -q main && echo "/* 4 */" >>mm/a.c && git commit -qam "mm: four"

test_expect_success 'a version below the latest' '
	test_expect_code 129 respin track foo --version 2 2>err &&
	test_grep "at v2 already" err &&
	refs_unchanged
'

test_expect_success 'an unknown base ref' '
	test_expect_code 128 respin track baz --base no-such-branch 2>err &&
	test_grep "unknown revision .no-such-branch." err &&
	refs_unchanged
'

git checkout -q -b side mm-unstable && echo s >side && git add side &&
	git commit -qm side && git checkout -q main

test_expect_success 'a base that is not an ancestor of the tip' '
	test_expect_code 128 respin track baz --base side 2>err &&
	test_grep "is not an ancestor of HEAD" err &&
	refs_unchanged
'

test_expect_success 'an empty range' '
	test_expect_code 128 respin track baz --base mm-unstable --tip mm-unstable 2>err &&
	test_grep "is empty" err &&
	refs_unchanged
'

test_expect_success 'a merge commit in the range' '
	git checkout -q -b merged main && git merge -q --no-edit side &&
	test_expect_code 128 respin track baz --base mm-unstable 2>err &&
	test_grep "holds merge commit" err &&
	refs_unchanged
'
git checkout -q main

test_expect_success 'a ref locked by another writer: nothing recorded' '
	: >.git/refs/respin/series/foo.lock &&
	test_expect_code 128 respin track foo 2>err &&
	rm -f .git/refs/respin/series/foo.lock &&
	test_grep "cannot update refs/respin/series/foo" err &&
	refs_unchanged
'

test_expect_success 'after the lock is gone the same call records v3' '
	respin track foo >out && test_grep "^foo v3: 4 patches" out
'

test_expect_success 'patch-ids equal git patch-id --stable: renames, deletions, modes, new folders' '
	git checkout -q -b shapes mm-unstable &&
	git mv mm/b.c mm/b-moved.c && git commit -qm "shapes: a rename" &&
	git rm -q mm/a.c && mkdir -p a/b/c && echo deep >a/b/c/d.txt &&
	git add a && git commit -qm "shapes: a deletion and a deep new file" &&
	chmod +x a/b/c/d.txt && git add a && git commit -qm "shapes: a mode" &&
	git rm -q -r a/b && mkdir -p a && echo file >a/b && git add a/b && git commit -qm "shapes: a folder becomes a file" &&
	respin track shapes --base mm-unstable >/dev/null &&
	respin show shapes >out &&
	for i in 1 2 3 4; do
		pid=$(git show HEAD~$((4 - i)) | git patch-id --stable | cut -c1-12) &&
		test_grep "  $i/4 [0-9a-f]* $pid shapes: " out || return 1
	done
'

test_done
