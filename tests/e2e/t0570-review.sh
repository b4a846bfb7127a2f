#!/bin/sh
# respin review: review comments per patch with what they answer, placed
# in the diff; open, answered by the author, addressed by the next
# version, or marked done.
. "$(dirname "$0")/lib.sh"

SP=$TEST_DATA/mail/spinlock-oops
git init -q r && cd r && git commit -q --allow-empty -m init || exit 1
cat "$SP"/v1.mbox "$SP"/v2.mbox "$SP"/v3.mbox >sp.mbox
respin import sp sp.mbox --mail-only --all >/dev/null 2>&1 || { echo "Bail out! no import"; exit 1; }

test_expect_success 'a real thread: the comments on v1, placed in the diff; addressed by v2 where it changed what they quote' '
	respin review sp@v1 --source sp.mbox >out &&
	test_grep "^sp v1: 5 comments (2 open, 1 answered, 2 addressed, 0 done), 2 trailers$" out &&
	test_grep "^  \[87ef27us38.fsf@morokweng.localdomain:1\] addressed (changed in v2 1/3)  Thiago Jung Bauermann <bauerman@linux.ibm.com> " out &&
	test_grep "^      arch/powerpc/include/asm/spinlock.h @@ -101,15 +101,24 @@ static inline int arch_spin_trylock" out &&
	test_grep "^      CONFIG_PPC_SPLPAR depends on CONFIG_PPC_PSERIES, which depends on$" out &&
	test_grep "^  Reviewed-by: Andrew Donnellan <ajd@linux.ibm.com>  (<" out &&
	test_grep "^  \[87d0hrukom.fsf@morokweng.localdomain:1\] answered (<1710393174.412654.1564540568692@privateemail.com>)" out &&
	test_grep "^  \[3468d006-63e2-8e20-47d6-fe41de31b14b@linux.ibm.com:1\] open " out &&
	test_grep "^  \[750b390e-678d-0b26-d004-f05f1dcd52fb@linux.ibm.com:1\] open " out
'

test_expect_success 'the whole patch quoted: a comment is placed by the hunk it follows' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Whole Quoter <wq@example.org>\nSubject: Re: [PATCH 1/3] powerpc/spinlocks: Refactor SHARED_PROCESSOR\nDate: Mon, 29 Jul 2019 10:00:00 +0000\nMessage-Id: <whole@example.org>\nIn-Reply-To: <20190728125438.1550-2-cmr@informatik.wtf>\n\n" &&
	  sed -n "182,248p" "$SP/v1.mbox" | sed "s/^/> /" &&
	  printf "\nWhy is the write side not converted too?\n\n"; } >whole.mbox &&
	cat sp.mbox whole.mbox >sp-whole.mbox &&
	respin review sp@v1 --source sp-whole.mbox >out &&
	sed -n "/\[whole@example.org:1\]/,/^  \[/p" out >c &&
	test_grep "^      arch/powerpc/include/asm/spinlock.h @@ -240,7 +249,7 @@ static inline void arch_write_lock" c
'

test_expect_success 'the real thread as JSON: quote and text of each comment' '
	respin review sp@v1 --source sp.mbox --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my (\$r) = grep { \$_->{message_id} =~ /^87ef27us38/ } @{\$d->{replies}};
		exit 2 unless \$r && \$r->{patch} == 1;
		my \$c = \$r->{comments}[0];
		exit 3 unless \$c->{quote} =~ /is_shared_processor/ && \$c->{text} =~ /short-circuit/;
		exit 4 unless \$c->{file} eq q(arch/powerpc/include/asm/spinlock.h) && \$c->{state} eq q(addressed);
	" <j
'

test_expect_success 'a bot'"'"'s mail is its report, not review comments' '
	respin review sp@v3 --source sp.mbox >out &&
	test_grep "^sp v3: 1 comment (1 open, 0 answered, 0 addressed, 0 done), 0 trailers, 1 bot report$" out &&
	test_grep "^  ! report by kbuild test robot <lkp@intel.com>: build errors  (<201908120917.L7bXpUsz%lkp@intel.com>)$" out &&
	test_grep "^  \[878srysi1f.fsf@concordia.ellerman.id.au:1\] open  Michael Ellerman" out &&
	respin review sp@v3 --source sp.mbox --json >j && test_grep "\"bot_reports\"" j
'

# A series of our own, sent and reviewed.
cd "$TRASH" && make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
printf "mm: three small things\n\nThree.\n" >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null
printf '#!/bin/sh\n{ echo "From mboxrd@z Thu Jan  1 00:00:00 1970"; cat; echo; } >>"%s/sent.mbox"\n' "$TRASH" >"$TRASH/smtp"
chmod +x "$TRASH/smtp"
git config sendemail.smtpServer "$TRASH/smtp"
git config sendemail.confirm never
git config sendemail.suppressCc all
git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"
respin send a --to "List <list@example.org>" >/dev/null 2>&1 || { echo "Bail out! no send"; exit 1; }
ids=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox")
p2=$(echo "$ids" | sed -n 3p) p3=$(echo "$ids" | sed -n 4p)

