#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A patch split into several in the next version, and several squashed
# into one: the cover letter says so ("Split ... into 2/5, 3/5, 4/5",
# "squashed from 2/5, 3/5"), found from the diffs, not from the titles,
# instead of "reworded" plus "New patch" and "Dropped".
. "$(dirname "$0")/lib.sh"

make_fixture repo && cd repo || exit 1

# helper NAME: appends a helper function NAME() to mm/vmscan.c
helper() {
	printf '\nint %s(struct scan_control *sc)\n{\n\tint nr = sc->nr_%s;\n\n\tsc->nr_%s_seen += nr;\n\treturn nr ? %s_batch(sc, nr) : 0;\n}\n' \
		"$1" "$1" "$1" "$1" >>mm/vmscan.c
}

# commit SUBJECT: commits everything with a kernel-style message
commit() {
	tick &&
	git commit -qam "$1" -m "Why: $1." \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

first() {
	sed -i 's/^\tif (!free_blocks_total)$/\tif (!free_blocks_total || !requested)/' mm/compaction.c &&
	commit "mm/compaction: guard fragmentation_index() against a zero request"
}

last() {
	printf '\n/* the end */\n' >>mm/page_alloc.c && git add mm/page_alloc.c &&
	commit "mm/page_alloc: a note at the end"
}

test_expect_success 'v1: three helpers in one patch' '
	git checkout -q -b v1 mm-unstable &&
	first &&
	helper scan_one && helper scan_two && helper scan_three &&
	commit "mm/vmscan: add the scan helpers" &&
	last &&
	respin track s --base mm-unstable >/dev/null
'

test_expect_success 'v2: the helpers patch split in three, with new titles' '
	git checkout -q -b v2 mm-unstable &&
	first &&
	helper scan_one && commit "mm/vmscan: add scan_one()" &&
	helper scan_two && commit "mm/vmscan: add scan_two()" &&
	helper scan_three && commit "mm/vmscan: add scan_three()" &&
	last &&
	mark_sent s && respin track s >/dev/null &&
	respin cover s >v2 && cat v2 &&
	sed -n "/^Changes in v2:$/,/^---$/p" v2 | grep -v "^- Link to v" >changes &&
	cat >want <<-\EOF &&
	Changes in v2:
	- Split "mm/vmscan: add the scan helpers" (was 2/3) into 2/5, 3/5, 4/5

	---
	EOF
	check_same want changes
'

test_expect_success 'v3: two of them squashed back into one' '
	git checkout -q -b v3 mm-unstable &&
	first &&
	helper scan_one && helper scan_two &&
	commit "mm/vmscan: add scan_one() and scan_two()" &&
	helper scan_three && commit "mm/vmscan: add scan_three()" &&
	last &&
	mark_sent s && respin track s >/dev/null &&
	respin cover s >v3 && cat v3 &&
	sed -n "/^Changes in v3:$/,/^$/p" v3 | grep -v "^- Link to v" >changes &&
	cat >want <<-\EOF &&
	Changes in v3:
	- 2/4 "mm/vmscan: add scan_one() and scan_two()": squashed from 2/5, 3/5

	EOF
	check_same want changes
'

test_expect_success 'respin diff says the same under its pairing lines' '
	respin diff -s s v1 v2 >out && cat out &&
	sed "s/[0-9a-f]\{7,\}/X/g" out >got &&
	cat >want <<-\EOF &&
	1:  X = 1:  X mm/compaction: guard fragmentation_index() against a zero request
	2:  X ! 2:  X mm/vmscan: add the scan helpers
	    split into 2/5, 3/5, 4/5
	-:  ------- > 3:  X mm/vmscan: add scan_two()
	    split from 2/3
	-:  ------- > 4:  X mm/vmscan: add scan_three()
	    split from 2/3
	3:  X = 5:  X mm/page_alloc: a note at the end
	EOF
	check_same want got &&
	respin diff -s s v2 v3 >out &&
	test_grep -A1 "^2:  [0-9a-f]* ! 2:  [0-9a-f]* mm/vmscan: add scan_one()$" out &&
	test_grep "^    squashed from 2/5, 3/5$" out &&
	test_grep -A1 "^3:  [0-9a-f]* < -:  -------* mm/vmscan: add scan_two()$" out &&
	test_grep "^    squashed into 2/4$" out &&
	respin diff s v1 v2 >full &&
	sed -n "/^2:  /,/^-:  /p" full >block &&
	test "$(sed -n 2p block)" = "    split into 2/5, 3/5, 4/5" &&
	test_grep "^    @@ Metadata" block
'

test_expect_success 'respin diff --no-splits leaves them out; --json lists them' '
	respin diff -s --no-splits s v1 v2 >out &&
	test_grep ! "split" out && test $(wc -l <out) = 5 &&
	respin diff --json s v1 v2 >j && respin diff --json s v2 v3 >j3 &&
	python3 -c "import json; \
d = json.load(open(\"j\")); \
assert d[\"splits\"] == [{\"kind\": \"split\", \"old\": [2], \"new\": [2, 3, 4]}], d; \
d = json.load(open(\"j3\")); \
assert d[\"splits\"] == [{\"kind\": \"squash\", \"new\": [2], \"old\": [2, 3]}], d" &&
	respin diff --json --no-splits s v1 v2 >j &&
	python3 -c "import json; assert json.load(open(\"j\"))[\"splits\"] == []"
'

test_expect_success 'the same titles on other code: rewritten, not split' '
	git checkout -q -b v4 mm-unstable &&
	first &&
	helper reclaim_one && commit "mm/vmscan: add scan_one() and scan_two()" &&
	helper reclaim_two && commit "mm/vmscan: add scan_three()" &&
	last &&
	mark_sent s && respin track s >/dev/null &&
	respin cover s >v4 && cat v4 &&
	sed -n "/^Changes in v4:$/,/^$/p" v4 | grep -v "^- Link to v" >changes &&
	test_grep ! "Split\|squashed" changes &&
	respin diff -s s v3 v4 >out && test_grep ! "split\|squashed" out &&
	test_grep "2/4 \"mm/vmscan: add scan_one() and scan_two()\": code changed" changes
'

YEAR=$RESPIN_TEST_CACHE/linuxppc-dev-2023.mbox
if test -r "$YEAR"; then
	test_expect_success 'real: "Make documentation an individual patch" is a split (KVM nested PAPR v1 -> v2)' '
		git init -q kvm && (
			cd kvm &&
			respin import kvm "$YEAR" 20230605064848.12319-1-jpn@linux.vnet.ibm.com \
				--mail-only --all >out 2>&1 &&
			respin cover kvm >letter &&
			sed -n "/^Changes in v2:$/,/^$/p" letter >changes && cat changes &&
			test_grep "^  - Make documentation an individual patch$" changes &&
			test_grep "^- Split \"KVM: PPC: Add support for nested PAPR guests\" (was 5/5) into$" changes &&
			test_grep "^  5/6, 6/6$" changes &&
			test_grep ! "New patch 6/6" changes
		)
	'
else
	test_skip "the linuxppc-dev 2023 archive is not in $RESPIN_TEST_CACHE"
fi

test_done
