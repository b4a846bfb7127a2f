#!/bin/sh
# Every command has --help, a doc page and a man page; unknown commands
# and options are usage errors.
. "$(dirname "$0")/lib.sh"

cmds=$(respin --help | sed -n 's/^   \([a-z-]*\) .*/\1/p')

test_expect_success 'respin --help lists the commands' '
	test -n "$cmds" && echo "$cmds" | grep -qx track && echo "$cmds" | grep -qx diff
'

test_expect_success 'every command has --help, a doc page and a man page' '
	for c in $cmds; do
		respin $c --help >out || { echo "$c --help failed"; return 1; }
		grep -q "^usage: respin $c" out || { echo "$c: no usage"; return 1; }
		test -f "$SRC_DIR/docs/respin-$c.md" || { echo "no docs/respin-$c.md"; return 1; }
		test -s "$RESPIN_BUILD/man/man1/respin-$c.1" || { echo "no man page for $c"; return 1; }
	done
'

test_expect_success 'respin help CMD opens the man page' '
	MANPATH="$RESPIN_BUILD/man" MANPAGER=cat PAGER=cat respin help track >out 2>&1 &&
	test_grep "respin-track - record" out
'

test_expect_success 'respin help CMD from the build tree: its own page, no MANPATH' '
	env -u MANPATH MANPAGER=cat PAGER=cat respin help send >out 2>&1 &&
	test_grep "^NAME" out && test_grep "respin-send" out &&
	test_grep -- "--dry-run" out
'

test_expect_success 'every man page renders: .TH, NAME for whatis, sections, no raw Markdown' '
	bt=$(printf "\140") &&
	for c in $cmds; do
		p="$RESPIN_BUILD/man/man1/respin-$c.1" &&
		test_grep "^\.TH \"respin-$c\" \"1\"" "$p" &&
		lexgrog "$p" >what &&
		test_grep "\"respin-$c - " what &&
		MANWIDTH=80 man -l "$p" >text 2>err &&
		test_must_be_empty err &&
		test_grep "^NAME$" text && test_grep "^SYNOPSIS$" text &&
		test_grep "^DESCRIPTION$" text &&
		test_grep ! -e "^#" -e "\*\*[a-z]" -e "^ *$bt" text || return 1
	done
'

test_expect_success 'an unknown command' '
	test_expect_code 129 respin frobnicate 2>err &&
	test_grep "not a respin command" err
'

test_expect_success 'no command at all' '
	test_expect_code 129 respin 2>err &&
	test_grep "^usage: respin " err
'

test_expect_success 'respin --version' 'respin --version | grep -q "^respin version "'

test_done
