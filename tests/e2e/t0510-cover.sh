#!/bin/sh
# respin cover: the cover letter from the stored text (--file, --edit),
# changelogs, what changed between versions, prefixes, templates; and
# with results recorded by respin check on the fixture kernel (real
# checkpatch, a real build, a fixed KTAP test and a bench with fixed
# samples): the exact per-patch and benchmark tables, and the results
# below "---" in each patch mail, which git am and b4 still take.
. "$(dirname "$0")/lib.sh"

make_checked_fixture k && cd k || { echo "Bail out! no fixture or checkpatch.pl"; exit 1; }

commit_three_patches || exit 1
respin track k --base mm-unstable >/dev/null
git tag v1-tip

test_expect_success 'without a stored text: placeholders, shortlog, diffstat, ids' '
	respin cover k >out && cat out &&
	test "$(head -n 1 out)" = "Subject: [PATCH 0/3] *** SUBJECT HERE ***" &&
	test_grep "^\*\*\* BLURB HERE \*\*\*$" out &&
	test_grep "^A U Thor (3):$" out &&
	test_grep "^  mm/vmscan: add vmscan_extra()$" out &&
	test_grep "^ 2 files changed, 5 insertions(+), 1 deletion(-)$" out &&
	test_grep "^base-commit: $(git rev-parse mm-unstable)$" out &&
	test_grep "^change-id: [0-9]\{8\}-k-[0-9a-f]\{12\}$" out &&
	test_grep ! "Changes in" out
'

cat >cover1.txt <<'EOT'
mm/compaction: small fixes

These three patches guard fragmentation_index() and get ready for a
later change.
EOT

test_expect_success '--file stores the text; the cover letter uses it' '
	refs_snapshot before &&
	respin cover k --file cover1.txt >out && cat out &&
	test_grep "^k v1: cover text stored$" out &&
	git show refs/respin/series/k:v1/cover >stored &&
	check_same cover1.txt stored &&
	respin cover k >out &&
	test "$(head -n 1 out)" = "Subject: [PATCH 0/3] mm/compaction: small fixes" &&
	sed -n 3,4p out >body && sed -n 3,4p cover1.txt >want &&
	check_same want body
'

test_expect_success 'the same text again changes nothing' '
	refs_snapshot before &&
	respin cover k --file cover1.txt >out &&
	test_grep "unchanged" out &&
	refs_snapshot after && check_same before after
'

test_expect_success '--file of an empty or missing file: an error, nothing changed' '
	refs_snapshot before &&
	: >empty.txt &&
	test_expect_code 128 respin cover k --file empty.txt 2>err &&
	test_grep "empty.txt is empty" err &&
	test_expect_code 128 respin cover k --file no-such.txt 2>err &&
	test_grep "cannot read no-such.txt" err &&
	refs_snapshot after && check_same before after
'

# v2: patch 2 gone, patch 3 reworded and its code changed, a new patch,
# and patch 1 picked up a review tag.
git checkout -q -b v2 mm-unstable
git cherry-pick -x v1-tip~2 >/dev/null 2>&1 || exit 1
tick
git commit -q --amend -m "mm/compaction: guard fragmentation_index() against a zero request" \
	-m "A zero request cannot fragment anything: return 0 early." \
	-m "Signed-off-by: A U Thor <author@example.org>
Reviewed-by: R Eviewer <reviewer@example.org>"
tick
printf '\nint vmscan_extra(void) { return 2; }\n' >>mm/vmscan.c
git commit -qam "mm/vmscan: add vmscan_extra() for the scanner" \
	-m "A helper for later." \
	-m "Signed-off-by: A U Thor <author@example.org>"
tick
printf '\n/* a note */\n' >>mm/vmscan.c
git commit -qam "mm/vmscan: a note" -m "Signed-off-by: A U Thor <author@example.org>"
mark_sent k
respin track k --base mm-unstable >/dev/null

cat >"$TRASH/editor.sh" <<EOE
#!/bin/sh
# a scripted editor: keep what it was given, write the prepared text
cp "\$1" "$TRASH/seed.txt"
cp "$TRASH/edited.txt" "\$1"
EOE
chmod +x "$TRASH/editor.sh"

cat >"$TRASH/edited.txt" <<'EOT'
mm/compaction: small fixes

These patches guard fragmentation_index() and add a helper.

Changes in v2:
- Dropped the marker, as asked by R Eviewer.
# this line is a comment and goes
EOT

