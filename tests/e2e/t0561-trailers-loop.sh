#!/bin/sh
# respin trailers --apply as a kernel author uses it: a colleague's patch
# carried with the author's own Signed-off-by, notes under a "---" in a
# commit message, Closes:, a CI mail's Reported-by for another address,
# tags a reviewer restates, and trailers given before the code changed;
# b4 trailers -u run beside it on the same branch and mail.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"
make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git checkout -q -b work mm-unstable || exit 1

# 1/3 the author's, with notes under "---" in its message; 2/3 Chris
# Li's, carried with the author's Signed-off-by; 3/3 the author's too
tick
sed -i 's/^\tif (!free_blocks_total)$/\tif (!free_blocks_total || !requested)/' mm/compaction.c
printf '%s\n' "mm/compaction: guard fragmentation_index() against a zero request" "" \
	"A zero request cannot fragment anything: return 0 early." "" \
	"Signed-off-by: A U Thor <author@example.org>" "---" \
	"v2: nothing yet; this note stays out of the commit" >"$TRASH/m1"
git commit -qa -F "$TRASH/m1" || exit 1
tick
sed -i 's/^\tunsigned int o;$/\tunsigned int o;\n\tint unused_marker;/' mm/compaction.c
printf '%s\n' "mm/compaction: prepare a marker for later" "" "Nothing uses it yet." "" \
	"Signed-off-by: Chris Li <chrisl@kernel.org>" \
	"Signed-off-by: A U Thor <author@example.org>" >"$TRASH/m2"
GIT_AUTHOR_NAME="Chris Li" GIT_AUTHOR_EMAIL=chrisl@kernel.org git commit -qa -F "$TRASH/m2" || exit 1
tick
printf '\nint vmscan_extra(void) { return 1; }\n' >>mm/vmscan.c
git commit -qam "mm/vmscan: add vmscan_extra()" -m "A helper for later." \
	-m "Signed-off-by: A U Thor <author@example.org>" || exit 1
respin track a --base mm-unstable >/dev/null || { echo "Bail out! no series"; exit 1; }
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null
fake_smtp
respin send a --to "List <list@example.org>" >/dev/null 2>&1 || { echo "Bail out! no send"; exit 1; }
git clone -q --no-local -b work . "$TRASH/kb4" 2>/dev/null || exit 1
ids=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox")
cover=$(echo "$ids" | sed -n 1p) p1=$(echo "$ids" | sed -n 2p)
p2=$(echo "$ids" | sed -n 3p) p3=$(echo "$ids" | sed -n 4p)

# reply FROM PARENT ID BODY: a reply mail
reply() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: Re: x\nDate: Wed, 15 Nov 2023 00:00:00 +0000\nMessage-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%b\n" "$1" "$3" "$2" "$2" "$4"
}
{ cat "$TRASH/sent.mbox" &&
  reply "Rita Rev <rita@example.org>" "$p1" r1@example.org "Looks right.\n\nReviewed-by: Rita Rev <rita@example.org>" &&
  reply "Rob Reporter <rob@example.org>" "$p1" r2@example.org "That was my bug.\n\nReported-by: Rob Reporter <rob@example.org>\nCloses: https://lore.kernel.org/r/20231101-bug@example.org/" &&
  reply "Val Ueless <val@example.org>" "$p1" r3@example.org "Your patch says:\n\n    Signed-off-by: A U Thor <author@example.org>\n    Reviewed-by: Quoted Person <quoted@example.org>\n\nand I have nothing to add." &&
  reply "Tess Ter <tess@example.org>" "$p2" r4@example.org "Tested-by: Tess Ter <tess@example.org>" &&
  reply "Naresh Kamboju <naresh.kamboju@linaro.org>" "$p2" r5@example.org "LKFT found no regressions.\n\nReported-by: Linux Kernel Functional Testing <lkft@linaro.org>\nTested-by: Naresh Kamboju <naresh.kamboju@linaro.org>"; } >all.mbox

