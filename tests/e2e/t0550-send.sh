#!/bin/sh
# respin send: a version through the real git send-email, to the
# recipients the tree's real get_maintainer.pl names plus those who gave
# trailers; the Message-IDs sent are recorded; failed checks refuse.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 ||
	test_skip_all "git send-email is not installed (make deps installs git-email)"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
get_maintainer_into . || { echo "Bail out! no get_maintainer.pl"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }

# The "SMTP server": git send-email runs it as sendmail; it keeps each
# mail in an mbox and the recipients it was given.
fake_smtp || { echo "Bail out! no fake SMTP"; exit 1; }
# git adds no Cc of its own: every recipient is respin's
git config sendemail.suppressCc all

test_expect_success 'a cover letter still the template: refused, saying what to do' '
	test_expect_code 128 respin send a 2>err &&
	test_grep "still the template" err && test_grep "respin cover a --edit" err &&
	test_path_is_missing "$TRASH/sent.mbox"
'

printf "mm: three small things\n\nThree small things for mm.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null || { echo "Bail out! no cover"; exit 1; }

test_expect_success '--dry-run: what would be sent; nothing sent or recorded' '
	respin send a --dry-run >out 2>err &&
	test_grep "^a v1: 4 mails to [0-9]*, cc [0-9]* (with scripts/get_maintainer.pl)$" err &&
	test_grep "^a v1: dry run, nothing sent or recorded$" out &&
	test_path_is_missing "$TRASH/sent.mbox" &&
	respin show a --json >j && ! grep -q "message_id\": \"" j
'

test_expect_success 'send: four mails, threaded, To the maintainers, Cc the lists' '
	respin send a >out 2>err &&
	test_grep "^a v1 sent as <.*-v1-0-.*>$" out &&
	test $(grep -c "^From mboxrd@z" "$TRASH/sent.mbox") = 4 &&
	test_grep "^To: Mel Fixture <mel@example.org>" "$TRASH/sent.mbox" &&
	test_grep "akpm@example.org" "$TRASH/sent.mbox" &&
	test_grep "linux-mm@example.org" "$TRASH/sent.mbox" &&
	test $(wc -l <"$TRASH/rcpts") = 4 &&
	test_grep "linux-mm@example.org" "$TRASH/rcpts" &&
	test_grep "vlasta@example.org" "$TRASH/rcpts" &&
	test $(grep -c "^In-Reply-To: " "$TRASH/sent.mbox") = 3
'