test_expect_success '--edit starts from the last text with a v2 section, stores the edit' '
	GIT_EDITOR="$TRASH/editor.sh" respin cover k --edit >out && cat out &&
	test_grep "^k v2: cover text stored$" out &&
	grep -v "^To: \|^Cc: \|^$" "$TRASH/seed.txt" | head -n 1 >title &&
	test_grep "^mm/compaction: small fixes$" title &&
	test_grep "^Cc: R Eviewer <reviewer@example.org>$" "$TRASH/seed.txt" &&
	test_grep "^Changes in v2:$" "$TRASH/seed.txt" &&
	test_grep "^# The cover letter of k v2" "$TRASH/seed.txt" &&
	git show refs/respin/series/k:v2/cover >stored &&
	test_grep ! "comment" stored &&
	test_grep "^- Dropped the marker, as asked by R Eviewer.$" stored &&
	test ! -e .git/respin/COVER_EDITMSG
'

test_expect_success 'v2: the changelog has the user entries and what respin knows' '
	respin cover k --no-results >out && cat out &&
	test "$(head -n 1 out)" = "Subject: [PATCH v2 0/3] mm/compaction: small fixes" &&
	sed -n "/^Changes in v2:$/,/^$/p" out | grep -v "^- Link to v1: " >changes &&
	cat >want <<-\EOW &&
	Changes in v2:
	- Dropped the marker, as asked by R Eviewer.
	- 1/3 "mm/compaction: guard fragmentation_index() against a zero
	  request": picked up Reviewed-by: R Eviewer <reviewer@example.org>
	- 2/3 "mm/vmscan: add vmscan_extra() for the scanner": reworded (was
	  "mm/vmscan: add vmscan_extra()"); code changed
	- New patch 3/3: "mm/vmscan: a note"
	- Dropped "mm/compaction: prepare a marker for later" (was 2/3)

	EOW
	check_same want changes
'

test_expect_success 'an editor closed without a change stores nothing' '
	refs_snapshot before &&
	GIT_EDITOR=true respin cover k --edit >out && cat out &&
	test_grep "^k v2: the cover text is unchanged$" out &&
	GIT_EDITOR=true respin cover k@v1 --edit >out &&
	test_grep "^k v1: the cover text is unchanged$" out &&
	refs_snapshot after && check_same before after
'

test_expect_success 'an editor that fails: an error, nothing changed, the text kept' '
	refs_snapshot before &&
	test_expect_code 128 env GIT_EDITOR=false respin cover k --edit 2>err &&
	test_grep "the editor (false) exited with 1" err &&
	test_grep "COVER_EDITMSG" err && test -s .git/respin/COVER_EDITMSG &&
	refs_snapshot after && check_same before after
'

test_expect_success 'an edit that leaves only comments: an error, nothing changed' '
	refs_snapshot before &&
	printf "# nothing\n\n" >"$TRASH/edited.txt" &&
	test_expect_code 128 env GIT_EDITOR="$TRASH/editor.sh" respin cover k --edit 2>err &&
	test_grep "the cover text is empty; nothing changed" err &&
	refs_snapshot after && check_same before after
'

test_expect_success 'subject prefixes: per series, for all, --rfc, --subject-prefix' '
	git config respin.subjectPrefix "PATCH net-next" &&
	respin cover k | head -n 1 | grep -q "^Subject: \[PATCH net-next v2 0/3\] " &&
	git config respin.series.k.subjectPrefix "PATCH mm-unstable" &&
	respin cover k | head -n 1 | grep -q "^Subject: \[PATCH mm-unstable v2 0/3\] " &&
	respin cover k --rfc | head -n 1 | grep -q "^Subject: \[RFC PATCH mm-unstable v2 0/3\] " &&
	respin cover k --subject-prefix "PATCH mm-hotfixes" | head -n 1 |
		grep -q "^Subject: \[PATCH mm-hotfixes v2 0/3\] " &&
	git config --unset respin.series.k.subjectPrefix &&
	git config --unset respin.subjectPrefix &&
	respin cover k@v1 | head -n 1 | grep -q "^Subject: \[PATCH 0/3\] "
'

test_expect_success 'a template in git config lays it out; empty parts leave no lines' '
	git config respin.cover.template "\${title} (\${series} v\${version}, \${patches} patches)
\${links}
\${body}
\${changes}
--
\${shortlog}base: \${base_commit}" &&
	respin cover k --no-results >out && cat out &&
	cat >want <<-EOW &&
	Subject: [PATCH v2 0/3] mm/compaction: small fixes

	mm/compaction: small fixes (k v2, 3 patches)
	Link to v1: https://lore.kernel.org/all/$(respin show k@v1 --json | sed -n "s/^  \"message_id\": \"\(.*\)\",$/\1/p")/
	These patches guard fragmentation_index() and add a helper.
	Changes in v2:
	- Dropped the marker, as asked by R Eviewer.
	EOW
	head -n 7 out >got && check_same want got &&
	test_grep "^base: $(git rev-parse mm-unstable)$" out &&
	respin cover k@v1 --no-results >out1 && cat out1 &&
	sed -n 3p out1 >got1 && echo "mm/compaction: small fixes (k v1, 3 patches)" >want1 &&
	check_same want1 got1 && test_grep ! "^Link to\|^Changes in" out1 &&
	git config --unset respin.cover.template
