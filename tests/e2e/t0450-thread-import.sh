#!/bin/sh
# respin thread and respin import on real list mail.
. "$(dirname "$0")/lib.sh"

MAIL="$TEST_DATA/mail"
cat "$MAIL"/lru_gen-batch/v1.mbox "$MAIL"/lru_gen-batch/v2.mbox \
	"$MAIL"/lru_gen-batch/v3.mbox >lru.mbox
cat "$MAIL"/spinlock-oops/v*.mbox >spin.mbox

test_expect_success 'thread: one series, three versions, in order' '
	respin thread lru.mbox >out 2>err &&
	test_grep "^\"mm, lru_gen: batch update pages when aging\" by Kairui Song <ryncsn@gmail.com>, 3 versions$" out &&
	test_grep "^  v1  2023-12-22  3/3 patches + cover, 0 replies  <20231222102255.56993-1-ryncsn@gmail.com>$" out &&
	test_grep "^  v2  2024-01-11  3/3 patches + cover, 1 reply  <20240111183321.19984-1-ryncsn@gmail.com>$" out &&
	test_grep "^  v3  2024-01-23  3/3 patches + cover, 0 replies  <20240123184552.59758-1-ryncsn@gmail.com>$" out &&
	test_grep "^1 series in 13 messages$" out
'

