#!/bin/sh
# respin track --from-b4: a real b4 makes a prep branch, sends v1 offline
# (a sendmail stand-in keeps the mail, b4 tags sent/NAME-v1), the patches
# and the cover letter change for v2; respin records what b4 has.
. "$(dirname "$0")/lib.sh"

if ! command -v b4 >/dev/null 2>&1; then
	test_skip "b4 is not installed"
	test_done
fi

# b4 looks for its cover commit with 'git log --since=1.year': the fixed
# clock starts now, not in 2023.
now=$(date +%s)
export GIT_AUTHOR_DATE="$now +0000" GIT_COMMITTER_DATE="$now +0000"

# The sendmail b4 calls (sendemail.smtpServer): keeps each message.
mkdir "$TRASH/sent"
cat >"$TRASH/sendmail" <<EOF
#!/bin/sh
n=\$(ls "$TRASH/sent" | wc -l)
cat >"$TRASH/sent/\$(printf %03d \$n).eml"
EOF
# The editor b4 prep --edit-cover runs: puts cover.txt in place.
printf '#!/bin/sh\ncp "%s/cover.txt" "$1"\n' "$TRASH" >"$TRASH/editor"
chmod +x "$TRASH/sendmail" "$TRASH/editor"

# msgid SUBJECT-PATTERN: the Message-ID (without <>) b4 sent it with.
msgid() {
	for f in "$TRASH"/sent/*.eml; do
		if tr -d '\r' <"$f" | grep -q "^Subject: $1"; then
			tr -d '\r' <"$f" | sed -n 's/^Message-Id: <\(.*\)>$/\1/p'
			return
		fi
	done
}

b4_send() {
	echo | b4 send --no-sign >"$TRASH/b4-send.log" 2>&1 ||
		{ cat "$TRASH/b4-send.log" >&2; return 1; }
}

git init -q repo && cd repo || exit 1
mkdir mm
printf 'int a(void)\n{\n\treturn 0;\n}\n' >mm/a.c
printf 'int b(void)\n{\n\treturn 1;\n}\n' >mm/b.c
git add mm && git commit -qm "base" &&
echo "/* next */" >>mm/b.c && git commit -qam "mm: the base moves" &&
git branch mm-unstable
git config sendemail.smtpServer "$TRASH/sendmail"
git config b4.send-no-patatt-sign yes

cat >"$TRASH/cover-v1.txt" <<'EOF'
mm: batch the LRU walk

This series batches the LRU walk, so that the lock is taken once
a batch.

To: linux-mm@kvack.org
Signed-off-by: C O Mitter <committer@example.org>
EOF

test_expect_success 'b4 prep: a branch, three patches, a cover letter' '
	git checkout -q mm-unstable &&
	b4 prep -n lru-batch >b4.log 2>&1 &&
	for i in 1 2 3; do
		tick &&
		printf "/* change %s */\n" $i >>mm/a.c &&
		git commit -qam "mm: change $i" -m "Signed-off-by: A U Thor <author@example.org>" ||
		return 1
	done &&
	cp "$TRASH/cover-v1.txt" "$TRASH/cover.txt" &&
	EDITOR="$TRASH/editor" b4 prep --edit-cover >b4.log 2>&1 &&
	git log -1 --format=%B HEAD~3 >cover-commit &&
	test_grep "^--- b4-submit-tracking ---$" cover-commit &&
	test "$(git rev-parse --abbrev-ref HEAD)" = b4/lru-batch
'

test_expect_success 'b4 send v1: the mail goes out, sent/lru-batch-v1 is made' '
	tick && b4_send &&
	git rev-parse -q --verify refs/tags/sent/lru-batch-v1 &&
	test "$(ls "$TRASH/sent" | wc -l)" = 4 &&
	git log -1 --format=%B HEAD~3 >cover-commit &&
	test_grep "\"v1\": \[" cover-commit && test_grep "Changes in v2:" cover-commit
'

v1_cover_id=$(msgid '\[PATCH 0/3\]')
v1_p2_id=$(msgid '\[PATCH 2/3\]')
change_id=$(b4 prep --show-info 2>/dev/null | sed -n 's/^change-id: //p')

test_expect_success 'v2: patch 2 changes, the cover letter says so' '
	tick &&
	echo "/* change 2, reworked */" >>mm/b.c &&
	git commit -qa --fixup=HEAD~1 &&
	GIT_SEQUENCE_EDITOR=: git rebase -q -i --autosquash HEAD~4 &&
	git log -1 --format=%B HEAD~3 |
		sed -n "1,/^--- b4-submit-tracking ---$/p" | sed "\$d" |
		sed "s/^- EDITME: describe.*/- rework change 2/; /EDITME/d" \
			>"$TRASH/cover.txt" &&
	echo "# a note to myself" >>"$TRASH/cover.txt" &&
	EDITOR="$TRASH/editor" b4 prep --edit-cover >b4.log 2>&1 &&
	git log -1 --format=%B HEAD~3 >cover-commit &&
	test_grep "^- rework change 2$" cover-commit &&
	test_grep "^# a note to myself$" cover-commit &&
	b4 prep --show-revision >rev 2>&1 && test "$(head -n 1 rev)" = v2
'

test_expect_success 'track --from-b4 records v1 from its tag and v2 from the branch' '
	respin track lru --from-b4 b4/lru-batch >out &&
	test_grep "^lru v1: 3 patches from sent/lru-batch-v1 on $(git rev-parse --short=12 mm-unstable), sent as <$v1_cover_id>$" out &&
	test_grep "^lru v2: 3 patches from b4/lru-batch on $(git rev-parse --short=12 mm-unstable), not sent yet$" out &&
	test $(wc -l <out) = 2
'

test_expect_success 'the versions, their patches, the change-id and the base ref' '
	respin show lru >out &&
	test_grep "^series     lru v2 (v1..v2 recorded)" out &&
	test_grep "^change-id  $change_id$" out &&
	test_grep "^base       mm-unstable at " out &&
	test_grep "^  1/3 [0-9a-f]* [0-9a-f]* mm: change 1$" out &&
	test_grep "^  2/3 $(git rev-parse --short=12 HEAD~1) [0-9a-f]* mm: change 2$" out &&
	test_grep "^  3/3 $(git rev-parse --short=12 HEAD) [0-9a-f]* mm: change 3$" out &&
	test_grep ! "^sent as" out &&
	respin show lru@v1 >v1 &&
	test_grep "^sent as    <$v1_cover_id>$" v1 &&
	test_grep "^  3/3 $(git rev-parse --short=12 "sent/lru-batch-v1^{commit}") " v1 &&
	test_grep ! "b4-submit-tracking\|mm: batch the LRU" v1 &&
	p1=$(sed -n "s/^  2\/3 [0-9a-f]* \([0-9a-f]*\) .*/\1/p" v1) &&
	p2=$(sed -n "s/^  2\/3 [0-9a-f]* \([0-9a-f]*\) .*/\1/p" out) &&
	test -n "$p1" && test "$p1" != "$p2" &&
	respin show lru@v1 --json >j &&
	test_grep "\"message_id\": \"$v1_cover_id\"" j &&
	test_grep "\"message_id\": \"$v1_p2_id\"" j
'

test_expect_success 'the cover letter of v1 is the one sent, without the tail' '
	git show refs/respin/series/lru:v1/cover >got &&
	check_same "$TRASH/cover-v1.txt" got
'

test_expect_success 'the cover letter of v2 is the branch one, with the changes' '
	git show refs/respin/series/lru:v2/cover >got &&
	{
		cat "$TRASH/cover-v1.txt" &&
		printf "\n---\nChanges in v2:\n- rework change 2\n" &&
		printf -- "- Link to v1: https://lore.kernel.org/r/%s\n" "$v1_cover_id"
	} >want &&
	check_same want got
'

test_expect_success 'a second run records nothing and says so' '
	refs_snapshot before &&
	respin track lru --from-b4 b4/lru-batch >out &&
	test_grep "^lru v1 already has these 3 patches from sent/lru-batch-v1; nothing recorded$" out &&
	test_grep "^lru v2 already has these 3 patches from b4/lru-batch; nothing recorded$" out &&
	test_grep "^nothing recorded: series lru has every version of b4/lru-batch already$" out &&
	refs_snapshot after && check_same before after
'

test_expect_success 'v2 changed again before it is sent: the unsent v2 is replaced' '
	tick &&
	git commit -q --amend -m "mm: change 3" -m "Reworded before sending." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track lru --from-b4 b4/lru-batch >out &&
	test_grep "^lru v1 already has these 3 patches" out &&
	test_grep "^lru v2: 3 patches from b4/lru-batch on $(git rev-parse --short=12 mm-unstable), not sent yet (replaces the unsent v2 recorded before)$" out &&
	respin show lru >out &&
	test_grep "^series     lru v2 (v1..v2 recorded)" out &&
	test_grep "^  3/3 $(git rev-parse --short=12 HEAD) " out
'

test_expect_success 'b4 send v2; the next run adds its Message-IDs, not a v3' '
	tick && b4_send &&
	git rev-parse -q --verify refs/tags/sent/lru-batch-v2 &&
	v2_cover_id=$(msgid "\[PATCH v2 0/3\]") &&
	v2_p3_id=$(msgid "\[PATCH v2 3/3\]") &&
	respin track lru --from-b4 lru-batch >out &&
	test_grep "^lru v2: same 3 patches; Message-IDs and cover letter updated from sent/lru-batch-v2$" out &&
	test_grep "^b4/lru-batch (v3 in b4) holds the patches sent as v2; not recorded as v3$" out &&
	respin show lru --json >j &&
	test_grep "\"message_id\": \"$v2_cover_id\"" j &&
	test_grep "\"message_id\": \"$v2_p3_id\"" j &&
	respin show lru >out && test_grep "^series     lru v2 (v1..v2 recorded)" out &&
	test_grep "^source     b4 sent/lru-batch-v2 " out &&
	respin track lru --from-b4 lru-batch >out &&
	test_grep "^nothing recorded" out
'

test_expect_success 'respin cover: b4'"'"'s changelog, one link to v1, no ---' '
	respin cover lru --no-results >out && cat out &&
	sed -n "/^Changes in v2:$/,/^$/p" out >changes &&
	printf "%s\n" "Changes in v2:" "- rework change 2" \
		"- 2/3 \"mm: change 2\": code changed" \
		"- 3/3 \"mm: change 3\": commit message changed" \
		"- Link to v1: https://lore.kernel.org/all/$v1_cover_id/" "" >want &&
	check_same want changes &&
	test $(grep -c "Link to v1" out) = 1 &&
	test "$(sed -n "/^Changes in v2:$/{x;p;q};h" out)" = "" &&
	sed -n "3,/^Changes in v2:$/p" out >body && test_grep ! "^---$" body &&
	test_grep ! "^To: " body
'

test_expect_success '--json tells what happened to each version' '
	respin track lru --from-b4 b4/lru-batch --json >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my @v = @{\$d->{versions}};
		exit 1 unless \$d->{series} eq q(lru) && \$d->{revision} == 3 &&
			\$d->{change_id} eq q($change_id) &&
			\$d->{base_ref} eq q(refs/heads/mm-unstable) &&
			@v == 3 &&
			\$v[0]{action} eq q(unchanged) && \$v[0]{patches} == 3 &&
			\$v[0]{message_id} eq q($v1_cover_id) &&
			\$v[1]{action} eq q(unchanged) && \$v[1]{sent} &&
			\$v[2]{action} eq q(skipped) && \$v[2]{same_as} == 2;
	" <out
'

test_expect_success 'the branch-description strategy, and its base-commit' '
	git checkout -q mm-unstable &&
	git config b4.prep-cover-strategy branch-description &&
	b4 prep -n desc >b4.log 2>&1 &&
	git config --unset b4.prep-cover-strategy &&
	for i in 1 2; do
		tick &&
		printf "/* d %s */\n" $i >>mm/b.c &&
		git commit -qam "mm: d $i" || return 1
	done &&
	printf "mm: describe\n\nKept in the branch description.\n\nTo: linux-mm@kvack.org\n" >"$TRASH/cover.txt" &&
	EDITOR="$TRASH/editor" b4 prep --edit-cover >b4.log 2>&1 &&
	git config branch.b4/desc.b4-tracking >/dev/null &&
	tick && b4_send &&
	git cat-file -p sent/desc-v1 >tag &&
	test_grep "^base-commit: $(git rev-parse mm-unstable~1)$" tag &&
	respin track desc --from-b4 desc >out &&
	test_grep "^desc v1: 2 patches from sent/desc-v1 on $(git rev-parse --short=12 mm-unstable), sent as <" out &&
	test_grep "^b4/desc (v2 in b4) holds the patches sent as v1; not recorded as v2$" out &&
	git show refs/respin/series/desc:v1/cover >got &&
	printf "mm: describe\n\nKept in the branch description.\n\nTo: linux-mm@kvack.org\n" >want &&
	check_same want got
'

test_expect_success 'a new prep branch without patches records nothing' '
	git checkout -q mm-unstable &&
	b4 prep -n empty >b4.log 2>&1 &&
	refs_snapshot before &&
	respin track empty --from-b4 empty >out &&
	test_grep "^b4/empty has no patches for v1 yet$" out &&
	test_grep "^nothing recorded$" out &&
	refs_snapshot after && check_same before after
'

test_expect_success '--help shows --from-b4' '
	respin track --help >out && test_grep "\-\-from-b4 <branch>" out
'

# ---- errors: a message, git's exit codes, refs untouched ----
refs_snapshot "$TRASH/refs-before"
refs_unchanged() { refs_snapshot "$TRASH/refs-now" && check_same "$TRASH/refs-before" "$TRASH/refs-now"; }

test_expect_success 'a branch that does not exist' '
	test_expect_code 128 respin track x --from-b4 nosuch 2>err &&
	test_grep "no branch .nosuch." err &&
	test_grep "b4/NAME" err &&
	refs_unchanged
'

test_expect_success 'a branch that is not a b4 prep branch' '
	test_expect_code 128 respin track x --from-b4 main 2>err &&
	test_grep "branch .main. is not a b4 prep branch" err &&
	refs_unchanged
'

test_expect_success 'malformed tracking JSON' '
	git checkout -q -b b4/broken mm-unstable &&
	git commit -q --allow-empty -F - <<-EOF &&
	broken: a title

	--- b4-submit-tracking ---
	# This section is used internally by b4 prep for tracking purposes.
	{
	  "series": {
	    "revision": 1,
	    "change-id": "20240101-broken-0123456789ab",
	  }
	}
	EOF
	test_expect_code 128 respin track broken --from-b4 b4/broken 2>err &&
	test_grep "branch .b4/broken.: b4.s tracking data (in cover commit [0-9a-f]*) is malformed: line 5, column 3: a trailing .,." err &&
	refs_unchanged
'

test_expect_success 'tracking JSON without a change-id' '
	git checkout -q -b b4/nocid mm-unstable &&
	printf "t\n\n--- b4-submit-tracking ---\n{\"series\": {\"revision\": 1}}\n" |
		git commit -q --allow-empty -F - &&
	test_expect_code 128 respin track nocid --from-b4 b4/nocid 2>err &&
	test_grep "\"change-id\" is missing" err &&
	refs_unchanged
'

test_expect_success 'a sent tag whose commits are not here' '
	git checkout -q -b b4/ghost mm-unstable &&
	printf "t\n\n--- b4-submit-tracking ---\n{\"series\": {\"revision\": 2, \"change-id\": \"20240101-ghost-0123456789ab\"}}\n" |
		git commit -q --allow-empty -F - &&
	echo g >>mm/a.c && git commit -qam "mm: ghost" &&
	git tag -a -m "ghost

base-commit: 0123456789abcdef0123456789abcdef01234567
" sent/ghost-v1 HEAD &&
	test_expect_code 128 respin track ghost --from-b4 b4/ghost 2>err &&
	test_grep "the commits of sent tag .sent/ghost-v1. cannot be found: its base-commit 0123456789abcdef0123456789abcdef01234567 is not in this repository" err &&
	refs_unchanged
'

test_expect_success 'a series of that name with another change-id' '
	test_expect_code 128 respin track lru --from-b4 b4/desc 2>err &&
	test_grep "series .lru. has change-id .*, but branch .b4/desc. has .*: they are different series" err &&
	refs_unchanged
'

test_expect_success '--from-b4 with --base' '
	test_expect_code 129 respin track lru --from-b4 b4/lru-batch --base mm-unstable 2>err &&
	test_grep "drop --base" err &&
	refs_unchanged
'

test_done