reply() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: Re: x\nDate: Wed, 15 Nov 2023 10:00:00 +0000\nMessage-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%b\n" "$1" "$3" "$2" "$2" "$4"
}
{ cat "$TRASH/sent.mbox" &&
  reply "Rita Rev <rita@example.org>" "$p2" c1@example.org "On Tue, A U Thor wrote:\n> Nothing uses it yet.\n\nThen why add it now?\n\n> +\tint unused_marker;\n\nA better name, please.\n\nReviewed-by: Rita Rev <rita@example.org>\n\n-- \nRita" &&
  reply "Vic Tor <vic@example.org>" "$p3" c2@example.org "> +int vmscan_extra(void) { return 1; }   \n\nTrailing blanks here." &&
  reply "A U Thor <author@example.org>" c1@example.org c3@example.org "On Wed, Rita Rev wrote:\n> A better name, please.\n\nWill do in v2."; } >all.mbox

test_expect_success 'comments per patch: the quote it answers, its file and hunk; open or answered' '
	respin review a --source all.mbox >out &&
	test_grep "^a v1: 3 comments (2 open, 1 answered, 0 addressed, 0 done), 1 trailer$" out &&
	test_grep "^  \[c1@example.org:1\] open  Rita Rev <rita@example.org> 2023-11-15 10:00$" out &&
	test_grep "^      > Nothing uses it yet\.$" out && test_grep "^      Then why add it now?$" out &&
	test_grep "^  \[c1@example.org:2\] answered (<c3@example.org>)  Rita Rev" out &&
	test_grep "^      mm/compaction.c @@ " out &&
	test_grep "^  \[c2@example.org:1\] open  Vic Tor <vic@example.org>" out &&
	test_grep "^      mm/vmscan.c @@ " out &&
	test_grep ! "Will do in v2" out && test_grep ! "^      Rita$" out
'

test_expect_success 'acknowledgements are not open comments; tabs in quoted code stay tabs' '
	{ cat all.mbox &&
	  reply "Ack Er <acker@example.org>" "$p3" ack1@example.org "> A helper for later.\n\nLooks good to me.\n" &&
	  reply "Ack Er <acker@example.org>" "$p2" ack2@example.org "Thanks!\n" &&
	  reply "Ack Er <acker@example.org>" "$p3" ack3@example.org "> A helper for later.\n\nThanks, but which later?\n"; } >acks.mbox &&
	respin review a --source acks.mbox >out &&
	test_grep "^a v1: 4 comments (3 open, 1 answered, 0 addressed, 0 done), 1 trailer$" out &&
	test_grep ! "ack1@example.org" out && test_grep ! "ack2@example.org" out &&
	test_grep "^  \[ack3@example.org:1\] open " out &&
	printf "      > +\tint unused_marker;\n" >want &&
	grep -F "unused_marker" out >got &&
	check_same want got
'

