#!/bin/sh
# respin thanks: a maintainer's "applied, thanks" reply, each patch with
# the commit it became in the branch (found by patch-id, so amended
# trailers and another base do not hide it).
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "Main Tainer" && git config user.email maint@example.org
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
# the author sends it; the maintainer imports the mail as series "b"
respin format a -o mails >/dev/null && cat mails/*.patch >all.mbox || exit 1
respin import b all.mbox --base mm-unstable >/dev/null || { echo "Bail out! no import"; exit 1; }
cover_id=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" mails/*0000-cover-letter.patch)

# The maintainer's tree: patches 1 and 3 applied on a newer base, with a
# Link: trailer added (other commit ids, the same patch-ids).
git checkout -q -b maint mm-unstable
tick
echo "other work" >OTHER && git add OTHER && git commit -qm "other: unrelated work"
for c in $(git rev-list --reverse mm-unstable..work | sed -n "1p;3p"); do
	git cherry-pick "$c" >/dev/null || { echo "Bail out! no pick"; exit 1; }
	git commit -q --amend -m "$(git log -1 --format=%B)
Link: https://lore.kernel.org/r/x@example.org" || exit 1
done
git checkout -q work

test_expect_success 'a reply to the cover letter, each patch with its commit' '
	respin thanks b --in maint --source all.mbox >d 2>err &&
	test_grep "^note: 2/3 \"mm/compaction: prepare a marker for later\" is not in maint$" err &&
	test_grep "^In-Reply-To: <$cover_id>$" d &&
	test_grep "^Subject: Re: \[PATCH 0/3\] " d &&
	test_grep "^Applied to maint, thanks!$" d &&
	c1=$(git rev-parse --short=12 maint~1) && c3=$(git rev-parse --short=12 maint) &&
	test_grep "^\[1/3\] mm/compaction: guard fragmentation_index() against a zero request$" d &&
	sed -n "/^\[1\/3\]/{n;p}" d >l1 && test_grep "^      commit: $(git rev-parse --short=12 maint~1)$" l1 &&
	sed -n "/^\[2\/3\]/{n;p}" d >l2 && test_grep "^      (not in maint)$" l2 &&
	sed -n "/^\[3\/3\]/{n;p}" d >l3 && test_grep "^      commit: $(git rev-parse --short=12 maint)$" l3 &&
	test_grep "^Best regards,$" d && tail -n 1 d >last &&
	test_grep "^Main Tainer <maint@example.org>$" last
'

test_expect_success 'the quote is the head of the cover letter, cut' '
	test_grep "^On .* +0000, C O Mitter wrote:$" d &&
	test_grep "^> \*\*\* BLURB HERE \*\*\*$" d &&
	test_grep "^> \[\.\.\.\]$" d
'

test_expect_success 'none applied: 128, saying where it looked' '
	test_expect_code 128 respin thanks b --in mm-unstable --source all.mbox >out 2>err &&
	test_grep "none of the 3 patches of b v1 is in mm-unstable (by patch-id, Link: or title and author, [0-9]* commits read)" err &&
	test_must_be_empty out
'

test_expect_success 'a branch that does not exist: 128' '
	test_expect_code 128 respin thanks b --in nosuch --source all.mbox 2>err &&
	test_grep "no branch or commit .nosuch." err
'

test_expect_success 'a version tracked from a branch has no mail to answer: 128' '
	test_expect_code 128 respin thanks a --in maint 2>err &&
	test_grep "a v1 has no Message-IDs" err
'

test_expect_success 'no --in: 129' '
	test_expect_code 129 respin thanks b 2>err && test_grep "give --in BRANCH" err
'

test_expect_success 'one patch, no cover letter: the reply goes to the patch' '
	git checkout -q -b solo mm-unstable &&
	test_when_finished "git checkout -q work" &&
	echo solo >SOLO && git add SOLO && git commit -qm "solo: one patch" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track solo --base mm-unstable >/dev/null &&
	respin format solo -o solo-mail >/dev/null &&
	p1=$(ls solo-mail/*.patch) && test $(echo "$p1" | wc -l) = 1 &&
	respin import one "$p1" --base mm-unstable >/dev/null &&
	id=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$p1") &&
	git checkout -q maint && git cherry-pick solo >/dev/null &&
	respin thanks one --in maint --source "$p1" -o ty.mbox >out &&
	test_grep "^1 draft appended to ty.mbox$" out &&
	test_grep "^In-Reply-To: <$id>$" ty.mbox &&
	test_grep "^\[1/1\] solo: one patch$" ty.mbox &&
	sed -n "/^\[1\/1\]/{n;p}" ty.mbox >l && test_grep "^      commit: $(git rev-parse --short=12 maint)$" l
'

test_expect_success '--maildir: the draft is a maildir draft' '
	respin thanks b --in maint --source all.mbox --maildir md >out 2>/dev/null &&
	test $(ls md/cur | wc -l) = 1 &&
	f=$(ls md/cur/*) && case "$f" in *:2,D) ;; *) false ;; esac
'

test_expect_success 'a patch not in the branch: its subject escaped in the note' '
	git checkout -q -b esc mm-unstable &&
	test_when_finished "git checkout -q work" &&
	echo e1 >E1 && git add E1 && git commit -qm "esc: one" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	echo e2 >E2 && git add E2 &&
	git commit -qm "esc: $(printf "\033")[2J two" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track esc --base mm-unstable >/dev/null &&
	respin format esc -o esc-mail >/dev/null &&
	cat esc-mail/*.patch >esc.mbox &&
	respin import esc2 esc.mbox --base mm-unstable >/dev/null &&
	git checkout -q maint && git cherry-pick esc~1 >/dev/null &&
	respin thanks esc2 --in maint --source esc.mbox -o ty2.mbox 2>err &&
	cat err &&
	! grep -q "$(printf "\033")" err &&
	test_grep "^note: 2/2 \"esc: \\\\e\[2J two\" is not in maint$" err
'

test_expect_success 'an unknown series: 128, naming it' '
	test_expect_code 128 respin thanks nosuch --in maint 2>err &&
	test_grep "no series named .nosuch." err
'

test_done
