#!/bin/sh
# A series with a version left out: spinlock-oops v2 and v4 from the real
# list mail, v3 never imported.  Every command names the versions that
# are recorded by their own numbers, and compares v4 with v2, the
# version before it that exists (issue 9, item 3).
. "$(dirname "$0")/lib.sh"

MAIL="$TEST_DATA/mail/spinlock-oops"
V2_COVER=20190802042233.20835-1-cmr@informatik.wtf
V4_COVER=20190813031314.1828-1-cmr@informatik.wtf
git init -q repo && cd repo || exit 1
git commit -q --allow-empty -m init
git config respin.lore-url https://lore.kernel.org/linuxppc-dev

test_expect_success 'import v2 and v4 only, from mail' '
	respin import s "$MAIL/v2.mbox" --mail-only >out &&
	test_grep "^s v2: 3 patches recorded from mail only" out &&
	respin import s "$MAIL/v4.mbox" --mail-only >out &&
	test_grep "^s v4: 3 patches recorded from mail only" out
'

test_expect_success 'cover: v4 says what changed since v2 and links v2 there' '
	respin cover s >v4 && cat v4 &&
	test "$(head -n 1 v4)" = "Subject: [PATCH v4 0/3] Fix oops in shared-processor spinlocks" &&
	sed -n "/^Changes in v4:$/,/^Changes in v3:$/p" v4 >changes4 &&
	cat >want <<-EOW &&
	Changes in v4:
	 - Replace CONFIG_BOOK3S #ifdef with CONFIG_PPC_PSERIES in
	   is_shared_processor() to fix compile error reported by 0day-ci
	- Compared with v2 (v3 is not recorded):
	- 1/3 "powerpc/spinlocks: Refactor SHARED_PROCESSOR": code changed
	- 3/3 "powerpc/spinlocks: Fix oops in shared-processor spinlocks": code
	  changed
	- Link to v2: https://lore.kernel.org/linuxppc-dev/$V2_COVER/

	Changes in v3:
	EOW
	check_same want changes4
'

test_expect_success 'cover: the author'"'"'s v3 section stays, with no link of its own' '
	sed -n "/^Changes in v3:$/,/^Changes in v2:$/p" v4 >changes3 &&
	test_grep "^ - Directly call splpar_\*_yield() to avoid duplicate call to$" changes3 &&
	test_grep ! "Link to" changes3 &&
	test $(grep -c "Link to v2" v4) = 1 &&
	test_grep ! "Link to v3" v4
'

test_expect_success 'cover of v2: nothing before it, no links' '
	respin cover s@v2 >v2 &&
	test "$(head -n 1 v2)" = "Subject: [PATCH v2 0/3] Fix oops in shared-processor spinlocks" &&
	test_grep ! "Link to" v2
'

test_expect_success 'diff compares v4 with v2 by default' '
	respin diff s >d && cat d &&
	respin diff s v2 v4 >d24 &&
	check_same d24 d &&
	respin diff s --json >dj &&
	test_grep "^  \"from\": 2,$" dj &&
	test_grep "^  \"to\": 4,$" dj
'

test_expect_success 'diff names the missing version when asked for it' '
	test_expect_code 128 respin diff s v3 v4 2>err &&
	test_grep "v3" err
'

test_expect_success 'show, list and status name the real numbers' '
	respin show s >out && cat out &&
	test_grep "^series     s v4 (v2, v4 recorded)$" out &&
	respin show s@v2 >out &&
	test_grep "^series     s v2 (v2, v4 recorded)$" out &&
	respin show s --json >j &&
	tr -d " \n" <j >j1 &&
	test_grep "\"versions\":\[2,4\]" j1 &&
	respin list >out && cat out &&
	test_grep "^s  *v4  *3 patches" out &&
	respin status s >out && cat out &&
	test_grep "^s v4 (3 patches)" out
'

test_expect_success 'report lists v4 and v2, nothing for v3' '
	respin report s -o r.html &&
	test_grep "<li><b>v4</b>" r.html &&
	test_grep "<li><b>v2</b>" r.html &&
	test_grep ! "<b>v3</b>" r.html
'

# Tracked versions with a gap: v2 and v4 of a small series, a bench with
# fixed samples (100 on v2, 110 on v4): the cover compares v4 with v2.
cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
base=100
grep -q faster f.c && base=110
f="$TRASH/runs-$RESPIN_TREE"
n=$(cat "$f" 2>/dev/null || echo 0)
echo $((n + 1)) >"$f"
set -- -0.4 0.2 0.0 0.4 -0.2
shift $((n % 5))
echo "respin-metric: ops $(echo "$base + $1" | bc)"
EOB

test_expect_success 'tracked v2 and v4 with bench results: v4 against v2' '
	git init -q ../t && cd ../t &&
	echo base >f.c && git add f.c && git commit -qm base &&
	git branch base &&
	echo slow >>f.c && git commit -qam "f: a change" &&
	respin track t --base base --version 2 >out &&
	test_grep "^t v2: " out &&
	sed -i s/slow/faster/ f.c && git commit -q --amend -am "f: a change" &&
	respin track t --version 4 >out &&
	test_grep "^t v4: " out &&
	git config respin.check.build.enabled false &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.ops.kind bench &&
	git config respin.check.ops.command "sh $TRASH/bench.sh" &&
	git config respin.check.ops.higher true &&
	git config respin.check.ops.runs 5..5 &&
	respin check t@v2 >out 2>&1 &&
	respin check t@v4 >out 2>&1 &&
	respin cover t >c && cat c &&
	sed -n "/^ops, the whole series/,/^Runs/p" c >whole &&
	cat >want <<-\EOW &&
	ops, the whole series, v4 against v2:
	                          v2 1/1             v4 1/1
	Amean     ops  100.00 (   0.00%)  110.00 *  10.00%*
	Stddev    ops    0.32 (   0.00%)    0.32 (   0.00%)
	CoeffVar  ops    0.32 (   0.00%)    0.29 (   9.09%)
	Min       ops   99.60 (   0.00%)  109.60 (  10.04%)
	Max       ops  100.40 (   0.00%)  110.40 (   9.96%)
	Runs      ops                  5                  5
	EOW
	check_same want whole &&
	test_grep "^- Compared with v2 (v3 is not recorded):$" c &&
	test_grep "^- 1/1 \"f: a change\": code changed$" c
'

test_done
