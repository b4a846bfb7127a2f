#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/respin-qemu-ktap on a real kernel: a tinyconfig 6.1 kernel
# (tools/kernel-config-tiny.sh, built once into the cache and reused)
# boots under QEMU (TCG) with static test programs in its initramfs and
# reports KTAP; a hanging test is killed in the guest; a kernel that
# does not boot gives exit 2; real 6.1 vm selftests run in the guest.
#
# Slow the first time (the kernel tree, then about 3 min of kernel
# build on 2 cores); then each boot takes a few seconds.  The kernel
# tree and the build dir are shared with the user's cache (lib.sh gives
# the test its own HOME, so pick the cache before sourcing).
: "${RESPIN_CACHE:=$HOME/.cache/respin}"
export RESPIN_CACHE
. "$(dirname "$0")/lib.sh"

KCACHE=$RESPIN_CACHE
# The kernel is t0955's and t0997's (the same script, the same tree,
# no options of its own): one build of it for the three, in the
# directory of this format of the script.
FORMAT=$(sed -n 's/^format="respin-tiny-config \([0-9]*\)"$/\1/p' \
	"$SRC_DIR/tools/kernel-config-tiny.sh")
BUILD=$KCACHE/build-guest-f$FORMAT
RUNNER=$SRC_DIR/tools/respin-qemu-ktap
# The runner's own cache (initramfs images) is the test's.
RCACHE=$TRASH/runner-cache
run() { RESPIN_CACHE=$RCACHE "$RUNNER" "$@"; }

test_expect_success 'the tools are there: qemu, gcc -static, cpio' '
	command -v qemu-system-x86_64 && command -v cpio && command -v gzip &&
	echo "int main(void) { return 0; }" >s.c &&
	gcc -static -o s s.c && test -x s
'

test_expect_success 'kernel-tree.sh gives the cached linux-6.1 tree' '
	{
		sh "$SRC_DIR/tools/kernel-tree.sh" >"$TRASH/ktree.out" 2>"$TRASH/ktree.err" ||
		{ cat "$TRASH/ktree.err"; false; }
	} &&
	test -f "$(cat "$TRASH/ktree.out")/mm/compaction.c"
'
KDIR=$(cat "$TRASH/ktree.out" 2>/dev/null || echo /nonexistent)
git -C "$KDIR" status --porcelain >"$TRASH/status.before" 2>&1

# One kernel for everything: built once, then reused (a few seconds).
test_expect_success 'kernel-config-tiny.sh --build makes a tiny bzImage (O=, ARCH=x86_64)' '
	mkdir -p "$KCACHE" &&
	exec 9>"$KCACHE/.build-guest.lock" && flock 9 &&
	a=$(date +%s) &&
	{
		sh "$SRC_DIR/tools/kernel-config-tiny.sh" --build "$KDIR" "$BUILD" \
			>"$TRASH/bz.out" 2>"$TRASH/bz.err" ||
		{ tail -n 30 "$TRASH/bz.err"; false; }
	} &&
	echo "kernel config + build: $(( $(date +%s) - a )) s" &&
	test "$(cat "$TRASH/bz.out")" = "$BUILD/arch/x86/boot/bzImage" &&
	test -s "$BUILD/arch/x86/boot/bzImage" &&
	for o in 64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE \
		BLK_DEV_INITRD RD_GZIP BINFMT_ELF PROC_FS SYSFS DEVTMPFS \
		ADVISE_SYSCALLS; do
		grep -qx "CONFIG_$o=y" "$BUILD/.config" ||
			{ echo "CONFIG_$o is not set"; exit 1; }
	done
'
BZ=$BUILD/arch/x86/boot/bzImage

test_expect_success 'a second kernel-config-tiny.sh leaves the .config alone' '
	cp -p "$BUILD/.config" config.before &&
	sh "$SRC_DIR/tools/kernel-config-tiny.sh" "$KDIR" "$BUILD" &&
	test ! "$BUILD/.config" -nt config.before &&
	cmp "$BUILD/.config" config.before
'

test_expect_code 129 'kernel-config-tiny.sh: usage' '
	sh "$SRC_DIR/tools/kernel-config-tiny.sh" "$KDIR"
