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
	test_grep "^Subject: \[PATCH v3\] mm: single$" single/0001-mm-single.patch &&
	respin format one --cover-letter -o single2 >list && test $(wc -l <list) = 2 &&
	test_grep "^Subject: \[PATCH v3 1/1\] mm: single$" single2/0001-mm-single.patch
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

test_expect_code 128 'an unknown series' 'respin format nosuch -o x'

test_done