test_expect_success 'Closes: is collected, restated and mismatched tags are not to add' '
	respin trailers a --source all.mbox >out &&
	test_grep "^a v1: 5 trailers to add, 0 there already, 0 not carried, 1 mismatched$" out &&
	test_grep "^    + Closes: https://lore.kernel.org/r/20231101-bug@example.org/  (v1 1/3, <r2@example.org>)$" out &&
	test_grep "^    ? Reported-by: Linux Kernel Functional Testing <lkft@linaro.org>  (v1 2/3, <r5@example.org>; sent by Naresh Kamboju <naresh.kamboju@linaro.org>: not applied without --accept-mismatch)$" out &&
	test_grep ! "quoted@example.org" out &&
	test_grep ! "Signed-off-by" out &&
	respin thread "$TRASH/sent.mbox" >/dev/null &&
	respin trailers a --source all.mbox --json >j &&
	test_grep "\"state\": \"mismatch\"" j
'

test_expect_success 'the carried patch gets its trailers; ---notes stay below them' '
	respin trailers a --source all.mbox --apply >out &&
	test_grep "^a v1: trailers written into 2 commits; work moved" out &&
	git log -1 --format=%B work~2 >m1 &&
	printf "%s\n" "mm/compaction: guard fragmentation_index() against a zero request" "" \
		"A zero request cannot fragment anything: return 0 early." "" \
		"Reviewed-by: Rita Rev <rita@example.org>" \
		"Reported-by: Rob Reporter <rob@example.org>" \
		"Closes: https://lore.kernel.org/r/20231101-bug@example.org/" \
		"Signed-off-by: A U Thor <author@example.org>" "---" \
		"v2: nothing yet; this note stays out of the commit" "" >want &&
	check_same want m1 &&
	git log -1 --format=%B work~1 >m2 &&
	printf "%s\n" "mm/compaction: prepare a marker for later" "" "Nothing uses it yet." "" \
		"Signed-off-by: Chris Li <chrisl@kernel.org>" \
		"Tested-by: Tess Ter <tess@example.org>" \
		"Tested-by: Naresh Kamboju <naresh.kamboju@linaro.org>" \
		"Signed-off-by: A U Thor <author@example.org>" "" >want &&
	check_same want m2 &&
	git log -1 --format="%an <%ae>" work~1 >who && echo "Chris Li <chrisl@kernel.org>" >want &&
	check_same want who
'

# b4 0.12 beside it: the same branch enrolled with b4 prep, b4 trailers
# -u on the same mail (b4 looks for its cover commit among the commits
# of the last year: real dates there).  The messages are the same but for Closes:, which
# b4 0.12 does not collect (respin-trailers(1), DIFFERENCES FROM B4).
if command -v b4 >/dev/null && command -v git-filter-repo >/dev/null; then
test_expect_success 'the same commit messages as b4 trailers -u (Closes: aside)' '
	git -C "$TRASH/kb4" branch -q mm-unstable origin/mm-unstable &&
	(cd "$TRASH/kb4" && unset GIT_COMMITTER_DATE GIT_AUTHOR_DATE &&
	 git config user.name "A U Thor" &&
	 git config user.email author@example.org &&
	 b4 prep -e mm-unstable >/dev/null 2>&1 &&
	 b4 --offline-mode trailers -u -F "$cover" -m "$TRASH/k/all.mbox" >"$TRASH/b4.out" 2>&1) &&
	test_grep "Trailer: Reported-by: Linux Kernel Functional Testing <lkft@linaro.org>" "$TRASH/b4.out" &&
	for i in 1 2 3; do
		git -C "$TRASH/kb4" log -1 --format=%B HEAD~$((3 - i)) >b4.$i &&
		git log -1 --format=%B work~$((3 - i)) | grep -v "^Closes: " >respin.$i &&
		check_same b4.$i respin.$i || return 1
	done
'
else
	test_skip "b4 or git-filter-repo is not installed (make deps)"
fi

test_expect_success '--accept-mismatch: the CI mail'"'"'s Reported-by goes in too' '
	respin trailers a --source all.mbox --apply --accept-mismatch >out &&
	git log -1 --format=%B work~1 >m2 &&
	test_grep "^Reported-by: Linux Kernel Functional Testing <lkft@linaro.org>$" m2
'

test_expect_success 'v1 was sent: --apply recorded v2; on v2, not sent, it revises v2' '
	respin show a --json >j &&
	test_grep "\"version\": 2," j &&
	test_grep "\"tip\": \"$(git rev-parse work)\"" j &&
	test_expect_code 128 respin show a@v3 2>err