test_expect_success 'a reply whose In-Reply-To is not there: placed by its References; HTML only: no comments' '
	{ cat all.mbox &&
	  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Lost <lost@example.org>\nSubject: Re: x\nMessage-Id: <lost@example.org>\nIn-Reply-To: <gone@example.org>\nReferences: <%s> <gone@example.org>\n\nLost but found.\n\n" "$p3" &&
	  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Html <html@example.org>\nSubject: Re: x\nMessage-Id: <html@example.org>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/html\n\n<p>hi</p>\n\n" "$p3"; } >more.mbox &&
	respin review a --source more.mbox >out &&
	test_grep "^  \[lost@example.org:1\] open  Lost <lost@example.org>" out &&
	test_grep "^      Lost but found\.$" out &&
	test_grep ! "<p>" out
'

test_expect_success 'the same review from a real notmuch database' '
	mkdir -p "$TRASH/nm/cur" "$TRASH/nm/new" "$TRASH/nm/tmp" &&
	git mailsplit --mboxrd -o"$TRASH/nm/cur" all.mbox >/dev/null &&
	printf "[database]\npath=%s\n[new]\ntags=new\n[maildir]\nsynchronize_flags=false\n" "$TRASH/nm" >"$TRASH/nm.cfg" &&
	NOTMUCH_CONFIG="$TRASH/nm.cfg" notmuch new --quiet &&
	NOTMUCH_CONFIG="$TRASH/nm.cfg" respin review a --source "notmuch:from:example.org" >nm.out &&
	respin review a --source all.mbox >mbox.out &&
	check_same mbox.out nm.out &&
	NOTMUCH_CONFIG="$TRASH/nm.cfg" respin trailers a --source "notmuch:*" >t &&
	test_grep "^    + Reviewed-by: Rita Rev <rita@example.org>  (v1 2/3, <c1@example.org>)$" t
'

test_expect_success '--done MSGID:N marks one comment; it is stored with the version' '
	respin review a --source all.mbox --done c2@example.org:1 >out &&
	test_grep "^a v1: <c2@example.org>:1 marked done$" out &&
	respin review a --source all.mbox >out &&
	test_grep "^  \[c2@example.org:1\] done " out &&
	git show refs/respin/series/a:v1/review-done >d && test_grep "^c2@example.org:1$" d
'

test_expect_success 'the next version changed the file: the comment there is addressed' '
	git checkout -q work~1 && sed -i "s/int unused_marker;/int marker_for_later;/" mm/compaction.c &&
	git commit -q --amend -a --no-edit && git cherry-pick work >/dev/null &&
	git branch -f work HEAD && git checkout -q work &&
	respin track a >/dev/null &&
	respin review a@v1 --source all.mbox >out &&
	test_grep "^  \[c1@example.org:2\] addressed (changed in v2 2/3)" out &&
	test_grep "^  \[c2@example.org:1\] done" out
'

test_expect_success '--done for what is not a comment: 128, saying where to look' '
	test_expect_code 128 respin review a@v1 --source all.mbox --done nosuch@example.org 2>err &&
	test_grep "<nosuch@example.org> is not a review comment on a v1" err &&
	test_expect_code 128 respin review a@v1 --source all.mbox --done c2@example.org:9 2>err &&
	test_expect_code 129 respin review a@v1 --source all.mbox --done c2@example.org:x
'

test_expect_success 'a version never sent: 128' '
	test_expect_code 128 respin review a@v2 2>err && test_grep "no Message-IDs" err
'

test_expect_success 'the mail is not in the source: 128' '
	test_expect_code 128 respin review a@v1 --source "$TRASH/r/sp.mbox" 2>err &&
	test_grep "is not in" err
'

test_expect_success 'an unknown series: 128, naming it' '
	test_expect_code 128 respin review nosuch 2>err &&
	test_grep "no series named .nosuch." err
'

# lru_gen v3 reordered v2's patches and fixed the typo in two subjects:
# respin diff pairs v2 1/3 "...on againg" with v3 2/3 "...on aging".
cd "$TRASH" && git init -q lru && cd lru && git commit -q --allow-empty -m init || exit 1
LG=$TEST_DATA/mail/lru_gen-batch
cat "$LG"/v1.mbox "$LG"/v2.mbox "$LG"/v3.mbox >lru.mbox
respin import lru lru.mbox --mail-only --all >/dev/null 2>&1 || { echo "Bail out! no lru import"; exit 1; }
{ cat lru.mbox &&
  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Rita Rev <rita@example.org>\nSubject: Re: [PATCH v2 1/3] mm, lru_gen: batch update counters on againg\nDate: Mon, 15 Jan 2024 10:00:00 +0000\nMessage-Id: <lru-rev@example.org>\nIn-Reply-To: <20240111183321.19984-2-ryncsn@gmail.com>\nReferences: <20240111183321.19984-1-ryncsn@gmail.com> <20240111183321.19984-2-ryncsn@gmail.com>\n\n%s\n" \
	"Some numbers would help; see below.

On Fri, Kairui Song wrote:
> When lru_gen is aging, it will update mm counters page by page,

How many pages does one aging move?

> Tested in a 4G memcg on a EPYC 7K62 with:

Only memcached? Try fio too.

> +struct gen_update_batch {

Name it after what it batches.

> +	int delta = folio_nr_pages(folio);

Can this overflow?
"; } >lru-rev.mbox

test_expect_success 'pairing of v2 -> v3 patches is respin diff'"'"'s: a retitled, moved patch is not gone' '
	respin diff lru v2 v3 -s >d &&
	test_grep "^1: *[0-9a-f]* ! 2: .* batch update counters on againg" d &&
	respin review lru@v2 --source lru-rev.mbox >out &&
	test_grep ! "gone in v3" out &&
	test_grep "^  \[lru-rev@example.org:3\] addressed (changed in v3 2/3)  Rita Rev" out
'

test_expect_success 'addressed only where the commented lines changed, not for any change to the patch' '
	respin review lru@v2 --source lru-rev.mbox >out &&
	test_grep "^lru v2: 5 comments (3 open, 0 answered, 2 addressed, 0 done), 0 trailers$" out &&
	test_grep "^  \[lru-rev@example.org:1\] open  Rita Rev" out &&
	test_grep "^  \[lru-rev@example.org:2\] open  Rita Rev" out &&
	test_grep "^  \[lru-rev@example.org:3\] addressed (changed in v3 2/3)" out &&
	test_grep "^  \[lru-rev@example.org:4\] addressed (changed in v3 2/3)" out &&
	test_grep "^  \[lru-rev@example.org:5\] open  Rita Rev" out
'

test_done
