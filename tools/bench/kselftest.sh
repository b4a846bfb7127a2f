#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole vm target of the real 6.1 tree in a patch's kernel: respin's
# selftests check of the mm preset (run_kselftest.sh -c vm through
# tools/respin-guest, the output read into every test and subtest)
# against the same run by hand in the same guest setup (the installed
# tests copied to the guest's /tmp, their timeouts stretched, the tree's
# run_kselftest.sh).  Uses the repository tests/e2e/t0995-kernel-preset.sh
# keeps in the cache (run it once first: it builds the series' kernels
# and installs the vm tests); the last patch of the series kp, whose
# kernel its build directory holds.  Each round runs both, in turns
# (the order reversed every round), respin with another kernel command
# line each time (a new definition: it runs again; the installed tests
# stay cached, as they do for a patch that touches no selftest); the
# figures are the medians.
# Environment: KSELFTEST_BENCH_ROUNDS (default 3).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
RESPIN="$RESPIN_BUILD/respin"
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
repo=$cache/kpreset
bd=$repo/.git/respin/build/kp@tiny-qemu
rounds=${KSELFTEST_BENCH_ROUNDS:-3}
. "$here/lib.sh"
guest=$(guest_runner "$RESPIN_BUILD") || :
if [ -z "$guest" ] || [ ! -f "$bd/arch/x86/boot/bzImage" ] ||
   [ ! -f "$bd/.respin-built" ]; then
	echo "kselftest: skipped: needs tools/respin-guest and a run of" \
	     "tests/e2e/t0995-kernel-preset.sh first (it makes $repo)"
	exit 0
fi
cd "$repo"
git config --unset respin.check.preset 2>/dev/null || :
n=$("$RESPIN" results kp --json | perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); print scalar(@{$d->{patches}}) - 1')
log=$(mktemp -d)
trap 'rm -rf "$log"; git config --unset respin.check.selftests.append 2>/dev/null || :' EXIT
ms() { date +%s%3N; }

# by hand: the vm target installed once, as a developer does
wt=$repo/.git/respin/worktrees/kp
hi=$log/install
make -s -C "$wt" ARCH=x86_64 O="$bd" headers >/dev/null 2>&1
s=$(ms)
make -s -k --no-print-directory -C "$wt/tools/testing/selftests" TARGETS=vm \
	O="$bd" -j"$(nproc)" install INSTALL_PATH="$hi" KSFT_INSTALL_PATH="$hi" \
	>"$log/install.log" 2>&1 ||
	{ echo "kselftest: by hand, the install failed:" >&2
	  tail -n 20 "$log/install.log" >&2; exit 1; }
install_ms=$(( $(ms) - s ))
timeout=$(sed -n 's/^timeout=//p' "$wt/tools/testing/selftests/vm/settings" | tail -n 1)
hand() {
	guest_kselftest "$guest" "$bd/arch/x86/boot/bzImage" "$hi" vm \
		$(( ${timeout:-45} * 20 )) "respin.bench=$1" \
		>"$log/hand.out" 2>"$log/hand.err"
}
with_respin() {
	git config respin.check.selftests.append "respin.bench=$1"
	"$RESPIN" check kp --preset mm --only selftests --patch "$n" \
		>"$log/respin.out" 2>&1 || :
	grep -q "^1 run, 0 reused" "$log/respin.out" ||
		{ echo "kselftest: respin check did not run the selftests:" >&2
		  tail -n 10 "$log/respin.out" >&2; exit 1; }
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$log/hand.ms"
: >"$log/respin.ms"
stamp=$(date +%s)
r=1
while [ $r -le "$rounds" ]; do
	for side in $( [ $((r % 2)) = 1 ] && echo "hand respin" || echo "respin hand"); do
		s=$(ms)
		if [ $side = hand ]; then
			hand "$stamp-$r" || { echo "kselftest: by hand, the guest failed:" >&2
				tail -n 20 "$log/hand.err" >&2; exit 1; }
		else
			with_respin "$stamp-$r"
		fi
		echo $(( $(ms) - s )) >>"$log/$side.ms"
	done
	r=$((r + 1))
done
h=$(median <"$log/hand.ms")
x=$(median <"$log/respin.ms")
tests=$(grep -c '^# \[\(PASS\|FAIL\|SKIP\)\]$' "$log/hand.out" || :)
echo "kselftest-vm: the whole vm target of 6.1 in a patch's kernel (respin-guest, run_kselftest.sh -c vm, $tests run_vmtests.sh tests): respin check --only selftests $x ms, by hand in the same guest setup $h ms, ratio $(awk -v a="$x" -v b="$h" 'BEGIN { printf "%.2f", a / b }')x (medians of $rounds rounds in turns: by hand $(tr '\n' ' ' <"$log/hand.ms")ms, respin $(tr '\n' ' ' <"$log/respin.ms")ms); installing the vm target by hand $install_ms ms"