'

test_expect_success 'a patch you neither signed off last nor committed: refused, --all forces' '
	GIT_COMMITTER_NAME="Some One" GIT_COMMITTER_EMAIL=someone@example.org \
	GIT_AUTHOR_NAME="Some One" GIT_AUTHOR_EMAIL=someone@example.org \
		git commit -q --amend --reset-author -m "mm/vmscan: add vmscan_extra()" \
		-m "A helper for later." -m "Signed-off-by: Some One <someone@example.org>" &&
	respin track a >out &&
	test_grep "^a v2 revised: 3 patches on mm-unstable" out &&
	{ cat all.mbox &&
	  reply "Ann Acker <ann@example.org>" "$p3" r6@example.org "Acked-by: Ann Acker <ann@example.org>"; } >all2.mbox &&
	git rev-parse work >before &&
	test_expect_code 128 respin trailers a --source all2.mbox --apply 2>err &&
	test_grep "3/3 [0-9a-f]* \"mm/vmscan: add vmscan_extra()\" is by Some One <someone@example.org>, signed off last by someone@example.org and committed by Some One <someone@example.org>: not a patch you send (author@example.org)" err &&
	test_grep "1 patch is not yours to send" err &&
	test_grep "^hint: .*--all" err &&
	git rev-parse work >after && check_same before after &&
	respin trailers a --source all2.mbox --apply --all >out &&
	test_grep "^a v2: trailers written into 1 commit; work moved .*; v2 revised (not sent yet)$" out &&
	git log -1 --format=%B work >m3 &&
	test_grep "^Acked-by: Ann Acker <ann@example.org>$" m3
'

test_expect_success 'a trailer given before the code changed: flagged stale, kept or dropped' '
	git checkout -q work~2 && sed -i "s/|| !requested)/|| requested == 0)/" mm/compaction.c &&
	git commit -q --amend -a --no-edit && git cherry-pick work~2..work >/dev/null &&
	git branch -f work HEAD && git checkout -q work &&
	respin track a >/dev/null &&
	respin trailers a --source all2.mbox >out &&
	test_grep "^a v2: 0 trailers to add, [0-9]* there already, 0 not carried, 1 stale$" out &&
	test_grep "^    ! Reviewed-by: Rita Rev <rita@example.org>  (v1 1/3, <r1@example.org>; given on v1 before 1/3'"'"'s code changed)$" out &&
	test_grep "^    = Reported-by: Rob Reporter <rob@example.org>  (v1 1/3, <r2@example.org>; there already)$" out &&
	respin trailers a --source all2.mbox --json >j &&
	test_grep "\"state\": \"stale\"" j &&
	git rev-parse work >before &&
	test_expect_code 128 respin trailers a --source all2.mbox --apply 2>err &&
	test_grep "1 trailer in the commits was given before the patch.s code changed" err &&
	test_grep "^hint: --keep-stale keeps them, --drop-stale takes them out" err &&
	respin trailers a --source all2.mbox --apply --keep-stale >out &&
	test_grep "^a v2: nothing to write$" out &&
	git rev-parse work >after && check_same before after &&
	respin trailers a --source all2.mbox --apply --drop-stale >out &&
	test_grep "^a v2: trailers written into 1 commit; work moved" out &&
	git log -1 --format=%B work~2 >m1 &&
	test_grep ! "Rita Rev" m1 &&
	test_grep "^Reported-by: Rob Reporter <rob@example.org>$" m1 &&
	test_grep "^v2: nothing yet; this note stays out of the commit$" m1 &&
	respin trailers a --source all2.mbox >out &&
	test_grep "^    - Reviewed-by: Rita Rev <rita@example.org>  (v1 1/3, <r1@example.org>; not carried: its diff changed since v1)$" out
'

test_expect_success 'usage: --all, --keep-stale, --drop-stale go with --apply; not both stale ones' '
	test_expect_code 129 respin trailers a --all 2>err &&
	test_grep "all goes with --apply" err &&
	test_expect_code 129 respin trailers a --drop-stale 2>err &&
	test_expect_code 129 respin trailers a --apply --keep-stale --drop-stale 2>err &&
	test_grep "not both" err
'

test_done