test_expect_success 'thread: every data mbox reads without a note' '
	for f in "$MAIL"/*/v*.mbox; do
		respin thread "$f" >out 2>err || { cat err; return 1; }
		test ! -s err || { echo "$f:"; cat err; return 1; }
		test_grep "^1 series in " out || return 1
	done
'

test_expect_success 'thread MSGID: patches, replies and trailers per patch' '
	respin thread spin.mbox 20190806030112.15232-2-cmr@informatik.wtf >out &&
	test_grep "^\"Fix oops in shared-processor spinlocks\" .*, 4 versions$" out &&
	test_grep "^    1/3 powerpc/spinlocks: Refactor SHARED_PROCESSOR  \[[0-9a-f]\{12\}\]$" out &&
	test_grep "^      + Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com>$" out &&
	test_grep "^        Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com>$" out &&
	test_grep "^      reply 2019-08-02 Michael Ellerman <mpe@ellerman.id.au> <877e7vlruk.fsf@concordia.ellerman.id.au>$" out
'

test_expect_success 'thread --json' '
	respin thread --json spin.mbox 20190813031314.1828-1-cmr@informatik.wtf >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$s = \$d->{series}[0];
		exit 2 unless @{\$s->{versions}} == 4;
		my \$v1 = \$s->{versions}[0];
		exit 3 unless \$v1->{patches}[0]{reply_trailers}[0]{key} eq q(Reviewed-by);
		exit 4 unless \$v1->{patches}[1]{patch_id} =~ /^[0-9a-f]{40}\$/;
		exit 5 unless \$d->{messages} == 35;
	" <out
'

test_expect_success 'the same patch in v2, v3, v4 has one patch-id' '
	respin thread --json spin.mbox 20190813031314.1828-1-cmr@informatik.wtf >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my %ids;
		\$ids{\$_->{patches}[1]{patch_id}}++ for @{\$d->{series}[0]{versions}};
		exit(keys(%ids) == 1 ? 0 : 1);
	" <out
'

git init -q repo && cd repo && git commit -q --allow-empty -m init

test_expect_success 'import without a base says what to do and records nothing' '
	test_expect_code 128 respin import lru ../lru.mbox 2>err &&
	test_grep "no base-commit and no --base" err &&
	test_grep "hint: .*--mail-only" err &&
	test -z "$(git for-each-ref refs/respin)"
'

test_expect_success 'import --mail-only --all records v1..v3 with Message-IDs' '
	respin import lru ../lru.mbox --mail-only --all >out &&
	test_grep "^lru v1: 3 patches recorded from mail only" out &&
	test_grep "^lru v3: 3 patches recorded from mail only" out &&
	respin show lru@v1 >v1 && test_grep "mm, lru_gen: batch update counters on againg$" v1 &&
	respin show lru@v3 >v3 && test_grep "1/3 ------------ [0-9a-f]\{12\} mm, lru_gen: try to prefetch next page when scanning LRU$" v3 &&
	git show refs/respin/series/lru:v2/meta >meta &&
	test_grep "^message-id 20240111183321.19984-1-ryncsn@gmail.com$" meta &&
	test_grep "^ message-id 20240111183321.19984-2-ryncsn@gmail.com$" meta
'

test_expect_success 'importing the same again records nothing' '
	refs_snapshot before &&
	respin import lru ../lru.mbox 20240123184552.59758-1-ryncsn@gmail.com --mail-only >out &&
	test_grep "already has these 3 patches" out &&
	refs_snapshot after && check_same before after
'

test_expect_success 'a Message-ID that is not in the mailbox' '
	test_expect_code 128 respin import lru ../lru.mbox nosuch@example.org --mail-only 2>err &&
	test_grep "no message <nosuch@example.org>" err
'

test_expect_success 'a mailbox with several series needs a Message-ID' '
	cat ../lru.mbox ../spin.mbox >../both.mbox &&
	test_expect_code 129 respin import x ../both.mbox --mail-only 2>err &&
	test_grep "holds 2 series" err
'

cd "$TRASH"
git init -q src && cd src
mkdir mm && seq 1 30 | sed "s/^/line /" >mm/a.c && git add mm && git commit -qm base
git branch mm-unstable
tick; sed -i "s/^line 3$/line 3 patched/" mm/a.c
git commit -qam "mm: patch one" -m "Why it helps." -m "Signed-off-by: A U Thor <author@example.org>"
tick; echo new >mm/b.c && git add mm/b.c
GIT_AUTHOR_NAME="Other Person" GIT_AUTHOR_EMAIL=other@example.org \
	git commit -qm "mm: patch two" -m "Signed-off-by: Other Person <other@example.org>"
respin track s --base mm-unstable >/dev/null
respin format s --stdout >"$TRASH/s.mbox"
cd "$TRASH"
git clone -q src dst && cd dst && git branch -q mm-unstable origin/mm-unstable

test_expect_success 'import --base applies the mail as git am would' '
	respin import s ../s.mbox --base mm-unstable >out &&
	test_grep "^s v1: 2 patches from mail applied on mm-unstable" out &&
	tip=$(respin show s --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	test "$(git rev-parse $tip^{tree})" = "$(git -C ../src rev-parse HEAD^{tree})" &&
	test "$(git log -1 --format="%an <%ae>%n%B" $tip)" = "$(git -C ../src log -1 --format="%an <%ae>%n%B" HEAD)" &&
	test "$(git log -1 --format="%B" $tip~1)" = "$(git -C ../src log -1 --format="%B" HEAD~1)"
'

test_expect_success 'the imported patch-ids equal the original ones' '
	respin show s --json | grep "patch_id" >a &&
	git -C ../src respin show s --json | grep "patch_id" >b &&
	check_same a b
'

test_expect_success 'a mail-only version is applied later with --base' '
	respin import m ../s.mbox --mail-only >out &&
	test_grep "^m v1: 2 patches recorded from mail only" out &&
	respin import m --base mm-unstable >out &&
	test_grep "^m v1: 2 patches from mail applied on mm-unstable" out &&
	respin show m >show && test_grep "^base       mm-unstable at " show &&
	test_grep ! -e "------------" show
'

test_expect_success 'a patch that does not apply: which patch, which file, nothing recorded' '
	git checkout -q -b conflict mm-unstable &&
	sed -i "s/^line 3$/line 3 conflicting/" mm/a.c && git commit -qam conflict &&
	refs_snapshot "$TRASH/before" &&
	test_expect_code 128 respin import c ../s.mbox --base conflict 2>err &&
	test_grep "patch 1/2 <.*> (\"mm: patch one\") does not apply on [0-9a-f]*: mm/a.c" err &&
	refs_snapshot "$TRASH/after" &&
	check_same "$TRASH/before" "$TRASH/after"
'

test_expect_success 'import keeps the author date with its zone; format sends the same Date' '
	patch_mail 7 tz@example.org | sed "s/^Date: .*/Date: Thu, 1 Aug 2019 13:20:41 +1000 (AEST)/" >tz.mbox &&
	respin import tz tz.mbox --base mm-unstable >out &&
	tip=$(respin show tz --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	test "$(git log -1 --format="%ad" --date=raw $tip)" = "1564629641 +1000" &&
	respin format tz --stdout >tz-out.mbox &&
	test_grep "^Date: Thu, 1 Aug 2019 13:20:41 +1000$" tz-out.mbox
'

test_expect_success 'a mail-only version keeps the zone too, and so does applying it later' '
	patch_mail 8 tz8@example.org | sed "s/^Date: .*/Date: Mon, 2 Jan 2023 10:00:00 -0530/" >tz8.mbox &&
	respin import tz8 tz8.mbox --mail-only >out &&
	git show refs/respin/series/tz8:v1/mail-0001 >stored &&
	test_grep "^Date: Mon, 2 Jan 2023 10:00:00 -0530$" stored &&
	respin import tz8 --base mm-unstable >out &&
	tip=$(respin show tz8 --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	test "$(git log -1 --format="%ad" --date=raw $tip)" = "1672673400 -0530"
'

test_expect_success 'a message delivered twice counts once, its first copy' '
	cat "$MAIL"/spinlock-oops/v2.mbox "$MAIL"/spinlock-oops/v2.mbox >twice.mbox &&
	respin thread twice.mbox >out 2>err &&
	cat out err &&
	test_grep "^  v2  2019-08-02  3/3 patches + cover, 5 replies  <20190802042233.20835-1-cmr@informatik.wtf>$" out &&
	test_grep "^1 series in 18 messages$" out &&
	test ! -s err
'

test_done
