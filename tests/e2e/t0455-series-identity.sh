#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Which versions are one series: linked by change-id, links, replies,
# the same title, or enough patches in common over the whole version
# (half the smaller one), with version numbers that agree with the
# dates.  One shared patch does not make two series one.  Small crafted
# mailboxes, then the real year of linuxppc-dev when it is here.
. "$(dirname "$0")/lib.sh"

# pm N MSGID DATE SUBJECT [PARENT]: a patch adding mm/fN.c (the same N,
# the same diff: the same patch-id), sent on DATE.
pm() {
	PM_SUBJECT="$4" patch_mail "$1" "$2" "${5:-}" |
	sed "s/^Date: .*/Date: $3/"
}

# cover MSGID DATE SUBJECT [BODY]: a cover letter.
cover() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: $3
Date: $2
Message-Id: <$1>

${4:-The cover letter.}

EOM
}

# series_of FILE TITLE: the line of FILE naming that series.
series_line() {
	grep "^\"$2\" by " "$1"
}

JAN6='Fri, 6 Jan 2023 10:00:00 +0000'
JAN9='Mon, 9 Jan 2023 10:00:00 +0000'
JAN25='Wed, 25 Jan 2023 10:00:00 +0000'
JAN27='Fri, 27 Jan 2023 10:00:00 +0000'
FEB3='Fri, 3 Feb 2023 10:00:00 +0000'
MAR1='Wed, 1 Mar 2023 10:00:00 +0000'
MAR8='Wed, 8 Mar 2023 10:00:00 +0000'
APR1='Sat, 1 Apr 2023 10:00:00 +0000'
APR5='Wed, 5 Apr 2023 10:00:00 +0000'
APR20='Thu, 20 Apr 2023 10:00:00 +0000'
MAY24='Wed, 24 May 2023 10:00:00 +0000'
JUN1='Thu, 1 Jun 2023 10:00:00 +0000'

# "shoot lazies": v6, then v7 with a new cover title and one patch more.
{
	cover s6@x "$JAN6" "[PATCH v6 0/3] mm: shoot lazies" &&
	pm 1 s6-1@x "$JAN6" "[PATCH v6 1/3] mm: lazy refcount helpers" s6@x &&
	pm 2 s6-2@x "$JAN6" "[PATCH v6 2/3] mm: lazy refcount config" s6@x &&
	pm 3 s6-3@x "$JAN6" "[PATCH v6 3/3] mm: combine final flush and shootdown" s6@x &&
	cover s7@x "$FEB3" "[PATCH v7 0/4] mm: shoot lazies (scalability)" &&
	pm 4 s7-1@x "$FEB3" "[PATCH v7 1/4] kthread: simplify use_mm" s7@x &&
	pm 1 s7-2@x "$FEB3" "[PATCH v7 2/4] mm: lazy refcount helpers" s7@x &&
	pm 2 s7-3@x "$FEB3" "[PATCH v7 3/4] mm: lazy refcount config" s7@x &&
	pm 3 s7-4@x "$FEB3" "[PATCH v7 4/4] mm: combine final flush and shootdown" s7@x
} >shoot.mbox || exit 1

test_expect_success 'a v7 with a new cover title and the patches of v6 is v7 of that series' '
	respin thread shoot.mbox >out 2>err &&
	test_grep "^1 series in 9 messages$" out &&
	series_line out "mm: shoot lazies (scalability)" >line &&
	test_grep ", 2 versions$" line
'

test_expect_success 'a later series that reuses one of its patches is a series of its own' '
	{
		cat shoot.mbox &&
		cover c1@x "$MAY24" "[PATCH 0/4] mm: cpumask cleanups" &&
		pm 5 c1-1@x "$MAY24" "[PATCH 1/4] mm: account cpumask in init_mm" c1@x &&
		pm 6 c1-2@x "$MAY24" "[PATCH 2/4] mm: use the dec helper" c1@x &&
		pm 7 c1-3@x "$MAY24" "[PATCH 3/4] mm: warn on a bad cpumask" c1@x &&
		pm 3 c1-4@x "$MAY24" "[PATCH 4/4] mm: combine final flush and shootdown" c1@x
	} >reuse.mbox &&
	respin thread reuse.mbox >out 2>err &&
	test_grep "^2 series in 14 messages$" out &&
	series_line out "mm: shoot lazies (scalability)" >line &&
	test_grep ", 2 versions$" line &&
	series_line out "mm: cpumask cleanups" >line &&
	test_grep ", 1 version$" line &&
	respin thread reuse.mbox s7@x >out 2>err &&
	test_grep "^  v6 " out &&
	test_grep "^  v7 " out &&
	test_grep ! "^  v1 " out &&
	test_grep "^note: v1 of \"mm: cpumask cleanups\" <c1@x> shares 1 of its 4 patches with v[67] of \"mm: shoot lazies.*\" <s[67]@x>; kept as two series: too few in common$" err
