#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A counter out of range inside another version's thread ("[PATCH
# 35/34]" in reply to "[PATCH 0/34]", as linuxppc-dev had in Nov 2023)
# is noted and kept apart: never a fake v1 of its own.
. "$(dirname "$0")/lib.sh"

cover() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: [PATCH v14 0/2] mm: two changes
Date: Tue, 14 Nov 2023 22:13:19 +0000
Message-Id: <c@example.org>

Two changes.

EOM
}
mk() {
	PM_SUBJECT="[PATCH v14 $1] mm: change $2" patch_mail "$2" "$3" c@example.org
}

git init -q repo && cd repo && git commit -q --allow-empty -m init || exit 1

test_expect_success '3/2 in the thread of 0/2: a note, no fake version' '
	{ cover && mk 1/2 1 c1@example.org && mk 2/2 2 c2@example.org &&
	  mk 3/2 3 c3@example.org; } >c.mbox &&
	respin thread c.mbox >out 2>err &&
	cat out err &&
	test_grep "^\"mm: two changes\" by A U Thor <author@example.org>, 1 version\$" out &&
	test_grep "^  v14 .* 2/2 patches + cover" out &&
	! grep "^  v1 " out &&
	test "$(grep -c "^\"" out)" = 1 &&
	test_grep "note: message 4 <c3@example.org>: a version or a counter out of range" err
'

test_expect_success '"[PATCH v14 2/2 fix]" in reply to 2/2: a fixup of 2/2, not 2/2 again' '
	{ cover && mk 1/2 1 c1@example.org && mk 2/2 2 c2@example.org &&
	  PM_SUBJECT="[PATCH v14 2/2 fix] mm: change 2: fix" patch_mail 3 f2@example.org c2@example.org; } >f.mbox &&
	respin thread f.mbox c1@example.org >out 2>err &&
	cat out err &&
	! grep "sent twice" err &&
	test_grep "^  v14 .* 2/2 patches + cover, 1 reply  <c@example.org>\$" out &&
	test_grep "^    2/2 mm: change 2  \[" out &&
	test_grep "note: message 4 <f2@example.org> (\"\[PATCH v14 2/2 fix\] mm: change 2: fix\") is a fixup of 2/2 <c2@example.org>, not 2/2 again" err
'

test_expect_success 'two different [PATCH]es of one author in one thread: both kept' '
	{ PM_SUBJECT="[PATCH] mm: one thing" patch_mail 1 a@example.org &&
	  PM_SUBJECT="[PATCH] mm: another thing" patch_mail 2 b@example.org a@example.org; } >two.mbox &&
	respin thread two.mbox >out 2>err &&
	cat out err &&
	! grep "sent twice" err &&
	test_grep "^\"mm: one thing\" by A U Thor" out &&
	test_grep "^\"mm: another thing\" by A U Thor" out
'

test_expect_success 'a series continued by another sender stays one series' '
	{ PM_SUBJECT="[PATCH v13] mm: a thing" patch_mail 1 v13@example.org &&
	  PM_FROM="O Ther <other@example.net>" PM_SUBJECT="[PATCH v14] mm: a thing" \
		patch_mail 2 v14@example.net v13@example.org; } >hand.mbox &&
	respin thread hand.mbox >out 2>err &&
	cat out err &&
	test "$(grep -c "^\"" out)" = 1 &&
	test_grep "^  v13 " out &&
	test_grep "^  v14 " out &&
	test_grep "note: v14 of \"mm: a thing\" was sent by other@example.net, v13 by author@example.org" err
'

test_done
