#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Versions and counters in subjects are range-checked: v4294967297 does
# not wrap to v1 (it is not read as a tag, and respin says so), import
# refuses such a message by name, sane numbers read as before.
. "$(dirname "$0")/lib.sh"

# mk_patch TAG IDX MSGID [PARENT]: one patch mail with [PATCH TAG], a
# reply to PARENT when given.
mk_patch() {
	PM_SUBJECT="[PATCH $1] mm: change $2" patch_mail "$2" "$3" "${4:-}"
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable || exit 1

test_expect_success 'v9999 2/2 is the largest version respin reads' '
	{ mk_patch "v9999 1/2" 1 a1@example.org && mk_patch "v9999 2/2" 2 a2@example.org a1@example.org; } >big.mbox &&
	respin thread big.mbox >out 2>err &&
	cat out err &&
	test_grep "^  v9999 " out &&
	test ! -s err
'

test_expect_success 'v4294967297: not v1, and a note names the message' '
	{ mk_patch "v4294967297 1/2" 1 w1@example.org && mk_patch "v4294967297 2/2" 2 w2@example.org w1@example.org; } >wrap.mbox &&
	respin thread wrap.mbox >out 2>err &&
	cat out err &&
	test_grep "^note: message 1 <w1@example.org>: a version or a counter out of range (v1-v9999; i/N with i <= N <= 999) in \"\[PATCH v4294967297 1/2\] mm: change 1\" is not read as a tag\$" err &&
	test_grep "^note: message 2 <w2@example.org>" err
'

test_expect_code 128 'import refuses it' '
	refs_snapshot "$TRASH/refs0" &&
	respin import w wrap.mbox --base mm-unstable >out 2>err
'

test_expect_success 'naming the message; nothing recorded' '
	cat out err &&
	test_grep "^fatal: message <w1@example.org> (\"\[PATCH v4294967297 1/2\] mm: change 1\"): a version above v9999" err &&
	refs_snapshot "$TRASH/refs1" &&
	check_same "$TRASH/refs0" "$TRASH/refs1"
'

test_expect_success 'a counter above 999 is noted by thread' '
	mk_patch "v2 1/4294967298" 1 c1@example.org >count.mbox &&
	respin thread count.mbox >out 2>err &&
	test_grep "^note: message 1 <c1@example.org>" err
'

test_expect_code 128 'an index above its total is refused by import' '
	mk_patch "v2 3/2" 1 c3@example.org >over.mbox &&
	respin import c over.mbox --base mm-unstable 2>err
'

test_expect_success 'naming the message' '
	cat err &&
	test_grep "^fatal: message <c3@example.org> (\"\[PATCH v2 3/2\] mm: change 1\")" err
'

test_done
