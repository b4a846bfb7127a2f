#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/respin-guest on a real kernel: a tinyconfig 6.1 kernel with 9p
# (tools/kernel-config-tiny.sh, built once into the cache and reused)
# boots under QEMU with the host's root filesystem and runs a host
# command as root: its exit status, stdout and stderr (apart) and its
# arguments come back as they were; a shared directory is written; the
# overall timeout kills QEMU; a kernel without 9p, a missing bzImage
# and a guest that stops mid-command say so with their own codes; the
# console and the kernel log are kept; --accel auto falls back from a
# KVM that hangs (a stand-in QEMU for that one case) to TCG within
# its bound, and keeps the answer.
#
# Slow the first time (the kernel tree, then about 4 min of kernel
# build on 2 cores, and an incremental one without 9p); then each
# boot takes a few seconds.  The kernel tree and the build
# directories are shared with the user's cache (lib.sh gives the test
# its own HOME, so the cache is picked before sourcing).
: "${RESPIN_CACHE:=$HOME/.cache/respin}"
export RESPIN_CACHE
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
KSRC=$(sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"

KCACHE=$RESPIN_CACHE
# the build directory of this format of the script (other worktrees
# may build another format at the same time)
FORMAT=$(sed -n 's/^format="respin-tiny-config \([0-9]*\)"$/\1/p' \
	"$SRC_DIR/tools/kernel-config-tiny.sh")
BUILD=$KCACHE/build-guest-f$FORMAT
NO9P=$KCACHE/build-guest-f$FORMAT-no9p
BZ=$BUILD/arch/x86/boot/bzImage
RUNNER=$SRC_DIR/tools/respin-guest
# The runner's own cache (the KVM probe's answer) and its temporary
# directories are the test's: its QEMUs are found by that path.
RCACHE=$TRASH/runner-cache
mkdir -p "$TRASH/tmp"
run() { RESPIN_CACHE=$RCACHE TMPDIR=$TRASH/tmp "$RUNNER" "$@"; }
# the PIDs of this test's QEMUs (their command lines name TRASH)
qemus() { pgrep -f "qemu-system-x86_64 .*$TRASH/tmp/respin-guest" || :; }
# whether process PID is gone (or a zombie its new parent has not
# reaped yet: it runs no more)
gone() {
	_st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
	case "$_st" in Z*|"") return 0 ;; esac
	echo "process $1 still runs ($_st)" >&7
	return 1
}

test_expect_success 'kernel-config-tiny.sh --build: a tiny bzImage with 9p' '
	mkdir -p "$KCACHE" &&
	exec 9>"$KCACHE/.build-guest.lock" && flock 9 &&
	a=$(date +%s) &&
	{
		JOBS=2 sh "$SRC_DIR/tools/kernel-config-tiny.sh" --build "$KSRC" "$BUILD" \
			>"$TRASH/bz.out" 2>"$TRASH/bz.err" ||
		{ tail -n 30 "$TRASH/bz.err"; false; }
	} &&
	echo "kernel config + build: $(( $(date +%s) - a )) s" &&
	test "$(cat "$TRASH/bz.out")" = "$BZ" &&
	for o in PCI VIRTIO_PCI NET_9P NET_9P_VIRTIO 9P_FS TMPFS DEVTMPFS \
		OVERLAY_FS BUG DEBUG_BUGVERBOSE KALLSYMS SERIAL_8250_CONSOLE
	do
		grep -qx "CONFIG_$o=y" "$BUILD/.config" ||
			{ echo "CONFIG_$o is not set"; return 1; }
	done
'

test_expect_success 'the exit status comes back: 0' '
	a=$(date +%s) &&
	run --accel tcg "$BZ" -- true &&
	echo "boot + true + power-off: $(( $(date +%s) - a )) s"
'

test_expect_code 3 'the exit status comes back: 3' '
	run --accel tcg "$BZ" -- sh -c "exit 3"
'

