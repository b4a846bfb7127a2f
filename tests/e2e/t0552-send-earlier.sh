#!/bin/sh
# respin send after a version went out from mail: the recipients of the
# earlier versions (their To:/Cc: headers, whether respin send or
# someone else sent them) and the reviewers who replied, even without a
# tag, are offered again; names with specials reach git send-email
# quoted; a version on the list already is not sent again without
# --force, and --dry-run says so; a tree without get_maintainer.pl is
# said.  The mail is made with git format-patch and sent through the
# real git send-email (to a fake SMTP server).
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 ||
	test_skip_all "git send-email is not installed (make deps installs git-email)"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
fake_smtp || { echo "Bail out! no fake SMTP"; exit 1; }
git config sendemail.suppressCc all
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
git checkout -q -b work mm-unstable && commit_three_patches >/dev/null &&
git checkout -q mm-unstable || { echo "Bail out! no patches"; exit 1; }

# reply MSGID PARENT FROM TEXT: a reply to PARENT
reply() {
	printf "%s\n" "From mboxrd@z Thu Jan  1 00:00:00 1970" "From: $3" \
		"To: A U Thor <author@example.org>" "Cc: linux-mm@example.org" \
		"Subject: Re: [PATCH 2/3] mm/compaction: prepare a marker for later" \
		"Date: Wed, 15 Nov 2023 10:00:00 +0000" \
		"Message-Id: <$1>" "In-Reply-To: <$2>" "References: <$2>" "" \
		"> Nothing uses it yet." "" "$4" ""
}

# v1 as git send-email sent it, and three replies: a comment with no tag,
# an Acked-by, the kernel test robot's report
test_expect_success 'setup: v1 from the list (To, Cc, replies) and v2 never sent, imported' '
	git format-patch -q -3 work --cover-letter --thread -o v1 \
		--to="Andrew Morton <akpm@example.org>" \
		--cc="linux-mm@example.org" --cc="Naveen N. Rao <naveen@example.org>" &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/mm: three things/; s/\*\*\* BLURB HERE \*\*\*/Three./" v1/0000-*.patch &&
	for f in v1/*.patch; do
		{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970" && sed 1d "$f" && echo; } >>v1.mbox || return 1
	done &&
	p2=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" v1/0002-*.patch) &&
	reply r1@example.org "$p2" "Rita Reviewer <rita@example.org>" "Why not a bool here?" >>v1.mbox &&
	reply r2@example.org "$p2" "Ann Acker <ann@example.org>" "Acked-by: Ann Acker <ann@example.org>" >>v1.mbox &&
	reply r3@example.org "$p2" "kernel test robot <lkp@intel.com>" "kernel test robot noticed the following build warnings:" >>v1.mbox &&
	respin import a v1.mbox --base mm-unstable >out 2>err &&
	git checkout -q work &&
	printf "int vmscan_more(void) { return 2; }\n" >>mm/vmscan.c &&
	git commit -q -a --amend --no-edit &&
	git format-patch -q -v2 -3 work --cover-letter --thread -o v2 &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/mm: three things/; s/\*\*\* BLURB HERE \*\*\*/Three./" v2/v2-0000-*.patch &&
	for f in v2/*.patch; do
		{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970" && sed 1d "$f" && echo; } >>v2.mbox || return 1
	done &&
	git checkout -q mm-unstable &&
	respin import a v2.mbox --base mm-unstable >out 2>err &&
	respin show a >show && test_grep "v2" show
'

test_expect_success 'v2: v1'"'"'s recipients and its reviewers offered again; not the bot' '
	respin send a --dry-run --json >j 2>err &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my %from = map { (\$_->{address} =~ /<(.*)>/ ? \$1 : \$_->{address}) => \$_->{from} }
			@{\$d->{to}}, @{\$d->{cc}};
		for my \$a (qw(akpm@example.org linux-mm@example.org naveen@example.org)) {
			die qq(\$a: from \$from{\$a}\\n) unless (\$from{\$a} // q()) eq q(v1 sent);
		}
		die qq(rita: \$from{q(rita@example.org)}\\n)
			unless (\$from{q(rita@example.org)} // q()) eq q(replied to v1);
		die qq(ann missing\\n) unless exists \$from{q(ann@example.org)};
		die qq(the bot is Cc'"'"'d\\n) if exists \$from{q(lkp@intel.com)};
	" <j
'

test_expect_success 'the dry run says there is no get_maintainer.pl' '
	respin send a --dry-run >out 2>err &&
	test_grep "no scripts/get_maintainer.pl in this tree: no maintainers or lists from it" err
'

test_expect_success 'a version on the list already: --dry-run warns, send refuses, nothing sent' '
	respin send a@v1 --dry-run >out 2>err &&
	test_grep "^warning: a v1 was sent already" err &&
	test_grep "respin send without --dry-run refuses it; --force sends it again" err &&
	test_expect_code 128 respin send a@v1 2>err &&
	test_grep "a v1 was sent already" err &&
	test_path_is_missing "$TRASH/sent.mbox"
'

test_expect_success 'sent: the name with specials quoted as RFC 5322 wants, through git send-email' '
	printf "mm: three things\n\nThree.\n" >c.txt &&
	respin cover a --file c.txt >/dev/null &&
	respin send a >out 2>err &&
	test_grep "\"Naveen N. Rao\" <naveen@example.org>" "$TRASH/sent.mbox" &&
	test_grep ! "Naveen N \. Rao" "$TRASH/sent.mbox" &&
	test_grep "rita@example.org" "$TRASH/rcpts" &&
	test_grep ! "lkp@intel.com" "$TRASH/rcpts"
'

test_expect_success 'b4 beside it: b4 send --dry-run of the same patches finds no one to send to' '
	if ! command -v b4 >/dev/null; then
		echo "b4 is not installed" >&7 && false
	fi &&
	printf "mm: three things\n\nThree.\n" >"$TRASH/cover.txt" &&
	printf "#!/bin/sh\ncp \"%s/cover.txt\" \"\$1\"\n" "$TRASH" >"$TRASH/editor" &&
	chmod +x "$TRASH/editor" &&
	git checkout -q mm-unstable &&
	# b4 looks for its cover commit among those of the last year
	unset GIT_COMMITTER_DATE GIT_AUTHOR_DATE &&
	b4 prep -n b4side >b4.out 2>&1 &&
	git cherry-pick mm-unstable..work >/dev/null &&
	EDITOR="$TRASH/editor" b4 prep --edit-cover >b4.out 2>&1 &&
	test_must_fail b4 send --dry-run -o b4out >b4.out 2>&1 &&
	test_grep "Could not find any destination addresses" b4.out &&
	git checkout -q mm-unstable
'

test_done
