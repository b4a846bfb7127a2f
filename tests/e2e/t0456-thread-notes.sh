#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin thread SOURCE MSGID shows the notes about that series only (its
# versions, patches and replies) and counts the others; --verbose shows
# them all, as the listing of a whole mailbox does.
. "$(dirname "$0")/lib.sh"

# pm N MSGID SUBJECT [PARENT] [DATE]
pm() {
	PM_SUBJECT="$3" patch_mail "$1" "$2" "${4:-}" |
	sed "s/^Date: .*/Date: ${5:-Wed, 1 Mar 2023 10:00:00 +0000}/"
}

{
	# x: patch 2/3 is missing
	pm 1 x1@x "[PATCH 1/3] mm: x one" &&
	pm 3 x3@x "[PATCH 3/3] mm: x three" x1@x &&
	# y: v2 sent twice
	pm 4 y1@x "[PATCH v2] mm: y" &&
	pm 4 y2@x "[PATCH v2] mm: y" "" "Wed, 8 Mar 2023 10:00:00 +0000" &&
	# z: a version or a counter out of range is not read as a tag
	pm 5 z1@x "[PATCH v99999] mm: z"
} >box.mbox || exit 1

test_expect_success 'the listing of a mailbox has every note' '
	respin thread box.mbox >out 2>err &&
	test_grep "^note: v1 of \"mm: x one\" is missing patch 2/3$" err &&
	test_grep "^note: v2 of \"mm: y\" was sent more than once (<y1@x>, then <y2@x>); using the newer$" err &&
	test_grep "^note: message 5 <z1@x>: a version or a counter out of range" err &&
	test_grep ! "other series" err
'

test_expect_success 'with a Message-ID, only the notes about its series' '
	respin thread box.mbox x3@x >out 2>err &&
	test_grep "^\"mm: x one\" by " out &&
	test_grep "^note: v1 of \"mm: x one\" is missing patch 2/3$" err &&
	test_grep ! "mm: y" err &&
	test_grep ! "z1@x" err &&
	test_grep "^note: 2 notes about other series in mbox box.mbox; --verbose shows them$" err &&
	test $(grep -c "^note:" err) = 2
'

test_expect_success 'the notes of the other series, by its Message-ID' '
	respin thread box.mbox y1@x >out 2>err &&
	test_grep "^note: v2 of \"mm: y\" was sent more than once" err &&
	test_grep ! "mm: x one" err &&
	test_grep "^note: 2 notes about other series" err
'

test_expect_success '--verbose shows every note' '
	respin thread box.mbox x3@x --verbose >out 2>err &&
	test $(grep -c "^note:" err) = 3 &&
	test_grep "mm: y" err &&
	test_grep ! "other series" err &&
	respin thread box.mbox x3@x -v >out2 2>err2 &&
	check_same err err2
'

test_expect_success '--json: the notes about the series, and how many others' '
	respin thread --json box.mbox x3@x >out 2>err &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit 2 unless @{\$d->{notes}} == 1;
		exit 3 unless \$d->{notes}[0] eq q(v1 of \"mm: x one\" is missing patch 2/3);
		exit 4 unless \$d->{other_notes} == 2;
	" <out &&
	respin thread --json box.mbox >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit 2 unless @{\$d->{notes}} == 3;
		exit 3 unless \$d->{other_notes} == 0;
	" <out
'

test_expect_success 'a reply to the series is about the series' '
	{
		cat box.mbox &&
		cat <<-\EOM
		From mboxrd@z Thu Jan  1 00:00:00 1970
		From: R E Viewer <reviewer@example.org>
		Subject: Re: [PATCH 3/3] mm: x three
		Date: Thu, 2 Mar 2023 10:00:00 +0000
		Message-Id: <r1@x>
		In-Reply-To: <x3@x>

		Looks fine.

		EOM
	} >reply.mbox &&
	respin thread reply.mbox r1@x >out 2>err &&
	test_grep "^\"mm: x one\" by " out &&
	test_grep "^note: v1 of \"mm: x one\" is missing patch 2/3$" err &&
	test_grep "^note: 2 notes about other series" err
'

test_expect_success 'the listing names the author of a version whose patch 1 is missing' '
	pm 6 q2@x "[PATCH 2/2] mm: q two" >q.mbox &&
	sed "s/^From: .*/From: Q Author <q@example.org>/" q.mbox >q2.mbox &&
	{ cat box.mbox && cat q2.mbox; } >byq.mbox &&
	respin thread byq.mbox >out 2>err &&
	test_grep "^\"mm: q two\" by Q Author <q@example.org>, 1 version$" out
'

test_expect_success '--json listing of a big mailbox: a cover letter is there, with its Message-ID' '
	awk "BEGIN { for (i = 0; i < 2000; i++) printf \"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: o@x\nSubject: chat %d\nMessage-Id: <o%d@x>\n\nhello\n\n\", i, i }" >c.mbox &&
	cat >>c.mbox <<-\EOM &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: A U Thor <author@example.org>
	Subject: [PATCH 0/1] mm: covered
	Date: Wed, 1 Mar 2023 10:00:00 +0000
	Message-Id: <c0@x>

	The cover.

	EOM
	pm 7 c1@x "[PATCH 1/1] mm: covered one" c0@x >>c.mbox &&
	respin thread --json c.mbox >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$c = \$d->{series}[0]{versions}[0]{cover};
		exit 2 if \$c->{missing};
		exit 3 unless \$c->{message_id} eq q(c0@x);
	" <out
'

test_expect_success 'import says which sending it took, and nothing about other series' '
	git init -q repo &&
	(
		cd repo &&
		respin import y ../box.mbox y1@x --mail-only >out 2>err &&
		test_grep "^y v2: 1 patch recorded from mail only" out &&
		test_grep "^note: v2 of \"mm: y\" was sent more than once (<y1@x>, then <y2@x>); using the newer$" err &&
		test $(grep -c "^note:" err) = 1
	)
'

# the year of mail: a lookup prints the notes of its series, not 300
year=$RESPIN_TEST_CACHE/linuxppc-dev-2023.mbox
if [ -s "$year" ]; then
	test_expect_success 'year: one series, its notes and one line for the rest' '
		respin thread "$year" 20230203071837.1136453-1-npiggin@gmail.com >out 2>err &&
		test $(grep -c "^note:" err) = 2 &&
		test_grep "^note: [0-9]* notes about other series in mbox .*; --verbose shows them$" err &&
		respin thread "$year" 20230203071837.1136453-1-npiggin@gmail.com -v >out 2>err &&
		test $(grep -c "^note:" err) -gt 300
	'
else
	test_skip "the year of mail is not here: no $year (t0455 unpacks it from \$RESPIN_SHARED/data/mail when it is there)"
fi

test_done
