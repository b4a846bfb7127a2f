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

# v4 of spinlock-oops with the Reviewed-by of 2/3 left out: the patch is
# the same as v3's 2/3 (one patch-id), so the tag was lost.
sed '/^Message-Id: <20190813031314.1828-3-cmr@informatik.wtf>/,/^From mboxrd/{/^Reviewed-by: Andrew Donnellan/d}' \
	"$MAIL"/spinlock-oops/v4.mbox >v4-lost.mbox
cat "$MAIL"/spinlock-oops/v3.mbox v4-lost.mbox >lost.mbox
LOST='lost Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com> (on v3 2/3, unchanged since)'

test_expect_success 'thread: a tag an unchanged patch lost is flagged under it' '
	respin thread lost.mbox 20190813031314.1828-1-cmr@informatik.wtf >out &&
	sed -n "/^  v4 /,\$p" out >v4 &&
	grep -A2 "^    2/3 powerpc/spinlocks: Rename SPLPAR-only spinlocks" v4 >p2 &&
	test_grep "^      ! $LOST$" p2 &&
	test "$(grep -c "! lost" out)" = 1
'

test_expect_success 'thread: nothing lost in the real spinlock-oops v1..v4' '
	respin thread spin.mbox 20190813031314.1828-1-cmr@informatik.wtf >out &&
	test_grep ! "! lost" out
'

test_expect_success 'thread --json: lost_trailers' '
	respin thread --json lost.mbox 20190813031314.1828-1-cmr@informatik.wtf >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$v = \$d->{series}[0]{versions}[1];
		exit 2 unless \$v->{version} == 4;
		my \$l = \$v->{patches}[1]{lost_trailers};
		exit 3 unless @\$l == 1;
		exit 4 unless \$l->[0]{key} eq q(Reviewed-by) &&
			\$l->[0]{value} =~ /^Andrew Donnellan <ajd.linux.ibm.com>\$/;
		exit 5 unless \$l->[0]{version} == 3 && \$l->[0]{index} == 2 &&
			\$l->[0]{where} eq q(patch);
		exit 6 unless @{\$v->{patches}[0]{lost_trailers}} == 0;
		exit 7 unless @{\$d->{series}[0]{versions}[0]{patches}[1]{lost_trailers}} == 0;
	" <out
'

test_expect_success 'thread: a tag given in a reply to v1 and missing from the same v2' '
	{
		patch_mail 1 g1@example.org &&
		reply_mail g1r@example.org g1@example.org <<-\EOM &&
		Looks good.

		Reviewed-by: Real Reviewer <real@example.org>
		EOM
		PM_SUBJECT="[PATCH v2] mm: change 1" patch_mail 1 g2@example.org
	} >given.mbox &&
	respin thread given.mbox g2@example.org >out &&
	test_grep "^      ! lost Reviewed-by: Real Reviewer <real@example.org> (given to v1 1/1 in a reply, unchanged since)$" out
'

test_expect_success 'diff: the lost tag beside the patch pair (two mailboxes)' '
	respin diff -s "$MAIL"/spinlock-oops/v3.mbox v4-lost.mbox >out &&
	grep -A1 "^2:  [0-9a-f]* [!=] 2:  [0-9a-f]* powerpc/spinlocks: Rename SPLPAR-only spinlocks$" out >pair &&
	test_grep "^    trailers: $LOST$" pair &&
	test "$(grep -c "trailers:" out)" = 1
'

git init -q repo && cd repo && git commit -q --allow-empty -m init

test_expect_success 'diff and cover of recorded versions: the lost tag' '
	respin import s ../lost.mbox --mail-only --all >/dev/null &&
	respin diff -s s v3 v4 >out &&
	grep -A1 "^2:  [0-9a-f]* [!=] 2:  [0-9a-f]* powerpc/spinlocks: Rename SPLPAR-only spinlocks$" out >pair &&
	test_grep "^    trailers: $LOST$" pair &&
	respin cover s@v4 >letter 2>err &&
	test_grep "^warning: v4 2/3 $LOST$" err &&
	test_grep ! "lost" letter &&
	respin cover s@v3 >letter 2>err &&
	test_grep ! "lost" err
'

test_expect_success 'diff --json and cover --json: lost_trailers' '
	respin diff --json s v3 v4 >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my @l = map { @{\$_->{lost_trailers}} } @{\$d->{pairs}};
		exit 2 unless @l == 1 && \$l[0]{key} eq q(Reviewed-by) &&
			\$l[0]{index} == 2 && \$l[0]{version} == 3;
	" <out &&
	respin cover --json s@v4 >out 2>err &&
	test_grep ! "lost" err &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$l = \$d->{lost_trailers};
		exit 2 unless @\$l == 1 && \$l->[0]{patch} == 2 &&
			\$l->[0]{text} =~ /^lost Reviewed-by: Andrew Donnellan/;
	" <out
'

test_expect_success 'cover --edit: the lost tag is a comment line of the template' '
	cat >"$TRASH/editor.sh" <<-EOE &&
	#!/bin/sh
	cp "\$1" "$TRASH/seed.txt"
	EOE
	chmod +x "$TRASH/editor.sh" &&
	GIT_EDITOR="$TRASH/editor.sh" respin cover s@v4 --edit >out &&
	test_grep "^# v4 2/3 $LOST$" "$TRASH/seed.txt"
'

test_expect_success 'cover: a tag given in a reply to v1 is recorded on import, and flagged for v2' '
	respin import g ../given.mbox --mail-only --all >out &&
	git show refs/respin/series/g:v1/given-trailers >given &&
	test_grep "^1 Reviewed-by: Real Reviewer <real@example.org>$" given &&
	respin cover g@v2 >letter 2>err &&
	test_grep "^warning: v2 1/1 lost Reviewed-by: Real Reviewer <real@example.org> (given to v1 1/1 in a reply, unchanged since)$" err
'

test_expect_success 'import again after new replies: their tags are recorded' '
	{
		cat ../given.mbox &&
		reply_mail g1r2@example.org g1@example.org <<-\EOM
		Tested on my box.

		Tested-by: A Tester <tester@example.org>
		EOM
	} >../given2.mbox &&
	respin import g ../given2.mbox --mail-only --all >out &&
	test_grep "^g v1: tags given in replies recorded (2)$" out &&
	git show refs/respin/series/g:v1/given-trailers >given &&
	test_grep "^1 Tested-by: A Tester <tester@example.org>$" given &&
	respin import g ../given2.mbox --mail-only --all >out &&
	test_grep ! "tags given" out
'

# Versions with commits: format (and send) warn the author of a lost tag.
cd "$TRASH" && make_fixture k && cd k || exit 1
git checkout -q -b work mm-unstable
echo one >ONE && git add ONE && git commit -qm "one: add" -m "One." \
	-m "Reviewed-by: Real Reviewer <real@example.org>
Signed-off-by: A U Thor <author@example.org>"
respin track k --base mm-unstable >/dev/null
mark_sent k
git commit -q --amend -m "one: add" -m "One." -m "Signed-off-by: A U Thor <author@example.org>"
respin track k >/dev/null

test_expect_success 'format: a tag the unchanged patch lost is a warning, never in the mail' '
	respin format k -o out >list 2>err &&
	test_grep "^warning: v2 1/1 lost Reviewed-by: Real Reviewer <real@example.org> (on v1 1/1, unchanged since)$" err &&
	test_grep ! "lost" out/*.patch &&
	respin format k@v1 -o out1 >list 2>err &&
	test_must_be_empty err
'

test_done
