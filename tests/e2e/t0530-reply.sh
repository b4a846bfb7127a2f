#!/bin/sh
# respin reply: a reply draft to real list mail, threaded and quoted as a
# mail client's "reply all", with the user's trailer and stored results;
# written to stdout, an mbox or a maildir; never sent.
. "$(dirname "$0")/lib.sh"

LRU=$TEST_DATA/mail/lru_gen-batch/v2.mbox
P1=20240111183321.19984-2-ryncsn@gmail.com
git init -q r && cd r || exit 1
git config user.name "Rev Iewer"
git config user.email rev@example.org
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL

# header NAME FILE: the unfolded value of header NAME of the mail in FILE
header() {
	awk -v h="$1" 'BEGIN { IGNORECASE = 1 }
		/^$/ { exit }
		/^[ \t]/ { if (on) { sub(/^[ \t]+/, " "); v = v $0 }; next }
		{ on = 0 }
		tolower(substr($0, 1, length(h) + 1)) == tolower(h) ":" {
			on = 1; v = substr($0, length(h) + 3) }
		END { print v }' "$2"
}

test_expect_success 'a reply to a real patch: threaded under it, reply-all' '
	respin reply "$LRU" $P1 >d 2>err &&
	test_must_be_empty err &&
	test "$(header Subject d)" = "Re: [PATCH v2 1/3] mm, lru_gen: batch update counters on againg" &&
	test "$(header In-Reply-To d)" = "<$P1>" &&
	test "$(header References d)" = "<20240111183321.19984-1-ryncsn@gmail.com> <$P1>" &&
	test "$(header From d)" = "Rev Iewer <rev@example.org>" &&
	header To d >to && test_grep "^Kairui Song <kasong@tencent.com>$" to &&
	header Cc d >cc &&
	test_grep "linux-mm@kvack.org" cc &&
	test_grep "Andrew Morton <akpm@linux-foundation.org>" cc &&
	test_grep "linux-kernel@vger.kernel.org" cc &&
	test_grep "^Message-Id: <[0-9]*\.[0-9]*\.[0-9a-f]*@example.org>$" d
'

test_expect_success 'GIT_COMMITTER_DATE in the forms git reads: the Date and the Message-ID' '
	GIT_COMMITTER_DATE=2024-01-01T00:00:00Z respin reply "$LRU" $P1 >iso &&
	test "$(header Date iso)" = "Mon, 1 Jan 2024 00:00:00 +0000" &&
	test_grep "^Message-Id: <1704067200\.[0-9]*\.[0-9a-f]*@example.org>$" iso &&
	GIT_COMMITTER_DATE="Tue, 2 Jan 2024 10:30:00 +0200" respin reply "$LRU" $P1 >rfc &&
	test "$(header Date rfc)" = "Tue, 2 Jan 2024 10:30:00 +0200" &&
	GIT_COMMITTER_DATE="@1704067200 -0130" respin reply "$LRU" $P1 >raw &&
	test "$(header Date raw)" = "Sun, 31 Dec 2023 22:30:00 -0130"
'

test_expect_success 'the attribution line and the quote; the signature is cut' '
	test_grep "^On Fri, 12 Jan 2024 02:33:19 +0800, Kairui Song wrote:$" d &&
	test_grep "^> When lru_gen is aging, it will update mm counters page by page,$" d &&
	test_grep "^> +		lru_gen_update_batch(lruvec, type, zone, &batch);$" d &&
	! grep "^> -- $" d && ! grep "^> 2\.43" d &&
	! grep "^[^>O]" d | sed -n "/^\$/,\$p" | grep . >/dev/null
'