'

test_expect_success 'a v1 dated after v7 is not its v1, even with half its patches' '
	{
		cat shoot.mbox &&
		pm 3 late-1@x "$JUN1" "[PATCH 1/2] mm: combine final flush and shootdown" &&
		pm 8 late-2@x "$JUN1" "[PATCH 2/2] mm: something else" late-1@x
	} >late.mbox &&
	respin thread late.mbox >out 2>err &&
	test_grep "^2 series in 11 messages$" out &&
	test_grep "^note: v1 of \"mm: combine final flush and shootdown\" <late-1@x> shares 1 of its 2 patches with .*: v1 (2023-06-01) would come after v[67] (2023-0[12]-0[36])$" err
'

test_expect_success 'a v2 with a new cover title, reworded patches and one more is one series' '
	{
		cover o1@x "$MAR1" "[PATCH 0/3] mm: old name" &&
		pm 11 o1-1@x "$MAR1" "[PATCH 1/3] mm: add foo helper" o1@x &&
		pm 12 o1-2@x "$MAR1" "[PATCH 2/3] mm: use foo in bar" o1@x &&
		pm 13 o1-3@x "$MAR1" "[PATCH 3/3] mm: drop old baz" o1@x &&
		cover o2@x "$MAR8" "[PATCH v2 0/4] mm: new name" &&
		pm 14 o2-1@x "$MAR8" "[PATCH v2 1/4] mm: add a foo helper" o2@x &&
		pm 12 o2-2@x "$MAR8" "[PATCH v2 2/4] mm: use foo in bar" o2@x &&
		pm 13 o2-3@x "$MAR8" "[PATCH v2 3/4] mm/baz: drop old baz" o2@x &&
		pm 15 o2-4@x "$MAR8" "[PATCH v2 4/4] mm: new thing" o2@x
	} >renamed.mbox &&
	respin thread renamed.mbox o2@x >out 2>err &&
	series_line out "mm: new name" >line &&
	test_grep ", 2 versions$" line &&
	test_grep "^  v1 .* <o1@x>$" out &&
	test ! -s err
'

test_expect_success 'a v2 that kept half of its patches (the rest merged) is one series' '
	{
		cover h1@x "$MAR1" "[PATCH 0/6] mm: six things" &&
		for i in 1 2 3 4 5 6; do
			pm 2$i h1-$i@x "$MAR1" "[PATCH $i/6] mm: thing $i" h1@x || return 1
		done &&
		cover h2@x "$MAR8" "[PATCH v2 0/3] mm: the three left" &&
		pm 24 h2-1@x "$MAR8" "[PATCH v2 1/3] mm: thing 4" h2@x &&
		pm 25 h2-2@x "$MAR8" "[PATCH v2 2/3] mm: thing 5" h2@x &&
		pm 26 h2-3@x "$MAR8" "[PATCH v2 3/3] mm: thing 6" h2@x
	} >half.mbox &&
	respin thread half.mbox >out 2>err &&
	test_grep "^1 series in 11 messages$" out &&
	series_line out "mm: the three left" >line &&
	test_grep ", 2 versions$" line
'

test_expect_success 'two series of one author sharing one patch stay two' '
	{
		cover a1@x "$MAR1" "[PATCH 0/3] mm: alpha" &&
		pm 31 a1-1@x "$MAR1" "[PATCH 1/3] mm: alpha one" a1@x &&
		pm 32 a1-2@x "$MAR1" "[PATCH 2/3] mm: alpha two" a1@x &&
		pm 30 a1-3@x "$MAR1" "[PATCH 3/3] mm: shared fix" a1@x &&
		cover b1@x "$MAR8" "[PATCH 0/3] mm: beta" &&
		pm 33 b1-1@x "$MAR8" "[PATCH 1/3] mm: beta one" b1@x &&
		pm 34 b1-2@x "$MAR8" "[PATCH 2/3] mm: beta two" b1@x &&
		pm 30 b1-3@x "$MAR8" "[PATCH 3/3] mm: shared fix" b1@x
	} >two.mbox &&
	respin thread two.mbox >out 2>err &&
	test_grep "^2 series in 8 messages$" out &&
	test_grep ! "sent more than once" err &&
	test_grep "^note: v1 of \"mm: beta\" <b1@x> shares 1 of its 3 patches with v1 of \"mm: alpha\" <a1@x>; kept as two series: too few in common$" err
