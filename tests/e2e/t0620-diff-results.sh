#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin diff --results: under each pair of the range-diff, what changed
# in its stored results (build warnings, checkpatch findings, KTAP
# subtests, benches), on the fixture tree with real checkpatch and
# real builds.
. "$(dirname "$0")/lib.sh"

make_checked_fixture k && cd k || { echo "Bail out! no fixture or checkpatch.pl"; exit 1; }

# A KTAP check whose subtests read the tree: "marker" fails while
# compaction.c has the unused marker; "extra" is skipped while
# vmscan_extra() is a one-line helper.
cat >"$TRASH/ktap.sh" <<'EOK'
#!/bin/sh
res() { if eval "$2"; then echo "    ok $1"; else echo "    not ok $1"; fail=1; fi; }
fail=0
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    1..3"
res "1 guard" "grep -q 'free_blocks_total || !requested' mm/compaction.c"
res "2 marker" "! grep -q unused_marker mm/compaction.c"
if grep -q '^int vmscan_extra(void) {' mm/vmscan.c; then
	echo "    ok 3 extra # SKIP one-line helper"
else
	echo "    ok 3 extra"
fi
if [ $fail = 0 ]; then echo "ok 1 fixture"; else echo "not ok 1 fixture"; fi
EOK
git config respin.check.fixture.kind ktap
git config respin.check.fixture.command "sh $TRASH/ktap.sh"

# A bench whose metric the tree decides: 100 on the base, 110 once
# vmscan_extra() exists, 120 when it returns 2; the noise is the same
# sequence for every tree, so every verdict is certain.  A patch of a
# later version is compared with the base's runs of its own time (the
# base's 6th to 10th), whose noise is a later part of the sequence: so
# +20% reads +19.9% and no change -0.1% there.
cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
v=100
grep -q vmscan_extra mm/vmscan.c && v=110
grep -A3 '^int vmscan_extra' mm/vmscan.c | grep -q 'return 2;' && v=120
f="$TRASH_DIR/n.$RESPIN_TREE"
n=$(cat "$f" 2>/dev/null || echo 0)
echo $((n + 1)) >"$f"
awk -v v=$v -v n=$n 'BEGIN { split("-0.2 0.1 0.2 -0.1", d, " ");
	printf "respin-metric: ops %.3f\n", v + d[n % 4 + 1] }'
EOB
git config respin.check.ops.kind bench
git config respin.check.ops.command "TRASH_DIR=$TRASH sh $TRASH/bench.sh"
git config respin.check.ops.metric ops
git config respin.check.ops.runs 5..12

# v1, as in t0600: 1 a real fix; 2 adds a compiler warning; 3 a
# checkpatch error (trailing whitespace).
commit_three_patches || exit 1
respin track k --base mm-unstable >/dev/null

test_expect_success 'no results stored: the range-diff and a note' '
	respin diff k v1 v1 --results -s >out 2>err &&
	test_grep "^note: no results stored for v1; run respin check k@v1$" err &&
	respin diff k v1 v1 -s >plain && check_same plain out &&
	respin diff k v1 v1 --results --json >j 2>/dev/null && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{pairs}};
		exit 2 unless @p == 3 && 3 == grep { exists \$_->{results} && !defined \$_->{results} } @p;
	" <j
'

test_expect_success 'v1 is checked' '
	test_expect_code 1 respin check k >out 2>err
'

# v2: patch 1 the same commit; patch 2 leaves a comment instead of the
# unused variable; patch 3 without trailing whitespace, returning 2.
git reset -q --hard HEAD~2
tick
sed -i 's/^\tunsigned int o;$/\tunsigned int o;\n\t\/* a marker goes here later *\//' mm/compaction.c
git commit -qam "mm/compaction: prepare a marker for later" \
	-m "Nothing uses it yet." \
	-m "Signed-off-by: A U Thor <author@example.org>"
tick
printf '\nint vmscan_extra(void)\n{\n\treturn 2;\n}\n' >>mm/vmscan.c
git commit -qam "mm/vmscan: add vmscan_extra()" \
	-m "A helper for later." \
	-m "Signed-off-by: A U Thor <author@example.org>"
