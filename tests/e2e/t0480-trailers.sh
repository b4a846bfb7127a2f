#!/bin/sh
# Trailers in real and crafted mail: what a reply gives (not the tags
# of a commit it pastes, not a bot's boilerplate, which is the bot's
# report), and tags an unchanged patch lost between two versions, as
# respin thread, respin cover and respin diff show them.
. "$(dirname "$0")/lib.sh"

MAIL="$TEST_DATA/mail"
cat "$MAIL"/spinlock-oops/v*.mbox >spin.mbox

# reply_mail MSGID PARENT: a reply from A Reviewer, its body on stdin
# (mboxrd: a body line "From ..." is written ">From ...").
reply_mail() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A Reviewer <reviewer@example.org>
Subject: Re: [PATCH] mm: change 1
Date: Wed, 15 Nov 2023 10:00:00 +0000
Message-Id: <$1>
In-Reply-To: <$2>
References: <$2>

EOM
	cat
}

test_expect_success 'thread: the kernel test robot (2023) is a report, with its Closes link' '
	respin thread "$MAIL"/bots/objtool-lkp.mbox \
		202306241520.4jIgEhK4-lkp@intel.com >out &&
	test_grep "^    1/1 objtool: Make .sec-address. always on  \[[0-9a-f]\{12\}\]$" out &&
	test_grep "^      ! report by kernel test robot <lkp@intel.com>: build warnings, https://lore.kernel.org/oe-kbuild-all/202306241520.4jIgEhK4-lkp@intel.com/$" out &&
	test_grep ! "+ Reported-by" out &&
	test_grep ! "+ Closes" out
'

test_expect_success 'thread: the kbuild test robot (2019) is a report, not a Reported-by given' '
	respin thread spin.mbox 20190806030112.15232-2-cmr@informatik.wtf >out &&
	test_grep "^      ! report by kbuild test robot <lkp@intel.com>: build errors$" out &&
	test_grep ! "+ Reported-by: kbuild test robot" out
'

test_expect_success 'thread --json: bot_reports, and no reply_trailers from the bot' '
	respin thread --json "$MAIL"/bots/objtool-lkp.mbox \
		202306241520.4jIgEhK4-lkp@intel.com >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$p = \$d->{series}[0]{versions}[0]{patches}[0];
		exit 2 unless @{\$p->{reply_trailers}} == 0;
		my \$r = \$p->{bot_reports}[0] or exit 3;
		exit 4 unless \$r->{from} eq q(kernel test robot <lkp@intel.com>);
		exit 5 unless \$r->{what} eq q(build warnings);
		exit 6 unless \$r->{link} eq q(https://lore.kernel.org/oe-kbuild-all/202306241520.4jIgEhK4-lkp@intel.com/);
		exit 7 unless \$r->{message_id} eq q(202306241520.4jIgEhK4-lkp@intel.com);
	" <out
'

test_expect_success 'thread: a commit pasted into a reply gives no trailers; the reply does' '
	{
		patch_mail 1 p1@example.org &&
		reply_mail r1@example.org p1@example.org <<-\EOM &&
		Looks like what I did here:

		commit 0123456789abcdef0123456789abcdef01234567
		Author: Other Dev <other@example.org>
		Date:   Mon Jan 1 00:00:00 2024 +0000

		    mm: the other fix

		    Signed-off-by: Other Dev <other@example.org>

		Reviewed-by: Real Reviewer <real@example.org>
		EOM
		reply_mail r2@example.org p1@example.org <<-\EOM &&
		How about this instead:

		>From 6a6162e8af62a4b3f7b9d823fdfae86de3f34a9d Mon Sep 17 00:00:00 2001
		From: Fixer <fixer@example.org>
		Subject: [PATCH] fixup: mm: change 1

		Do it right.

		Signed-off-by: Fixer <fixer@example.org>
		---
		 mm/f1.c | 2 +-

		diff --git a/mm/f1.c b/mm/f1.c
		--- a/mm/f1.c
		+++ b/mm/f1.c
		@@ -1 +1 @@
		-one
		+two
		-- 
		2.39.0

		Either way:

		Acked-by: Fixer <fixer@example.org>
		EOM
		reply_mail r3@example.org p1@example.org <<-\EOM
		> diff --git a/mm/f1.c b/mm/f1.c
		> +Signed-off-by: Quoted Diff <quoted@example.org>
		  Signed-off-by: Indented <indented@example.org>

		diff --git a/mm/f1.c b/mm/f1.c
		--- a/mm/f1.c
		+++ b/mm/f1.c
		@@ -1,2 +1,2 @@
		 one
		-Signed-off-by: In A Diff <in-diff@example.org>
		+Tested-by: In A Diff <in-diff@example.org>
		EOM
	} >pasted.mbox &&
	respin thread pasted.mbox p1@example.org >out &&
	test_grep "^      + Reviewed-by: Real Reviewer <real@example.org>$" out &&
	test_grep "^      + Acked-by: Fixer <fixer@example.org>$" out &&
	test_grep ! "Other Dev" out &&
	test_grep ! "+ Signed-off-by" out &&
	test_grep ! "In A Diff" out &&
	test_grep ! "Indented" out
'

test_done