'

test_expect_success 'a one-patch series taken into a bigger series stays its own' '
	{
		pm 40 f1@x "$APR1" "[PATCH] mm: fix x" &&
		pm 40 f2@x "$APR5" "[PATCH v2] mm: fix x" &&
		cover g1@x "$APR20" "[PATCH 0/3] mm: big" &&
		pm 41 g1-1@x "$APR20" "[PATCH 1/3] mm: prepare" g1@x &&
		pm 40 g1-2@x "$APR20" "[PATCH 2/3] mm: fix x" g1@x &&
		pm 42 g1-3@x "$APR20" "[PATCH 3/3] mm: use x" g1@x
	} >single.mbox &&
	respin thread single.mbox >out 2>err &&
	test_grep "^2 series in 6 messages$" out &&
	series_line out "mm: fix x" >line &&
	test_grep ", 2 versions$" line &&
	series_line out "mm: big" >line &&
	test_grep ", 1 version$" line
'

test_expect_success 'backports of one series to two stable trees are two series' '
	{
		pm 50 t1-1@x "$MAR1" "[PATCH 6.1 1/2] mm: fix a" &&
		pm 51 t1-2@x "$MAR1" "[PATCH 6.1 2/2] mm: fix b" t1-1@x &&
		pm 50 t2-1@x "$MAR1" "[PATCH 5.15 1/2] mm: fix a" &&
		pm 51 t2-2@x "$MAR1" "[PATCH 5.15 2/2] mm: fix b" t2-1@x
	} >stable.mbox &&
	respin thread stable.mbox >out 2>err &&
	test_grep "^2 series in 4 messages$" out &&
	test ! -s err
'

test_expect_success 'a part split off as its own series, linking to v1, does not take v2' '
	{
		cover j1@x "$JAN9" "[PATCH 0/3] mm: per-vma locks" &&
		pm 61 j1-1@x "$JAN9" "[PATCH 1/3] mm: flag helpers" j1@x &&
		pm 62 j1-2@x "$JAN9" "[PATCH 2/3] mm: vma lock" j1@x &&
		pm 63 j1-3@x "$JAN9" "[PATCH 3/3] mm: use the vma lock" j1@x &&
		cover k2@x "$JAN25" "[PATCH v2 0/2] mm: introduce flag helpers" \
			"This was part of https://lore.kernel.org/all/j1@x/ first." &&
		pm 61 k2-1@x "$JAN25" "[PATCH v2 1/2] mm: flag helpers" k2@x &&
		pm 64 k2-2@x "$JAN25" "[PATCH v2 2/2] mm: convert to flag helpers" k2@x &&
		cover j2@x "$JAN27" "[PATCH v2 0/3] mm: per-vma locks" \
			"v1: https://lore.kernel.org/all/j1@x/" &&
		pm 61 j2-1@x "$JAN27" "[PATCH v2 1/3] mm: flag helpers" j2@x &&
		pm 65 j2-2@x "$JAN27" "[PATCH v2 2/3] mm: vma lock" j2@x &&
		pm 63 j2-3@x "$JAN27" "[PATCH v2 3/3] mm: use the vma lock" j2@x
	} >fork.mbox &&
	respin thread fork.mbox j2@x >out 2>err &&
	series_line out "mm: per-vma locks" >line &&
	test_grep ", 2 versions$" line &&
	test_grep "^  v1 .* <j1@x>$" out &&
	test_grep "^  v2 .* <j2@x>$" out &&
	test_grep ! "sent more than once" err &&
	respin thread fork.mbox k2@x >out 2>err &&
	series_line out "mm: introduce flag helpers" >line &&
	test_grep ", 1 version$" line
'