test_expect_success 'the Message-IDs sent are recorded in the version' '
	cover=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox" | head -n 1) &&
	respin show a --json >j &&
	test_grep "\"message_id\": \"$cover\"" j &&
	for id in $(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox"); do
		test_grep "$id" j || return 1
	done
'

test_expect_success 'what was sent reads back: respin thread finds the series and its version' '
	cover=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox" | head -n 1) &&
	respin thread "$TRASH/sent.mbox" "$cover" >t &&
	test_grep "3/3 patches + cover" t
'

test_expect_success 'sending the same version again: refused without --force' '
	test_expect_code 128 respin send a 2>err &&
	test_grep "a v1 was sent already" err &&
	test $(grep -c "^From mboxrd@z" "$TRASH/sent.mbox") = 4
'

test_expect_success '--force sends it again with new Message-IDs' '
	respin send a --force >out 2>err &&
	test $(grep -c "^From mboxrd@z" "$TRASH/sent.mbox") = 8 &&
	sed -n "s/^Message-I[dD]: //p" "$TRASH/sent.mbox" | sort | uniq -d >dups &&
	test_must_be_empty dups
'

test_expect_success 'a trailer giver is Cc'"'"'d; the last version'"'"'s recipients stay' '
	git checkout -q work &&
	git commit -q --amend -m "$(git log -1 --format=%B)
Reviewed-by: Rita Reviewer <rita@example.org>" &&
	respin track a >/dev/null &&
	rm -f "$TRASH/sent.mbox" "$TRASH/rcpts" &&
	respin send a@v2 >out 2>err &&
	test_grep "rita@example.org" "$TRASH/rcpts" &&
	test_grep "mel@example.org" "$TRASH/rcpts"
'

test_expect_success 'a failed check refuses to send, naming it; --force sends' '
	git config respin.check.bad.kind command &&
	git config respin.check.bad.command "! grep -q vmscan_extra mm/vmscan.c" &&
	test_when_finished "git config --remove-section respin.check.bad" &&
	git commit -q --amend -m "$(git log -1 --format=%B)
Acked-by: Ann Acker <ann@example.org>" &&
	respin track a >/dev/null &&
	rm -f "$TRASH/sent.mbox" &&
	test_expect_code 1 respin check a >/dev/null 2>&1 &&
	test_expect_code 128 respin send a 2>err &&
	test_grep "failed check" err && test_grep "3/3 bad FAIL" err &&
	test_path_is_missing "$TRASH/sent.mbox" &&
	respin send a --force >out 2>err &&
	test $(grep -c "^From mboxrd@z" "$TRASH/sent.mbox") = 4
'

test_expect_success 'git send-email failing: 128, nothing recorded' '
	git config sendemail.smtpServer /bin/false &&
	test_when_finished "git config sendemail.smtpServer \"$TRASH/smtp\"" &&
	respin show a --json >before &&
	test_expect_code 128 respin send a --force 2>err &&
	test_grep "git send-email exited with" err &&
	respin show a --json >after && check_same before after
'

# A tree without get_maintainer.pl, a patch without trailers.
cd "$TRASH" && make_fixture k2 && cd k2 || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git config sendemail.smtpServer "$TRASH/smtp"
git config sendemail.confirm never
git checkout -q -b w mm-unstable && echo x >X && git add X &&
	git commit -qm "x: one" && respin track x --base mm-unstable >/dev/null || exit 1

test_expect_success 'no recipients at all: 128, what to do' '
	test_expect_code 128 respin send x 2>err &&
	test_grep "sent to whom" err && test_grep "respin.series.x.to" err
'

test_expect_success '--to gives one: then it is sent' '
	rm -f "$TRASH/sent.mbox" &&
	respin send x --to "Some One <one@example.org>" >out 2>err &&
	test_grep "^To: Some One <one@example.org>" "$TRASH/sent.mbox"
'

test_expect_success 'To: and Cc: lines above the cover letter'"'"'s title: sent to, not in the letter' '
	cd "$TRASH/k" &&
	printf "%s\n" "To: Rev Iewer <rev@example.org>" \
		"Cc: a@example.org, \"Doe, Jo\" <jo@example.org>" "" \
		"mm: three small things" "" "Three small things for mm." >"$TRASH/cover2.txt" &&
	respin cover a --file "$TRASH/cover2.txt" >/dev/null &&
	respin cover a >letter &&
	test "$(head -n 1 letter)" = "Subject: [PATCH v3 0/3] mm: three small things" &&
	test_grep ! "rev@example.org" letter &&
	rm -f "$TRASH/sent.mbox" "$TRASH/rcpts" &&
	respin send a --force >out 2>err &&
	test_grep "rev@example.org" "$TRASH/rcpts" &&
	test_grep "jo@example.org" "$TRASH/rcpts" &&
	test_grep "^To: .*Rev Iewer <rev@example.org>" "$TRASH/sent.mbox" &&
	test_grep "Doe, Jo" "$TRASH/sent.mbox"
'

test_expect_success 'a To: line that is no address: 128, naming the cover letter' '
	cd "$TRASH/k" &&
	printf "%s\n" "To: nobody at all" "" "mm: three small things" "" "Three." >"$TRASH/cover3.txt" &&
	respin cover a --file "$TRASH/cover3.txt" >/dev/null &&
	test_expect_code 128 respin send a --force 2>err &&
	test_grep "the cover letter of a v3: \"nobody at all\" is not an address" err &&
	test_grep "respin cover a --edit" err
'

cat >"$TRASH/drop-vlasta" <<EOF
#!/bin/sh
cp "\$1" "$TRASH/seed-edit.txt"
sed -i "/vlasta@example.org/d" "\$1"
EOF
chmod +x "$TRASH/drop-vlasta"

test_expect_success 'cover --edit: every recipient as To:/Cc: lines; a deleted one is not sent to' '
	cd "$TRASH/k" &&
	respin cover a --file "$TRASH/cover.txt" >/dev/null &&
	GIT_EDITOR="$TRASH/drop-vlasta" respin cover a --edit >out &&
	test_grep "^a v3: cover text stored$" out &&
	test_grep "^To: Mel Fixture <mel@example.org>$" "$TRASH/seed-edit.txt" &&
	test_grep "^Cc: .*vlasta@example.org" "$TRASH/seed-edit.txt" &&
	test_grep "^Cc: .*linux-mm@example.org" "$TRASH/seed-edit.txt" &&
	test_grep "^Cc: Rita Reviewer <rita@example.org>$" "$TRASH/seed-edit.txt" &&
	test_grep "^# .*delete a line to leave that address out" "$TRASH/seed-edit.txt" &&
	git show refs/respin/series/a:v3/cover >stored &&
	test_grep ! "vlasta" stored && test_grep "^To: Mel Fixture" stored &&
	respin send a --dry-run --json >j 2>err &&
	sed -n "/\"left_out\"/,/]/p" j >left && test_grep vlasta left &&
	test_grep "\"from\": \"get_maintainer.pl\"" left &&
	sed -n "/\"to\"/,/]/p" j >to && test_grep "mel@example.org" to &&
	test_grep "\"from\": \"cover letter\"" to &&
	rm -f "$TRASH/sent.mbox" "$TRASH/rcpts" &&
	respin send a --force >out 2>err &&
	test_grep "not sent to .*vlasta@example.org.* (from get_maintainer.pl): deleted from the cover letter" err &&
	test_grep ! "vlasta" "$TRASH/rcpts" &&
	test_grep "mel@example.org" "$TRASH/rcpts" &&
	test_grep "linux-mm@example.org" "$TRASH/rcpts"
'

test_expect_success 'an address that turned up after the edit is sent to' '
	cd "$TRASH/k" &&
	git config respin.series.a.cc "Late Comer <late@example.org>" &&
	test_when_finished "git config --unset respin.series.a.cc" &&
	respin send a --dry-run --json >j 2>err &&
	sed -n "/\"cc\"/,/]/p" j >cc && test_grep "late@example.org" cc &&
	test_grep "\"from\": \"config\"" cc &&
	sed -n "/\"left_out\"/,/]/p" j >left && test_grep vlasta left
'

test_expect_success 'the next version keeps it out; its own edit can put it back' '
	cd "$TRASH/k" && git checkout -q work &&
	git commit -q --amend -m "$(git log -1 --format=%B)
Tested-by: Tess Ter <tess@example.org>" &&
	respin track a >/dev/null &&
	respin send a --dry-run --json >j 2>err &&
	test_grep "\"version\": 4" j &&
	sed -n "/\"left_out\"/,/]/p" j >left && test_grep vlasta left &&
	sed -n "/\"cc\"/,/]/p" j >cc && test_grep "tess@example.org" cc &&
	test_grep "\"from\": \"trailer\"" cc &&
	GIT_EDITOR="$TRASH/drop-vlasta" respin cover a --edit >out &&
	test_grep ! "vlasta" "$TRASH/seed-edit.txt" &&
	test_grep "^Cc: Tess Ter <tess@example.org>$" "$TRASH/seed-edit.txt" &&
	printf "%s\n" "Cc: Vlasta Fixture <vlasta@example.org>" "" "mm: three" "" "Text." >"$TRASH/cover4.txt" &&
	respin cover a --file "$TRASH/cover4.txt" >/dev/null &&
	respin send a --dry-run --json >j 2>err &&
	sed -n "/\"left_out\"/,/]/p" j >left && test_grep ! vlasta left &&
	sed -n "/\"cc\"/,/]/p" j >cc && test_grep "vlasta@example.org" cc
'

test_expect_success 'cover --file: the text is all the author'"'"'s, nothing left out' '
	cd "$TRASH/k" &&
	respin cover a --file "$TRASH/cover.txt" >/dev/null &&
	respin send a --dry-run --json >j 2>err &&
	sed -n "/\"left_out\"/,/]/p" j >left && test_grep ! vlasta left &&
	sed -n "/\"cc\"/,/]/p" j >cc && test_grep "vlasta@example.org" cc
'

test_expect_success '--json without --dry-run: 129, nothing sent' '
	cd "$TRASH/k" && rm -f "$TRASH/sent.mbox" &&
	test_expect_code 129 respin send a --json 2>err &&
	test_grep "json goes with --dry-run" err &&
	test_path_is_missing "$TRASH/sent.mbox"
'

test_expect_success 'an unknown series: 128; no name: 129' '
	test_expect_code 128 respin send nosuch &&
	test_expect_code 129 respin send
'

test_done
