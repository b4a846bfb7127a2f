#!/bin/sh
# Versions numbered by what was sent, as b4 prep numbers them: a
# re-track of a version not sent yet revises it, a new number once it
# was sent (respin send, imported from the list, or --mark-sent); a
# branch made by git am of a version imported from mail is that version;
# the base stays the ref tracked after a rebase onto a commit of it.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"

# tip N: the tip of version N of series a
tip() {
	respin show a@v$1 --json | sed -n 's/^  "tip": "\([0-9a-f]*\)",$/\1/p'
}


# doc_shows PAGE FILE: each line of FILE, what respin printed, is shown
# in docs/PAGE with its series name, version numbers, commit ids and
# file names made general.
doc_shows() {
	sed -e 's/[][\.*^$]/\\&/g' -e 's/[0-9a-f]\{12\}/[0-9a-f]\\{12\\}/g' \
	    -e 's/v[0-9][0-9]*/v[0-9]*/g' -e 's/^a /[a-z0-9-]* /' \
	    -e 's|[a-z0-9_-]*/[a-z0-9_/-]*\\\.[ch]|[a-z0-9/_-]*\\.[ch]|g' \
	    "$2" >"$TRASH/doc.pats" &&
	while read -r pat
	do
		grep -q -e "$pat" "$SRC_DIR/docs/$1" ||
		{ echo "docs/$1 does not show: $pat"; return 1; }
	done <"$TRASH/doc.pats"
}

make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
git checkout -q -b work mm-unstable && commit_three_patches || exit 1

test_expect_success 'a re-track of a version not sent: the same number, revised, history kept' '
	respin track a --base mm-unstable >out &&
	test_grep "^a v1: 3 patches on mm-unstable" out &&
	old=$(git rev-parse work) &&
	git commit -q --amend -m "mm/vmscan: add vmscan_extra()" -m "A helper, for later." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track a >out &&
	test_grep "^a v1 revised: 3 patches on mm-unstable ([0-9a-f]*); not sent yet, so still this version$" out &&
	test "$(tip 1)" = "$(git rev-parse work)" &&
	test_expect_code 128 respin show a@v2 2>err &&
	git merge-base --is-ancestor $old refs/respin/series/a &&
	git log --format=%s refs/respin/series/a >log &&
	test $(grep -c "^respin: track a v1" log) = 2
'

test_expect_success 'sent by respin send: the next change is v2' '
	fake_smtp &&
	printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt" &&
	respin cover a --file "$TRASH/cover.txt" >/dev/null &&
	respin send a --to "List <list@example.org>" >/dev/null 2>&1 &&
	git commit -q --amend -m "mm/vmscan: add vmscan_extra()" -m "A helper, later." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track a >out &&
	test_grep "^a v2: 3 patches on mm-unstable" out
'

test_expect_success '--mark-sent: sent otherwise; then v3' '
	respin track a --mark-sent "<v2-cover@example.org>" >out &&
	test_grep "^a v2 marked sent as <v2-cover@example.org>: the next change recorded is v3$" out &&
	respin show a --json >j && test_grep "\"message_id\": \"v2-cover@example.org\"" j &&
	git commit -q --amend -m "mm/vmscan: add vmscan_extra()" -m "A helper; later." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track a >out &&
	test_grep "^a v3: 3 patches on mm-unstable" out &&
	test_expect_code 128 respin track a@v2 --mark-sent "<other@example.org>" 2>err &&
	test_grep "a v2 was sent already as <v2-cover@example.org>" err &&
	test_expect_code 129 respin track a --mark-sent "no id" 2>err &&
	test_expect_code 129 respin track a --mark-sent "<x@example.org>" --base main 2>err
'

# (b4 prep --manual-reroll, b4's step for this, fetches the thread from
# lore: it cannot run here offline; respin-track(1) compares them.)

test_expect_success 'rebase --onto a commit of mm-unstable: still tracking mm-unstable' '
	git checkout -q mm-unstable && tick && echo one >>MAINTAINERS &&
	git commit -qam "base: one" && onto=$(git rev-parse HEAD) &&
	tick && echo two >>MAINTAINERS && git commit -qam "base: two" &&
	git checkout -q work && git rebase -q $onto &&
	respin track a >out &&
	test_grep "^a v3 revised: 3 patches on mm-unstable ($(git rev-parse --short=12 $onto))" out &&
	respin show a --json >j &&
	test_grep "\"base\": \"$onto\"" j &&
	respin track a --base $onto >out &&
	test_grep "already has these 3 patches" out &&
	respin show a --json >j &&
	test_grep "\"base_ref\": \"refs/heads/mm-unstable\"" j
'

