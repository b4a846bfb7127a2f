#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/respin-guest against a bare QEMU boot of the same kernel, in
# turns (so that the machine's load falls on both alike), N rounds
# (GUEST_BENCH_ROUNDS, default 7), medians:
#  - respin-guest BZIMAGE -- true: boot with the host's root over 9p,
#    the guest's init, the command, its status and kernel log back,
#    power-off;
#  - bare: qemu -kernel BZIMAGE with an initramfs whose one-line init
#    restarts the machine at once (reboot(RB_AUTOBOOT)): the kernel's
#    boot alone, the floor;
#  - bare-9p: the same kernel with the host's root over 9p and that
#    init run from it (the same machine as the runner's, minus what the
#    runner does).
# Both QEMUs get the runner's machine (-accel tcg here, -m 512M, -smp
# 1, -nodefaults, serial console).  The kernel is the one
# tests/e2e/t0955-guest.sh builds into the cache (run it once first).
# The goal (issue 22): the runner within 1.3x of the bare boot.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../..
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
format=$(sed -n 's/^format="respin-tiny-config \([0-9]*\)"$/\1/p' \
	"$src/tools/kernel-config-tiny.sh")
bz=$cache/build-guest-f$format/arch/x86/boot/bzImage
rounds=${GUEST_BENCH_ROUNDS:-7}
if [ ! -s "$bz" ]; then
	echo "guest: skipped: run tests/e2e/t0955-guest.sh first (it builds $bz)"
	exit 0
fi
command -v qemu-system-x86_64 >/dev/null ||
	{ echo "guest: skipped: no qemu-system-x86_64"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/respin-bench-guest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

cat >"$tmp/init.c" <<'EOF'
#include <sys/reboot.h>
int main(void) { return reboot(RB_AUTOBOOT); }
EOF
gcc -static -O2 -o "$tmp/init" "$tmp/init.c"
mkdir "$tmp/root"
cp "$tmp/init" "$tmp/root/init"
(cd "$tmp/root" && echo init | cpio -o -H newc --quiet) | gzip >"$tmp/initrd.gz"

machine="-accel tcg -m 512M -smp 1 -nodefaults -no-user-config -display none -serial stdio -monitor none -no-reboot"
bare() {
	# shellcheck disable=SC2086
	qemu-system-x86_64 $machine -kernel "$bz" -initrd "$tmp/initrd.gz" \
		-append "console=ttyS0 panic=-1" </dev/null >"$tmp/bare.log" 2>&1
}
bare9p() {
	# shellcheck disable=SC2086
	qemu-system-x86_64 $machine -kernel "$bz" \
		-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-append "console=ttyS0 panic=-1 root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro init=$tmp/init" \
		</dev/null >"$tmp/bare9p.log" 2>&1
}
guest() {
	RESPIN_CACHE=$tmp/cache "$src/tools/respin-guest" --accel tcg \
		"$bz" -- true >"$tmp/guest.log" 2>&1
}
ms() { date +%s%3N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

guest	# the init built once, as on a user's second run
: >"$tmp/t.bare"
: >"$tmp/t.bare9p"
: >"$tmp/t.guest"
r=0
while [ $r -lt "$rounds" ]; do
	# turns: ABC, then CBA
	if [ $((r % 2)) = 0 ]; then order="bare bare9p guest"; else order="guest bare9p bare"; fi
	for f in $order; do
		s=$(ms)
		$f || { echo "guest: $f failed:" >&2; tail -n 5 "$tmp/$f.log" >&2; exit 1; }
		echo $(( $(ms) - s )) >>"$tmp/t.$f"
	done
	r=$((r + 1))
done
b=$(median <"$tmp/t.bare")
b9=$(median <"$tmp/t.bare9p")
g=$(median <"$tmp/t.guest")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "guest-boot: respin-guest -- true $g ms, bare qemu -kernel with a one-line init $b ms: $(ratio "$g" "$b")x; with the host's root over 9p (init from it) $b9 ms: $(ratio "$g" "$b9")x (TCG, medians of $rounds rounds in turns; goal 1.3x)"
