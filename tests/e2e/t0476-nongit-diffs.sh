#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Diffs not made by git, read as `git apply` reads them: quilt's
# (Index: + ==== + linux.orig/), `diff -u -p`, `diff -urN` with
# timestamps and /dev/null, blank context lines whose leading space a
# mailer stripped, a format=flowed mail (the lines a mailer broke
# joined, its stuffed spaces taken off).  Real mail from linuxppc-dev (tests/data/mail/nongit)
# and diffs made here by quilt and diff; git apply runs beside respin,
# and the patch-id respin shows is git's (`git patch-id --stable`) for
# the commit git apply makes.
. "$(dirname "$0")/lib.sh"

NG=$TEST_DATA/mail/nongit

# msgid MBOX: the first Message-ID in MBOX.
msgid() {
	sed -n "s/^[Mm]essage-[Ii][DdD]: *<\(.*\)>.*/\1/p" "$1" | head -n 1
}

# preimage PATCH: the old side of every hunk of PATCH (context and
# removed lines, a blank line as a blank context line), one file.
preimage() {
	awk '
	/^@@ -/ { split($2, o, ","); old = (o[2] == "" ? 1 : o[2]);
		  split($3, n, ","); new = (n[2] == "" ? 1 : n[2]); next }
	old > 0 || new > 0 {
		c = substr($0, 1, 1);
		if (c == "+") { new--; next }
		if (c == "-") { old--; print substr($0, 2); next }
		old--; new--; print substr($0, 2); next
	}' "$1"
}

# peer_id MBOX: git's patch-id of the change, the way git makes it:
# the mail's patch (git mailinfo), its old side committed, git apply,
# commit, git show | git patch-id --stable.
peer_id() {
	rm -rf peer && git init -q peer &&
	git mailinfo peer/.msg peer/.patch <"$1" >/dev/null &&
	f=$(sed -n "s|^+++ [^/]*/\([^	 ]*\).*|\1|p" peer/.patch | head -n 1) &&
	mkdir -p "peer/$(dirname "$f")" &&
	preimage peer/.patch >"peer/$f" &&
	(cd peer && git add "$f" && git commit -q -m base &&
	 git apply --check .patch && git apply .patch && git commit -q -a -m change &&
	 git show | git patch-id --stable | cut -c1-12)
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable || exit 1

for m in quilt-eeh diffup-kexec blankctx-tlb flowed-atomisp
do
	test_expect_success "$m: read, and its patch-id is git's" '
		id=$(msgid "$NG/$m.mbox") &&
		respin thread "$NG/$m.mbox" "$id" >out 2>err &&
		cat out err &&
		! grep unreadable err &&
		want=$(peer_id "$NG/$m.mbox") &&
		test -n "$want" &&
		test_grep "  \[$want\]\$" out
	'
done

test_expect_success 'a diff git apply rejects (NBSP for spaces): named by message and line' '
	id=$(msgid "$NG/nbsp-pseries.mbox") &&
	git mailinfo .m .p <"$NG/nbsp-pseries.mbox" >/dev/null &&
	test_must_fail git apply --check .p &&
	respin thread "$NG/nbsp-pseries.mbox" "$id" >out 2>err &&
	cat err &&
	test_grep "unreadable: message <$id> .*line [0-9]* of the diff" err
'

# A tree, and the same tree changed: a file changed, one added, one
# removed, one in a new folder.
make_trees() {
	mkdir -p "$1/mm" "$1/lib" &&
	printf "%s\n" a b c d e f g h i j >"$1/mm/x.c" &&
	printf "%s\n" one two >"$1/lib/gone.c" &&
	printf "%s\n" keep >"$1/lib/k.c"
}
change_tree() {
	sed -i "s/^e\$/E/" "$1/mm/x.c" &&
	printf "%s\n" k l m >>"$1/mm/x.c" &&
	rm "$1/lib/gone.c" &&
	mkdir -p "$1/fs/new" && printf "%s\n" new file >"$1/fs/new/n.c"
}

# mail SUBJECT MSGID DIFF: a patch mail around a diff made by hand.
mail() {
	printf "%s\n" "From mboxrd@z Thu Jan  1 00:00:00 1970" \
		"From: A U Thor <author@example.org>" \
		"Subject: $1" \
		"Date: Tue, 14 Nov 2023 22:13:20 +0000" \
		"Message-Id: <$2>" "" "A change made with ${4:-diff}." "" \
		"Signed-off-by: A U Thor <author@example.org>" "---" &&
	cat "$3" && echo
}

test_expect_success 'a base tree for the made diffs' '
	make_trees . && git add -A && git commit -q -m tree &&
	git branch -f mm-unstable &&
	rm -rf ../old ../new && mkdir ../old ../new &&
	make_trees ../old && make_trees ../new && change_tree ../new
'

test_expect_success 'diff -urN with timestamps and /dev/null: read like git apply -p1' '
	(cd .. && diff -urN old new >urn.diff; test $? = 1) &&
	grep "^--- old/mm/x.c	" ../urn.diff &&
	mail "[PATCH] mm: a diff -urN change" urn@example.org ../urn.diff >urn.mbox &&
	respin thread urn.mbox urn@example.org >out 2>err &&
	cat out err &&
	! grep unreadable err &&
	git worktree add -q --detach ../peer-urn mm-unstable &&
	(cd ../peer-urn && git apply --check ../urn.diff && git apply --index ../urn.diff &&
	 git commit -q -m change && git show | git patch-id --stable | cut -c1-12) >want &&
	test_grep "  \[$(cat want)\]\$" out
'

test_expect_success 'a quilt patch with timestamps, a new and a removed file' '
	rm -rf ../q && mkdir ../q && make_trees ../q &&
	(cd ../q && export QUILT_PATCHES=patches &&
	 quilt --quiltrc /dev/null new change.diff >/dev/null &&
	 quilt --quiltrc /dev/null add mm/x.c lib/gone.c fs/new/n.c >/dev/null &&
	 change_tree . && quilt --quiltrc /dev/null refresh >/dev/null) &&
	cp ../q/patches/change.diff ../quilt.diff &&
	cat ../quilt.diff &&
	grep "^Index: q/mm/x.c\$" ../quilt.diff &&
	grep "^--- q.orig/mm/x.c	" ../quilt.diff &&
	mail "[PATCH] mm: a quilt change" quilt@example.org ../quilt.diff quilt >q.mbox &&
	respin thread q.mbox quilt@example.org >out 2>err &&
	cat out err &&
	! grep unreadable err &&
	git worktree add -q --detach ../peer-q mm-unstable &&
	(cd ../peer-q && git apply --check ../quilt.diff && git apply --index ../quilt.diff &&
	 git commit -q -m change && git show | git patch-id --stable | cut -c1-12) >want &&
	test_grep "  \[$(cat want)\]\$" out
'

test_expect_success 'the quilt series imports; the commit has git apply'"'"'s tree' '
	respin import q q.mbox --base mm-unstable >out 2>err &&
	cat out err &&
	test_grep "^q v1: 1 patch from mail applied" out &&
	tip=$(respin show q --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	test "$(git rev-parse $tip^{tree})" = "$(git -C ../peer-q rev-parse HEAD^{tree})" &&
	git show $tip:fs/new/n.c >n.c && printf "%s\n" new file >want.c &&
	check_same want.c n.c &&
	test_must_fail git cat-file -e $tip:lib/gone.c
'

test_done
