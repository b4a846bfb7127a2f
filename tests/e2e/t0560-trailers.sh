#!/bin/sh
# respin trailers: the trailers reviewers gave, per patch, carried to the
# next version only where the diff did not change; --apply writes them
# into the series' own commits, kernel order, once, and refuses others'.
. "$(dirname "$0")/lib.sh"

SP=$TEST_DATA/mail/spinlock-oops
git init -q r && cd r && git commit -q --allow-empty -m init || exit 1
cat "$SP"/v1.mbox "$SP"/v2.mbox "$SP"/v3.mbox "$SP"/v4.mbox >sp.mbox
respin import sp sp.mbox --mail-only --all >/dev/null 2>&1 || { echo "Bail out! no import"; exit 1; }

# v4's 1/3 carries the Reviewed-by Andrew Donnellan gave v1, but its code
# changed since (CONFIG_PPC_BOOK3S became CONFIG_PPC_PSERIES): stale.
test_expect_success 'real thread: given to v1, there already in v4; 1/3 stale' '
	respin trailers sp --source sp.mbox >out &&
	test_grep "^sp v4: 0 trailers to add, 1 there already, 0 not carried, 1 stale$" out &&
	test_grep ! "kbuild test robot" out &&
	test_grep "^    ! Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com>  (v1 1/3, <3468d006-63e2-8e20-47d6-fe41de31b14b@linux.ibm.com>; given on v1 before 1/3'"'"'s code changed)$" out &&
	test_grep "^    = Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com>  (v1 2/3, <e518948b-a849-051b-79ae-880306c09881@linux.ibm.com>; there already)$" out
'

test_expect_success 'real thread, v1: the reviews given to v1 itself are new' '
	respin trailers sp@v1 --source sp.mbox --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my @n = map { scalar grep { \$_->{state} eq q(new) } @{\$_->{trailers}} } @{\$d->{patches}};
		exit 2 unless qq(@n) eq q(1 1 0);
		my \$t = \$d->{patches}[0]{trailers}[0];
		exit 3 unless \$t->{key} eq q(Reviewed-by) && \$t->{from} =~ /ajd\@linux.ibm.com/;
	" <j
'

# b4 0.12 as the peer: where it does not crash (v1 here; on v2-v4 it
# fails on their folded headers), the trailers it collects per patch are
# what respin lists as given (new or there already).
# per patch "i=Key: value,Key: value|..." from b4's .mbx and from
# respin's JSON (what it lists as given: new or there already)
cat >"$TRASH/b4-trailers.pl" <<'EOP'
local $/; my $t = <STDIN>; my %b;
for my $m (split /^From /m, $t) {
	next unless $m =~ /^Subject: \[PATCH[^\]]* (\d+)\/\d+\]/m;
	my $i = $1;
	push @{$b{$i}}, $1 while $m =~ /^((?:Reviewed|Acked|Tested|Reported|Suggested)-by: .*)$/mg;
}
print join('|', map { "$_=" . join(',', sort @{$b{$_} || []}) } 1..$ARGV[0]), "\n";
EOP
cat >"$TRASH/respin-trailers.pl" <<'EOP'
use JSON::PP; local $/; my $d = decode_json(<STDIN>);
print join('|', map { my $p = $_; "$p->{index}=" . join(',', sort map { "$_->{key}: $_->{value}" }
	grep { $_->{state} ne 'not-carried' } @{$p->{trailers}}) } @{$d->{patches}}), "\n";
