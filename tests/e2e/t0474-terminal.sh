#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Escape sequences and control characters from mail never reach the
# terminal raw: on a real pty (script(1)), in a pipe, in messages; --json
# stays valid JSON and carries the exact string.
. "$(dirname "$0")/lib.sh"

ESC=$(printf "\033")
RLO=$(printf "\342\200\256")	# U+202E RIGHT-TO-LEFT OVERRIDE

# mk_patch V: a patch whose subject clears the screen and retitles the
# window, from an author whose name has an encoded newline and an escape.
mk_patch() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: =?utf-8?q?Evil=0A=1B[31mAuthor?= <evil@example.org>
Subject: [PATCH v$1] mm: ${ESC}[2J${ESC}]0;pwned${ESC}\\ fix ${RLO}txt.exe
Date: Tue, 14 Nov 2023 22:13:2$1 +0000
Message-Id: <evil$1@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

A change.

Signed-off-by: =?utf-8?q?Evil=1B[0m?= <evil@example.org>
---
 mm/f.c | 10 ++++++++++
 1 file changed, 10 insertions(+)

diff --git a/mm/f.c b/mm/f.c
new file mode 100644
index 0000000..5626abf
--- /dev/null
+++ b/mm/f.c
@@ -0,0 +1,10 @@
+a
+b
+c
+d
+e
+f
+g
+h
+i
+one${ESC}[5m$1

EOM
}

# on_tty CMD...: runs CMD with stdout (and stderr) on a new pty; the
# bytes it wrote are in tty.out.
on_tty() {
	script -qec "$*" /dev/null >tty.out 2>&1 </dev/null
}

# no_raw FILE: FILE holds no escape, no other C0 control but newline,
# tab (and the pty's CR), no U+202E.
no_raw() {
	if LC_ALL=C grep -n "$ESC" "$1" || grep -n "$RLO" "$1" ||
	   LC_ALL=C tr -d "\n\r\t" <"$1" | LC_ALL=C grep -q "[[:cntrl:]]"; then
		echo "raw control characters in $1:"; od -c "$1" | head -n 20
		return 1
	fi
	return 0
}

git init -q repo && cd repo && git commit -q --allow-empty -m init &&
git branch mm-unstable &&
mk_patch 1 >v1.mbox && mk_patch 2 >v2.mbox || exit 1

test_expect_success 'thread on a terminal: escapes shown, not sent' '
	on_tty respin thread v1.mbox &&
	cat tty.out &&
	no_raw tty.out &&
	test_grep "mm: \\\\e\[2J\\\\e\]0;pwned\\\\e\\\\ fix \\\\u202etxt.exe" tty.out &&
	test_grep "by Evil \\\\e\[31mAuthor <evil@example.org>" tty.out
'

test_expect_success 'thread into a pipe: escaped the same way' '
	respin thread v1.mbox | cat >out &&
	no_raw out &&
	test_grep "mm: \\\\e\[2J" out
'

test_expect_success 'thread --json: valid JSON with the exact subject' '
	respin thread --json v1.mbox >out.json &&
	no_raw out.json &&
	python3 -c "
import json, sys
def walk(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
    else:
        yield x
vals = list(walk(json.load(open(sys.argv[1]))))
want = \"mm: \x1b[2J\x1b]0;pwned\x1b\\\\ fix \u202etxt.exe\"
print([v for v in vals if isinstance(v, str) and \"pwned\" in v])
sys.exit(0 if want in vals else 1)
" out.json
'

test_expect_success 'import, then show and status on a terminal' '
	respin import evil v1.mbox --base mm-unstable >out 2>err &&
	cat out err &&
	on_tty respin show evil && cat tty.out && no_raw tty.out &&
	test_grep "mm: \\\\e\[2J" tty.out &&
	on_tty respin status evil && cat tty.out && no_raw tty.out &&
	on_tty respin list && cat tty.out && no_raw tty.out
'

test_expect_success 'diff of two mails on a terminal: subjects and patch lines' '
	on_tty respin diff v1.mbox v2.mbox &&
	cat tty.out &&
	no_raw tty.out &&
	test_grep "one\\\\e\[5m2" tty.out
'

test_expect_success 'messages on stderr are escaped too' '
	{ cat v1.mbox && mk_patch 1 | sed "s/evil1@/other1@/; s/mm: /xx: /"; } >two.mbox &&
	! on_tty respin import x two.mbox --base mm-unstable &&
	cat tty.out &&
	no_raw tty.out &&
	test_grep "hint: .*xx: \\\\e\[2J" tty.out
'

test_expect_success 'cover: escaped on a terminal, the exact letter into a pipe' '
	on_tty respin cover evil &&
	cat tty.out && no_raw tty.out &&
	respin cover evil >letter &&
	LC_ALL=C grep -q "$ESC\[2J" letter
'

test_expect_success 'format --stdout: escaped on a terminal, the exact mail into a pipe' '
	on_tty respin format evil --stdout &&
	no_raw tty.out &&
	test_grep "one\\\\e\[5m1" tty.out &&
	respin format evil --stdout >mbox &&
	LC_ALL=C grep -q "one$ESC\[5m1" mbox
'

# A review of v1 that does not carry to a v2 under another title: the
# note names v1's patch by its subject, from mail.
test_expect_success 'trailers: the notes on stderr are escaped' '
	mk_patch 2 | sed "s/^Subject: .*/Subject: [PATCH v2] mm: another title/
		s/^+one.*/+two/" >v2b.mbox &&
	cat >reply.mbox <<-\EOM &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Rita Reviewer <rita@example.org>
	Subject: Re: [PATCH v1] mm: fix
	Date: Wed, 15 Nov 2023 10:00:00 +0000
	Message-Id: <r1@example.org>
	In-Reply-To: <evil1@example.org>
	References: <evil1@example.org>

	Reviewed-by: Rita Reviewer <rita@example.org>

	EOM
	respin import evil v2b.mbox --base mm-unstable &&
	cat v1.mbox reply.mbox v2b.mbox >all.mbox &&
	respin trailers evil@v2 --source all.mbox >out 2>err &&
	cat out err &&
	no_raw err &&
	test_grep "^note: v1 1/1 \"mm: \\\\e\[2J\\\\e\]0;pwned\\\\e\\\\ fix \\\\u202etxt.exe\" is not in v2: Reviewed-by: Rita Reviewer <rita@example.org> (<r1@example.org>) not carried$" err
'

test_done
