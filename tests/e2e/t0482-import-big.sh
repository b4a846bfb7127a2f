#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A patch from respin.import.gitApplyAbove bytes on is applied by git
# apply --cached (libgit2's apply holds five copies of a giant hunk):
# the same commits as libgit2 makes and as git am makes, for every kind
# of change format-patch writes; a patch that does not apply is named,
# nothing recorded and nothing left behind; its objects are kept from
# git gc until the series' ref points at them.  A stored mail beyond
# respin.maxMailSize is refused before it is read.
. "$(dirname "$0")/lib.sh"

git init -q repo && cd repo || exit 1
git config respin.import.gitApplyAbove 0

# the base: a text file to change in three places, one to rename, one
# to delete, a script to make executable, a binary file
seq 1 200 | sed "s/^/line /" >a.txt
seq 1 50 | sed "s/^/old /" >old.txt
seq 1 30 | sed "s/^/gone /" >gone.txt
printf '#!/bin/sh\necho hi\n' >script.sh
printf 'bin\000ary\001\002\003\n' >bin.dat
git add . && git commit -q -m base && git branch base

# the series, made in a clone: this repository has none of its objects
git clone -q --no-local . "$TRASH/src" && (
	cd "$TRASH/src" &&
	sed -e "s/^line 3\$/line three/" -e "s/^line 100\$/line hundred/" \
		-e "\$a line 201" a.txt >a.new && mv a.new a.txt &&
	git commit -q -am "a: three places" &&
	git mv old.txt new.txt && sed -i "s/^old 25\$/new 25/" new.txt &&
	git commit -q -am "old: renamed and changed" &&
	git rm -q gone.txt && seq 1 3000 | sed "s/^/big line /" >big.txt &&
	chmod +x script.sh && git add . && git commit -q -m "big, gone, +x" &&
	printf 'bin\000ary\001\002\004 more\n' >bin.dat &&
	git commit -q -am "bin: changed" &&
	git format-patch -q -n --thread=shallow --stdout origin/base..HEAD \
		>"$TRASH/repo/series.mbox" &&
	git rev-list --reverse origin/base..HEAD >commits &&
	while read c; do git rev-parse "$c^{tree}"; done \
		<commits >"$TRASH/repo/want-trees"
) || exit 1

# tip NAME: the tip of series NAME's v1
tip() {
	git cat-file blob "refs/respin/series/$1:v1/meta" |
		sed -n "s/^tip //p"
}

# trees NAME: the trees of series NAME's v1 commits, the first first
trees() {
	git rev-list --reverse "base..$(tip "$1")" |
		while read c; do git rev-parse "$c^{tree}"; done
}

test_expect_success 'applied by git apply: the trees of the commits mailed' '
	git config respin.import.gitApplyAbove 1 &&
	git count-objects -v | sed -n "s/^count: //p" >loose0 &&
	ls .git/objects/pack >packs0 &&
	GIT_TRACE="$TRASH/trace" respin import gg series.mbox --base base \
		>out 2>err &&
	cat out err &&
	test_grep "gg v1: 4 patches from mail applied on base" out &&
	test $(grep -c "apply --cached" "$TRASH/trace") = 4 &&
	trees gg >gg-trees &&
	check_same want-trees gg-trees &&
	git diff --cached --exit-code base &&
	git diff --exit-code
'

test_expect_success 'its objects are in packs, none loose' '
	git count-objects -v | sed -n "s/^count: //p" >loose1 &&
	check_same loose0 loose1 &&
	ls .git/objects/pack >packs1 &&
	test $(wc -l <packs1) -gt $(wc -l <packs0) &&
	git cat-file -p "$(tip gg):big.txt" >"$TRASH/big.out" &&
	test_grep "^big line 3000\$" "$TRASH/big.out"
'

