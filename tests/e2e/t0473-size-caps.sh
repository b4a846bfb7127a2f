#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin.maxMailSize: a mail file, standard input and a maildir message
# larger than the cap are refused with a message naming them, the cap
# and the setting, before more than the cap is in memory.
. "$(dirname "$0")/lib.sh"

# mk_patch N: a one-patch mail (about 600 bytes).
mk_patch() {
	patch_mail "$1" "p$1@example.org"
}

# peak_kib FILE: the "Maximum resident set size" that time -v wrote.
peak_kib() {
	sed -n "s/^[[:space:]]*Maximum resident set size (kbytes): //p" "$1"
}

git init -q repo && cd repo || exit 1
mk_patch 1 >one.mbox
{ mk_patch 1; mk_patch 2; mk_patch 3; mk_patch 4; } >four.mbox

test_expect_success 'under the cap an mbox reads as before' '
	git config respin.maxMailSize 2k &&
	respin thread one.mbox >out 2>err &&
	cat out err &&
	test_grep "mm: change 1" out
'

test_expect_code 128 'an mbox above the cap: refused' '
	git config respin.maxMailSize 1k &&
	respin thread four.mbox >out 2>err
'

test_expect_success 'the refusal names the file, its size, the cap and the key' '
	cat out err &&
	test ! -s out &&
	test_grep "^fatal: four.mbox is larger than respin.maxMailSize (1 KiB, it has 1.6 KiB): not read\$" err &&
	test_grep "^hint: .*git config respin.maxMailSize 1m" err
'

test_expect_success 'k, m and g suffixes are read as git reads them' '
	git config respin.maxMailSize 1M && respin thread four.mbox >out &&
	git config respin.maxMailSize 1g && respin thread four.mbox >out &&
	git config respin.maxMailSize 4096 && respin thread four.mbox >out &&
	git config respin.maxMailSize 1K &&
	! respin thread four.mbox >out 2>err &&
	test_grep "(1 KiB, it has" err
'

test_expect_code 128 'a value that is no size: refused' '
	git config respin.maxMailSize 12x &&
	respin thread one.mbox >out 2>err
'

test_expect_success 'the message names the key and the value' '
	cat err &&
	test_grep "^fatal: bad respin.maxMailSize .12x. in git config" err
'

test_expect_code 128 'a size that overflows: refused' '
	git config respin.maxMailSize 99999999999999999999g &&
	respin thread one.mbox 2>err
'

test_expect_success 'named the same way' '
	test_grep "^fatal: bad respin.maxMailSize .99999999999999999999g." err
'

# What respin itself takes (more under ASan): peaks are measured against
# it, and may be 3 caps above it (6 under ASan, whose realloc copies and
# keeps freed blocks in quarantine).
RSS_CAPS=3
ldd "$RESPIN_BUILD/respin" 2>/dev/null | grep -q libasan && RSS_CAPS=6
/usr/bin/time -v -o "$TRASH/base.time" respin thread - <one.mbox >/dev/null 2>&1
BASE_KIB=$(peak_kib "$TRASH/base.time")

test_expect_code 128 'standard input above the cap: refused' '
	git config respin.maxMailSize 8m &&
	{ mk_patch 1 && head -c 268435456 /dev/zero; } |
		/usr/bin/time -v -o time.txt respin thread - >out 2>err
'

test_expect_success 'naming it and the cap, with peak RSS near the cap' '
	cat err &&
	peak=$(peak_kib time.txt) &&
	echo "peak RSS: $peak KiB, respin alone: $BASE_KIB KiB" &&
	test_grep "^fatal: the mail on standard input is larger than respin.maxMailSize (8 MiB): not read\$" err &&
	test "$peak" -lt $((BASE_KIB + RSS_CAPS * 8 * 1024))
'

test_expect_success 'standard input under the cap reads as before' '
	respin thread - <four.mbox >out &&
	test_grep "mm: change 4" out
'

test_expect_success 'a pipe given as a path is read (it was taken as empty)' '
	git config respin.maxMailSize 8m &&
	cat four.mbox | respin thread /dev/stdin >out 2>err &&
	cat out err &&
	test_grep "mm: change 4" out
'

test_expect_code 128 'a device without end given as a path: refused at the cap' '
	git config respin.maxMailSize 1m &&
	respin thread /dev/zero >out 2>err
'

test_expect_success 'naming it' '
	cat err &&
	test_grep "^fatal: /dev/zero is larger than respin.maxMailSize (1 MiB): not read\$" err
'

test_expect_code 128 'a maildir message above the cap: refused' '
	mkdir -p md/cur md/new md/tmp &&
	mk_patch 5 >md/cur/1:2, &&
	{ mk_patch 6 && head -c 20000 /dev/zero | tr "\\0" x && echo; } >md/cur/2:2, &&
	git config respin.maxMailSize 8k &&
	respin thread md >out 2>err
'

test_expect_success 'naming the file; under a larger cap it reads' '
	cat err &&
	test_grep "^fatal: md/cur/2:2, is larger than respin.maxMailSize (8 KiB, it has [0-9.]* KiB): not read\$" err &&
	git config respin.maxMailSize 64k &&
	respin thread md >out &&
	test_grep "mm: change 6" out
'

test_done
