#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A partial reroll: "[PATCH v2 2/3]" alone, in reply to v1's 2/3, means
# v2 = v1's 1/3 and 3/3 + this 2/3 (as b4 reads it).  respin makes the
# whole v2 with a note saying which patches came from v1, shows them as
# such, and imports it; b4 am runs beside it on the same mail.
. "$(dirname "$0")/lib.sh"

# mk SUBJECT-TAG N MSGID PARENT ROOT: one patch mail of the thread.
mk() {
	PM_SUBJECT="[PATCH $1] mm: change $2" patch_mail "$2" "$3" "$4" |
	sed "s/^References: <$4>\$/References: <$5> <$4>/"
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable || exit 1

{
	mk "1/3" 1 p1@example.org "" "" &&
	mk "2/3" 2 p2@example.org p1@example.org p1@example.org &&
	mk "3/3" 3 p3@example.org p1@example.org p1@example.org &&
	mk "v2 2/3" 2 q2@example.org p2@example.org p1@example.org
} >partial.mbox || exit 1

test_expect_success 'v2 is whole: 1/3 and 3/3 taken from v1, a note says so' '
	respin thread partial.mbox q2@example.org >out 2>err &&
	cat out err &&
	test_grep "^  v2  .* 3/3 patches" out &&
	test_grep "^    1/3 mm: change 1 .*(from v1 <p1@example.org>)" out &&
	test_grep "^    2/3 mm: change 2  \[" out &&
	test_grep "^    3/3 mm: change 3 .*(from v1 <p3@example.org>)" out &&
	test_grep "note: v2 of \".*\" resends 2/3 only, in reply to v1; 1/3, 3/3 taken from v1" err &&
	! grep "missing patch" err
'

test_expect_success 'v2 imports whole: three commits, 2/3 from v2' '
	respin import pr partial.mbox q2@example.org --base mm-unstable >out 2>err &&
	cat out err &&
	test_grep "^pr v2: 3 patches" out &&
	git show refs/respin/series/pr:v2/meta >meta &&
	test_grep "^ message-id p1@example.org\$" meta &&
	test_grep "^ message-id q2@example.org\$" meta &&
	test_grep "^ message-id p3@example.org\$" meta
'

if command -v b4 >/dev/null; then
test_expect_success 'b4 am makes the same v2 of the same messages' '
	mkdir b4out && (cd b4out && b4 -n am -m ../partial.mbox -o . q2@example.org >../b4.log 2>&1) &&
	cat b4.log &&
	test_grep "Partial reroll detected" b4.log &&
	grep -i "^Message-Id: " b4out/*.mbx | sed "s/.*<\(.*\)>.*/\1/" >b4.txt &&
	printf "%s\n" p1@example.org q2@example.org p3@example.org >want.txt &&
	check_same want.txt b4.txt &&
	respin show pr --json >j &&
	perl -MJSON::PP -e "local \$/; print map { \"\$_->{message_id}\\n\" } @{decode_json(<STDIN>)->{patches}}" <j >respin.txt &&
	check_same want.txt respin.txt
'
fi

test_done