EOP
if command -v b4 >/dev/null; then
test_expect_success 'the same trailers per patch as b4 am on the real v1 thread' '
	mkdir b4out && (cd b4out && b4 -n am -m "$SP/v1.mbox" -o . \
		20190728125438.1550-1-cmr@informatik.wtf >/dev/null 2>&1) &&
	cat b4out/*.mbx | perl "$TRASH/b4-trailers.pl" 3 >b4.txt &&
	respin trailers sp@v1 --source sp.mbox --json >j &&
	perl "$TRASH/respin-trailers.pl" <j >respin.txt &&
	check_same b4.txt respin.txt &&
	test_grep "Andrew Donnellan" b4.txt
'

LRU=$TEST_DATA/mail/lru_gen-batch
cat "$LRU"/v1.mbox "$LRU"/v2.mbox "$LRU"/v3.mbox >lru.mbox
respin import lru lru.mbox --mail-only --all >/dev/null 2>&1 || { echo "Bail out! no lru import"; exit 1; }
test_expect_success 'the same as b4 am on each real lru_gen-batch version (none given)' '
	for v in 1 2 3; do
		id=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$LRU/v$v.mbox" | head -n 1) &&
		rm -rf b4lru && mkdir b4lru &&
		(cd b4lru && b4 -n am -m "$LRU/v$v.mbox" -o . "$id" >/dev/null 2>&1) &&
		n=$(respin show lru@v$v --json | perl -MJSON::PP -e "local \$/; print scalar @{decode_json(<STDIN>)->{patches}}") &&
		cat b4lru/*.mbx | perl "$TRASH/b4-trailers.pl" $n >b4.txt &&
		respin trailers lru@v$v --source lru.mbox --json >j &&
		perl "$TRASH/respin-trailers.pl" <j >respin.txt &&
		check_same b4.txt respin.txt || return 1
	done
'
else
	test_skip "b4 is not installed (make deps)"
	test_skip "b4 is not installed (make deps)"
fi

# A series of our own: sent, answered, the answers written back.
cd "$TRASH" && make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null
cat >"$TRASH/smtp" <<EOF
#!/bin/sh
{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970"; cat; echo; } >>"$TRASH/sent.mbox"
EOF
chmod +x "$TRASH/smtp"
git config sendemail.smtpServer "$TRASH/smtp"
git config sendemail.confirm never
git config sendemail.suppressCc all
git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"
respin send a --to "List <list@example.org>" >/dev/null 2>&1 || { echo "Bail out! no send"; exit 1; }
ids=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox")
cover=$(echo "$ids" | sed -n 1p) p1=$(echo "$ids" | sed -n 2p) p2=$(echo "$ids" | sed -n 3p)

# reply FROM PARENT ID BODY: a reply mail
reply() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: Re: x\nMessage-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%b\n" "$1" "$3" "$2" "$2" "$4"
}
{ cat "$TRASH/sent.mbox" &&
  reply "Ann Acker <ann@example.org>" "$cover" r1@example.org "Nice.\n\nAcked-by: Ann Acker <ann@example.org>" &&
  reply "Rita Rev <rita@example.org>" "$p1" r2@example.org "> Reviewed-by: Not Me <quoted@example.org>\n\nLooks right.\n\nReviewed-by: Rita Rev <rita@example.org>" &&
  reply "Tess Ter <tess@example.org>" "$p2" r3@example.org "Tested-by: Tess Ter <tess@example.org>" &&
  reply "Tess Ter <tess@example.org>" "$p2" r4@example.org "Again:\n\nTested-by: Tess Ter <TESS@example.org>"; } >all.mbox

test_expect_success 'given to v1: the cover'"'"'s for every patch, quoted ones not, each once' '
	respin trailers a --source all.mbox >out &&
	test_grep "^a v1: 5 trailers to add, 0 there already, 0 not carried$" out &&
	test_grep "^    + Acked-by: Ann Acker <ann@example.org>  (v1 cover letter, <r1@example.org>)$" out &&
	test_grep "^    + Reviewed-by: Rita Rev <rita@example.org>  (v1 1/3, <r2@example.org>)$" out &&
	test_grep "^    + Tested-by: Tess Ter <tess@example.org>  (v1 2/3, <r3@example.org>)$" out &&
	test_grep ! "quoted@example.org" out &&
	test $(grep -c "Tested-by" out) = 1
'

test_expect_success 'a trailer with no address is listed as such, never one to add' '
	{ cat all.mbox &&
	  reply "Bad Addr <bad@example.org>" "$p1" r5@example.org "Reviewed-by: Bad Addr\nAcked-by: Odd <not an address>\nTested-by: <x@nodot>"; } >bad.mbox &&
	respin trailers a --source bad.mbox >out &&
	test_grep "^a v1: 5 trailers to add, 0 there already, 3 not carried$" out &&
	test_grep "^    - Reviewed-by: Bad Addr  (v1 1/3, <r5@example.org>; not carried: it names no address)$" out &&
	test_grep "^    - Acked-by: Odd <not an address>  (v1 1/3, <r5@example.org>; not carried: it names no address)$" out &&
	test_grep "^    - Tested-by: <x@nodot>  (v1 1/3, <r5@example.org>; not carried: it names no address)$" out &&
	respin trailers a --source bad.mbox --apply --dry-run >out &&
	test_grep "^a v1: would write trailers into 3 commits" out
'

test_expect_success '--apply --dry-run: says what, writes nothing' '
	git rev-parse work >before &&
	respin trailers a --source all.mbox --apply --dry-run >out &&
	test_grep "^a v1: would write trailers into 3 commits and move work; nothing written$" out &&
	git rev-parse work >after && check_same before after
'

test_expect_success '--apply: the trailers before the submitter'"'"'s Signed-off-by, once' '
	old=$(git rev-parse work) &&
	respin trailers a --source all.mbox --apply >out &&
	test_grep "^a v1: trailers written into 3 commits; work moved" out &&
	git log -1 --format=%B work~2 >m1 &&
	printf "%s\n" "mm/compaction: guard fragmentation_index() against a zero request" "" \
		"A zero request cannot fragment anything: return 0 early." "" \
		"Acked-by: Ann Acker <ann@example.org>" \
		"Reviewed-by: Rita Rev <rita@example.org>" \
		"Signed-off-by: A U Thor <author@example.org>" "" >want &&
	check_same want m1 &&
	git log -1 --format=%B work~1 >m2 && test $(grep -c "^Tested-by: Tess Ter" m2) = 1 &&
	git diff --quiet $old work &&
	test "$(git log --format=%an%ae $old~3..$old)" = "$(git log --format=%an%ae work~3..work)"
'

test_expect_success 'v1 is as it was; v1 was sent, so --apply recorded v2' '
	respin show a@v1 --json >j && test_grep "\"tip\": \"$(git rev-parse work@{1})\"" j &&
	respin show a --json >j && test_grep "\"tip\": \"$(git rev-parse work)\"" j &&
	test_grep "\"version\": 2," j
'

test_expect_success 'a second --apply on the new tip: nothing twice' '
	respin track a >/dev/null &&
	respin trailers a@v2 --source all.mbox >out &&
	test_grep "^a v2: 0 trailers to add, 5 there already" out &&
	respin trailers a@v2 --source all.mbox --apply >out &&
	test_grep "^a v2: nothing to write$" out
'

test_expect_success 'a changed patch: its trailers are not carried, and it says why' '
	v1=$(git rev-parse work@{1}) &&
	git checkout -q $v1~1 && sed -i "s/int unused_marker;/int unused_marker2;/" mm/compaction.c &&
	git commit -q --amend -a --no-edit && git cherry-pick $v1 >/dev/null &&
	git branch -f work HEAD && git checkout -q work &&
	mark_sent a && respin track a >/dev/null &&
	respin trailers a@v3 --source all.mbox >out &&
	test_grep "^a v3: 3 trailers to add, 0 there already, 2 not carried$" out &&
	test_grep "^    - Tested-by: Tess Ter <tess@example.org>  (v1 2/3, <r3@example.org>; not carried: its diff changed since v1)$" out &&
	test_grep "^    - Acked-by: Ann Acker <ann@example.org>  (v1 cover letter, <r1@example.org>; not carried: this patch changed since v1)$" out &&
	test_grep "^    + Reviewed-by: Rita Rev <rita@example.org>  (v1 1/3, <r2@example.org>)$" out
'

test_expect_success 'a commit by someone else in the range: refused, naming it, nothing moved' '
	GIT_AUTHOR_EMAIL=someone@example.org GIT_AUTHOR_NAME="Some One" \
		git commit -q --amend --reset-author -m "mm/vmscan: add vmscan_extra()" \
		-m "A helper for later, by someone else." \
		-m "Signed-off-by: Some One <someone@example.org>" &&
	respin track a >/dev/null &&
	git rev-parse work >before &&
	test_expect_code 128 respin trailers a --source all.mbox --apply >out 2>err &&
	test_grep "3/3 [0-9a-f]* \"mm/vmscan: add vmscan_extra()\" is by Some One <someone@example.org>, signed off last by someone@example.org and committed by C O Mitter <committer@example.org>: not a patch you send (author@example.org)" err &&
	git rev-parse work >after && check_same before after
'

test_expect_success 'no branch at the tip: refused' '
	git checkout -q --detach && git branch -f work work~1 &&
	test_expect_code 128 respin trailers a --source all.mbox --apply 2>err &&
	test_grep "no branch points at the tip of v" err
'

test_expect_success '--dry-run alone is a usage error' '
	test_expect_code 129 respin trailers a --dry-run
'

test_expect_success 'an unknown series: 128, naming it' '
	test_expect_code 128 respin trailers nosuch 2>err &&
	test_grep "no series named .nosuch." err
'

test_done
