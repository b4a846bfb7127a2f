#!/bin/sh
# The review loop end to end, with real parts: respin send through git
# send-email into a real public-inbox (public-inbox-mda) served by a real
# public-inbox-httpd as "lore"; respin thread finds what was sent; a
# reply draft delivered the same way is a comment in respin review and
# its Reviewed-by is in respin trailers; --apply writes it.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-lore.sh"

command -v public-inbox-mda >/dev/null || test_skip_all "public-inbox is not installed (make deps)"
git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"
lore_init || { echo "Bail out! no inbox"; exit 1; }
lore_start || { echo "Bail out! no httpd"; exit 1; }
LIST=test-list@example.org

# the "SMTP server" delivers into the inbox, as the list would
cat >"$TRASH/deliver" <<EOF
#!/bin/sh
export PI_CONFIG="$PI_CONFIG" PI_EMERGENCY="$PI_EMERGENCY" ORIGINAL_RECIPIENT=$LIST
exec public-inbox-mda --no-precheck
EOF
chmod +x "$TRASH/deliver"

make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.lore-url "$LORE_URL"
git config sendemail.smtpServer "$TRASH/deliver"
git config sendemail.confirm never
git config sendemail.suppressCc all
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null

test_expect_success 'respin send delivers the version into the list' '
	respin send a --to "$LIST" >out 2>err &&
	test_grep "^a v1 sent as <" out
'

test_expect_success 'respin thread lore:COVER finds the same series and version' '
	cover=$(sed -n "s/^a v1 sent as <\(.*\)>$/\1/p" out) &&
	respin thread "lore:$cover" >t &&
	test_grep "^  v1  .*3/3 patches + cover, 0 replies  <$cover>$" t
'

test_expect_success 'a reply draft delivered to the list is a comment and a trailer' '
	cover=$(sed -n "s/^a v1 sent as <\(.*\)>$/\1/p" out) &&
	respin show a --json >j &&
	p2=$(perl -MJSON::PP -e "local \$/; print decode_json(<STDIN>)->{patches}[1]{message_id}" <j) &&
	GIT_AUTHOR_NAME="Rita Rev" GIT_AUTHOR_EMAIL=rita@example.org \
		respin reply "lore:$p2" --review >draft &&
	test_grep "^To: A U Thor <author@example.org>$" draft &&
	test_grep "^Cc: $LIST$" draft &&
	{ sed -n "1,/^\$/p" draft && echo "Why add it now?" && echo &&
	  sed -n "/^\$/,\$p" draft | sed 1d; } >draft2 &&
	"$TRASH/deliver" <draft2 &&
	respin review a --refresh >r &&
	test_grep "^a v1: [0-9]* comments* (1 open, 0 answered, 0 addressed, 0 done), 1 trailer$" r &&
	test_grep "Rita Rev <rita@example.org>" r &&
	respin trailers a --refresh >t &&
	test_grep "^    + Reviewed-by: Rita Rev <rita@example.org>  (v1 2/3, <" t
'

test_expect_success 'respin trailers --apply writes it into patch 2' '
	respin trailers a --apply >out &&
	git log -1 --format=%B work~1 >m &&
	test_grep "^Reviewed-by: Rita Rev <rita@example.org>$" m
'

test_done