'

test_expect_success 'a template file (config or --template); --default-template' '
	respin cover --default-template >def &&
	test_grep "^\${body}$" def && test_grep "^base-commit: \${base_commit}$" def &&
	printf "%s\n" "\${title}" "\${shortlog}" >t.tmpl &&
	respin cover k --template t.tmpl >out &&
	test "$(sed -n 3p out)" = "mm/compaction: small fixes" &&
	test_grep "^A U Thor (3):$" out &&
	git config respin.cover.templateFile "$PWD/t.tmpl" &&
	respin cover k >out2 && check_same out out2 &&
	git config --unset respin.cover.templateFile
'

test_expect_success 'a template with an unknown variable: an error naming it' '
	printf "%s\n" "\${title}" "" "\${nosuch}" >bad.tmpl &&
	test_expect_code 128 respin cover k --template bad.tmpl >out 2>err &&
	test_grep "bad.tmpl, line 3: unknown variable \${nosuch}" err &&
	test ! -s out &&
	git config respin.cover.templateFile "$PWD/no-such.tmpl" &&
	test_when_finished "git config --unset respin.cover.templateFile" &&
	test_expect_code 128 respin cover k 2>err &&
	test_grep "cannot read the cover template .*no-such.tmpl" err
'

test_expect_success 'usage errors' '
	test_expect_code 129 respin cover k --edit --file x 2>err &&
	test_grep "usage: respin cover" err &&
	test_expect_code 129 respin cover k --edit --rfc 2>err &&
	test_grep "usage: respin cover" err &&
	test_expect_code 129 respin cover 2>err &&
	test_grep "usage: respin cover" err
'

test_expect_success 'an unknown series or version' '
	test_expect_code 128 respin cover nosuch 2>err &&
	test_grep "nosuch" err &&
	test_expect_code 128 respin cover k@v9 2>err &&
	test_grep "v9" err
'

# --- results: fixed inputs, exact tables ------------------------------
cat >"$TRASH/ktap.sh" <<'EOK'
#!/bin/sh
# three subtests; the third fails once mm/vmscan.c has "a note"
echo "KTAP version 1"
echo "1..3"
echo "ok 1 compaction"
echo "ok 2 vmscan # SKIP no swap"
if grep -q "a note" mm/vmscan.c; then echo "not ok 3 notes"; else echo "ok 3 notes"; fi
EOK
cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
# ops: 100 on the base, 110 once vmscan_extra() returns 2; the n-th run
# of a tree gets a fixed offset, so every sample is known
base=100
grep -q "vmscan_extra(void) { return 2; }" mm/vmscan.c && base=110
f="$TRASH/runs-$RESPIN_TREE"
n=$(cat "$f" 2>/dev/null || echo 0)
echo $((n + 1)) >"$f"
set -- -0.4 0.2 0.0 0.4 -0.2
shift $((n % 5))
echo "respin-metric: ops $(echo "$base + $1" | bc)"
EOB

test_expect_success 'check v1 and v2 with fixed checks' '
	git config respin.check.mm-ktap.kind ktap &&
	git config respin.check.mm-ktap.command "sh $TRASH/ktap.sh" &&
	git config respin.check.ops.kind bench &&
	git config respin.check.ops.command "sh $TRASH/bench.sh" &&
	git config respin.check.ops.metric ops &&
	git config respin.check.ops.higher true &&
	git config respin.check.ops.runs 5..5 &&
	# v1 has a checkpatch error, v2 a failing KTAP subtest: both exit 1
	test_expect_code 1 respin check k@v1 >out1 2>&1 &&
	test_expect_code 1 respin check k@v2 >out2 2>&1 &&
	test_grep "failed$" out2 && respin results k
'

