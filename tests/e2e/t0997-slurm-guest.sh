#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# guest = true checks through the slurm executor, on a real one-node
# Slurm (started by the test): a guest job runs on the node like any
# job (the node boots the position's kernel under QEMU with the host's
# root over 9p), and gives the results the local executor gives; the
# guest's kernel log comes back with the result; a second check
# submits nothing.
#
# The kernel is t0955's tiny 6.1 bzImage (built once into the cache,
# under the same lock); the fixture's "build" hands it to each
# position, so the test costs boots, not builds.
: "${RESPIN_CACHE:=$HOME/.cache/respin}"
export RESPIN_CACHE
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-slurm.sh"

slurm_skip_unless_possible
command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] ||
	test_skip_all "no static libc for the guest's init (apt-get install libc6-dev)"
KSRC=$(sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
FORMAT=$(sed -n 's/^format="respin-tiny-config \([0-9]*\)"$/\1/p' \
	"$SRC_DIR/tools/kernel-config-tiny.sh")
BUILD=$RESPIN_CACHE/build-guest-f$FORMAT
BZ=$BUILD/arch/x86/boot/bzImage

# results: the --json of every result, without the durations
results() {
	respin results k --json | sed '/"duration":/d'
}

# submitted NAME-PART: how many jobs Slurm was given whose name has it
submitted() {
	squeue -h -t all -o %j | grep -c -- "$1"
}

test_expect_success 'the tiny 6.1 kernel with 9p (t0955.s, built once)' '
	exec 9>"$RESPIN_CACHE/.build-guest.lock" && flock 9 &&
	{ test -s "$BZ" ||
		JOBS=2 sh "$SRC_DIR/tools/kernel-config-tiny.sh" --build "$KSRC" \
			"$BUILD" >"$TRASH/bz.out" 2>"$TRASH/bz.err" ||
		{ tail -n 30 "$TRASH/bz.err"; false; }; } &&
	exec 9>&- &&
	test -s "$BZ"
'

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
{
	git checkout -q -b work mm-unstable &&
	commit_three_patches &&
	respin track k --base mm-unstable &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.build.command \
		"mkdir -p \"\$RESPIN_BUILD/arch/x86/boot\" && cp \"$BZ\" \"\$RESPIN_BUILD/arch/x86/boot/bzImage\"" &&
	git config respin.check.build.artifacts arch/x86/boot/bzImage &&
	git config respin.check.inkernel.kind command &&
	git config respin.check.inkernel.guest true &&
	git config respin.check.inkernel.timeout 300 &&
	git config respin.check.inkernel.command \
		"grep -q root=hostroot /proc/cmdline && test \"\$(id -u)\" = 0 && uname -r && ! grep -q vmscan_extra \"\$RESPIN_SRC/mm/vmscan.c\""
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
slurm_start || { echo "Bail out! the one-node Slurm did not start"; exit 1; }
mkdir "$TRASH/shared" && chmod 755 "$TRASH/shared"

test_expect_success 'a series whose guest check fails at patch 3' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 &&
	respin check --list >list &&
	test_grep "^inkernel .*(in the patch.s kernel: respin-guest)$" list
'

test_expect_success 'locally: the guest check fails at patch 3 only' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^8 run, 0 reused, 1 failed$" out &&
	results >local.json &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		print join(q( ), map { \$_->{results}{inkernel}{status} }
			@{\$d->{patches}}), qq(\n);
	" <local.json >got &&
	echo "PASS PASS PASS FAIL" >want &&
	check_same want got
'

test_expect_success 'through Slurm: the guest jobs ran on the node, the same results' '
	rm -rf .git/respin/results.db* .git/respin/build/k .git/respin/artifacts &&
	git config respin.executor slurm &&
	git config respin.slurm.shared "$TRASH/shared" &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^8 run, 0 reused, 1 failed$" out &&
	results >slurm.json &&
	check_same local.json slurm.json &&
	# a guest job a position, the base too
	test "$(submitted -inkernel-)" = 4 &&
	respin results k --check inkernel --patch 3 >log &&
	test_grep "^respin-guest-end: exit 1$" log &&
	test_grep "^respin-guest-dmesg:$" log &&
	test_grep "Linux version 6\.1" log
'

test_expect_success 'a second check through Slurm submits nothing' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 8 reused, 1 failed$" out &&
	test "$(submitted -inkernel-)" = 4
'

test_done
