#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A cover letter whose subject lacks "0/N" ("[PATCH v2] mm: three
# changes", or no tag at all) is found by its place in the thread: the
# first mail, the patches k/N as its replies.  Its text is kept.
. "$(dirname "$0")/lib.sh"

# cover SUBJECT MSGID: a cover letter with no counter, no diff.
cover() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: $1
Date: Tue, 14 Nov 2023 22:13:19 +0000
Message-Id: <$2>

This series makes three changes to mm.

A U Thor (3):
  mm: change 1
  mm: change 2
  mm: change 3

EOM
}
mk() {
	PM_SUBJECT="[PATCH v2 $1/3] mm: change $1" patch_mail "$1" "$2" "$3"
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable || exit 1

for s in "[PATCH v2] mm: three changes" "mm: three changes"
do
	test_expect_success "\"$s\": the first mail of the thread is the cover" '
		rm -f c.mbox &&
		{ cover "$s" c@example.org && mk 1 c1@example.org c@example.org &&
		  mk 2 c2@example.org c@example.org && mk 3 c3@example.org c@example.org; } >c.mbox &&
		respin thread c.mbox c1@example.org >out 2>err &&
		cat out err &&
		test_grep "^\"mm: three changes\" by A U Thor" out &&
		test_grep "^  v2  .* 3/3 patches + cover, 0 replies  <c@example.org>\$" out &&
		test_grep "^    0/3 mm: three changes\$" out &&
		test "$(grep -c "^\"" out)" = 1
	'
done

test_expect_success 'the cover letter text is imported' '
	respin import nc c.mbox c1@example.org --base mm-unstable >out 2>err &&
	cat out err &&
	test_grep "^nc v2: 3 patches" out &&
	git show refs/respin/series/nc:v2/cover >cover &&
	test_grep "^mm: three changes\$" cover &&
	test_grep "^This series makes three changes to mm.\$" cover
'

test_expect_success 'a real one: "[PATCH] POWERPC: several build fixes" over 1/4..4/4' '
	RD=$TEST_DATA/mail/covers/naked-rdunlap.mbox &&
	respin thread "$RD" 20230223070116.660-2-rdunlap@infradead.org >out 2>err &&
	cat out err &&
	test_grep "^\"POWERPC: several build fixes\" by Randy Dunlap" out &&
	test_grep "^  v1  .* 4/4 patches + cover, [01] repl[a-z]*  <20230223070116.660-1-rdunlap@infradead.org>\$" out &&
	test "$(grep -c "^\"" out)" = 1
'

test_done