mark_sent k && respin track k >/dev/null

# hashes: the pairing lines without their abbreviated commits
hashes() {
	sed -E '/^ *[0-9-]+:  /s/(:  )[0-9a-f]{7} /\1HASH /g' "$@"
}

test_expect_success 'v2 not checked yet: its patches say so' '
	respin diff k v1 v2 --results -s >out 2>err &&
	test ! -s err &&
	hashes out >got &&
	cat >want <<-\EOF &&
	1:  HASH = 1:  HASH mm/compaction: guard fragmentation_index() against a zero request
	    results: unchanged
	2:  HASH ! 2:  HASH mm/compaction: prepare a marker for later
	    results: not checked in v2
	3:  HASH ! 3:  HASH mm/vmscan: add vmscan_extra()
	    results: not checked in v2
	EOF
	check_same want got
'

test_expect_success 'v2 is checked' '
	respin check k >out 2>err &&
	test_grep " 0 failed$" out
'

test_expect_success 'diff --results -s: what changed, pair by pair' '
	respin diff k v1 v2 --results -s >out 2>err &&
	test ! -s err && hashes out >got &&
	cat >want <<-\EOF &&
	1:  HASH = 1:  HASH mm/compaction: guard fragmentation_index() against a zero request
	    results: unchanged
	2:  HASH ! 2:  HASH mm/compaction: prepare a marker for later
	    results: build: -1 warning: mm/compaction.c: warning: unused variable '"'"'unused_marker'"'"' [-Wunused-variable]
	    results: fixture: FAIL -> PASS
	    results: fixture: fixture/marker: FAIL -> PASS
	3:  HASH ! 3:  HASH mm/vmscan: add vmscan_extra()
	    results: checkpatch: FAIL -> PASS
	    results: checkpatch: -ERROR: trailing whitespace (mm/vmscan.c)
	    results: fixture: FAIL -> PASS
	    results: fixture: fixture/marker: FAIL -> PASS
	    results: fixture: fixture/extra: SKIP -> PASS
	    results: ops: +10.0% * -> +19.9% * against the base; v2 against v1: +9.1% *, better
	EOF
	check_same want got
'

test_expect_success 'without -s the result lines come before the diff of the patches' '
	respin diff k v1 v2 --results >full &&
	respin diff k v1 v2 --results -s >short &&
	grep -v "^    [ @+-]" full >kept && check_same short kept &&
	grep -A4 "^2: .* ! " full >p2 && sed -n 5p p2 >line5 &&
	test_grep "^    @@ mm/compaction.c" line5 &&
	awk "/^ *[0-9-]+: / { diff = 0 } /^    @@/ { diff = 1 }
	     /^    results:/ && diff { bad = 1 } END { exit bad }" full &&
	respin diff k v1 v2 >plain && grep -v "^    results: " full >rest &&
	check_same plain rest
'

test_expect_success 'diff --results --json: the changes, structured' '
	respin diff k v1 v2 --results --json >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{pairs}};
		exit 2 unless @p == 3;
		exit 3 if \$p[0]{results}{changed};
		my \$c2 = \$p[1]{results}{checks};
		exit 4 unless \$p[1]{results}{changed} && \$c2->{build}{changed};
		exit 5 unless \$c2->{build}{fixed_warnings}[0] =~ m{^mm/compaction.c: warning: unused variable .unused_marker.};
		exit 6 unless @{\$c2->{build}{new_warnings}} == 0 && !\$c2->{checkpatch}{changed};
		exit 7 unless \$c2->{fixture}{a}{status} eq q(FAIL) && \$c2->{fixture}{b}{status} eq q(PASS);
		my \$c3 = \$p[2]{results}{checks};
		my \$g = \$c3->{checkpatch}{gone_findings};
		exit 8 unless @\$g == 1 && \$g->[0]{severity} eq q(ERROR) &&
			\$g->[0]{type} eq q(TRAILING_WHITESPACE) && \$g->[0]{file} eq q(mm/vmscan.c);
		my %f = map { \$_->{path} => qq(\$_->{a} \$_->{b}) } @{\$c3->{fixture}{flipped}};
		exit 9 unless \$f{q(fixture/marker)} eq q(FAIL PASS) && \$f{q(fixture/extra)} eq q(SKIP PASS);
		my \$o = \$c3->{ops};
		exit 10 unless \$o->{direct}{verdict} eq q(better) && \$o->{direct}{significant};
		exit 11 unless \$o->{a}{against_base}{gain_pct} > 9.9 && \$o->{b}{against_base}{gain_pct} > 19.9;
		exit 12 unless \$o->{a}{runs} >= 5;
	" <out
