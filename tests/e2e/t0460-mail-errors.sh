#!/bin/sh
# Bad mail: clear messages that name the message, never a crash, and
# nothing recorded half.
. "$(dirname "$0")/lib.sh"

# mk_patch IDX TOTAL MSGID: a small patch mail, a reply to the cover.
mk_patch() {
	PM_SUBJECT="[PATCH v2 $1/$2] mm: change $1" \
		patch_mail "$1" "$3" cover@example.org
}

mk_cover() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: [PATCH v2 0/3] mm: three changes
Date: Tue, 14 Nov 2023 22:13:20 +0000
Message-Id: <cover@example.org>

The cover.

EOM
}

git init -q repo && cd repo && git commit -q --allow-empty -m init && git branch mm-unstable
refs_snapshot "$TRASH/refs0"
nothing_recorded() { refs_snapshot "$TRASH/refs1" && check_same "$TRASH/refs0" "$TRASH/refs1"; }

test_expect_success 'a complete series imports (the control case)' '
	{ mk_cover && mk_patch 1 3 p1@example.org && mk_patch 2 3 p2@example.org && mk_patch 3 3 p3@example.org; } >ok.mbox &&
	respin thread ok.mbox >out && test_grep "3/3 patches + cover" out &&
	respin import ctl ok.mbox --base mm-unstable >out && test_grep "^ctl v2: 3 patches" out &&
	git update-ref -d refs/respin/series/ctl
'

test_expect_success 'patches 1/3 and 3/3 only: the gap is named, nothing recorded' '
	{ mk_cover && mk_patch 1 3 p1@example.org && mk_patch 3 3 p3@example.org; } >gap.mbox &&
	respin thread gap.mbox >out 2>err && cat out err &&
	test_grep "note: v2 of \"mm: three changes\" is missing patch 2/3" err &&
	test_expect_code 128 respin import g gap.mbox --base mm-unstable 2>err &&
	test_grep "missing patch 2/3; nothing recorded" err &&
	nothing_recorded
'

test_expect_success 'broken base64 in a patch: named by its Message-ID' '
	{ mk_cover &&
	  mk_patch 1 1 b1@example.org | sed -n "1,/^\$/p" | sed "s/^Message-Id.*/&\nMIME-Version: 1.0\nContent-Type: text\/plain; charset=utf-8\nContent-Transfer-Encoding: base64/" &&
	  printf "VGhpcyBpcyBub3Qg!!!!bm90IGJhc2U2NA=====\n%%%%%%\n\n"; } >b64.mbox &&
	test_expect_code 128 respin import b b64.mbox b1@example.org --base mm-unstable 2>err &&
	test_grep "b1@example.org" err &&
	nothing_recorded
'

test_expect_success 'an unknown charset is read, not a crash' '
	mk_patch 1 1 cs@example.org | sed "s/^Message-Id.*/&\nMIME-Version: 1.0\nContent-Type: text\/plain; charset=x-no-such-charset\nContent-Transfer-Encoding: 8bit/" >cs.mbox &&
	respin thread cs.mbox cs@example.org >out 2>err &&
	test_grep "1/1 mm: change 1" out
'

test_expect_success 'an unknown charset: a note names the message and the charset' '
	respin thread cs.mbox cs@example.org >out 2>err &&
	test_grep "^note: message <cs@example.org> (#1 in cs.mbox): .*unknown charset \"x-no-such-charset\": bytes kept as they are" err
'

test_expect_success 'a message with no body and a 1 MB header line' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: x@example.org\nSubject: nobody\nMessage-Id: <nobody@example.org>\n" &&
	  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: y@example.org\nX-Long: " &&
	  head -c 1048576 /dev/zero | tr "\\0" a &&
	  printf "\nSubject: [PATCH] long\nMessage-Id: <long@example.org>\n\nbody\n"; } >odd.mbox &&
	respin thread odd.mbox >out 2>err &&
	test_grep "^1 series in 2 messages$" out
'

test_expect_success 'a patch mail without a diff: import names it' '
	mk_patch 1 1 nd@example.org | sed "/^---\$/,\$d" >nodiff.mbox &&
	test_expect_code 128 respin import n nodiff.mbox --base mm-unstable 2>err &&
	test_grep "<nd@example.org>" err &&
	test_grep "has no diff" err &&
	nothing_recorded
'

test_expect_success 'a truncated mbox: what is there is read' '
	{ mk_cover && mk_patch 1 2 t1@example.org && mk_patch 2 2 t2@example.org | head -c 300; } >trunc.mbox &&
	respin thread trunc.mbox >out 2>err &&
	test_grep "^  v2  2023-11-14  2/2 patches, no cover, 0 replies  <t1@example.org>$" out
'

test_expect_success 'a truncated mbox: the cut is noted, naming the message' '
	respin thread trunc.mbox >out 2>err &&
	test_grep "^note: message 3 <t2@example.org> in trunc.mbox ends in the middle of a line: the mail looks cut off there$" err
'

