#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin.check.NAME.guest on the fixture tree, where there is no
# kernel to boot (fast, on any machine; t0996 runs real guests): the
# setting is checked and listed, it is part of the check's definition,
# a guest check runs on the base too, and a guest that cannot run the
# command (no bzImage, no QEMU) is an ERROR with the runner's words,
# never stored, so the next check runs it again.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k && track_three_patches || {
	echo "Bail out! no fixture"; exit 1; }
git config respin.check.cmd.kind command &&
git config respin.check.cmd.command "cat /proc/meminfo" || exit 1

test_expect_success 'guest is listed, and is part of the definition' '
	respin check --list --json >host.json &&
	test_grep ! "\"guest\"" host.json &&
	git config respin.check.cmd.guest true &&
	respin check --list >list &&
	test_grep "^cmd  *command  *cat /proc/meminfo (in the patch.s kernel: respin-guest)$" list &&
	respin check --list --json >guest.json &&
	test_grep "\"guest\": true" guest.json &&
	sed -n "s/.*\"definition\": \"\(.*\)\".*/\1/p" host.json >d1 &&
	sed -n "s/.*\"definition\": \"\(.*\)\".*/\1/p" guest.json >d2 &&
	test_must_fail cmp d1 d2
'

test_expect_success 'append is part of a guest check.s definition' '
	git config respin.check.cmd.append "quiet" &&
	test_when_finished "git config --unset respin.check.cmd.append" &&
	respin check --list --json >append.json &&
	sed -n "s/.*\"definition\": \"\(.*\)\".*/\1/p" append.json >d3 &&
	test_must_fail cmp d2 d3
'

test_expect_success 'icount is part of a guest check.s definition; checked' '
	git config respin.check.cmd.icount 0 &&
	test_when_finished "git config --unset respin.check.cmd.icount" &&
	respin check --list --json >icount.json &&
	sed -n "s/.*\"definition\": \"\(.*\)\".*/\1/p" icount.json >d4 &&
	test_must_fail cmp d2 d4 &&
	git config respin.check.cmd.icount 3 &&
	respin check --list --json >icount3.json &&
	sed -n "s/.*\"definition\": \"\(.*\)\".*/\1/p" icount3.json >d5 &&
	test_must_fail cmp d4 d5 &&
	git config respin.check.cmd.icount 11 &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.cmd.icount: .11. is not a shift from 0 to 10" err &&
	git config respin.check.cmd.icount 2 &&
	git config respin.check.cmd.guest false &&
	test_when_finished "git config respin.check.cmd.guest true" &&
	test_expect_code 128 respin check --list 2>err &&
	test_grep "respin.check.cmd.icount: the guest.s clock; .cmd. does not run in the guest" err
'

# What QEMU is given: a stand-in records its arguments and fails, so
# the guest never runs (125, an ERROR) but the runner's way is seen.
test_expect_success 'icount reaches QEMU: -icount shift=N,sleep=off under TCG' '
	git config respin.check.cmd.icount 3 &&
	test_when_finished "git config --unset respin.check.cmd.icount" &&
	mkdir -p .git/respin/build/a/arch/x86/boot &&
	echo "not a kernel" >.git/respin/build/a/arch/x86/boot/bzImage &&
	test_when_finished "rm -f .git/respin/build/a/arch/x86/boot/bzImage" &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >>\"%s\"\nexit 1\n" \
		"$TRASH/qemu-args" >"$TRASH/fake-qemu" &&
	chmod +x "$TRASH/fake-qemu" &&
	test_expect_code 1 env QEMU="$TRASH/fake-qemu" respin check a --patch 1 >out 2>err &&
	test_grep "ERROR: the guest never ran the command" err &&
	test_grep -x "shift=3,sleep=off" "$TRASH/qemu-args" &&
	grep -x -B1 "shift=3,sleep=off" "$TRASH/qemu-args" >pair &&
	test_grep -x -- "-icount" pair &&
	grep -x -A1 -- "-accel" "$TRASH/qemu-args" >accel &&
	test_grep -x tcg accel &&
	test_grep ! -x kvm accel
'

test_expect_success 'no QEMU: an ERROR at each position, the base too, saying so' '
	test_expect_code 1 env QEMU=no-such-qemu respin check a >out 2>err &&
	cat out err &&
	test_grep "^4 run, 0 reused, 4 failed$" out &&
	test_grep "^cmd at 0/3: ERROR: the guest never ran the command (respin-guest exit 125):$" err &&
	test_grep "respin-guest: the guest never ran the command: no-such-qemu is not installed" err
'

test_expect_success 'no bzImage: an ERROR naming where it looked, not stored' '
	test_expect_code 1 respin check a >out 2>err &&
	test_grep "^4 run, 0 reused, 4 failed$" out &&
	test_grep "^cmd at 2/3: ERROR: the guest never ran the command" err &&
	test_grep "no kernel image at .*/.git/respin/build/a/arch/x86/boot/bzImage$" err &&
	test_expect_code 128 respin results a --check cmd --patch 2 2>err &&
	test_grep "no stored cmd result" err
'

test_expect_success 'guest on a kind that does not run a command of its own: 128' '
	git config respin.check.cp.kind lint &&
	git config respin.check.cp.command "cat" &&
	git config respin.check.cp.guest yes &&
	test_when_finished "git config --remove-section respin.check.cp" &&
	test_expect_code 128 respin check a 2>err &&
	test_grep "respin.check.cp.guest: only command, ktap and bench checks run in the guest (.cp. is a lint check)" err
'

test_expect_success 'guest that is not a boolean: 128, naming the key' '
	git config respin.check.cmd.guest maybe &&
	test_when_finished "git config respin.check.cmd.guest true" &&
	test_expect_code 128 respin check a 2>err &&
	test_grep "respin.check.cmd.guest: .maybe. is not true or false" err
'

test_expect_success 'guest = false: on the host again, as before' '
	git config respin.check.cmd.guest false &&
	respin check --list --json >off.json &&
	check_same host.json off.json
'

test_done
