#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin review across a split: v1's 1/5 became v2's 1/6 and 2/6.  The
# review pairs v1's patches with v2's as respin diff does (split into
# 1/6, 2/6), and a comment on v1 1/5 is followed into the v2 patch that
# holds the lines it quotes: open where they are still there, addressed
# where they changed, never "changed" only because they moved.
. "$(dirname "$0")/lib.sh"

git send-email --help >/dev/null 2>&1 || test_skip_all "git send-email is not installed (make deps)"
make_fixture k && cd k || exit 1
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false

# part NAME N: a new file mm/NAME.c with a function of N lines
part() {
	{ printf '/* %s: one half of the split */\nint %s_count(int nr)\n{\n' "$1" "$1" &&
	  i=1 && while [ $i -le "$2" ]; do
		printf '\tnr = nr * %d + %s_step_%d(nr);\n' $i "$1" $i && i=$((i + 1))
	  done &&
	  printf '\treturn nr;\n}\n'; } >"mm/$1.c" &&
	git add "mm/$1.c"
}
# commit SUBJECT
commit() {
	tick && git commit -qm "$1" -m "Why: $1." -m "Signed-off-by: A U Thor <author@example.org>"
}
# others: patches 2..5, one small file each
others() {
	for n in 2 3 4 5; do
		printf '/* other %d */\nint other_%d(void) { return %d; }\n' $n $n $n >"mm/other$n.c" &&
		git add "mm/other$n.c" && commit "mm/other: add other_$n()" || return 1
	done
}

git checkout -q -b work mm-unstable &&
part alpha 8 && part beta 6 && commit "mm/split: add alpha_count() and beta_count()" &&
others || exit 1
respin track a --base mm-unstable >/dev/null || { echo "Bail out! no series"; exit 1; }
printf 'mm: five things\n\nFive.\n' >"$TRASH/cover.txt"
respin cover a --file "$TRASH/cover.txt" >/dev/null
fake_smtp
git config sendemail.suppressCc all
respin send a --to "List <list@example.org>" >/dev/null 2>&1 || { echo "Bail out! no send"; exit 1; }
p1=$(sed -n "s/^Message-I[dD]: <\(.*\)>$/\1/p" "$TRASH/sent.mbox" | sed -n 2p)

# three comments on 1/5: a line of beta (moved to 2/6, unchanged), a
# line of beta that v2 changes, a line of alpha (1/6, unchanged)
{ cat "$TRASH/sent.mbox" &&
  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Rita Rev <rita@example.org>\nSubject: Re: x\nDate: Wed, 15 Nov 2023 10:00:00 +0000\nMessage-Id: <split-rev@example.org>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%b\n" \
	"$p1" "$p1" "On Tue, A U Thor wrote:\n> +\tnr = nr * 2 + beta_step_2(nr);\n\nWhy times two?\n\n> +\tnr = nr * 5 + beta_step_5(nr);\n\nFive is too many.\n\n> +\tnr = nr * 3 + alpha_step_3(nr);\n\nAnd three here?\n"; } >all.mbox

test_expect_success 'v2 splits 1/5 into 1/6 and 2/6; respin diff says so' '
	git checkout -q -b v2 mm-unstable &&
	part alpha 8 && commit "mm/split: add alpha_count()" &&
	part beta 6 && sed -i "s/nr \* 5 + beta_step_5/nr * 4 + beta_step_5/" mm/beta.c &&
	git add mm/beta.c && commit "mm/split: add beta_count()" &&
	others && git branch -f work v2 && git checkout -q work &&
	respin track a >out && test_grep "v2" out &&
	respin diff a v1 v2 -s >d &&
	test_grep "split into 1/6, 2/6" d
'

test_expect_success 'the comments follow their lines into 1/6 and 2/6' '
	respin review a@v1 --source all.mbox >out &&
	test_grep "^a v1: 3 comments (2 open, 0 answered, 1 addressed, 0 done), 0 trailers$" out &&
	test_grep "^  \[split-rev@example.org:1\] open (in v2 2/6)  Rita Rev" out &&
	test_grep "^  \[split-rev@example.org:2\] addressed (changed in v2 2/6)  Rita Rev" out &&
	test_grep "^  \[split-rev@example.org:3\] open (in v2 1/6)  Rita Rev" out
'

test_expect_success 'as JSON: the state and where the comment went' '
	respin review a@v1 --source all.mbox --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my (\$r) = grep { \$_->{message_id} =~ /^split-rev/ } @{\$d->{replies}};
		exit 2 unless \$r && \$r->{patch} == 1;
		my @c = @{\$r->{comments}};
		exit 3 unless \$c[0]{state} eq q(open) && \$c[0]{why} eq q(in v2 2/6);
		exit 4 unless \$c[1]{state} eq q(addressed) && \$c[1]{why} eq q(changed in v2 2/6);
	" <j
'

test_done
