#!/bin/sh
# respin format: mail that git am and b4 accept.
. "$(dirname "$0")/lib.sh"

git init -q repo && cd repo || exit 1
mkdir mm
printf 'int a(void)\n{\n\treturn 0;\n}\n' >mm/a.c
git add mm && git commit -qm base && git branch mm-unstable
tick; echo "/* one */" >>mm/a.c
git commit -qam "mm: first change" -m "The body of the first change." \
	-m "Signed-off-by: A U Thor <author@example.org>
Reviewed-by: Rev Iewer <rev@example.org>"
tick; echo "/* two */" >mm/b.c; git add mm/b.c
GIT_AUTHOR_NAME="Jörg Müller" git commit -qm "mm: add b.c with a naïve comment" \
	-m "Signed-off-by: Jörg Müller <joerg@example.org>
Acked-by: Some One <one@example.org>"
tick; echo "/* three */" >>mm/b.c
git commit -qam "../../etc/passwd: a/b \"quoted\" subject that goes on and on for a very long way" \
	-m "From the start of a line, a From should not split the mbox.
From here too.

Signed-off-by: A U Thor <author@example.org>"
respin track s --base mm-unstable >/dev/null

test_expect_success 'format writes a cover letter and one file a patch' '
	respin format s -o out >list &&
	test $(wc -l <list) = 4 &&
	test_grep "^out/0000-cover-letter.patch$" list &&
	test_grep "^out/0001-mm-first-change.patch$" list &&
	ls out >files && test $(wc -l <files) = 4
'

