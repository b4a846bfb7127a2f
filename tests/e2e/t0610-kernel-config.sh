#!/bin/sh
# The built-in build check in a kernel-shaped tree (one with a Kconfig):
# with no .config in the build directory it takes the user's .config,
# or makes tinyconfig when there is none; ARCH=x86_64 and O= always;
# and makes it again when your .config changed.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || exit 1
# Make the fixture look like a kernel tree to respin: a top Kconfig and
# a tinyconfig target that writes the .config into O=.
echo 'mainmenu "fixture"' >Kconfig
cat >>Makefile <<'EOM'

tinyconfig olddefconfig:
	@mkdir -p $(objtree)
	@test -f $(objtree)/.config || echo "CONFIG_FIXTURE_$@=y" >$(objtree)/.config
	@echo "  $@ (ARCH=$(ARCH))"
EOM
git add Kconfig Makefile && git commit -qm "make it kernel-shaped"
git branch -f mm-unstable HEAD
git checkout -q -b work
echo "/* one */" >>mm/vmscan.c && git commit -qam "mm/vmscan: a comment" -m "Signed-off-by: A U Thor <author@example.org>"
respin track k --base mm-unstable >/dev/null
git config respin.check.checkpatch.enabled false

test_expect_success 'no .config anywhere: tinyconfig, with ARCH=x86_64 and O=' '
	respin check k >out 2>err &&
	test_grep "^2 run, 0 reused, 0 failed$" out &&
	test_grep "^CONFIG_FIXTURE_tinyconfig=y$" .git/respin/build/k/.config &&
	respin results k --check build --patch 0 >log &&
	test_grep "respin: no .config: making tinyconfig" log &&
	test_grep "tinyconfig (ARCH=x86_64)" log
'

test_expect_success 'the user .config is taken when there is one' '
	rm -rf .git/respin/build/k &&
	echo "CONFIG_MINE=y" >.config &&
	echo "/* two */" >>mm/vmscan.c && git commit -qam "mm/vmscan: another comment" &&
	respin track k >/dev/null &&
	respin check k >out 2>err &&
	test_grep "^CONFIG_MINE=y$" .git/respin/build/k/.config &&
	respin results k --check build --patch 2 >log &&
	test_grep "respin: using the .config of" log
'

test_expect_success 'your .config changed: the build directory'"'"'s is made again' '
	echo "CONFIG_MINE_TOO=y" >>.config &&
	echo "/* three */" >>mm/vmscan.c && git commit -qam "mm/vmscan: a third comment" &&
	respin track k >/dev/null &&
	respin check k >out 2>err &&
	test_grep "^1 run, 3 reused, 0 failed$" out &&
	test_grep "^CONFIG_MINE_TOO=y$" .git/respin/build/k/.config &&
	respin results k --check build --patch 3 >log &&
	test_grep "^respin: the .config here was made as \"current [0-9a-f]*\"; this build wants \"current [0-9a-f]*\": the build starts over$" log &&
	test_grep "respin: using the .config of" log
'

test_done
