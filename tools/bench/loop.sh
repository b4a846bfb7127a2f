#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The author's review loop against b4's, in the same run: a 5-patch
# series sent as v1 (by each tool, through git's sendmail stand-in), 3
# reviews come back (two Reviewed-by on patches, an Acked-by and a
# comment on the cover letter); then each tool takes them in and gets v2
# ready: respin trailers --apply (v1 was sent, so the rewritten series
# is recorded as v2 there: no track), respin send --dry-run (the cover
# letter carries v1's text and writes its own "Changes in v2" from the
# range-diff); b4 trailers -u, b4 prep --edit-cover (the changelog is
# the author's to write), b4 send --dry-run.  Counted: the commands each
# needs; timed: the loop, median of 3 runs.
set -eu
. "$(dirname "$0")/lib.sh"
bench_init loop
command -v b4 >/dev/null || { echo "loop: b4 is not installed (make deps)" >&2; exit 1; }
# b4 looks for its cover commit among the last year's: the real clock
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a - b }'; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

sh "$src/tools/make-fixture.sh" "$repo" >/dev/null
cd "$repo"
git config gc.auto 0
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
git config b4.send-no-patatt-sign yes
# the SMTP server: git send-email (respin) and b4 hand it each mail
mkdir -p "$tmp/sent"
printf '#!/bin/sh\nn=$(ls "%s/sent" | wc -l)\ncat >"%s/sent/$(printf %%03d $n).eml"\n' \
	"$tmp" "$tmp" >"$tmp/smtp"
chmod +x "$tmp/smtp"
git config sendemail.smtpServer "$tmp/smtp"
git config sendemail.confirm never
git config sendemail.suppressCc all

# five patches
git checkout -q -b work mm-unstable
i=1
while [ $i -le 5 ]; do
	printf '/* loop patch %d */\nint loop_%d(void) { return %d; }\n' $i $i $i >"mm/loop$i.c"
	git add "mm/loop$i.c"
	git commit -q -m "mm/loop: add loop_$i()" -m "Patch $i of the loop." \
		-m "Signed-off-by: A U Thor <author@example.org>"
	i=$((i + 1))
done