test_expect_success 'file names from subjects are safe and bounded' '
	f=$(sed -n 4p list) && echo "$f" &&
	case "$f" in out/0003-*) ;; *) exit 1;; esac &&
	! echo "${f#out/}" | grep -q "/" && ! echo "$f" | grep -q "\.\." &&
	test ${#f} -le 70 &&
	test -z "$(find "$TRASH" -name passwd)"
'

test_expect_success 'subjects, threading and the cover letter' '
	test_grep "^Subject: \[PATCH 0/3\] " out/0000-cover-letter.patch &&
	test_grep "^Subject: \[PATCH 1/3\] mm: first change$" out/0001-*.patch &&
	cover=$(sed -n "s/^Message-Id: <\(.*\)>$/\1/p" out/0000-cover-letter.patch) &&
	test -n "$cover" &&
	for f in out/0001-* out/0002-* out/0003-*; do
		test_grep "^In-Reply-To: <$cover>$" $f || return 1
	done &&
	test_grep "^base-commit: $(git rev-parse mm-unstable)$" out/0000-cover-letter.patch &&
	test_grep "^change-id: [0-9]\{8\}-s-[0-9a-f]\{12\}$" out/0000-cover-letter.patch &&
	test_grep "^ 2 files changed, 3 insertions(+)$" out/0000-cover-letter.patch
'

test_expect_success 'non-ASCII names and subjects are RFC 2047 words' '
	test_grep "^From: =?[Uu][Tt][Ff]-8?" out/0002-*.patch &&
	test_grep "^Subject: \[PATCH 2/3\] mm: add b.c with a =?[Uu][Tt][Ff]-8?[bBqQ]?" out/0002-*.patch
'

test_expect_success 'the same version formats to the same Message-IDs' '
	respin format s -o again >/dev/null &&
	grep -h "^Message-Id" out/* >a && grep -h "^Message-Id" again/* >b &&
	check_same a b
'

test_expect_success 'git am of the output rebuilds the same trees' '
	git worktree add -q --detach ../am mm-unstable &&
	(cd ../am && git am -q ../repo/out/000[1-9]-*.patch) &&
	test "$(git -C ../am rev-parse HEAD^{tree})" = "$(git rev-parse HEAD^{tree})" &&
	test "$(git -C ../am log --format=%B -1 HEAD)" = "$(git log --format=%B -1 HEAD)" &&
	respin format s --no-cover --stdout >rd.mbox &&
	git -C ../am reset -q --hard mm-unstable &&
	(cd ../am && git am -q --patch-format=mboxrd ../repo/rd.mbox) &&
	test "$(git -C ../am rev-parse HEAD^{tree})" = "$(git rev-parse HEAD^{tree})" &&
	test "$(git -C ../am log --format=%B -1 HEAD~2)" = "$(git log --format=%B -1 HEAD~2)" &&
	test "$(git -C ../am log --format=%B -1 HEAD)" = "$(git log --format=%B -1 HEAD)" &&
	test "$(git -C ../am log --format="%an" -1 HEAD~1)" = "Jörg Müller"
'

test_expect_success 'b4 am takes the output: same patches, same trailers' '
	cover=$(sed -n "s/^Message-Id: <\(.*\)>$/\1/p" out/0000-cover-letter.patch) &&
	respin format s --stdout >all.mbox &&
	mkdir b4out &&
	(cd b4out && b4 -n am -m ../all.mbox -o . "$cover" >../b4.log 2>&1) &&
	test_grep "Total patches: 3" b4.log &&
	mbx=$(ls b4out/*.mbx) &&
	grep -c "^Subject: \[PATCH [1-3]/3\]" "$mbx" >n && test "$(cat n)" = 3 &&
	test_grep "^Reviewed-by: Rev Iewer <rev@example.org>$" "$mbx" &&
	test_grep "^Acked-by: Some One <one@example.org>$" "$mbx"
'

test_expect_success '--stdout prints one mbox; --rfc and --subject-prefix' '
	respin format s --stdout --rfc --subject-prefix "PATCH mm-unstable" >mb &&
	test $(grep -c "^From [0-9a-f]\{40\} Mon Sep 17" mb) = 4 &&
	test_grep "^Subject: \[RFC PATCH mm-unstable 1/3\] mm: first change" mb &&
	test_grep "^>From the start of a line" mb &&
	test_grep "^From the start of a line" out/0003-*.patch
'

test_expect_success 'a later version is vN, one patch needs no cover' '
	git checkout -q -b single mm-unstable && echo x >>mm/a.c &&
	git commit -qam "mm: single" && respin track one --base mm-unstable --version 3 >/dev/null &&
	respin format one -o single >list && test $(wc -l <list) = 1 &&
	test_grep "^single/v3-0001-mm-single.patch$" list &&
	test_grep "^Subject: \[PATCH v3\] mm: single$" single/v3-0001-mm-single.patch &&
	# no cover letter: the patch names its base after the diff, as git'"'"'s
	sed -n "/^base-commit:/,/^-- $/p" single/v3-0001-mm-single.patch >base &&
	printf "base-commit: %s\n-- \n" $(git rev-parse mm-unstable) >want &&
	check_same want base &&
	respin format one --cover-letter -o single2 >list && test $(wc -l <list) = 2 &&
	test_grep "^single2/v3-0000-cover-letter.patch$" list &&
	test_grep "^Subject: \[PATCH v3 1/1\] mm: single$" single2/v3-0001-mm-single.patch &&
	test $(grep -c "^base-commit: " single2/v3-0001-mm-single.patch) = 0
'

test_expect_success 'an output path that is a file' '
	: >afile && test_expect_code 128 respin format s -o afile 2>err &&
	test_grep "afile is not a directory" err
'

test_expect_success '-o makes the directories it lacks, as git format-patch does' '
	respin format s -o deep/er/out >list &&
	test_grep "^deep/er/out/0001-mm-first-change.patch$" list &&
	ls deep/er/out >files && test $(wc -l <files) = 4 &&
	respin format s -o deep/er/out/ >list &&
	test_grep "^deep/er/out/0001-mm-first-change.patch$" list
'

test_expect_success 'a parent of -o that is a file: named, nothing written' '
	test_expect_code 128 respin format s -o afile/sub/out 2>err &&
	test_grep "^fatal: cannot make the directory afile/sub: Not a directory$" err &&
	test_path_is_file afile && test ! -s afile
'

# ---- versions from mail: sent as they were --------------------------

# preimage_of MBOX: in the current directory, the files a patch mail's
# diff changes as they were before it, as far as the hunks show them
# (the old lines at their line numbers, filler between): a base the
# real patch applies to without its real tree.
preimage_of() {
	awk '
	/^diff --git / { file = substr($4, 3); line = 0; next }
	/^@@ / {
		split($2, a, ","); start = substr(a[1], 2)
		while (line < start - 1) { print "filler " ++line > file }
		inhunk = 1; next
	}
	/^(base-commit|-- $)/ { inhunk = 0 }
	inhunk && /^[ -]/ { print substr($0, 2) > file; line++; next }
	inhunk && /^$/ { print "" > file; line++; next }
	' "$1"
}

FTRACE="$TEST_DATA/mail/ftrace-stackframe/v1.mbox"
FTRACE_BASE=bd517a8442b6c6646a136421cd4c1b95bf4ce32b

test_expect_success 'import keeps how a real patch was sent: prefix, base, prerequisites' '
	git init -q ../ft && cd ../ft &&
	mkdir -p arch/powerpc/kernel/trace &&
	preimage_of "$FTRACE" &&
	git add -A && git commit -qm "the old lines of ftrace.c and ftrace_entry.S" &&
	git branch fake-base &&
	respin import ft "$FTRACE" --base fake-base >rep &&
	test_grep "^ft v1: 1 patch from mail applied on fake-base" rep &&
	respin show ft >show && cat show &&
	test_grep "^prefix     RFC PATCH$" show &&
	test_grep "^sent on    $FTRACE_BASE and 15 prerequisite patches$" show &&
	respin show ft --json >j &&
	test_grep "^  \"subject_prefix\": \"RFC PATCH\",$" j &&
	test_grep "^  \"sent_base\": \"$FTRACE_BASE\",$" j &&
	test_grep "^    \"423e0ef649173547fa1d16b5763883e5946469f2\"$" j
'

test_expect_success 'format writes it as sent: subject, Date, base-commit, prerequisite-patch-ids' '
	cd ../ft &&
	respin format ft -o sent >list && cat list &&
	test_grep "^sent/0001-powerpc-ftrace-Create-a-dummy-stackframe-to-fix-stac.patch$" list &&
	f=$(cat list) &&
	test_grep "^Subject: \[RFC PATCH\] powerpc/ftrace: Create a dummy stackframe to fix stack" "$f" &&
	test_grep "^Date: Thu, 15 Jun 2023 19:21:13 +0530$" "$f" &&
	test_grep "^From: Naveen N Rao <naveen@kernel.org>$" "$f" &&
	sed -n "/^base-commit:/,/^-- $/p" "$FTRACE" >want &&
	sed -n "/^base-commit:/,/^-- $/p" "$f" >got &&
	check_same want got &&
	test $(grep -c "^prerequisite-patch-id: " got) = 15 &&
	git patch-id --stable <"$FTRACE" | cut -d" " -f1 >id.sent &&
	git patch-id --stable <"$f" | cut -d" " -f1 >id.formatted &&
	check_same id.sent id.formatted
'

test_expect_success 'the same as a mail-only version: cover and show name the sent base' '
	cd ../ft &&
	respin import fm "$FTRACE" --mail-only >rep &&
	respin show fm >show &&
	test_grep "^sent on    $FTRACE_BASE and 15 prerequisite patches$" show &&
	respin cover fm >c &&
	test "$(head -n 1 c)" = "Subject: [RFC PATCH 0/1] *** SUBJECT HERE ***" &&
	sed -n "/^base-commit:/,/^change-id:/p" c >got &&
	sed -n "/^base-commit:/,/^-- $/p" "$FTRACE" | sed "\$d" >want &&
	echo "change-id: $(respin show fm --json | sed -n "s/^  \"change_id\": \"\(.*\)\",/\1/p")" >>want &&
	check_same want got &&
	respin import fm --base fake-base >rep &&
	respin show fm >show &&
	test_grep "^prefix     RFC PATCH$" show &&
	test_grep "^sent on    $FTRACE_BASE and 15 prerequisite patches$" show &&
	respin format fm --stdout >fm.mbox &&
	test_grep "^base-commit: $FTRACE_BASE$" fm.mbox
'

# A crafted v2 sent for mm-unstable with a cover letter; its
# base-commit is a commit of this repository.
sent_v2() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: [PATCH mm-unstable v2 0/2] mm: two changes
Date: Wed, 15 Nov 2023 09:00:00 +1000
Message-Id: <v2-0@example.org>

Two changes.

---
base-commit: $1

EOM
	for i in 1 2; do
		PM_SUBJECT="[PATCH mm-unstable v2 $i/2] mm: change $i" \
			patch_mail $i v2-$i@example.org v2-0@example.org |
			sed "s/^Date: .*/Date: Wed, 15 Nov 2023 09:00:0$i +1000/"
	done
}