test_expect_code 42 'the exit status comes back: 42' '
	run --accel tcg "$BZ" -- sh -c "exit 42"
'

test_expect_success 'a command that is not there: 127, the shell said why' '
	test_expect_code 127 run --accel tcg "$BZ" -- no-such-command-xyz 2>err &&
	test_grep "no-such-command-xyz" err
'

test_expect_success 'stdout and stderr apart, byte for byte, in the cwd' '
	mkdir -p here &&
	echo "from the host" >here/input &&
	cd here &&
	run --accel tcg "$BZ" -- sh -c "
		echo out 1; echo err 1 >&2; cat input; pwd
		printf \"no newline at the end\"; printf \"err, no newline\" >&2
		printf \"a\\rb\\033[31mc\\n\"" >../out 2>../err &&
	cd .. &&
	printf "out 1\nfrom the host\n%s\nno newline at the end" "$TRASH/here" >want.out &&
	printf "a\rb\033[31mc\n" >>want.out &&
	printf "err 1\nerr, no newline" >want.err &&
	check_same want.out out &&
	check_same want.err err
'

test_expect_success 'arguments with quotes, blanks, newlines arrive intact' '
	nl="$(printf "one\ntwo")" &&
	run --accel tcg "$BZ" -- printf "[%s]\n" "a b" "it'\''s" "x\"y" "$nl" \
		"\$(touch /tmp/pwned)" "*" "--" "" "; reboot" "a=b" >got &&
	printf "[%s]\n" "a b" "it'\''s" "x\"y" "$nl" \
		"\$(touch /tmp/pwned)" "*" "--" "" "; reboot" "a=b" >want &&
	check_same want got
'

test_expect_success 'only PATH, HOME and the --env variables; root; writable dirs' '
	LEAK=from-the-host run --accel tcg --env "FOO=a b" --env "EMPTY=" \
		--env "MULTI=$(printf "l1\nl2")" "$BZ" -- sh -c "
		env | grep -v ^l2 | LC_ALL=C sort | grep -v ^PWD= | grep -v ^SHLVL= | grep -v ^_=
		printf \"%s|\" \"\$MULTI\"; echo
		id -u
		for d in /tmp /var/tmp /root /dev/shm /run; do
			echo x >\$d/probe && echo \$d writable
		done
		test ! -w / || echo / writable" >got &&
	cat >want <<-EOF &&
	EMPTY=
	FOO=a b
	HOME=/root
	MULTI=l1
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	l1
	l2|
	0
	/tmp writable
	/var/tmp writable
	/root writable
	/dev/shm writable
	/run writable
	EOF
	check_same want got &&
	test_path_is_missing /tmp/probe
'

test_expect_success 'a --share directory is written from the guest' '
	mkdir shared &&
	run --accel tcg --share shared "$BZ" -- sh -c "
		echo from the guest >\"\$1/file\" && mkdir \"\$1/sub\" &&
		echo deeper >\"\$1/sub/f\"" sh "$TRASH/shared" &&
	echo from the guest >want &&
	check_same want shared/file &&
	echo deeper >want &&
	check_same want shared/sub/f
'

test_expect_success '--console keeps the console log, --dmesg the kernel log' '
	run --accel tcg --console console.log --dmesg dmesg.log "$BZ" -- \
		sh -c "echo respin-test-marker >/dev/kmsg" &&
	test_grep "Linux version 6\.1\." console.log &&
	test_grep "root=hostroot rootfstype=9p" console.log &&
	test_grep ! "$(printf "\r")" console.log &&
	test_grep ! "$(printf "\033")" console.log &&
	test_grep "Linux version 6\.1\." dmesg.log &&
	test_grep "respin-test-marker" dmesg.log
'

