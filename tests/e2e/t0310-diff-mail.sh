#!/bin/sh
# respin diff straight from mail: no repository, no base tree.
. "$(dirname "$0")/lib.sh"

MAIL="$TEST_DATA/mail"

# Two versions in a repository, formatted as mail.
git init -q repo && cd repo
mkdir mm
for f in a b c; do seq 1 40 | sed "s/^/$f line /" >mm/$f.c; done
git add mm && git commit -qm base && git branch mm-unstable
for f in a b c; do
	tick; sed -i "s/^$f line 10$/$f line 10 changed/" mm/$f.c
	git commit -qam "mm: change $f" -m "Why $f." -m "Signed-off-by: A U Thor <author@example.org>"
done
respin track s --base mm-unstable >/dev/null
respin format s --stdout >"$TRASH/v1.mbox"
mark_sent s
# v2: c first, b edited, a dropped, d added
git checkout -q -b v2 mm-unstable
tick; sed -i "s/^c line 10$/c line 10 changed/" mm/c.c
git commit -qam "mm: change c" -m "Why c." -m "Signed-off-by: A U Thor <author@example.org>"
tick; sed -i "s/^b line 10$/b line 10 changed again/" mm/b.c
git commit -qam "mm: change b" -m "Why b, reworded." -m "Signed-off-by: A U Thor <author@example.org>"
tick; seq 1 5 >mm/d.c && git add mm/d.c
git commit -qm "mm: add d" -m "Signed-off-by: A U Thor <author@example.org>"
respin track s >/dev/null
respin format s --stdout >"$TRASH/v2.mbox"
respin diff -s s v1 v2 | sed 's/[0-9a-f]\{7,\}/X/g; s/-------/X/g' >"$TRASH/from-git"
cd "$TRASH"

test_expect_success 'two mailboxes pair as the recorded versions do (no repository)' '
	respin diff -s v1.mbox v2.mbox >out 2>err && cat out err &&
	sed "s/[0-9a-f]\{7,\}/X/g; s/-------/X/g" out >got &&
	check_same from-git got &&
	test_grep "< -:  ------- mm: change a$" out &&
	test_grep "^-:  ------- > 3:  [0-9a-f]* mm: add d$" out
'

test_expect_success 'the diff of diffs is shown for changed patches' '
	respin diff v1.mbox v2.mbox >out &&
	test_grep "^    -    Why b.$" out && test_grep "^    +    Why b, reworded.$" out
'

test_expect_success 'one mailbox with several versions: its last two' '
	cat "$MAIL"/spinlock-oops/v*.mbox >spin.mbox &&
	respin diff -s spin.mbox >out && cat out &&
	test_grep "^1:  [0-9a-f]* ! 1:  [0-9a-f]* powerpc/spinlocks: Refactor SHARED_PROCESSOR$" out &&
	test_grep "^2:  \([0-9a-f]*\) = 2:  \1 powerpc/spinlocks: Rename SPLPAR-only spinlocks$" out
'

test_expect_success 'versions recorded from mail only diff too' '
	git init -q m && cd m &&
	respin import s ../spin.mbox --mail-only --all >/dev/null &&
	respin diff -s s v3 v4 >out && cat out &&
	test_grep "^3:  [0-9a-f]* = 3:  [0-9a-f]* powerpc/spinlocks: Fix oops in shared-processor spinlocks$" out
'

# pairs FILE: "A B" for every pairing line, sorted
pairs() {
	sed -n -E 's/^ *([0-9]+|-): +[0-9a-f-]+ [=!<>] +([0-9]+|-): +[0-9a-f-]+ .*/\1 \2/p' "$1" | sort
}
YEAR=$RESPIN_TEST_CACHE/linuxppc-dev-2023.mbox

test_expect_success 'lru_gen-batch v2 -> v3: what git leaves alone pairs by title, as --creation-factor 100 pairs it' '
	L="$MAIL"/lru_gen-batch &&
	respin diff -s --no-title-pairs "$L"/v2.mbox "$L"/v3.mbox >git-like &&
	test $(grep -c " < -:  " git-like) = 3 &&
	test $(grep -c "^-:  ------- > " git-like) = 3 &&
	respin diff -s --no-title-pairs --creation-factor 100 "$L"/v2.mbox \
		"$L"/v3.mbox >cf100 &&
	respin diff -s "$L"/v2.mbox "$L"/v3.mbox >out && cat out &&
	pairs cf100 >want && pairs out >got && check_same want got &&
	test $(grep -c " (paired by title)$" out) = 3 &&
	test_grep "^3:  [0-9a-f]* ! 1:  [0-9a-f]* mm, lru_gen: try to prefetch next page when canning LRU (paired by title)$" out
'

if test -r "$YEAR"; then
	test_expect_success 'real: the hv_gpci series v1 -> v2 pairs by title as --creation-factor 100 pairs it' '
		git init -q hv && (
			cd hv &&
			respin import hv "$YEAR" 20230729073455.7918-2-kjain@linux.ibm.com \
				--mail-only --all >out 2>&1 &&
			respin diff -s --no-title-pairs hv v1 v2 >git-like &&
			test_grep " <  *-:  " git-like &&
			respin diff -s --no-title-pairs --creation-factor 100 hv v1 v2 >cf100 &&
			respin diff -s hv v1 v2 >out &&
			pairs cf100 >want && pairs out >got && check_same want got &&
			test $(grep -c " (paired by title)$" out) = 6
		)
	'
else
	test_skip "the linuxppc-dev 2023 archive is not in $RESPIN_TEST_CACHE"
fi

test_expect_success 'a mailbox with two series' '
	cat "$MAIL"/lru_gen-batch/v1.mbox spin.mbox >two.mbox &&
	test_expect_code 128 respin diff two.mbox v1.mbox 2>err &&
	test_grep "holds 2 patch series" err
'

test_expect_success 'one version alone is not enough' '
	test_expect_code 128 respin diff "$MAIL"/lru_gen-batch/v1.mbox 2>err &&
	test_grep "holds one version" err
'

test_done
