#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# File sections of a git diff with no hunk: an empty file added or
# removed ("new file mode" and "index" and nothing after them), an
# empty executable added, a mode changed.  libgit2 cannot read such a
# section when more follows it; respin reads them as `git apply` does
# (which runs beside it), shows `git patch-id --stable`'s id for them,
# and imports the tree git apply makes.  The first case is a real mail
# (tests/data/mail/nongit/emptyfile-kmsan.mbox), the others are made
# here by git format-patch.
. "$(dirname "$0")/lib.sh"

# msgid MBOX: the first Message-ID in MBOX.
msgid() {
	sed -n "s/^[Mm]essage-[Ii][DdD]: *<\(.*\)>.*/\1/p" "$1" | head -n 1
}

test_expect_success 'a real mail adding an empty file between two others' '
	git init -q real && (cd real && git commit -q --allow-empty -m init &&
	 git branch mm-unstable) &&
	m=$TEST_DATA/mail/nongit/emptyfile-kmsan.mbox &&
	git mailinfo .m .p <"$m" >/dev/null &&
	git apply --numstat .p >numstat &&
	test_grep "^0	0	tools/testing/selftests/powerpc/copyloops/asm/kmsan.h\$" numstat &&
	(cd real && respin thread "$m" "$(msgid "$m")") >out 2>err &&
	cat out err &&
	! grep unreadable err &&
	want=$(git patch-id --stable <"$m" | cut -c1-12) &&
	test -n "$want" &&
	test_grep "  \[$want\]\$" out
'

test_expect_success 'a base and four commits, each a hunkless shape' '
	git init -q -b main repo && cd repo &&
	printf "%s\n" a b c >x.c && : >gone.h && printf "%s\n" run >run.sh &&
	git add . && git commit -q -m base && git branch mm-unstable &&
	: >empty.h && printf "%s\n" d >>x.c && git add . &&
	git commit -q -m "x: add an empty header" &&
	git rm -q gone.h && printf "%s\n" e >>x.c && git add x.c &&
	git commit -q -m "x: remove an empty header" &&
	: >tool.sh && chmod +x tool.sh && git add tool.sh &&
	git commit -q -m "x: an empty script" &&
	chmod +x run.sh && printf "%s\n" f >>x.c && git add . &&
	git commit -q -m "x: run.sh executable" &&
	git format-patch -q -4 -o ../fp --thread --cover-letter &&
	ls ../fp >list && test $(wc -l <list) -eq 5
'

for n in 1 2 3 4
do
	test_expect_success "patch $n: git apply takes it, respin reads it, ids agree" '
		cd repo &&
		p=$(ls ../fp/000$n-*.patch) &&
		git worktree add -q --detach ../peer$n HEAD~$((5 - n)) &&
		(cd ../peer$n && git apply --check "$p") &&
		want=$(git patch-id --stable <"$p" | cut -c1-12) &&
		test "$want" = "$(git show HEAD~$((4 - n)) | git patch-id --stable | cut -c1-12)" &&
		cat ../fp/0000-cover-letter.patch ../fp/000[1-4]-*.patch >../all.mbox &&
		id=$(msgid ../fp/0000-cover-letter.patch) &&
		respin thread ../all.mbox "$id" >out 2>err &&
		cat out err &&
		! grep unreadable err &&
		test_grep "^ *$n/4 .*  \[$want\]\$" out
	'
done

test_expect_success 'the series imports with the trees git apply makes' '
	cd repo &&
	respin import hunkless ../all.mbox --base mm-unstable >out 2>err &&
	cat out err &&
	test_grep "4 patches from mail applied" out &&
	tip=$(respin show hunkless --json | sed -n "s/^  \"tip\": \"\(.*\)\",/\1/p") &&
	test "$(git rev-parse $tip^{tree})" = "$(git rev-parse main^{tree})" &&
	test "$(git rev-parse $tip~3^{tree})" = "$(git rev-parse main~3^{tree})" &&
	test "$(git rev-parse $tip~2^{tree})" = "$(git rev-parse main~2^{tree})"
'

test_done