test_expect_success '--timeout: 124, and no QEMU of it left' '
	a=$(date +%s) &&
	{ run --accel tcg --timeout 12 "$BZ" -- sh -c "echo started; sleep 600" \
		>out 2>err & } &&
	pid=$! &&
	while test -z "$(qemus)"
	do
		sleep 0.2 || return 1
	done &&
	q=$(qemus) &&
	echo "QEMU is $q" &&
	{ wait $pid; rc=$?; } &&
	b=$(date +%s) &&
	echo "exit $rc after $((b - a)) s" &&
	test $rc = 124 &&
	test_grep "timed out after 12 s while the command ran" err &&
	test_grep "^started$" out &&
	test $((b - a)) -ge 12 && test $((b - a)) -lt 25 &&
	for p in $q
	do
		gone $p || return 1
	done &&
	test -z "$(qemus)"
'

test_expect_success 'the runner killed (SIGKILL): its QEMU goes with it' '
	{ env RESPIN_CACHE="$RCACHE" TMPDIR="$TRASH/tmp" "$RUNNER" --accel tcg \
		"$BZ" -- sleep 600 >/dev/null 2>&1 & } &&
	pid=$! &&
	while test -z "$(qemus)"
	do
		sleep 0.2 || return 1
	done &&
	q=$(qemus) &&
	kill -KILL $pid &&
	sleep 1 &&
	for p in $q
	do
		gone $p || return 1
	done &&
	# (a runner killed outright cannot remove its directory)
	rm -rf "$TRASH"/tmp/respin-guest.*
'

test_expect_success 'the guest stops mid-command: 123, what it printed so far' '
	test_expect_code 123 run --accel tcg "$BZ" -- sh -c "echo before; \
		perl -e \"syscall(169, 0xfee1dead, 672274793, 0x01234567)\"; \
		echo after" >out 2>err &&
	test_grep "^before$" out &&
	test_grep ! "after" out &&
	test_grep "the guest stopped while the command ran" err &&
	test_grep "last console lines" err
'

test_expect_success 'no bzImage: 125 and why' '
	test_expect_code 125 run --accel tcg "$TRASH/no-such-bzImage" -- true \
		>out 2>err &&
	test_grep "never ran the command: no kernel image at .*no-such-bzImage" err &&
	test_must_be_empty out
'

test_expect_success 'a file that is not a kernel: 125, QEMU said why' '
	echo "not a kernel" >fake-bzImage &&
	test_expect_code 125 run --accel tcg fake-bzImage -- true >out 2>err &&
	test_grep "never ran the command: QEMU failed" err &&
	test_grep "QEMU said" err
'

test_expect_success 'a kernel without 9p: 125, saying so' '
	exec 9>"$KCACHE/.build-guest.lock" && flock 9 &&
	if ! test -f "$NO9P/.respin-no9p"
	then
		# the 9p build without 9p (an interrupted one goes on)
		{ test -d "$NO9P" || cp -a "$BUILD" "$NO9P"; } &&
		"$KSRC/scripts/config" --file "$NO9P/.config" --disable 9P_FS &&
		make -s -C "$KSRC" ARCH=x86_64 O="$NO9P" olddefconfig &&
		make -s -C "$KSRC" ARCH=x86_64 O="$NO9P" -j2 bzImage >/dev/null &&
		grep -qx "# CONFIG_9P_FS is not set" "$NO9P/.config" &&
		: >"$NO9P/.respin-no9p"
	fi &&
	a=$(date +%s) &&
	test_expect_code 125 run --accel tcg --console no9p.log \
		"$NO9P/arch/x86/boot/bzImage" -- true >out 2>err &&
	echo "took $(( $(date +%s) - a )) s" &&
	cat err &&
	test_grep "did not mount the host.s root over 9p" err &&
	test_grep "9P_FS" err &&
	test_grep "last console lines" err &&
	test_grep "Kernel panic" no9p.log &&
	test_must_be_empty out
'

test_expect_code 129 'usage: no -- before the command' '
	run "$BZ" true
'

