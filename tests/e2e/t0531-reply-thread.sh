#!/bin/sh
# respin reply --results from any mail of a thread: the patch a mail
# answers (its In-Reply-To chain, the Message-IDs respin send recorded,
# the patch-ids of the diffs) decides whose results are quoted, and of
# which version: a reviewer's mail on v1 is answered with v1's results,
# even when v2 holds the same patch.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 ||
	test_skip_all "git send-email is not installed (make deps installs git-email)"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
fake_smtp || { echo "Bail out! no fake SMTP"; exit 1; }
git config sendemail.suppressCc all
git config respin.check.ok.kind command
git config respin.check.ok.command true
# says which version's tree it ran in: v2's patch 3 adds vmscan_more
git config respin.check.v2only.kind command
git config respin.check.v2only.command "! grep -q vmscan_more mm/vmscan.c"

# header NAME FILE: the value of header NAME of the first mail in FILE
header() {
	sed -n "/^\$/q; s/^$1: //Ip" "$2" | head -n 1
}

# ids FILE: the Message-IDs of an mbox, in order, without <>
ids() {
	sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$1"
}

# review_mail MSGID PARENT [TEXT]: a reviewer's reply (no diff, no tag)
review_mail() {
	printf "%s\n" "From mboxrd@z Thu Jan  1 00:00:00 1970" \
		"From: Rita Reviewer <rita@example.org>" \
		"To: A U Thor <author@example.org>" \
		"Subject: Re: a patch" \
		"Date: Wed, 15 Nov 2023 10:00:00 +0000" \
		"Message-Id: <$1>" "In-Reply-To: <$2>" "References: <$2>" "" \
		"> some quoted line" "" "${3:-Why is this needed?}" ""
}

test_expect_success 'setup: v1 sent and checked, v2 (patch 3 changed) sent and checked' '
	printf "mm: three\n\nThree small things.\n" >cover.txt &&
	respin cover a --file cover.txt >/dev/null &&
	respin send a --to list@example.org >out 2>err &&
	cp "$TRASH/sent.mbox" v1.mbox &&
	respin check a >/dev/null 2>&1 &&
	git checkout -q work &&
	printf "int vmscan_more(void) { return 2; }\n" >>mm/vmscan.c &&
	git commit -q -a --amend --no-edit &&
	respin track a >/dev/null &&
	respin cover a --file cover.txt >/dev/null &&
	rm "$TRASH/sent.mbox" &&
	respin send a --to list@example.org >out 2>err &&
	cp "$TRASH/sent.mbox" v2.mbox &&
	test_expect_code 1 respin check a >/dev/null 2>&1 &&
	test $(ids v1.mbox | wc -l) = 4 && test $(ids v2.mbox | wc -l) = 4
'

test_expect_success 'a reviewer'"'"'s mail on v1 2/3: v1'"'"'s results of 2/3' '
	p2=$(ids v1.mbox | sed -n 3p) &&
	review_mail rev1@example.org "$p2" >rev.mbox &&
	cat v1.mbox v2.mbox rev.mbox >thread.mbox &&
	respin reply thread.mbox rev1@example.org --results >d 2>err &&
	test_grep "^respin check of a v1 2/3 (commit [0-9a-f]\{12\}):$" d &&
	test_grep "^  ok: ok$" d &&
	test "$(header In-Reply-To d)" = "<rev1@example.org>"
'

test_expect_success 'the patch mail of v1 itself: v1, not v2 that holds the same patch' '
	p2=$(ids v1.mbox | sed -n 3p) &&
	respin reply thread.mbox "$p2" --results >d &&
	test_grep "^respin check of a v1 2/3 " d &&
	p2=$(ids v2.mbox | sed -n 3p) &&
	respin reply thread.mbox "$p2" --results >d &&
	test_grep "^respin check of a v2 2/3 " d
'

test_expect_success 'a reply to a reply: up the chain to the patch; v1 3/3 passes v2only, v2 3/3 fails it' '
	p3=$(ids v1.mbox | sed -n 4p) &&
	review_mail rev2@example.org "$p3" >r2.mbox &&
	review_mail rev3@example.org rev2@example.org "Because." >r3.mbox &&
	cat v1.mbox v2.mbox r2.mbox r3.mbox >thread.mbox &&
	respin reply thread.mbox rev3@example.org --results >d &&
	test_grep "^respin check of a v1 3/3 " d &&
	test_grep "^  v2only: ok$" d &&
	q3=$(ids v2.mbox | sed -n 4p) &&
	review_mail rev4@example.org "$q3" >r4.mbox &&
	cat r4.mbox >>thread.mbox &&
	respin reply thread.mbox rev4@example.org --results >d &&
	test_grep "^respin check of a v2 3/3 " d &&
	test_grep "^  v2only: FAIL" d
'

test_expect_success 'only the reviewer'"'"'s mail at hand: the Message-IDs send recorded decide' '
	p1=$(ids v1.mbox | sed -n 2p) &&
	review_mail rev5@example.org "$p1" >alone.mbox &&
	respin reply alone.mbox rev5@example.org --results >d &&
	test_grep "^respin check of a v1 1/3 " d
'

test_expect_success 'sent by hand (no Message-ID recorded): the patch-id, and the version its subject names' '
	awk "/^From mboxrd@z/ { n++ } n == 3" v1.mbox |
		sed "s/^Message-I[dD]: .*/Message-Id: <byhand1@example.org>/" >h1.mbox &&
	awk "/^From mboxrd@z/ { n++ } n == 3" v2.mbox |
		sed "s/^Message-I[dD]: .*/Message-Id: <byhand2@example.org>/" >h2.mbox &&
	review_mail rev8@example.org byhand1@example.org >>h1.mbox &&
	review_mail rev9@example.org byhand2@example.org >>h2.mbox &&
	respin reply h1.mbox rev8@example.org --results >d &&
	test_grep "^respin check of a v1 2/3 " d &&
	respin reply h2.mbox rev9@example.org --results >d &&
	test_grep "^respin check of a v2 2/3 " d
'

test_expect_success 'a reply to the cover letter: the whole version, a block a patch' '
	c1=$(ids v1.mbox | sed -n 1p) &&
	review_mail rev6@example.org "$c1" >c.mbox &&
	cat v1.mbox c.mbox >thread.mbox &&
	respin reply thread.mbox rev6@example.org --results >d &&
	test_grep "^respin check of a v1, at the base and after each patch:$" d &&
	test_grep "^  3/3 mm/vmscan: add vmscan_extra()$" d
'

test_expect_success 'a mail that answers nothing recorded: 128, naming it and what it answers' '
	review_mail rev7@example.org elsewhere@example.org >o.mbox &&
	test_expect_code 128 respin reply o.mbox rev7@example.org --results >out 2>err &&
	test_grep "no recorded version holds <rev7@example.org>" err &&
	test_grep "nor <elsewhere@example.org>, which it answers" err &&
	test_must_be_empty out
'

test_done
