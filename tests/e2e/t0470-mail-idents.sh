#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names and addresses from mail never carry a newline or another control
# character into a commit header: git fsck stays clean.
. "$(dirname "$0")/lib.sh"

# mk_patch FROM-LINE MSGID: a one-patch mail that adds mm/f.c.
mk_patch() {
	PM_FROM=$1 patch_mail "" "$2"
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable

test_expect_success 'an encoded newline in the From: name: fsck-clean commit' '
	mk_patch "=?utf-8?q?Evil=0AAuthor?= <evil@example.org>" nl@example.org >nl.mbox &&
	respin import nl nl.mbox --base mm-unstable >out 2>err &&
	cat out err &&
	git fsck --strict --no-dangling >fsck 2>&1 &&
	cat fsck &&
	test ! -s fsck &&
	tip=$(git rev-parse refs/respin/series/nl) &&
	git log -1 --format="%an|%ae" "$(respin show nl --json |
		sed -n "s/.*\"commit\": *\"\([0-9a-f]*\)\".*/\1/p" | head -n 1)" >author &&
	echo "Evil Author|evil@example.org" >want &&
	check_same want author
'

test_expect_success 'escapes, tabs, CR and <> in a name are dropped or blanked' '
	mk_patch "=?utf-8?q?A=1B[31m=09B=0D=0AC_<x>?= <ctl@example.org>" ctl@example.org >ctl.mbox &&
	respin import ctl ctl.mbox --base mm-unstable >out 2>err &&
	cat out err &&
	git fsck --strict --no-dangling >fsck 2>&1 &&
	test ! -s fsck &&
	c=$(respin show ctl --json |
		sed -n "s/.*\"commit\": *\"\([0-9a-f]*\)\".*/\1/p" | head -n 1) &&
	git cat-file commit "$c" | grep "^author " >author &&
	cat author &&
	test_grep "^author A \[31m B C x <ctl@example.org> " author
'

test_expect_code 128 'an escape in the address: refused' '
	mk_patch "Someone <a$(printf "\033")b@example.org>" addr@example.org >addr.mbox &&
	refs_snapshot "$TRASH/refs0" &&
	respin import addr addr.mbox --base mm-unstable >out 2>err
'

test_expect_success 'the refusal names the message; nothing recorded' '
	cat out err &&
	test_grep "^fatal: patch 1/1 <addr@example.org>: the author.s address" err &&
	refs_snapshot "$TRASH/refs1" &&
	check_same "$TRASH/refs0" "$TRASH/refs1" &&
	git fsck --strict --no-dangling >fsck 2>&1 &&
	test ! -s fsck
'

test_done
