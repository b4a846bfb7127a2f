#!/bin/sh
# respin bisect-base: the series was fine on an older base and broken on
# a newer one; a binary search over the 64 base commits between, the
# series applied on each (real git commits): commit 41 conflicts with
# patch 2; with a check, commit 20 breaks it.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
git config user.name "A U Thor" && git config user.email author@example.org
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false

git checkout -q -b old mm-unstable &&
printf "one\ntwo\nthree\n" >conf.txt && git add conf.txt &&
git commit -qm "conf: a file the series changes" || exit 1
git checkout -q -b work old &&
echo a1 >a1 && git add a1 && git commit -qm "s1: add a1" &&
sed -i "s/^two$/two, as the series wants/" conf.txt && git commit -qam "s2: change conf" &&
echo a3 >a3 && git add a3 && git commit -qm "s3: add a3" || exit 1
respin track s --base old >/dev/null || { echo "Bail out! no series"; exit 1; }
git checkout -q -b new old || exit 1
i=1
while test $i -le 64; do
	echo $i >"base-$i"
	test $i = 20 && echo slow >SLOW
	test $i = 41 && sed -i "s/^two$/two, as the base wants/" conf.txt
	git add -A && git commit -qm "base: commit $i" || exit 1
	i=$((i + 1))
done
git checkout -q work
c20=$(git rev-parse new~44) c40=$(git rev-parse new~24) c41=$(git rev-parse new~23)

test_expect_success 'the first base commit the series does not apply on: 41, patch 2' '
	test "$(git log -1 --format=%s $c41)" = "base: commit 41" &&
	respin bisect-base s --good old --bad new >out &&
	cat out &&
	test_grep "^Bisected the base to $(git rev-parse --short=12 $c41) \"base: commit 41\": patch 2/3 \"s2: change conf\" does not apply (conf.txt) there; good on $(git rev-parse --short=12 $c40) \"base: commit 40\"$" out &&
	test_grep "^s v1 on 64 base commits: [0-9]* tested" out
'

test_expect_success 'in log2(64) + 2 tries, not 65; JSON names the commit and the patch' '
	respin bisect-base s --good old --bad new --json >j &&
	test_grep "\"answer\": \"found\"" j &&
	test_grep "\"commit\": \"$c41\"" j && test_grep "\"last_good\": \"$c40\"" j &&
	test_grep "\"patch\": 2," j &&
	n=$(sed -n "s/^  \"tested\": \([0-9]*\),$/\1/p" j) &&
	test "$n" -le 8 && test "$n" -ge 2
'

test_expect_success 'nothing is moved or written: branches and the store as they were' '
	git for-each-ref >before &&
	respin show s --json >show1 &&
	respin bisect-base s --good old --bad new >/dev/null &&
	git for-each-ref >after && check_same before after &&
	respin show s --json >show2 && check_same show1 show2
'

test_expect_success 'with --check: the first base commit where it fails, 20' '
	git config respin.check.fast.kind command &&
	git config respin.check.fast.command "echo x >>\"$TRASH/fast.runs\"; test ! -e SLOW" &&
	respin bisect-base s --good old --bad new --check fast --retries 0 >out &&
	cat out &&
	test_grep "^Bisected the base to $(git rev-parse --short=12 $c20) \"base: commit 20\": fast fails with the series on it; good on" out &&
	test $(wc -l <"$TRASH/fast.runs") -le 8
'

test_expect_success 'the series applied on good bases: results by tree, reused the next time' '
	rm -f "$TRASH/fast.runs" &&
	respin bisect-base s --good old --bad new --check fast --retries 0 >out &&
	test_grep "^Bisected the base to $(git rev-parse --short=12 $c20)" out &&
	test_path_is_missing "$TRASH/fast.runs"
'

test_expect_success 'fine on every base: nothing to bisect, exit 1' '
	test_expect_code 1 respin bisect-base s --good old --bad new~24 >out &&
	test_grep "^Nothing to bisect: the series applies on $(git rev-parse --short=12 $c40)" out
'

test_expect_success 'bad use: 129; a good that is not older: 128' '
	test_expect_code 129 respin bisect-base s --good old 2>err &&
	test_grep "give --good REV" err &&
	test_expect_code 129 respin bisect-base s --good nosuch --bad new 2>err &&
	test_grep "\-\-good nosuch: not a revision here" err &&
	test_expect_code 129 respin bisect-base s --good old --bad new --subtest x 2>err &&
	test_grep "subtest goes with --check" err &&
	git config respin.check.bb.kind bench && git config respin.check.bb.command true &&
	test_expect_code 129 respin bisect-base s --good old --bad new --check bb 2>err &&
	test_grep "bb. is a bench: bisect-base takes a build, ktap or command check" err &&
	test_expect_code 128 respin bisect-base s --good new --bad old 2>err &&
	test_grep "is not an ancestor of --bad old" err &&
	test_expect_code 128 respin bisect-base nosuch --good old --bad new 2>err
'

test_done