test_expect_success 'a patch sent in reply to v3 later is not its v1' '
	{
		cover r3@x "$MAR1" "[PATCH v3 0/2] mm: thing" &&
		pm 71 r3-1@x "$MAR1" "[PATCH v3 1/2] mm: thing one" r3@x &&
		pm 72 r3-2@x "$MAR1" "[PATCH v3 2/2] mm: thing two" r3@x &&
		pm 73 fix@x "$MAR8" "[PATCH] mm: fix thing two" r3-2@x
	} >fixup.mbox &&
	respin thread fixup.mbox r3@x >out 2>err &&
	series_line out "mm: thing" >line &&
	test_grep ", 1 version$" line &&
	test_grep "^note: v1 of \"mm: fix thing two\" <fix@x> refers to v3 of \"mm: thing\" <r3@x>; kept as two series: v1 (2023-03-08) would come after v3 (2023-03-01)$" err
'

test_expect_success 'v3 follows v2 of its title, not a v1 sent by mistake just before it' '
	{
		pm 91 m1@x "$MAR1" "[PATCH] mm: quieter errors" &&
		cover m2@x "$MAR8" "[PATCH v2 0/2] mm: quieter errors" &&
		pm 91 m2-1@x "$MAR8" "[PATCH v2 1/2] mm: quieter errors" m2@x &&
		pm 92 m2-2@x "$MAR8" "[PATCH v2 2/2] mm: say less" m2@x &&
		cover m9@x "Thu, 1 Jun 2023 10:00:00 +0000" "[PATCH 0/2] mm: quieter errors" &&
		pm 93 m9-1@x "Thu, 1 Jun 2023 10:00:00 +0000" "[PATCH 1/2] mm: quieter errors" m9@x &&
		pm 92 m9-2@x "Thu, 1 Jun 2023 10:00:00 +0000" "[PATCH 2/2] mm: say less" m9@x &&
		cover m3@x "Thu, 1 Jun 2023 10:02:00 +0000" "[PATCH v3 0/2] mm: quieter errors" &&
		pm 93 m3-1@x "Thu, 1 Jun 2023 10:02:00 +0000" "[PATCH v3 1/2] mm: quieter errors" m3@x &&
		pm 92 m3-2@x "Thu, 1 Jun 2023 10:02:00 +0000" "[PATCH v3 2/2] mm: say less" m3@x
	} >mistag.mbox &&
	respin thread mistag.mbox m3@x >out 2>err &&
	test_grep ", 3 versions$" out &&
	test_grep "^  v1  2023-03-01 .* <m1@x>$" out &&
	test_grep "^  v2  2023-03-08 .* <m2@x>$" out &&
	test_grep "^  v3  2023-06-01 .* <m3@x>$" out &&
	test_grep "^note: v1 of \"mm: quieter errors\" <m9@x> has the title of v2 of \"mm: quieter errors\" <m2@x>; kept as two series: v1 (2023-06-01) would come after v2 (2023-03-08)$" err
'

test_expect_success 'a cover that forgot its version: its patches say v3' '
	{
		cover u0@x "$MAR1" "[PATCH 0/2] mm: untagged cover" &&
		pm 81 u1@x "$MAR1" "[PATCH v3 1/2] mm: untagged one" u0@x &&
		pm 82 u2@x "$MAR1" "[PATCH v3 2/2] mm: untagged two" u0@x
	} >untagged.mbox &&
	respin thread untagged.mbox >out 2>err &&
	test_grep "^  v3  2023-03-01  2/2 patches + cover, 0 replies  <u0@x>$" out &&
	test_grep "^1 series in 3 messages$" out &&
	test ! -s err
'

test_expect_success 'patches that forgot the version of their cover' '
	{
		cover w0@x "$MAR1" "[PATCH v2 0/2] mm: tagged cover" &&
		pm 83 w1@x "$MAR1" "[PATCH 1/2] mm: tagged one" w0@x &&
		pm 84 w2@x "$MAR1" "[PATCH 2/2] mm: tagged two" w0@x
	} >untagged2.mbox &&
	respin thread untagged2.mbox >out 2>err &&
	test_grep "^  v2  2023-03-01  2/2 patches + cover, 0 replies  <w0@x>$" out &&
	test ! -s err
'

