#!/bin/sh
# respin send and names from mail: a From name that decodes to several
# lines ("Evil\nBcc: addr"), a name with specials (Naveen N. Rao) or a
# colon: what git send-email is handed is exactly what send --dry-run
# --json lists, and no name becomes an address of its own.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 ||
	test_skip_all "git send-email is not installed (make deps installs git-email)"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org

fake_smtp || { echo "Bail out! no fake SMTP"; exit 1; }
# no sendemail.suppressCc: git send-email's own defaults, as a user has

# A patch mail whose From: name is an encoded word holding a newline.
evil=$(printf 'Evil\nBcc: from-bcc@evil.example' | base64 | tr -d '\n')
git checkout -q -b w mm-unstable && echo x >X && git add X &&
	git commit -q -m "x: one" \
		-m "Reviewed-by: Naveen N. Rao <naveen@example.org>" \
		-m "Acked-by: Odd: Name <odd@example.org>" &&
	git format-patch -q --stdout -1 --add-header="Message-Id: <evil-1@example.org>" |
	sed "s/^From: .*/From: =?utf-8?B?$evil?= <evil@example.org>/" >"$TRASH/evil.mbox" &&
	git checkout -q mm-unstable &&
	respin import x "$TRASH/evil.mbox" --base mm-unstable >/dev/null 2>&1 ||
	{ echo "Bail out! no import"; exit 1; }

test_expect_success 'the name from mail keeps no line break' '
	c=$(respin show x --json | sed -n "s/.*\"commit\": \"\([0-9a-f]*\)\".*/\1/p" | head -n 1) &&
	git cat-file commit "$c" >raw &&
	test_grep "^author Evil Bcc: from-bcc@evil.example <evil@example.org> " raw &&
	test_grep ! "^Bcc" raw
'

test_expect_success 'send: the recipients are exactly those the dry run lists' '
	respin send x --to "One <one@example.org>" --dry-run --json >j 2>err &&
	sed -n "s/.*\"address\": \".*<\(.*\)>\",$/\1/p" j | sort -u >want &&
	test_grep "^one@example.org$" want &&
	test_grep "^evil@example.org$" want &&
	test_grep "^naveen@example.org$" want &&
	test_grep ! "from-bcc" want &&
	respin send x --to "One <one@example.org>" >out 2>err &&
	tr " " "\n" <"$TRASH/rcpts" | grep "@" | grep -v "^-" | sort -u >got &&
	check_same want got
'

test_expect_success 'the headers sent: the name quoted, one address each' '
	test_grep "^	=?UTF-8?q?Evil_Bcc=3A_from-bcc=40evil=2Eexample?= <evil@example.org>$" "$TRASH/sent.mbox" &&
	respin format x --stdout >mail &&
	test_grep "^From: =?UTF-8?q?Evil_Bcc=3A_from-bcc=40evil=2Eexample?= <evil@example.org>$" mail &&
	test_grep ! "^Bcc:" "$TRASH/sent.mbox" &&
	test_grep "Naveen N. Rao\" <naveen@example.org>" "$TRASH/sent.mbox" &&
	test_grep ! "Naveen N \. Rao" "$TRASH/sent.mbox"
'

test_done