'

test_expect_success 'kernel-config-tiny.sh: a missing option is an error' '
	test_expect_code 1 sh "$SRC_DIR/tools/kernel-config-tiny.sh" \
		--enable NO_SUCH_OPTION_XYZ "$KDIR" "$TRASH/other-build" 2>err &&
	test_grep "not enabled after olddefconfig.*NO_SUCH_OPTION_XYZ" err
'

# --- the test programs ------------------------------------------------
mkdir -p src tests
cat >src/pass.c <<'EOF'
#include <stdio.h>
int main(void)
{
	printf("KTAP version 1\n1..3\n");
	printf("ok 1 alpha\nok 2 beta\n# a diagnostic line\nok 3 gamma\n");
	return 0;
}
EOF
cat >src/mixed.c <<'EOF'
#include <stdio.h>
int main(void)
{
	printf("TAP version 13\n1..3\nok 1 first\n");
	fprintf(stderr, "second: expected 4, got 5\n");
	printf("not ok 2 second\nok 3 third # SKIP no widget here\n");
	printf("# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0\n");
	return 1;
}
EOF
cat >src/lies.c <<'EOF'
#include <stdio.h>
int main(void)
{
	/* like 6.1's mremap_test: a failure, and exit 0 */
	printf("TAP version 13\n1..2\nok 1 fine\nnot ok 2 broken\n");
	return 0;
}
EOF
cat >src/plain.c <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void)
{
	const char *msg = "<3>plain: an error in the kernel log\n";
	char cwd[256];
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd >= 0 && write(fd, msg, strlen(msg)) < 0)
		perror("write /dev/kmsg");
	printf("hello from the guest\n");
	printf("cwd=%s data=%s parent=%d\n",
	       getcwd(cwd, sizeof(cwd)) ? cwd : "?",
	       access("data/input.txt", R_OK) == 0 ? "yes" : "no",
	       (int)getppid());
	return 0;
}
EOF
cat >src/hang.c <<'EOF'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	printf("TAP version 13\n1..1\n# about to hang\n");
	fflush(stdout);
	if (fork() == 0)
		for (;;)
			pause();	/* its child hangs too */
	for (;;)
		pause();
}
EOF
cat >src/segv.c <<'EOF'
#include <stdio.h>
int main(void)
{
	printf("about to crash\n");
	fflush(stdout);
	*(volatile int *)0 = 1;
	return 0;
}
EOF
cat >src/daemon.c <<'EOF'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	printf("TAP version 13\n1..1\nok 1 left a child behind\n");
	fflush(stdout);
	if (fork() == 0)
		for (;;)
			pause();	/* holds the output pipe open */
	return 0;
}
EOF
cat >src/stop.c <<'EOF'
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>
int main(void)
{
	printf("TAP version 13\n1..2\nok 1 before the stop\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);	/* the machine goes away mid-run */
	return 0;
}
EOF

cc_static() { gcc -static -O2 -Wall -o "$1" "$2"; }

test_expect_success 'static test programs' '
	cc_static tests/01-pass src/pass.c &&
	cc_static tests/02-mixed src/mixed.c &&
	cc_static tests/03-lies src/lies.c &&
	cc_static tests/04-plain src/plain.c &&
	cc_static tests/05-hang src/hang.c &&
	cc_static tests/06-segv src/segv.c &&
	cc_static tests/07-daemon src/daemon.c &&
	mkdir tests/data && echo input >tests/data/input.txt &&
	echo "not a test" >tests/README
'

cat >want.ktap <<'EOF'
KTAP version 1
1..7
# respin-init: running 01-pass
    KTAP version 1
    1..3
    ok 1 alpha
    ok 2 beta
    # a diagnostic line
    ok 3 gamma
ok 1 01-pass
# respin-init: running 02-mixed
    # second: expected 4, got 5
    TAP version 13
    1..3
    ok 1 first
    not ok 2 second
    ok 3 third # SKIP no widget here
    # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0
not ok 2 02-mixed # exit=1
# respin-init: running 03-lies
    TAP version 13
    1..2
    ok 1 fine
    not ok 2 broken
not ok 3 03-lies # exit=0, 1 of its tests failed
# respin-init: running 04-plain
    # hello from the guest
    # cwd=/tests data=yes parent=1
    # kernel: plain: an error in the kernel log
ok 4 04-plain
# respin-init: running 05-hang
    TAP version 13
    1..1
    # about to hang
not ok 5 05-hang # TIMEOUT 20 seconds
# respin-init: running 06-segv
    # about to crash
not ok 6 06-segv # exit=signal 11 (Segmentation fault)
# respin-init: running 07-daemon
    TAP version 13
    1..1
    ok 1 left a child behind
ok 7 07-daemon
EOF

test_expect_success 'the guest runs the tests and prints only their KTAP' '
	a=$(date +%s) &&
	{
		RESPIN_LOG=$TRASH/console.log run --timeout 300 --test-timeout 20 \
			"$BZ" tests >got.ktap 2>run.err ||
		{ cat run.err; false; }
	} &&
	echo "boot + 7 tests (one hangs for 20 s): $(( $(date +%s) - a )) s" &&
	# A slow, busy host makes the emulated kernel warn on its own
	# ("hrtimer: interrupt took ...", clocksource watchdog): those are
	# real kernel diagnostics, not from the tests, so compare without
	# them; the one the test program wrote must be there.
	grep -v "^    # kernel: " got.ktap >got.cmp &&
	grep -v "^    # kernel: " want.ktap >want.cmp &&
	test_grep "^    # kernel: plain: an error in the kernel log$" got.ktap &&
	check_same want.cmp got.cmp
'

test_expect_success 'the console log has the kernel, the markers and the dmesg' '
	test_grep "Linux version 6\.1\." console.log &&
	test_grep "Command line: console=ttyS0 panic=-1 respin_timeout=20" console.log &&
	test_grep "^respin-ktap-begin$" console.log &&
	test_grep "^respin-ktap-end$" console.log &&
	test_grep "^respin-dmesg-begin$" console.log &&
	sed -n "/^respin-dmesg-begin$/,/^respin-dmesg-end$/p" console.log >dmesg &&
	test_grep "^06-segv.*: segfault at 0 " dmesg &&
	test_grep "^plain: an error in the kernel log$" dmesg &&
	test_grep ! "$(printf "\r")" console.log &&
	test_grep ! "$(printf "\033")" console.log &&
	test_grep ! "Linux version" got.ktap
'

test_expect_success 'the initramfs is cached by content, and remade on a change' '
	ls "$RCACHE"/initramfs/*.cpio.gz >list1 &&
	test $(wc -l <list1) = 1 &&
	rm tests/05-hang &&
	run --timeout 300 --test-timeout 20 "$BZ" tests >got2.ktap &&
	test_grep "^1\.\.6$" got2.ktap &&
	ls "$RCACHE"/initramfs/*.cpio.gz >list2 &&
	test $(wc -l <list2) = 2 &&
	run --timeout 120 "$BZ" tests >got3.ktap &&
	grep -v "^    # kernel: " got2.ktap >got2.cmp &&
	grep -v "^    # kernel: " got3.ktap >got3.cmp &&
	check_same got2.cmp got3.cmp &&
	ls "$RCACHE"/initramfs/*.cpio.gz >list3 &&
	check_same list2 list3
'

test_expect_success 'an initramfs no run used for 30 days goes, one in use stays' '
	: >"$RCACHE/initramfs/0000old.cpio.gz" &&
	: >"$RCACHE/initramfs/0000new.cpio.gz" &&
	for f in "$RCACHE"/initramfs/*
	do
		touch -d "40 days ago" "$f" || return 1
	done &&
	touch -d "20 days ago" "$RCACHE/initramfs/0000new.cpio.gz" &&
	run --timeout 120 "$BZ" tests >got4.ktap &&
	test_path_is_missing "$RCACHE/initramfs/0000old.cpio.gz" &&
	test_path_is_file "$RCACHE/initramfs/0000new.cpio.gz" &&
	ls "$RCACHE"/initramfs/*.cpio.gz >list4 &&
	test $(wc -l <list4) = 2 &&
	ls "$RCACHE"/initramfs/init-* >inits &&
	test $(wc -l <inits) = 1
'

test_expect_success 'a bad bzImage path: exit 2 and a clear message' '
	test_expect_code 2 run --timeout 30 "$TRASH/no-such-bzImage" tests >out 2>err &&
	test_grep "no kernel image at .*no-such-bzImage" err &&
	test ! -s out
'

test_expect_success 'a file that is not a kernel: exit 2, QEMU said why' '
	echo "not a kernel" >fake-bzImage &&
	test_expect_code 2 run --timeout 30 fake-bzImage tests >out 2>err &&
	test_grep "QEMU failed" err && test ! -s out
'

test_expect_success 'a kernel that panics before the tests: exit 2 at once' '
	a=$(date +%s) &&
	test_expect_code 2 run --timeout 60 --append "rdinit=/no-such-init" "$BZ" tests >out 2>err &&
	b=$(date +%s) &&
	test_grep "panicked before the tests started" err &&
	test_grep "last console lines" err &&
	test ! -s out &&
	test $((b - a)) -lt 50
'

test_expect_success 'a kernel that hangs: killed at the overall timeout, exit 2' '
	a=$(date +%s) &&
	export RESPIN_LOG=$TRASH/hang.log &&
	test_expect_code 2 run --timeout 15 \
		--append "rdinit=/no-such-init panic=0" "$BZ" tests >out 2>err &&
	b=$(date +%s) &&
	echo "took $((b - a)) s" &&
	test_grep "timed out after 15 s before the tests started" err &&
	test ! -s out &&
	test_grep "Kernel panic" hang.log &&
	test $((b - a)) -ge 15 && test $((b - a)) -lt 30 &&
	test_must_fail pgrep -f "qemu-system-x86_64.*$RCACHE" >/dev/null
'

test_expect_success 'the guest stopping mid-run: the KTAP so far and a bail-out' '
	mkdir stop &&
	cp tests/01-pass stop/01-pass &&
	cc_static stop/02-stop src/stop.c &&
	cp tests/04-plain stop/03-after &&
	test_expect_code 3 run --timeout 60 "$BZ" stop >out 2>err &&
	test_grep "^ok 1 01-pass$" out &&
	test_grep "^    ok 1 before the stop$" out &&
	tail -n 1 out >last &&
	test_grep "^Bail out! the guest stopped while the tests ran" last &&
	test_grep ! "03-after" out
'

test_expect_code 129 'respin-qemu-ktap: usage' '
	"$RUNNER" --timeout 10 "$BZ"
'

# --- real 6.1 selftests, built static from the cached tree ------------
KSFT=$KDIR/tools/testing/selftests
test_expect_success 'real vm selftests (madv_populate, mremap_test) pass in the guest' '
	mkdir vm &&
	gcc -static -O2 -I"$KSFT" -o vm/madv_populate \
		"$KSFT/vm/madv_populate.c" "$KSFT/vm/vm_util.c" &&
	gcc -static -O2 -I"$KSFT" -o vm/mremap_test "$KSFT/vm/mremap_test.c" &&
	a=$(date +%s) &&
	{
		run --timeout 240 --append "sysctl.vm.overcommit_memory=1" \
			"$BZ" vm >vm.ktap 2>vm.err ||
		{ cat vm.err vm.ktap; false; }
	} &&
	echo "boot + madv_populate + mremap_test: $(( $(date +%s) - a )) s" &&
	cat vm.ktap &&
	test_grep "^ok 1 madv_populate$" vm.ktap &&
	test_grep "^ok 2 mremap_test$" vm.ktap &&
	test_grep "^    ok 16 range is populated$" vm.ktap &&
	test_grep "^    ok 14 mremap expand merge$" vm.ktap &&
	test_grep ! "^    not ok" vm.ktap
'

test_expect_success 'the cached kernel tree is still clean' '
	git -C "$KDIR" status --porcelain >"$TRASH/status.after" 2>&1 &&
	check_same "$TRASH/status.before" "$TRASH/status.after" &&
	test ! -s "$TRASH/status.after"
'

test_done