test_expect_success 'a cover and its last patch with one Message-ID (patman)' '
	{
		cover dup@x "$MAR1" "[PATCH v5 0/2] mm: one id twice" &&
		pm 85 d1@x "$MAR1" "[PATCH v5 1/2] mm: first" dup@x &&
		pm 86 dup@x "$MAR1" "[PATCH v5 2/2] mm: second" dup@x
	} >dup.mbox &&
	respin thread dup.mbox d1@x >out 2>err &&
	test_grep "^  v5  2023-03-01  1/2 patches + cover, 0 replies  <dup@x>$" out &&
	test_grep "^note: message 3 (\"\[PATCH v5 2/2\] mm: second\") has the Message-ID <dup@x> of message 1 (\"\[PATCH v5 0/2\] mm: one id twice\"); skipped$" err
'

test_expect_success 'the same version sent twice is one version, the newer' '
	{
		cover e1@x "$MAR1" "[PATCH v2 0/2] mm: sent twice" &&
		pm 87 e1-1@x "$MAR1" "[PATCH v2 1/2] mm: twice one" e1@x &&
		pm 88 e1-2@x "$MAR1" "[PATCH v2 2/2] mm: twice two" e1@x &&
		cover e2@x "$MAR8" "[PATCH v2 0/2] mm: sent twice" &&
		pm 87 e2-1@x "$MAR8" "[PATCH v2 1/2] mm: twice one" e2@x &&
		pm 88 e2-2@x "$MAR8" "[PATCH v2 2/2] mm: twice two" e2@x
	} >twice.mbox &&
	respin thread twice.mbox >out 2>err &&
	test_grep "^1 series in 6 messages$" out &&
	test_grep "^  v2  2023-03-08 .* <e2@x>$" out &&
	test_grep "^note: v2 of \"mm: sent twice\" was sent more than once (<e1@x>, then <e2@x>); using the newer$" err
'

# ---- the real year of linuxppc-dev ---------------------------------

year=$RESPIN_TEST_CACHE/linuxppc-dev-2023.mbox
xz_file=$SHARED_DIR/data/mail/linuxppc-dev-2023.mbox.xz
if [ ! -s "$year" ] && [ -f "$xz_file" ]; then
	mkdir -p "$RESPIN_TEST_CACHE" &&
	xz -dc "$xz_file" >"$year.tmp.$$" && mv "$year.tmp.$$" "$year" ||
	rm -f "$year.tmp.$$"
fi

LAZY7=20230203071837.1136453-1-npiggin@gmail.com
CLEANUPS=20230524060821.148015-1-npiggin@gmail.com
if [ ! -s "$year" ]; then
	test_skip "the year of mail is not here: no $xz_file (optional; set RESPIN_SHARED to the directory that has data/mail/)"
	test_skip "the year of mail is not here"
	test_skip "the year of mail is not here"
else
	test_expect_success 'year: "shoot lazy tlbs" is v6 and v7, not the May series as v1' '
		respin thread "$year" $LAZY7 >out 2>err &&
		test_grep "^\"shoot lazy tlbs (lazy tlb refcount scalability improvement)\" by Nicholas Piggin <npiggin@gmail.com>, 2 versions$" out &&
		test_grep "^  v6  2023-01-18  5/5 patches + cover, 10 replies  <20230118080011.2258375-1-npiggin@gmail.com>$" out &&
		test_grep "^  v7  2023-02-03  5/5 patches + cover, 3 replies  <$LAZY7>$" out &&
		test_grep ! "^  v1 " out &&
		test_grep "^note: v1 of \"powerpc: mm_cpumask cleanups and lazy tlb mm\" <$CLEANUPS> shares 1 of its 4 patches with v6 of \"shoot lazy tlbs\" <20230118080011.2258375-1-npiggin@gmail.com>; kept as two series: too few in common$" err
	'

	test_expect_success 'year: the May series is a series of its own' '
		respin thread "$year" $CLEANUPS >out 2>err &&
		test_grep "^\"powerpc: mm_cpumask cleanups and lazy tlb mm\" by Nicholas Piggin <npiggin@gmail.com>, 1 version$" out &&
		test_grep "^  v1  2023-05-24  4/4 patches + cover" out
	'

	test_expect_success 'year: import --all records v6 and v7 only' '
		git init -q repo &&
		(
			cd repo &&
			respin import lazy "$year" $LAZY7 --mail-only --all >out &&
			test_grep "^lazy v6: 5 patches recorded from mail only" out &&
			test_grep "^lazy v7: 5 patches recorded from mail only" out &&
			test_grep ! "^lazy v1" out
		)
	'
fi

test_done