# A mailbox of 16 MiB or more is scanned in two halves at once; a note
# about a message of the second half still names its number in the file.
test_expect_success 'a large mbox: notes name the message number in the whole file' '
	awk "BEGIN { pad = sprintf(\"%8000s\", \"\"); gsub(/ /, \"x\", pad);
		for (i = 1; i <= 2100; i++)
			printf \"From mboxrd@z Thu Jan  1 00:00:00 1970\\nFrom: f@example.org\\nSubject: filler %d\\nMessage-Id: <f%d@example.org>\\n\\n%s\\n\\n\", i, i, pad }" >big.mbox &&
	PM_SUBJECT="[PATCH v2 3/2] mm: over" patch_mail 1 c3@example.org >>big.mbox &&
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: f@example.org\nSubject: last\nMessage-Id: <last@example.org>\n\ncut here" >>big.mbox &&
	test $(wc -c <big.mbox) -gt 16777216 &&
	respin thread big.mbox >out 2>err &&
	test_grep "^note: message 2101 <c3@example.org>: a version or a counter out of range" err &&
	test_grep "^note: message 2102 <last@example.org> in big.mbox ends in the middle of a line" err
'

test_expect_success 'a truncated patch: import refuses and names it' '
	test_expect_code 128 respin import t trunc.mbox cover@example.org --base mm-unstable 2>err &&
	test_grep "t2@example.org" err &&
	nothing_recorded
'

test_expect_success 'a file that is not an mbox' '
	echo "just text" >notmbox.txt &&
	test_expect_code 128 respin thread notmbox.txt 2>err &&
	test_grep "not an mbox" err
'

test_expect_success 'a file that does not exist' '
	test_expect_code 128 respin thread no-such.mbox 2>err &&
	test_grep "no-such.mbox" err
'

test_expect_success 'a Message-ID that is not there' '
	test_expect_code 128 respin thread ok.mbox nosuch@example.org 2>err &&
	test_grep "no message <nosuch@example.org> in mbox ok.mbox" err
'

test_expect_success 'a malformed hunk header: thread, import and diff name it, no crash' '
	mk_patch 1 1 hh@example.org | sed "s/^@@ -0,0 +1 @@\$/@@ -x +1 @@/" >hunk.mbox &&
	test_grep "^@@ -x +1 @@\$" hunk.mbox &&
	respin thread hunk.mbox >out 2>err &&
	test_grep "<hh@example.org>" out &&
	test_grep "^note: unreadable: message <hh@example.org> (#1 in hunk.mbox): line 6 of the diff is not a valid hunk header" err &&
	test_expect_code 128 respin import h hunk.mbox --base mm-unstable 2>err &&
	test_grep "^fatal: patch 1/1 <hh@example.org> (.*) cannot be read: .*not a valid hunk header .* at \"@@ -x +1 @@\"; nothing recorded\$" err &&
	nothing_recorded &&
	test_expect_code 128 respin diff hunk.mbox ok.mbox 2>err &&
	test_grep "<hh@example.org>.* cannot be read: .*not a valid hunk header" err
'

test_expect_success 'a NUL byte in a hunk line, raw or in base64: named, no crash' '
	mk_patch 1 1 nul@example.org | sed "s/^+one\$/+o\x00ne/" >nul.mbox &&
	test_grep -a "^+o.ne\$" nul.mbox &&
	{ mk_patch 1 1 nul64@example.org | sed -n "1,/^\$/p" | sed "s/^Message-Id.*/&\nMIME-Version: 1.0\nContent-Type: text\/plain; charset=utf-8\nContent-Transfer-Encoding: base64/" &&
	  mk_patch 1 1 nul64@example.org | sed "1,/^\$/d" | sed "s/^+one\$/+o\x00ne/" | base64; } >nul64.mbox &&
	for m in nul nul64; do
		test_expect_code 128 respin import n $m.mbox --base mm-unstable 2>err &&
		test_grep "^fatal: patch 1/1 <$m@example.org> (.*) cannot be read: .*line 7 of the diff has a NUL byte" err &&
		nothing_recorded &&
		test_expect_code 128 respin diff $m.mbox ok.mbox 2>err &&
		test_grep "<$m@example.org>.* cannot be read: .*NUL byte" err || return 1
	done
'

test_expect_success 'a reply that keeps the patch subject (a build bot) stays a reply' '
	{ PM_SUBJECT="[PATCH 1/2] mm: change 1" patch_mail 1 b1@example.org &&
	  PM_SUBJECT="[PATCH 2/2] mm: change 2" patch_mail 2 b2@example.org b1@example.org &&
	  cat <<-\EOM
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Test Robot <robot@example.net>
	Subject: [PATCH 1/2] mm: change 1
	Date: Wed, 15 Nov 2023 17:01:55 +0530
	Message-Id: <bot@example.net>
	In-Reply-To: <b1@example.org>
	References: <b1@example.org>

	Hi,

	the robot noticed the following build warnings.

	EOM
	} >bot.mbox &&
	respin thread bot.mbox b1@example.org >out 2>err &&
	test_grep "^  v1  2023-11-14  2/2 patches, no cover, 1 reply  <b1@example.org>$" out &&
	test_grep "^      reply 2023-11-15 Test Robot <robot@example.net> <bot@example.net>$" out &&
	respin import bot bot.mbox b1@example.org --base mm-unstable >out &&
	test_grep "^bot v1: 2 patches from mail applied on mm-unstable" out &&
	git update-ref -d refs/respin/series/bot
'

test_done