# v2's changed patches took base runs of their own beside them: the
# base has v1's 5 and v2's 5; each patch is compared with the 5 of its
# own time (1/3's tree is v1's: its comparison is v1's).
test_expect_success 'the cover letter has the exact per-patch and bench tables' '
	respin cover k >out && cat out &&
	sed -n "/^Results of respin check/,/^---$/p" out >tables &&
	cat >want <<-\EOW &&
	Results of respin check, at the base and after each patch:
	      checkpatch  build           mm-ktap                 ops
	base              ok, 0 warnings  -                       100.00 (n=10)
	1/3   0E 0W       ok              2/3 (1 skip)            +0.0% (n=5)
	2/3   0E 0W       ok              2/3 (1 skip)            +10.0% * (n=5)
	3/3   0E 1W       ok              1/3, 1 failed (1 skip)  +10.0% * (n=5)

	Benchmarks (mean, standard deviation, CoeffVar (the deviation in % of
	the mean), Min, Max and runs a side; the change against the first column:
	* better or worse, its 95% interval excludes 0; ( ) the same, the interval
	lies within the threshold; ? inconclusive, with the runs a side needed to
	decide):

	ops (ops, higher is better, the same within +-2%), v2, against the base:
	                            base                1/3                2/3                3/3
	Amean     ops  100.00 (   0.00%)  100.00 (   0.00%)  110.00 *  10.00%*  110.00 *  10.00%*
	Stddev    ops    0.30 (   0.00%)    0.32 (   0.00%)    0.32 (   0.00%)    0.32 (   0.00%)
	CoeffVar  ops    0.30 (   0.00%)    0.32 (   0.00%)    0.29 (   9.09%)    0.29 (   9.09%)
	Min       ops   99.60 (   0.00%)   99.60 (   0.00%)  109.60 (  10.04%)  109.60 (  10.04%)
	Max       ops  100.40 (   0.00%)  100.40 (   0.00%)  110.40 (   9.96%)  110.40 (   9.96%)
	Runs      ops                 10                  5                  5                  5

	ops, the whole series, v2 against v1:
	                          v1 3/3             v2 3/3
	Amean     ops  100.00 (   0.00%)  110.00 *  10.00%*
	Stddev    ops    0.32 (   0.00%)    0.32 (   0.00%)
	CoeffVar  ops    0.32 (   0.00%)    0.29 (   9.09%)
	Min       ops   99.60 (   0.00%)  109.60 (  10.04%)
	Max       ops  100.40 (   0.00%)  110.40 (   9.96%)
	Runs      ops                  5                  5

	---
	EOW
	check_same want tables
'

test_expect_success 'format: each patch carries its results below ---' '
	respin format k -o mails >list && cat mails/v2-0003-*.patch &&
	sed -n "/^---$/,/^$/p" mails/v2-0001-*.patch >notes1 &&
	test_grep "^respin: checkpatch 0E 0W; build ok, no new warnings; mm-ktap 2/3 (1 skip); ops +0.0% (n=5)$" notes1 &&
	test_grep "^respin: checkpatch 0E 1W; build ok, no new warnings; mm-ktap 1/3, 1 failed (1 skip); ops +10.0% \* (n=5)$" mails/v2-0003-*.patch &&
	test_grep "^Results of respin check" mails/v2-0000-cover-letter.patch &&
	for f in mails/v2-000[1-3]-*.patch; do
		test $(grep -c "^respin: " $f) = 1 &&
		# never in the commit message: the line comes after the first ---
		sed -n "1,/^---$/p" $f >message &&
		test_grep ! "^respin: " message || return 1
	done
'

test_expect_success 'format --no-results leaves them out' '
	respin format k --no-results -o plain >/dev/null &&
	test_grep ! "^respin: " plain/*.patch &&
	test_grep ! "Results of respin check" plain/v2-0000-cover-letter.patch
'

test_expect_success 'git am of the mails with results gives the same trees and messages' '
	git init -q ../am && git -C ../am fetch -q "$PWD" mm-unstable &&
	git -C ../am checkout -q FETCH_HEAD &&
	(cd ../am && git am -q ../k/mails/v2-000[1-3]-*.patch) &&
	test "$(git -C ../am rev-parse HEAD^{tree})" = "$(git rev-parse v2^{tree})" &&
	git -C ../am log --format=%B -3 >am.msgs && git log --format=%B -3 v2 >want.msgs &&
	check_same want.msgs am.msgs
'

test_expect_success 'b4 am takes the mails with results: same patches and trailers' '
	cover=$(sed -n "s/^Message-Id: <\(.*\)>$/\1/p" mails/v2-0000-cover-letter.patch) &&
	cat mails/*.patch >all.mbox && mkdir b4out &&
	(cd b4out && b4 -n am -m ../all.mbox -o . "$cover" >../b4.log 2>&1) &&
	test_grep "Total patches: 3" b4.log &&
	mbx=$(ls b4out/*.mbx) &&
	test_grep "^Reviewed-by: R Eviewer <reviewer@example.org>$" "$mbx"
'

test_done