test_expect_success 'usage: bad values say which' '
	test_expect_code 129 run --env "1X=y" "$BZ" -- true 2>err &&
	test_grep "not a variable name" err &&
	test_expect_code 129 run --accel xen "$BZ" -- true 2>err &&
	test_grep "not auto, kvm or tcg" err &&
	test_expect_code 129 run --share "$TRASH/none" "$BZ" -- true 2>err &&
	test_grep "no directory" err &&
	test_expect_code 129 run --timeout 0 "$BZ" -- true 2>err &&
	test_grep "not a number of seconds" err &&
	test_expect_code 129 run --icount 11 "$BZ" -- true 2>err &&
	test_grep "not a shift from 0 to 10" err &&
	test_expect_code 129 run --icount 0 --accel kvm "$BZ" -- true 2>err &&
	test_grep "needs TCG" err
'

# A stand-in QEMU that hangs as KVM does on these machines (no nested
# virtualisation), and runs the real one for TCG.
REALQEMU=$(command -v qemu-system-x86_64)
mkdir -p fakebin
cat >fakebin/qemu-system-x86_64 <<EOF
#!/bin/sh
case " \$* " in
*" -accel kvm "*) echo "kvm \$\$" >>"$TRASH/fake.log"; exec sleep 600 ;;
esac
echo "other \$\$" >>"$TRASH/fake.log"
exec "$REALQEMU" "\$@"
EOF
chmod +x fakebin/qemu-system-x86_64

if test -r /dev/kvm && test -w /dev/kvm
then
	test_expect_success '--accel auto: a KVM that hangs, then TCG within the bound' '
		rm -rf "$RCACHE" && : >fake.log &&
		a=$(date +%s) &&
		PATH=$TRASH/fakebin:$PATH RESPIN_GUEST_KVM_PROBE=3 \
			run "$BZ" -- echo ran >out 2>err &&
		b=$(date +%s) &&
		echo "probe + TCG run: $((b - a)) s" &&
		echo ran >want && check_same want out &&
		test_grep "KVM did not boot the kernel within 3 s: using TCG" err &&
		test_grep "^kvm " fake.log &&
		test_grep "^other " fake.log &&
		sleeper=$(sed -n "s/^kvm //p" fake.log) &&
		gone $sleeper &&
		test $((b - a)) -lt 25 &&
		cat "$RCACHE"/guest/accel-* >got && echo tcg >want &&
		check_same want got
	'

	test_expect_success '--accel auto: the answer is kept, no probe again' '
		: >fake.log &&
		PATH=$TRASH/fakebin:$PATH run "$BZ" -- true 2>err &&
		test_grep ! "^kvm " fake.log &&
		test_grep "^other " fake.log &&
		test_must_be_empty err
	'
else
	test_skip "/dev/kvm cannot be opened here: --accel auto never probes"
fi

test_expect_success '--accel tcg never probes KVM' '
	rm -rf "$RCACHE" && : >fake.log &&
	PATH=$TRASH/fakebin:$PATH run --accel tcg "$BZ" -- true &&
	test_grep ! "^kvm " fake.log &&
	ls "$RCACHE/guest" >kept &&
	test_grep ! "^accel-" kept
'

# With --icount the guest's clock counts instructions: an idle guest's
# time jumps to its next timer, so a 100 s sleep ends well within a
# 60 s run (without it the run times out); TCG, and KVM never probed.
test_expect_success '--icount: the guest.s clock counts instructions, TCG, no probe' '
	rm -rf "$RCACHE" && : >fake.log &&
	a=$(date +%s) &&
	PATH=$TRASH/fakebin:$PATH run --icount 0 --timeout 60 "$BZ" -- \
		sh -c "sleep 100; echo slept" >out 2>err &&
	echo "took $(( $(date +%s) - a )) s" &&
	echo slept >want && check_same want out &&
	test_grep ! "^kvm " fake.log &&
	test_grep "^other " fake.log &&
	ls "$RCACHE/guest" >kept &&
	test_grep ! "^accel-" kept
'

test_expect_success 'nothing left behind: no QEMU, no temporary directory' '
	test -z "$(qemus)" &&
	ls "$TRASH/tmp" >left &&
	test_must_be_empty left
'

test_done
