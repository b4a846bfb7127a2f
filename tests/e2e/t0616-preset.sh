#!/bin/sh
# respin check --preset mm and respin.check.preset: the checks a preset
# adds (listed, marked, changed or switched off by the user's config),
# an unknown preset; and the build's kconfig = tiny-qemu in a
# kernel-shaped fixture: kernel-config-tiny.sh with the options the
# touched files' Makefile and the mm selftests' config name, an option
# its dependencies leave out named, not fatal.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || exit 1
# kernel-shaped: a top Kconfig, scripts/config, tinyconfig and
# olddefconfig targets; olddefconfig drops CONFIG_NEEDS_MISSING (an
# option whose dependencies are not met), and CONFIG_NEEDS_DEP unless
# CONFIG_HAS_DEP is set (what mm/Kconfig says it depends on)
echo 'mainmenu "fixture"' >Kconfig
cat >mm/Kconfig <<'EOM'
config NEEDS_DEP
	bool "an option with a dependency"
	depends on HAS_DEP && \
		!NOT_THIS || OTHER_ALTERNATIVE

config NEEDS_MISSING
	bool "an option that cannot be"
	depends on NEVER_THERE
EOM
mkdir -p scripts &&
cat >scripts/config <<'EOM'
#!/bin/sh
# the fixture's scripts/config: --file F, then --enable NAME...
f=$2
shift 2
while [ $# -gt 1 ]; do
	echo "CONFIG_$2=y" >>"$f"
	shift 2
done
EOM
chmod +x scripts/config
cat >>Makefile <<'EOM'

tinyconfig:
	@mkdir -p $(objtree)
	@echo "CONFIG_FIXTURE_tinyconfig=y" >$(objtree)/.config
olddefconfig:
	@grep -v '^CONFIG_NEEDS_MISSING=\|^CONFIG_NEVER_THERE=' $(objtree)/.config >$(objtree)/.config.new || :
	@grep -q '^CONFIG_HAS_DEP=y' $(objtree)/.config.new || \
		{ grep -v '^CONFIG_NEEDS_DEP=' $(objtree)/.config.new >$(objtree)/.config.nd; mv $(objtree)/.config.nd $(objtree)/.config.new; }
	@mv $(objtree)/.config.new $(objtree)/.config
EOM
printf 'obj-y := page_alloc.o\nobj-$(CONFIG_COMPACTION) += compaction.o \\\n\tnot_here.o\nobj-$(CONFIG_VMSCAN_X) += vmscan.o\n' >mm/Makefile
printf 'CONFIG_USERFAULTFD=y\nCONFIG_TEST_HMM=m\nCONFIG_NEEDS_MISSING=y\nCONFIG_NEEDS_DEP=y\n' \
	>tools/testing/selftests/mm/config
git add Kconfig mm/Kconfig Makefile scripts/config mm/Makefile tools/testing/selftests/mm/config &&
git commit -qm "make it kernel-shaped" || exit 1
git branch -f mm-unstable HEAD
git checkout -q -b work
echo "/* one */" >>mm/compaction.c &&
git commit -qam "mm/compaction: a comment" -m "Signed-off-by: A U Thor <author@example.org>" || exit 1
respin track k --base mm-unstable >/dev/null
git config respin.check.checkpatch.enabled false

test_expect_success 'kconfig = tiny-qemu: the touched file'"'"'s option and the selftests'"'"' ones, tried' '
	git config respin.check.build.kconfig tiny-qemu &&
	git config respin.check.build.command true &&
	test_when_finished "git config --unset respin.check.build.command" &&
	respin check k >out 2>err &&
	test_grep "^2 run, 0 reused, 0 failed$" out &&
	cfg=.git/respin/build/k@tiny-qemu/.config &&
	test_grep "^CONFIG_FIXTURE_tinyconfig=y$" $cfg &&
	test_grep "^CONFIG_64BIT=y$" $cfg &&
	test_grep "^CONFIG_COMPACTION=y$" $cfg &&
	test_grep "^CONFIG_USERFAULTFD=y$" $cfg &&
	test_grep ! "VMSCAN_X" $cfg &&
	test_grep ! "TEST_HMM" $cfg &&
	test_grep "^CONFIG_NEEDS_DEP=y$" $cfg &&
	test_grep "^CONFIG_HAS_DEP=y$" $cfg &&
	test_grep ! "NOT_THIS\|OTHER_ALTERNATIVE\|NEVER_THERE\|NEEDS_MISSING" $cfg &&
	respin results k --check build --patch 0 >log &&
	test_grep "respin: kconfig = tiny-qemu: a tinyconfig for QEMU with, where they can be, COMPACTION USERFAULTFD NEEDS_MISSING NEEDS_DEP$" log &&
	test_grep "kernel-config-tiny: enabled for the options wanted: HAS_DEP$" log &&
	test_grep "not enabled (their dependencies are not): NEEDS_MISSING$" log
'

# definition CHECK: its definition hash, from respin check --list --json
definition() {
	respin check --list --json | perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		print map { $_->{name} eq $ARGV[0] ? "$_->{definition}\n" : () } @$d;
	' "$1"
}

test_expect_success 'another kconfig is another build definition' '
	tiny=$(definition build) &&
	git config respin.check.build.kconfig current &&
	current=$(definition build) &&
	test "$tiny" != "$current" &&
	git config --unset respin.check.build.kconfig &&
	test "$(definition build)" = "$current"
'

test_expect_success 'another kernel is another definition of what runs with it' '
	git config respin.check.probe.kind command &&
	git config respin.check.probe.command true &&
	git config respin.check.probe.guest true &&
	git config respin.check.speed.kind bench &&
	git config respin.check.speed.command "echo respin-metric: speed 1" &&
	git config respin.check.tip.kind command &&
	git config respin.check.tip.command true &&
	test_when_finished "git config --remove-section respin.check.probe &&
		git config --remove-section respin.check.speed &&
		git config --remove-section respin.check.tip" &&
	git config respin.check.build.kconfig tiny-qemu &&
	test_when_finished "git config --unset respin.check.build.kconfig" &&
	for k in probe speed tip; do
		definition $k >$k.tiny || return 1
	done &&
	git config respin.check.build.kconfig current &&
	test "$(definition probe)" != "$(cat probe.tiny)" &&
	test "$(definition speed)" != "$(cat speed.tiny)" &&
	# a check that does not use the build stays as it was
	test "$(definition tip)" = "$(cat tip.tiny)"
'

test_expect_success 'a kconfig that is not known: exit 128, the key named' '
	git config respin.check.build.kconfig huge &&
	test_expect_code 128 respin check k >out 2>err &&
	test_grep "respin.check.build.kconfig: '"'"'huge'"'"' is not current" err &&
	git config --unset respin.check.build.kconfig
'

test_expect_success 'kconfig-tiny refuses a name that is not an option' '
	test_expect_code 1 sh "$SRC_DIR/tools/kernel-config-tiny.sh" --try "A;touch PWNED" . "$TRASH/o" 2>err &&
	test_grep "is not an option name" err &&
	test ! -e PWNED
'

# (checkpatch is switched off above: the preset does not bring it back)
test_expect_success '--preset mm: its checks listed, each marked' '
	respin check --list --preset mm >list &&
	test_grep "^build .*a tinyconfig for QEMU.*\[built in, preset mm\]$" list &&
	test_grep ! "^checkpatch " list &&
	test_grep "^sparse  *sparse .*\[preset mm\]$" list &&
	test_grep "^w1  *w1 .*\[preset mm\]$" list &&
	test_grep "^kdoc  *kdoc .*\[preset mm\]$" list &&
	test_grep "^selftests  *kselftest .*\[preset mm\]$" list &&
	test $(wc -l <list) = 5 &&
	respin check --list >plain &&
	test $(wc -l <plain) = 1
'

test_expect_success 'check --preset: results --preset shows its checks, check says so' '
	git config respin.check.w1.command "cat >/dev/null" &&
	test_when_finished "git config --unset respin.check.w1.command" &&
	respin check k --preset mm --only w1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	test_grep "^hint: .respin results k --preset mm. shows them; .git config respin.check.preset mm. makes the preset every command.s" err &&
	# (without the preset, w1 is a command check: another definition)
	respin results k >plain &&
	test_grep ! "sparse\|selftests" plain &&
	test_grep "^ *1/1  *-  *-  *mm/compaction: a comment$" plain &&
	respin results k --preset mm >t &&
	test_grep "^ *build  *sparse  *w1  *kdoc  *selftests$" t &&
	# (w1 makes in the build directory: --only builds the tree first)
	test_grep "^ *1/1  *ok  *-  *ok  *-  *-  *mm/compaction: a comment$" t &&
	respin results k --preset mm --check w1 --patch 1 >one &&
	test_grep "^status  *PASS$" one &&
	test_expect_code 129 respin results k --preset nope 2>err &&
	test_grep "no such preset" err &&
	git config respin.check.preset mm &&
	respin check k --preset mm --only w1 >out 2>err &&
	test_grep "^0 run, 1 reused, 0 failed$" out &&
	test_grep ! "hint:" err &&
	git config --unset respin.check.preset
'

test_expect_success 'respin.check.preset keeps it; --json names the preset' '
	git config respin.check.preset mm &&
	respin check --list >list2 &&
	respin check --list --preset mm >list &&
	cmp list list2 &&
	respin check --list --json >json &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my %p = map { (\$_->{name} => \$_) } @\$d;
		exit 1 unless \$p{selftests}{preset} eq q(mm);
		exit 2 unless \$p{build}{kconfig} eq q(tiny-qemu);
		exit 3 if exists \$p{checkpatch}{preset};
	" <json
'

test_expect_success 'your config goes over the preset: a check off, a setting changed' '
	git config respin.check.w1.enabled false &&
	git config respin.check.build.kconfig current &&
	respin check --list >list &&
	test_grep ! "^w1 " list &&
	test_grep "^build .*the current .config" list &&
	git config --unset respin.check.w1.enabled &&
	git config --unset respin.check.build.kconfig
'

test_expect_success 'an unknown preset: exit 129, the known ones named' '
	test_expect_code 129 respin check --list --preset nope 2>err &&
	test_grep "^error: --preset '"'"'nope'"'"': no such preset (there are: mm)$" err &&
	git config respin.check.preset nope &&
	test_expect_code 129 respin check k 2>err &&
	test_grep "respin.check.preset is '"'"'nope'"'"': no such preset" err &&
	git config --unset respin.check.preset
'

# The build's log shows the .config make ran with ("built with" lines).
plain=.git/respin/build/k tiny=.git/respin/build/k@tiny-qemu
built_with() {
	git config respin.check.build.command \
		'make O="$RESPIN_BUILD" && sed "s/^/built with /" "$RESPIN_BUILD/.config"'
}

test_expect_success 'a plain check, then --preset mm: each .config its own build directory' '
	built_with &&
	test_when_finished "git config --unset respin.check.build.command" &&
	echo "/* two */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: another comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track k >/dev/null &&
	respin check k >out 2>err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	test_grep "^CONFIG_FIXTURE_tinyconfig=y$" $plain/.config &&
	test_grep "^current tinyconfig$" $plain/.respin-config &&
	# (the user adds an option, as the tinyconfig + COMPACTION of issue 22)
	echo CONFIG_USERS_OWN=y >>$plain/.config &&
	respin check k --preset mm --only build >out 2>err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	test_grep "^CONFIG_64BIT=y$" $tiny/.config &&
	test_grep "^tiny-qemu [0-9]* COMPACTION USERFAULTFD NEEDS_MISSING NEEDS_DEP$" $tiny/.respin-config &&
	for i in 0 1 2
	do
		respin results k --preset mm --check build --patch $i >log &&
		test_grep "^built with CONFIG_64BIT=y$" log || return 1
	done &&
	# the plain build keeps its own .config, and its results
	test_grep "^CONFIG_USERS_OWN=y$" $plain/.config &&
	test_grep ! "64BIT" $plain/.config &&
	respin check k >out 2>err &&
	test_grep "^0 run, 3 reused, 0 failed$" out &&
	respin results k --check build --patch 2 >log &&
	test_grep "^built with CONFIG_FIXTURE_tinyconfig=y$" log &&
	test_grep ! "^built with CONFIG_64BIT=y$" log
'

test_expect_success 'a .config made otherwise (no stamp, as an older respin left it): made again' '
	built_with &&
	test_when_finished "git config --unset respin.check.build.command" &&
	cp .git/respin/build/k/.config $tiny/.config &&
	rm $tiny/.respin-config &&
	echo "/* three */" >>mm/compaction.c &&
	git commit -qam "mm/compaction: a third comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track k >/dev/null &&
	respin check k --preset mm --only build >out 2>err &&
	test_grep "^1 run, 3 reused, 0 failed$" out &&
	respin results k --preset mm --check build --patch 3 >log &&
	test_grep "^respin: the .config here has no .respin-config saying how it was made; this build wants \"tiny-qemu [0-9]* COMPACTION USERFAULTFD NEEDS_MISSING NEEDS_DEP\": the build starts over$" log &&
	test_grep "^built with CONFIG_64BIT=y$" log &&
	test_grep ! "USERS_OWN" log &&
	test_grep "^CONFIG_64BIT=y$" $tiny/.config
'

test_expect_success 'a series that wants other options: the .config made again, the build over' '
	built_with &&
	test_when_finished "git config --unset respin.check.build.command" &&
	echo "/* vmscan */" >>mm/vmscan.c &&
	git commit -qam "mm/vmscan: a comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track k >/dev/null &&
	touch $tiny/stale-object &&
	respin check k --preset mm --only build >out 2>err &&
	test_grep "^1 run, 4 reused, 0 failed$" out &&
	respin results k --preset mm --check build --patch 4 >log &&
	test_grep "^respin: the .config here was made as \"tiny-qemu [0-9]* COMPACTION USERFAULTFD NEEDS_MISSING NEEDS_DEP\"; this build wants \"tiny-qemu [0-9]* COMPACTION VMSCAN_X USERFAULTFD NEEDS_MISSING NEEDS_DEP\": the build starts over$" log &&
	test_grep "^built with CONFIG_VMSCAN_X=y$" log &&
	test_path_is_missing $tiny/stale-object &&
	# (the same again: nothing is made)
	echo "/* vmscan 2 */" >>mm/vmscan.c &&
	git commit -qam "mm/vmscan: another comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track k >/dev/null &&
	respin check k --preset mm --only build >out 2>err &&
	test_grep "^1 run, 5 reused, 0 failed$" out &&
	respin results k --preset mm --check build --patch 5 >log &&
	test_grep ! "^respin: .*config" log
'

test_expect_success '--only a check that needs the build: its kconfig'"'"'s directory, built first' '
	built_with &&
	test_when_finished "git config --unset respin.check.build.command" &&
	git config respin.check.w1.command "cat >/dev/null; echo \"w1 in \$RESPIN_BUILD\"" &&
	test_when_finished "git config --unset respin.check.w1.command" &&
	echo "/* vmscan 3 */" >>mm/vmscan.c &&
	git commit -qam "mm/vmscan: a third comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track k >/dev/null &&
	respin check k --preset mm --only w1 --patch 6 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin results k --preset mm --check w1 --patch 6 >log &&
	test_grep "^w1 in .*/build/k@tiny-qemu$" log &&
	respin results k --preset mm --check build --patch 6 >log &&
	test_grep "^built with CONFIG_64BIT=y$" log &&
	test "$(cut -d" " -f1 $tiny/.respin-built)" = "$(git rev-parse HEAD^{tree})"
'

test_done
