#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The author's changelog in an imported cover letter, in the forms real
# letters write it (an underlined heading, "Notes for vN:", a
# "Changelog:" over "vA -> vB" sections): the letter respin writes
# carries it once, under its own "Changes in vN:", and not again in the
# body.
. "$(dirname "$0")/lib.sh"

YEAR=$RESPIN_TEST_CACHE/linuxppc-dev-2023.mbox

git init -q repo && cd repo || exit 1
git commit -q --allow-empty -m init

# cover_mail VERSION MSGID BODY: a cover letter "[PATCH vN 0/1] mm: things"
cover_mail() {
	_tag="PATCH v$1 0/1"
	[ "$1" = 1 ] && _tag="PATCH 0/1"
	printf '%s\n' "From mboxrd@z Thu Jan  1 00:00:00 1970" \
		"From: A U Thor <author@example.org>" \
		"Subject: [$_tag] mm: things" \
		"Date: Tue, 14 Nov 2023 22:1$1:00 +0000" \
		"Message-Id: <$2>" "" "$3" ""
}

# version_mbox VERSION BODY MESSAGE: the cover and its one patch
version_mbox() {
	_ptag="PATCH v$1 1/1"
	[ "$1" = 1 ] && _ptag="PATCH 1/1"
	cover_mail "$1" "v$1-0@example.org" "$2" &&
	PM_SUBJECT="[$_ptag] mm: change 1" patch_mail 1 "v$1-1@example.org" \
		"v$1-0@example.org" | sed "s/^Change 1\.\$/$3/"
}

test_expect_success 'import v1, v2 (an underlined heading) and v3 (Notes for v3)' '
	version_mbox 1 "The text." "Change 1." >v1.mbox &&
	version_mbox 2 "The text.

Changes since v1
----------------
- Reworded the commit message (Reviewer)" "Change 1, said better." >v2.mbox &&
	version_mbox 3 "The text.

Notes for v3:
- Rebased onto 6.7-rc1" "Change 1, said better." >v3.mbox &&
	for v in 1 2 3; do
		respin import s v$v.mbox --mail-only >out 2>&1 ||
			{ cat out; exit 1; }
	done
'

test_expect_success 'v2: the underlined changelog once, under Changes in v2' '
	respin cover s@v2 >v2 && cat v2 &&
	sed -n "/^Changes in v2:$/,/^---$/p" v2 >changes &&
	cat >want <<-\EOW &&
	Changes in v2:
	- Reworded the commit message (Reviewer)
	- 1/1 "mm: change 1": commit message changed
	- Link to v1: https://lore.kernel.org/all/v1-0@example.org/

	---
	EOW
	check_same want changes &&
	test $(grep -c "Reworded the commit message" v2) = 1 &&
	test_grep ! "^Changes since v1" v2 && test_grep ! "^-----" v2
'

test_expect_success 'v3: "Notes for v3:" is its changelog; v2 comes from v2' '
	respin cover s >v3 && cat v3 &&
	sed -n "/^Changes in v3:$/,/^---$/p" v3 >changes &&
	cat >want <<-\EOW &&
	Changes in v3:
	- Rebased onto 6.7-rc1
	- Link to v2: https://lore.kernel.org/all/v2-0@example.org/

	Changes in v2:
	- Reworded the commit message (Reviewer)
	- Link to v1: https://lore.kernel.org/all/v1-0@example.org/

	---
	EOW
	check_same want changes &&
	test_grep ! "^Notes for v3:" v3 &&
	test $(grep -c "Rebased onto 6.7-rc1" v3) = 1
'

test_expect_success 'a "Changelog:" over "vA -> vB" sections goes with them' '
	version_mbox 4 "The text.

Changelog:
==========

v3 -> v4
- Fixed a typo

v2 -> v3
- Rebased onto 6.7-rc1" "Change 1, said better." >v4.mbox &&
	respin import s v4.mbox --mail-only >out 2>&1 &&
	respin cover s >v4 && cat v4 &&
	sed -n "3,/^Changes in v4:$/p" v4 >body &&
	printf "%s\n" "The text." "" "Changes in v4:" >want &&
	check_same want body &&
	test $(grep -c "Fixed a typo" v4) = 1 &&
	test $(grep -c "Rebased onto 6.7-rc1" v4) = 1
'

test_expect_success 'a changelog under "---" (as b4 writes it) is imported with the text' '
	git init -q b4 && (
		cd b4 &&
		version_mbox 1 "The text." "Change 1." >v1.mbox &&
		version_mbox 2 "The text.

---
Changes in v2:
- Picked up tags" "Change 1." >v2.mbox &&
		respin import s v1.mbox --mail-only >out 2>&1 &&
		respin import s v2.mbox --mail-only >out 2>&1 &&
		respin cover s >v2 && cat v2 &&
		sed -n "/^Changes in v2:$/,/^---$/p" v2 >changes &&
		cat >want <<-\EOW &&
		Changes in v2:
		- Picked up tags
		- Link to v1: https://lore.kernel.org/all/v1-0@example.org/

		---
		EOW
		check_same want changes
	)
'

if ! test -r "$YEAR"; then
	test_skip "the linuxppc-dev 2023 archive is not in $RESPIN_TEST_CACHE"
	test_skip "the linuxppc-dev 2023 archive is not in $RESPIN_TEST_CACHE"
else
	test_expect_success 'real: "Changelog:" underlined over "v1 -> v2" (fadump v2)' '
		git init -q fad && (
			cd fad &&
			respin import fad "$YEAR" \
				20230925051214.678957-1-sourabhjain@linux.ibm.com \
				--mail-only >out 2>&1 &&
			respin cover fad >letter &&
			sed -n "/^Changes in v2:$/,/^---$/p" letter >changes &&
			cat >want <<-\EOW &&
			Changes in v2:
			- Fixed a few indentation issues reported by the checkpatch script.
			- Rebased it to 6.6.0-rc3

			---
			EOW
			check_same want changes &&
			test_grep ! "^Changelog:" letter &&
			test $(grep -c "Rebased it to 6.6.0-rc3" letter) = 1
		)
	'
	test_expect_success 'real: "Changes since v1 [1]" underlined (set_huge_pte_at v2)' '
		git init -q huge && (
			cd huge &&
			respin import huge "$YEAR" \
				20230922115804.2043771-1-ryan.roberts@arm.com \
				--mail-only >out 2>&1 || { cat out; exit 1; }
			respin cover huge >letter &&
			sed -n "/^Changes in v2:$/,/^---$/p" letter >changes &&
			cat >want <<-\EOW &&
			Changes in v2:
			- Pass extra size param instead of converting mm to vma.
			    - Passing vma was problematic for kernel mapping case without vma
			- Squash all interface changes to single patch
			- Simplify powerpc so that is doesn'"'"'t require __set_huge_page_at()
			- Added Reviewed-bys

			---
			EOW
			check_same want changes &&
			test_grep ! "^Changes since v1" letter &&
			test $(grep -c "Squash all interface changes" letter) = 1
		)
	'
fi

test_done