'

test_expect_success 'a check run in one version only says so' '
	git config respin.check.lines.kind command &&
	git config respin.check.lines.command "test -s mm/vmscan.c" &&
	test_when_finished "git config --remove-section respin.check.lines" &&
	respin check k --only lines >out 2>err &&
	respin diff k v1 v2 --results -s >out &&
	sed -n "/^2: /,/^3: /p" out >p2 &&
	test_grep "^    results: lines: not run in v1$" p2 &&
	sed -n "/^1: /,/^2: /p" out >p1 &&
	test_grep "^    results: unchanged$" p1
'

test_expect_success 'dropped and added patches: their results in one line' '
	git reset -q --hard HEAD~1 && tick &&
	echo "/* page_alloc: nothing here yet */" >>mm/page_alloc.c &&
	git commit -qam "mm/page_alloc: a note for later" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	mark_sent k && respin track k >/dev/null && respin check k >out 2>err &&
	respin diff k v2 v3 --results -s >out && hashes out >got &&
	cat >want <<-\EOF &&
	1:  HASH = 1:  HASH mm/compaction: guard fragmentation_index() against a zero request
	    results: unchanged
	2:  HASH = 2:  HASH mm/compaction: prepare a marker for later
	    results: unchanged
	3:  HASH < -:  ------- mm/vmscan: add vmscan_extra()
	    results: checkpatch 0E 0W; build ok, no new warnings; fixture 3/3; ops +19.9% * (n=5)
	-:  ------- > 3:  HASH mm/page_alloc: a note for later
	    results: checkpatch 0E 1W; build ok, no new warnings; fixture 3/3; ops -0.1% (n=5)
	EOF
	check_same want got
'

test_expect_success 'a bench that got worse, either way round' '
	git reset -q --hard HEAD~1 && tick &&
	printf "\nint vmscan_extra(void) { return 1; }\n" >>mm/vmscan.c &&
	echo "/* page_alloc: nothing here yet */" >>mm/page_alloc.c &&
	git commit -qam "mm/page_alloc: a note for later" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	mark_sent k && respin track k >/dev/null && respin check k >out 2>err &&
	respin diff k v4 v3 --results -s --creation-factor 200 >out &&
	test_grep "^    results: ops: +10.0% \* -> -0.1% against the base; v3 against v4: -9.1% \*, worse$" out &&
	git config respin.check.ops.higher false &&
	test_when_finished "git config --unset respin.check.ops.higher" &&
	respin diff k v3 v4 --results -s --creation-factor 200 >out &&
	test_grep "^    results: ops: +0.1% -> -10.0% \* against the base; v4 against v3: -10.0% \*, worse$" out
'

respin format k@v2 --stdout >"$TRASH/v2.mbox"
respin format k@v3 --stdout >"$TRASH/v3.mbox"

test_expect_success 'mail has no results: --results with mailboxes' '
	test_expect_code 129 respin diff "$TRASH/v2.mbox" "$TRASH/v3.mbox" --results 2>err &&
	test_grep "results needs a series recorded in a repository" err &&
	respin diff "$TRASH/v2.mbox" "$TRASH/v3.mbox" -s >out &&
	test_grep "^3: .* < -: .* mm/vmscan: add vmscan_extra()$" out
'

test_expect_success 'nor with one mailbox of two versions' '
	cd "$TRASH" && cat v2.mbox v3.mbox >both.mbox &&
	test_expect_code 129 respin diff both.mbox --results 2>err &&
	test_grep "results needs a series recorded in a repository" err
'

test_done