test_expect_success 'a version sent as [PATCH mm-unstable v2 i/2]: v2- file names, the same tags' '
	cd "$TRASH/repo" &&
	sent_v2 $(git rev-parse mm-unstable) >v2.mbox &&
	respin import mmv v2.mbox >rep && cat rep &&
	test_grep "^mmv v2: 2 patches from mail applied on base-commit" rep &&
	respin format mmv -o mmv >list && cat list &&
	cat >want <<-\EOW &&
	mmv/v2-0000-cover-letter.patch
	mmv/v2-0001-mm-change-1.patch
	mmv/v2-0002-mm-change-2.patch
	EOW
	check_same want list &&
	tip=$(respin show mmv --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	git format-patch -q -v 2 --cover-letter -o gitfp mm-unstable..$tip &&
	ls mmv >ours && ls gitfp >theirs && check_same theirs ours &&
	grep -h "^Subject: " mmv/* >got &&
	cat >want <<-\EOW &&
	Subject: [PATCH mm-unstable v2 0/2] mm: two changes
	Subject: [PATCH mm-unstable v2 1/2] mm: change 1
	Subject: [PATCH mm-unstable v2 2/2] mm: change 2
	EOW
	check_same want got &&
	test_grep "^base-commit: $(git rev-parse mm-unstable)$" mmv/v2-0000-cover-letter.patch &&
	test_grep "^Date: Wed, 15 Nov 2023 09:00:02 +1000$" mmv/v2-0002-mm-change-2.patch &&
	respin cover mmv >c && test "$(head -n 1 c)" = "Subject: [PATCH mm-unstable v2 0/2] mm: two changes" &&
	respin format mmv --subject-prefix "PATCH net-next" --stdout >o &&
	test_grep "^Subject: \[PATCH net-next v2 1/2\] mm: change 1$" o &&
	respin format mmv --rfc --stdout >o &&
	test_grep "^Subject: \[RFC PATCH mm-unstable v2 1/2\] mm: change 1$" o
'

test_expect_success 'a sent base that is not here: the mail still names it' '
	cd "$TRASH/repo" &&
	sent_v2 0123456789abcdef0123456789abcdef01234567 >gone.mbox &&
	respin import gone gone.mbox --base mm-unstable >rep &&
	respin format gone --stdout >o &&
	test_grep "^base-commit: 0123456789abcdef0123456789abcdef01234567$" o &&
	test_grep ! "^base-commit: $(git rev-parse mm-unstable)$" o
'

test_expect_success 'applied on another commit while the sent one is here: its own base' '
	cd "$TRASH/repo" &&
	git checkout -q -b newer mm-unstable && echo x >other.c && git add other.c &&
	git commit -qm newer &&
	respin import moved v2.mbox --base newer >rep &&
	respin format moved --stdout >o &&
	test_grep "^base-commit: $(git rev-parse newer)$" o &&
	respin show moved >show &&
	test_grep "^sent on    $(git rev-parse mm-unstable)$" show &&
	git checkout -q -
'

test_expect_success 'a Subject over 998 characters is folded; git am reads it back whole' '
	git checkout -q -b long mm-unstable &&
	long=$(awk "BEGIN { for (i = 0; i < 600; i++) printf \"w%d \", i; print \"end\" }") &&
	echo "/* long */" >>mm/a.c && git commit -qam "mm: $long" &&
	respin track long --base mm-unstable >/dev/null &&
	respin format long --stdout >mail &&
	awk "length > 998 { bad = 1 } END { exit bad }" mail &&
	sed -n "/^Subject:/,/^[A-Z]/p" mail >subject &&
	test $(wc -l <subject) -gt 10 &&
	awk "NR > 1 && length > 78 { bad = 1 } END { exit bad }" subject &&
	git checkout -q -b long-am mm-unstable &&
	git am -q mail &&
	test "$(git log -1 --format=%s)" = "mm: $long" &&
	git checkout -q mm-unstable
'

test_expect_code 128 'an unknown series' 'respin format nosuch -o x'

test_done