# replies: Reviewed-by on 1/5 and 3/5, an Acked-by and a comment on 0/5
# replies FILE COVER P1 P3: the three replies, appended
replies() {
	for r in "r1 $3 Rita Reviewer <rita@example.org>|Reviewed-by: Rita Reviewer <rita@example.org>" \
		 "r2 $4 Rob Reviewer <rob@example.org>|Looks fine.\n\nReviewed-by: Rob Reviewer <rob@example.org>" \
		 "r3 $2 Ann Acker <ann@example.org>|Why not one patch?\n\nAcked-by: Ann Acker <ann@example.org>"; do
		id=${r%% *} rest=${r#* } parent=${rest%% *} who=${rest#* }
		from=${who%%|*} body=${who#*|}
		printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nTo: A U Thor <author@example.org>\nCc: linux-mm@kvack.org\nSubject: Re: [PATCH]\nDate: Wed, 15 Nov 2023 10:00:00 +0000\nMessage-Id: <%s-%s@example.org>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n> quoted\n\n%b\n\n' \
			"$from" "$id" "$5" "$parent" "$parent" "$body" >>"$1"
	done
}
# sent_ids: the Message-IDs of the mails in $tmp/sent, in order
sent_ids() { for f in "$tmp"/sent/*.eml; do tr -d '\r' <"$f" | sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p'; done; }
mbox_of_sent() { for f in "$tmp"/sent/*.eml; do echo "From mboxrd@z Thu Jan  1 00:00:00 1970"; tr -d '\r' <"$f"; echo; done; }

# respin: v1 tracked, its letter written, sent
"$respin" track s --base mm-unstable >/dev/null
printf 'mm/loop: five loops\n\nFive small functions.\n' >"$tmp/cover.txt"
"$respin" cover s --file "$tmp/cover.txt" >/dev/null
"$respin" send s --to "Andrew Morton <akpm@example.org>" --cc linux-mm@kvack.org >/dev/null 2>&1
set -- $(sent_ids)
mbox_of_sent >"$tmp/respin-thread.mbox"
replies "$tmp/respin-thread.mbox" "$1" "$2" "$4" respin
respin_meta=$(git rev-parse refs/respin/series/s)
respin_tip=$(git rev-parse work)
rm -f "$tmp"/sent/*

# b4: the same five patches on a prep branch, the letter written, sent
printf '#!/bin/sh\ncp "%s/b4-cover.txt" "$1"\n' "$tmp" >"$tmp/editor"
chmod +x "$tmp/editor"
printf 'mm/loop: five loops\n\nFive small functions.\n\nTo: Andrew Morton <akpm@example.org>\nCc: linux-mm@kvack.org\n' >"$tmp/b4-cover.txt"
git checkout -q mm-unstable
b4 prep -n b4loop >/dev/null 2>&1
git cherry-pick mm-unstable..work >/dev/null
EDITOR="$tmp/editor" b4 prep --edit-cover >/dev/null 2>&1
echo | b4 send --no-sign >"$tmp/b4-send.log" 2>&1 ||
	{ cat "$tmp/b4-send.log" >&2; echo "loop: b4 send of v1 failed" >&2; exit 1; }
set -- $(sent_ids)
mbox_of_sent >"$tmp/b4-thread.mbox"
replies "$tmp/b4-thread.mbox" "$1" "$2" "$4" b4
b4_tip=$(git rev-parse HEAD)
printf 'mm/loop: five loops\n\nFive small functions.\n\nChanges in v2:\n- Collected tags\n\nTo: Andrew Morton <akpm@example.org>\nCc: linux-mm@kvack.org\n' >"$tmp/b4-cover.txt"

t_respin="" t_b4=""
for run in 1 2 3; do
	git checkout -q work
	a=$(now)
	"$respin" trailers s --apply --source "$tmp/respin-thread.mbox" >"$tmp/r1" 2>&1
	"$respin" send s --dry-run >"$tmp/r3" 2>&1
	b=$(now)
	git checkout -q b4/b4loop
	c=$(now)
	b4 --offline-mode trailers -u -F "$1" -m "$tmp/b4-thread.mbox" >"$tmp/b1" 2>&1
	EDITOR="$tmp/editor" b4 prep --edit-cover >"$tmp/b2" 2>&1
	b4 send --dry-run --no-sign >"$tmp/b3" 2>&1
	d=$(now)
	t_respin="$t_respin $(sub "$b" "$a")"
	t_b4="$t_b4 $(sub "$d" "$c")"
	# what each wrote: the tags in the commits
	nr=$(git log --format=%B mm-unstable..work | grep -c -e "^Reviewed-by:" -e "^Acked-by:")
	nb=$(git log --format=%B mm-unstable..b4/b4loop | grep -c -e "^Reviewed-by:" -e "^Acked-by:")
	[ "$nr" -ge 3 ] && [ "$nb" -ge 3 ] ||
		{ echo "loop: tags written: respin $nr, b4 $nb (want 3 or more each)" >&2;
		  cat "$tmp"/r? "$tmp"/b? >&2; exit 1; }
	grep -q "Dry-OK\|dry run" "$tmp/r3" ||
		{ cat "$tmp/r3" >&2; echo "loop: respin send --dry-run failed" >&2; exit 1; }
	# v2 is recorded and goes out as v2, its letter with its changes
	grep -q "recorded as v2" "$tmp/r1" &&
	grep -q "^Subject: \[PATCH v2 0/5\] mm/loop: five loops" "$tmp/r3" ||
		{ cat "$tmp/r1" "$tmp/r3" >&2; echo "loop: respin did not send v2" >&2; exit 1; }
	# back to v1 for the next run
	git checkout -q mm-unstable
	git update-ref refs/respin/series/s "$respin_meta"
	git branch -q -f work "$respin_tip"
	git branch -q -f b4/b4loop "$b4_tip"
done
m_r=$(median3 $t_respin) m_b=$(median3 $t_b4)
echo "loop: 5 patches, 3 reviews, v1 -> v2 ready to send: respin 2 commands $(printf %.2f "$m_r") s, b4 3 commands $(printf %.2f "$m_b") s (respin takes $(awk -v r="$m_r" -v b="$m_b" 'BEGIN { printf "%.2f", r / b }')x b4's time)"