test_expect_success 'it parses back as mail: respin thread reads it as a reply' '
	{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970" && cat d; } >d.mbox &&
	cat "$LRU" d.mbox >both.mbox &&
	respin thread both.mbox $P1 >t &&
	test_grep "reply .* Rev Iewer <rev@example.org>" t
'

test_expect_success 'reply-all never puts the user in To or Cc' '
	git config user.email akpm@linux-foundation.org &&
	test_when_finished "git config user.email rev@example.org" &&
	respin reply "$LRU" $P1 >d2 &&
	header Cc d2 >cc2 && ! grep -i "akpm@linux-foundation.org" cc2 &&
	test "$(header From d2)" = "Rev Iewer <akpm@linux-foundation.org>"
'

test_expect_success '--review adds the trailer with the user, under the quote' '
	respin reply "$LRU" $P1 --review >d &&
	tail -n 1 d >last && test_grep "^Reviewed-by: Rev Iewer <rev@example.org>$" last &&
	respin reply "$LRU" $P1 --ack >d && tail -n 1 d >last &&
	test_grep "^Acked-by: Rev Iewer <rev@example.org>$" last &&
	respin reply "$LRU" $P1 --tested >d && tail -n 1 d >last &&
	test_grep "^Tested-by: Rev Iewer <rev@example.org>$" last
'

test_expect_success 'a trailer given by a reply draft is collected by respin thread' '
	respin reply "$LRU" 20240111183321.19984-1-ryncsn@gmail.com --review -o drafts.mbox >out &&
	cat "$LRU" drafts.mbox >both.mbox &&
	respin thread both.mbox 20240111183321.19984-1-ryncsn@gmail.com --json >t.json &&
	test_grep "\"value\": \"Rev Iewer <rev@example.org>\"" t.json
'

test_expect_success '-o appends to an mbox, one draft after the other' '
	rm -f drafts.mbox &&
	respin reply "$LRU" $P1 -o sub/drafts.mbox >out &&
	test_grep "^draft <.*@example.org> appended to sub/drafts.mbox$" out &&
	respin reply "$LRU" 20240111183321.19984-3-ryncsn@gmail.com -o sub/drafts.mbox >out &&
	test $(grep -c "^From mboxrd@z" sub/drafts.mbox) = 2 &&
	test $(grep -c "^In-Reply-To: " sub/drafts.mbox) = 2
'

test_expect_success '--maildir: a draft in cur/ with the D flag, nothing left in tmp/' '
	respin reply "$LRU" $P1 --maildir md >out &&
	test_grep "^draft <.*> in md/cur/.*:2,D$" out &&
	test $(ls md/cur | wc -l) = 1 && test $(ls md/tmp | wc -l) = 0 &&
	test -d md/new &&
	f=$(ls md/cur/*) && test_grep "^In-Reply-To: <$P1>$" "$f"
'

test_expect_success 'respin.reply.maildir is where drafts go by default' '
	git config respin.reply.maildir "$PWD/drafts" &&
	test_when_finished "git config --unset respin.reply.maildir" &&
	respin reply "$LRU" $P1 >out &&
	test $(ls drafts/cur | wc -l) = 1
'

test_expect_success 'a notmuch database indexes the draft as a reply in the thread' '
	mkdir -p mail && cp "$LRU" mail/ && rm -rf mail/.notmuch &&
	mkdir -p mail/cur mail/new mail/tmp &&
	awk "/^From mboxrd@z/ { n++; f = sprintf(\"mail/cur/m%d:2,\", n); next } { print > f }" "$LRU" &&
	rm mail/v2.mbox &&
	printf "[database]\npath=$PWD/mail\n[user]\nname=Rev Iewer\nprimary_email=rev@example.org\n[new]\ntags=new\n" >nm.cfg &&
	NOTMUCH_CONFIG=$PWD/nm.cfg notmuch new --quiet &&
	NOTMUCH_CONFIG=$PWD/nm.cfg respin reply "$LRU" $P1 --review --maildir mail/drafts >out &&
	NOTMUCH_CONFIG=$PWD/nm.cfg notmuch new --quiet &&
	NOTMUCH_CONFIG=$PWD/nm.cfg notmuch search --output=messages "thread:{id:$P1}" >ids &&
	test $(wc -l <ids) = 6 &&
	NOTMUCH_CONFIG=$PWD/nm.cfg notmuch search --output=files "from:rev@example.org" >f &&
	test_grep "drafts/cur/" f
'

if git send-email --help >/dev/null 2>&1; then
test_expect_success 'git send-email --dry-run accepts the draft' '
	respin reply "$LRU" $P1 --review >d.eml &&
	git send-email --dry-run --confirm=never --smtp-server=/bin/true \
		--no-validate d.eml >sent 2>&1 &&
	test_grep "^Dry-OK" sent &&
	test_grep "^Subject: Re: \[PATCH v2 1/3\] mm, lru_gen: batch update counters on againg$" sent &&
	test_grep "Adding cc: linux-mm@kvack.org from line .Cc: " sent &&
	test_grep "^In-Reply-To: <$P1>$" sent
'
else
	test_skip "git send-email is not installed (make deps installs git-email)"
fi

test_expect_success 'non-ASCII names and subjects are encoded words; the body is 8bit UTF-8' '
	PM_FROM="Jörg Rödel <joro@example.org>" PM_SUBJECT="[PATCH] mm: größer" \
		patch_mail 1 u1@example.org >u.mbox &&
	git config user.name "Zoë Reviewer" &&
	test_when_finished "git config user.name \"Rev Iewer\"" &&
	respin reply u.mbox u1@example.org --review >d &&
	test_grep -i "^From: =?utf-8?b?" d && test_grep -i "^Subject: Re: \[PATCH\] mm: =?utf-8?b?" d &&
	test_grep "^On Tue, 14 Nov 2023 22:13:21 +0000, Jörg Rödel wrote:$" d &&
	test_grep "^Content-Transfer-Encoding: 8bit$" d &&
	test_grep "^Reviewed-by: Zoë Reviewer <rev@example.org>$" d &&
	{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970" && cat d; } >d.mbox &&
	cat u.mbox d.mbox >both.mbox &&
	respin thread both.mbox u1@example.org --json >j &&
	test_grep "\"from\": \"Zoë Reviewer <rev@example.org>\"" j &&
	test_grep "\"value\": \"Zoë Reviewer <rev@example.org>\"" j
'

test_expect_success 'a long tail of older quotes is cut to one line' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Top Poster <top@example.org>\nTo: list@example.org\nSubject: Re: [PATCH] x\nMessage-Id: <top@example.org>\nIn-Reply-To: <x@example.org>\n\nLooks fine to me.\n\n" &&
	  for i in $(seq 1 30); do echo "> older line $i" || return 1; done &&
	  printf "\n-- \nTop Poster, Example Corp\n"; } >top.mbox &&
	respin reply top.mbox top@example.org >d &&
	test_grep "^> Looks fine to me\.$" d &&
	test_grep "^> \[\.\.\.\]$" d &&
	! grep "older line" d && ! grep "Example Corp" d &&
	test "$(header References d)" = "<x@example.org> <top@example.org>"
'

test_expect_success 'a short quoted tail stays' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: B <b@example.org>\nSubject: Re: x\nMessage-Id: <short@example.org>\n\n> a\n> b\nI agree.\n> c\n" ; } >short.mbox &&
	respin reply short.mbox short@example.org >d &&
	test_grep "^>> a$" d && test_grep "^> I agree\.$" d && test_grep "^>> c$" d
'

test_expect_success 'an HTML-only message: threaded, nothing quoted, said so' '
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: H <h@example.org>\nSubject: html\nMessage-Id: <html@example.org>\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n<p>hello</p>\n" >html.mbox &&
	respin reply html.mbox html@example.org >d &&
	test_grep "^In-Reply-To: <html@example.org>$" d &&
	test_grep "^> \[an HTML message: not quoted\]$" d && ! grep "<p>" d
'

test_expect_success 'a Cc of 5,000 addresses: each once, folded, the user left out' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Big <big@example.org>\nSubject: big\nMessage-Id: <big@example.org>\nCc: " &&
	  for i in $(seq 1 5000); do printf "u%d@example.org, " $i || return 1; done &&
	  printf "U1@EXAMPLE.ORG, rev@example.org\n\nbody\n"; } >big.mbox &&
	respin reply big.mbox big@example.org >d &&
	header Cc d | tr "," "\n" | grep -c "@example.org" >n &&
	test "$(cat n)" = 5000 &&
	! header Cc d | grep -q "rev@example.org" &&
	awk "length > 998 { bad = 1 } END { exit bad }" d
'

test_expect_success 'a To of a million addresses: refused before it is parsed, nothing written' '
	awk "BEGIN { printf \"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Big <big@example.org>\nSubject: huge\nMessage-Id: <huge@example.org>\nTo: \";
		for (i = 0; i < 1000000; i++) printf \"u%d@example.org, \", i;
		printf \"x@example.org\n\nbody\n\" }" >huge.mbox &&
	test_expect_code 128 respin reply huge.mbox huge@example.org -o huge-draft.mbox 2>err &&
	test_grep "<huge@example.org>: its To header names 1000001 addresses, more than the 20000 a reply-all draft takes; nothing was written" err &&
	test_path_is_missing huge-draft.mbox
'

test_expect_success 'a Message-ID that is not there: 128, naming the source' '
	test_expect_code 128 respin reply "$LRU" nosuch@example.org >out 2>err &&
	test_grep "no message <nosuch@example.org> in mbox .*v2.mbox" err &&
	test_must_be_empty out
'

test_expect_success 'no user.email: 128 with what to do, nothing written' '
	HOME=$TRASH/nohome && mkdir -p "$HOME" && export HOME &&
	(cd "$TRASH" && test_expect_code 128 respin reply "$LRU" $P1 -o "$TRASH/none.mbox" 2>"$TRASH/err") &&
	test_grep "who is replying" "$TRASH/err" &&
	test_grep "git config --global user.email" "$TRASH/err" &&
	test_path_is_missing "$TRASH/none.mbox"
'

test_expect_success 'usage errors: 129' '
	test_expect_code 129 respin reply "$LRU" $P1 --ack --review 2>err &&
	test_grep "give one" err &&
	test_expect_code 129 respin reply "$LRU" $P1 -o x.mbox --maildir md2 &&
	test_path_is_missing x.mbox && test_path_is_missing md2 &&
	test_expect_code 129 respin reply "$LRU"
'

test_expect_success 'an mbox that cannot be written: 128, naming it' '
	mkdir ro && chmod 500 ro &&
	test_when_finished "chmod 700 ro" &&
	if test "$(id -u)" = 0; then
		echo "x" >plain && test_expect_code 128 respin reply "$LRU" $P1 -o plain/x.mbox 2>err &&
		test_grep "plain" err
	else
		test_expect_code 128 respin reply "$LRU" $P1 -o ro/x.mbox 2>err &&
		test_grep "ro/x.mbox" err
	fi
'

test_expect_success '--results outside a repository: 128, saying why' '
	(cd "$TRASH" && test_expect_code 128 respin reply "$LRU" $P1 --results 2>"$TRASH/err") &&
	test_grep "results of respin check" "$TRASH/err"
'

test_expect_success '--results for a patch no series holds: 128, what to do' '
	test_expect_code 128 respin reply "$LRU" $P1 --results >out 2>err &&
	test_grep "no recorded version holds <$P1>" err &&
	test_must_be_empty out
'

# The stored results of a checked series, found by the patch-id of the
# mail's diff (the patches were sent by hand with respin format).
cd "$TRASH" || exit 1
make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "Rev Iewer" && git config user.email rev@example.org
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.org'
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
git config respin.check.ok.kind command
git config respin.check.ok.command true
git config respin.check.mmfail.kind command
git config respin.check.mmfail.command "! grep -q vmscan_extra mm/vmscan.c"
cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
base=100
grep -q vmscan_extra mm/vmscan.c && base=110
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
awk -v b=$base -v s=$seed 'BEGIN { srand(s); printf "respin-metric: ops %.3f\n", b + (rand() - 0.5) }'
EOB
git config respin.check.ops.kind bench
git config respin.check.ops.command "sh $TRASH/bench.sh"
git config respin.check.ops.runs 5..8

test_expect_success '--results: the patch'"'"'s own results, a check a line' '
	test_expect_code 1 respin check a >out 2>err &&
	respin format a -o mails >out &&
	p3=$(ls mails/*0003-*.patch) &&
	id=$(header Message-Id "$p3" | tr -d "<>") &&
	respin reply "$p3" "$id" --results >d &&
	test_grep "^respin check of a v1 3/3 (commit [0-9a-f]\{12\}):$" d &&
	test_grep "^  ok: ok$" d &&
	test_grep "^  mmfail: FAIL" d &&
	test_grep "^  ops: 1[01][0-9]\.[0-9][0-9] vs [0-9.]* at the base: +[0-9.]*% (95% interval +[0-9.]*% \.\. +[0-9.]*%, p=.*), better, higher is better, n=[0-9]* and [0-9]*$" d
'

test_expect_success '--results with --review: results, then the trailer' '
	p1=$(ls mails/*0001-*.patch) &&
	id=$(header Message-Id "$p1" | tr -d "<>") &&
	respin reply "$p1" "$id" --results --review >d &&
	test_grep "^respin check of a v1 1/3" d && test_grep "^  mmfail: ok$" d &&
	tail -n 1 d >last && test_grep "^Reviewed-by: Rev Iewer <rev@example.org>$" last
'

test_expect_success '--results on the cover letter: a block a patch' '
	c=$(ls mails/*0000-cover-letter.patch) &&
	id=$(header Message-Id "$c" | tr -d "<>") &&
	cat mails/*.patch >all.mbox &&
	respin reply all.mbox "$id" --results >d &&
	test_grep "^respin check of a v1, at the base and after each patch:$" d &&
	test_grep "^  3/3 mm/vmscan: add vmscan_extra()$" d
'

test_done