test_expect_success 'the packs hold the new objects only, not the base tree' '
	ls .git/objects/pack/*.idx >idx1 &&
	for i in $(cat idx1); do
		git verify-pack -v "$i" || return 1
	done >contents &&
	! grep "^$(git rev-parse base:gone.txt) " contents &&
	! grep "^$(git rev-parse base:script.sh) " contents &&
	grep "^$(git rev-parse "$(tip gg):big.txt") " contents
'

test_expect_success 'libgit2 (under the size): the same commits' '
	git config respin.import.gitApplyAbove 0 &&
	respin import lg series.mbox --base base >out 2>err &&
	cat out err &&
	test_grep "lg v1: 4 patches from mail applied on base" out &&
	trees lg >lg-trees &&
	check_same want-trees lg-trees &&
	test "$(tip lg)" = "$(tip gg)" &&
	git config respin.import.gitApplyAbove 1
'

test_expect_success 'and what git am makes of the same mail' '
	git checkout -q -b am base &&
	git am -q series.mbox &&
	git rev-list --reverse base..am >am-commits &&
	while read c; do
		git rev-parse "$c^{tree}" || return 1
	done <am-commits >am-trees &&
	check_same want-trees am-trees &&
	git checkout -q base
'

test_expect_success 'nothing left behind: no folder, no .keep, fsck clean' '
	test_path_is_missing .git/respin/apply-* &&
	! ls .git/objects/pack/*.keep 2>/dev/null &&
	git fsck --strict --no-dangling 2>err &&
	test_must_be_empty err
'

test_expect_success 'a patch git cannot apply: named, nothing recorded' '
	refs_snapshot "$TRASH/refs0" &&
	sed "s/^ line 99\$/ line ninety-nine/" series.mbox >bad.mbox &&
	test_expect_code 128 respin import bad bad.mbox --base base \
		>out 2>err &&
	cat err &&
	test_grep "patch 1/4 <.*> (\"a: three places\") does not apply on [0-9a-f]*: error: patch failed: a.txt:97" err &&
	refs_snapshot "$TRASH/refs1" &&
	check_same "$TRASH/refs0" "$TRASH/refs1" &&
	test_path_is_missing .git/respin/apply-*
'

test_expect_success 'under the size, libgit2 applies (no git apply run)' '
	git config respin.import.gitApplyAbove 1m &&
	rm -f "$TRASH/trace" &&
	GIT_TRACE="$TRASH/trace" respin import small series.mbox \
		--base base >out 2>err &&
	{ test_path_is_missing "$TRASH/trace" ||
	  ! grep "apply --cached" "$TRASH/trace"; } &&
	trees small >small-trees &&
	check_same want-trees small-trees
'

test_expect_code 129 'a size that is no size: a usage error' '
	git config respin.import.gitApplyAbove lots &&
	respin import odd series.mbox --base base >out 2>err
'

test_expect_success 'its message names the key and the value' '
	cat err &&
	test_grep "respin.import.gitApplyAbove: cannot read .lots. as a size" err &&
	git config respin.import.gitApplyAbove 1
'

test_expect_success 'a stored mail beyond respin.maxMailSize: refused unread' '
	respin import st series.mbox --mail-only >out 2>err &&
	cat out err &&
	git config respin.maxMailSize 4k &&
	test_expect_code 128 respin import st@v1 --base base >out 2>err &&
	cat err &&
	test_grep "^fatal: the stored mail of patch 3/4 of st v1 is larger than respin.maxMailSize (4 KiB, it has [0-9.]* KiB): not read" err &&
	test_grep "^hint: .*git config respin.maxMailSize" err &&
	git config --unset respin.maxMailSize
'

test_expect_success 'applied later by git apply: the same commits again' '
	respin import st@v1 --base base >out 2>err &&
	cat out err &&
	trees st >st-trees &&
	check_same want-trees st-trees
'

test_expect_success 'a mail beyond 1 MiB is stored by way of a quarantine' '
	seq 1 120000 | sed "s/^/+line of a giant patch /" >plus &&
	n=$(wc -l <plus) &&
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
	  printf "From: A U Thor <author@example.org>\n" &&
	  printf "Date: Tue, 14 Nov 2023 22:13:20 +0000\n" &&
	  printf "Subject: [PATCH] huge: add it\n" &&
	  printf "Message-Id: <huge@example.org>\n\nAdd it.\n---\n" &&
	  printf "diff --git a/huge.txt b/huge.txt\nnew file mode 100644\n" &&
	  printf -- "--- /dev/null\n+++ b/huge.txt\n@@ -0,0 +1,%d @@\n" $n &&
	  cat plus && printf -- "-- \n2.39.5\n\n"; } >huge.mbox &&
	GIT_TRACE="$TRASH/trace2" respin import huge huge.mbox --mail-only \
		>out 2>err &&
	cat out err &&
	test_grep "pack-objects" "$TRASH/trace2" &&
	test_path_is_missing .git/respin/blob-* &&
	! ls .git/objects/pack/*.keep 2>/dev/null &&
	git cat-file blob refs/respin/series/huge:v1/mail-0001 >stored &&
	test $(wc -c <stored) -gt 1048576 &&
	test_grep "^+line of a giant patch 120000\$" stored &&
	git fsck --strict --no-dangling 2>err && test_must_be_empty err
'

test_expect_success 'and applied from the stored mail by git apply' '
	respin import huge@v1 --base base >out 2>err &&
	cat out err &&
	git cat-file blob "$(tip huge):huge.txt" >huge.txt.out &&
	test $(wc -l <huge.txt.out) = 120000
'

test_done