test_expect_success 'respin rebase of a version not sent: revised; the cover says so' '
	git checkout -q mm-unstable && tick &&
	sed -i "s/^\tif (!free_blocks_total)\$/\tif (free_blocks_total == 0)/" mm/compaction.c &&
	git commit -qam "base: touch the line 1/3 changes" &&
	git checkout -q work &&
	test_expect_code 1 respin rebase a >out &&
	test_grep "^patch 1/3 .* conflicts on mm-unstable" out &&
	git -C .git/respin/rebase/a checkout --theirs mm/compaction.c &&
	git -C .git/respin/rebase/a add mm/compaction.c &&
	respin rebase a --continue >out &&
	test_grep "^a v3 revised: 3 patches rebased onto mm-unstable ($(git rev-parse --short=12 mm-unstable)), tip [0-9a-f]*; not sent yet, so still v3$" out &&
	test_expect_code 128 respin show a@v4 2>err &&
	respin cover a >c &&
	sed -n "/^- Rebased onto/{N;s/\n */ /;p;}" c >item &&
	echo "- Rebased onto mm-unstable ($(git rev-parse --short=12 mm-unstable)) (conflict in mm/compaction.c resolved by hand)" >want &&
	check_same want item
'

test_expect_success 'the pages say it: rebase revises a version not sent, the cover names the rebase' '
	grep "revised" out >said &&
	doc_shows respin-rebase.md said &&
	sed -n "/^- Rebased onto/{N;p;}" c >said &&
	test $(wc -l <said) = 2 &&
	doc_shows respin-cover.md said &&
	test_grep "not sent yet" "$SRC_DIR/docs/respin-rebase.md" &&
	test_grep "trailers --apply" "$SRC_DIR/docs/respin-rebase.md" &&
	test_grep "not sent yet" "$SRC_DIR/docs/respin-cover.md"
'

# A version imported from the list, applied with git am on a branch.
cd "$TRASH" && make_fixture k2 && cd k2 || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git checkout -q -b work mm-unstable && commit_three_patches &&
respin track a --base mm-unstable >/dev/null || exit 1
printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null
rm -f "$TRASH/sent.mbox" && fake_smtp &&
respin send a --to "List <list@example.org>" >/dev/null 2>&1 || { echo "Bail out! no send"; exit 1; }
cover=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox" | head -n 1)
p2=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox" | sed -n 3p)
{ cat "$TRASH/sent.mbox" &&
  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Rita Rev <rita@example.org>\nSubject: Re: x\nMessage-Id: <r1@example.org>\nIn-Reply-To: <%s>\nReferences: <%s>\n\nReviewed-by: Rita Rev <rita@example.org>\n" "$p2" "$p2"; } >"$TRASH/thread.mbox"

test_expect_success 'git am of an imported version: track links it, trailers --apply works' '
	respin import m "$TRASH/thread.mbox" --mail-only >/dev/null 2>&1 &&
	respin show m --json >j && test_grep "\"version\": 1," j &&
	(cd "$TRASH" && mkdir b4am && cd b4am && unset GIT_COMMITTER_DATE &&
	 b4 --offline-mode am -m "$TRASH/thread.mbox" -o . "$cover" >/dev/null 2>&1) &&
	git checkout -q -b am-branch mm-unstable &&
	sed -i "/^Reviewed-by: Rita/d" "$TRASH"/b4am/*.mbx &&
	git am -q "$TRASH"/b4am/*.mbx &&
	respin track m --base mm-unstable >out &&
	test_grep "^m v1 linked: its 3 patches are the commits of HEAD ($(git rev-parse --short=12 HEAD)) on mm-unstable" out &&
	respin show m --json >j && test_grep "\"tip\": \"$(git rev-parse HEAD)\"" j &&
	respin trailers m --source "$TRASH/thread.mbox" --apply >out &&
	test_grep "^m v1: trailers written into 1 commit; am-branch moved .*; recorded as v2 (v1 was sent)$" out &&
	git log -1 --format=%B HEAD~1 >m2 &&
	test_grep "^Reviewed-by: Rita Rev <rita@example.org>$" m2 &&
	respin diff m v1 v2 >d &&
	test_grep "2: .* ! 2: " d
'

# The old numbering, still there for those who want it: every change
# recorded is a new version, sent or not.
cd "$TRASH" && make_fixture old && cd old || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.numbering track
git checkout -q -b work mm-unstable && commit_three_patches || exit 1

test_expect_success 'respin.numbering track: each change a new number, nothing sent' '
	respin track a --base mm-unstable >out &&
	test_grep "^a v1: 3 patches on mm-unstable" out &&
	git commit -q --amend -m "mm/vmscan: add vmscan_extra()" -m "A helper, for later." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track a >out &&
	test_grep "^a v2: 3 patches on mm-unstable" out &&
	git config respin.numbering sent &&
	git commit -q --amend -m "mm/vmscan: add vmscan_extra()" -m "A helper; later." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track a >out &&
	test_grep "^a v2 revised: " out
'

test_done
