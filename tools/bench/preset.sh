#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin check --preset mm on the real kernel tree, using the repository
# tests/e2e/t0995-kernel-preset.sh keeps in the cache (run that test
# once first: it makes the series kp, a warm build and the .config):
#  1. the whole preset run of a new 3-patch series (tests/e2e/
#     lib-kpreset.sh) after the base build, against the same steps by
#     hand in the same run, in a worktree and build directory of their
#     own made the same way: at each patch checkout, make, checkpatch;
#     sparse, W=1 and kernel-doc on the touched files before and after
#     the patch (what telling the patch's findings from the tree's
#     takes); make headers, the vm selftests built static, run in the
#     patch's kernel under QEMU;
#  2. a v2 changing only patch 3, against the full run (the goal: at
#     most a third of it plus the fixed cost of a run on the base).
# Environment: PRESET_BENCH_VERBOSE=1 prints each step's time by hand.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
RESPIN="$RESPIN_BUILD/respin"
src=$here/../..
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
repo=$cache/kpreset
. "$here/lib.sh"
guest=$(guest_runner "$RESPIN_BUILD") || :
if [ -z "$guest" ] || [ ! -d "$repo/.git/respin/worktrees/kp" ] ||
   [ ! -f "$repo/.git/respin/build/kp@tiny-qemu/.config" ]; then
	echo "preset: skipped: needs tools/respin-guest and a run of" \
	     "tests/e2e/t0995-kernel-preset.sh first (it makes $repo)"
	exit 0
fi
. "$src/tests/e2e/lib-kpreset.sh"
cd "$repo"
wt=$repo/.git/respin/worktrees/kp
bd=$repo/.git/respin/build/kp@tiny-qemu
hw=$cache/kpreset-hand			# by hand: a worktree,
hb=$cache/kpreset-hand-build		# its build directory
hp=$cache/kpreset-hand-tests		# and its installed tests
ms() { date +%s%3N; }
verbose=${PRESET_BENCH_VERBOSE:-}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
jobs=$(nproc)
kmake() { make -s -C "$hw" ARCH=x86_64 O="$hb" -j"$jobs" "$@"; }

base=$(git rev-parse mm-unstable)
# a new series: nothing of it is stored (the base's results are)
run=bench-$(date +%s)-$$
git checkout -q -f kp-work 2>/dev/null || :
kpreset_series kp-bench "$run" >/dev/null
commits=$(git rev-list --reverse "$base..kp-bench")

# by hand: a worktree at the base, built once with the preset's .config
if [ ! -d "$hw" ]; then
	git worktree add -q --detach "$hw" "$base"
fi
mkdir -p "$hb"
cmp -s "$bd/.config" "$hb/.config" || cp "$bd/.config" "$hb/.config"
git -C "$hw" checkout -q -f --detach "$base"
kmake >/dev/null 2>&1

before=0	# the time of the steps before each patch
# step NAME COMMAND...: timed, its output in the log; a failure stops
# the bench, but where a finding is a non-zero exit (checkpatch,
# kernel-doc) or make -k goes on past a program that does not build
step() {
	_s=$(ms)
	_n=$1
	shift
	if ! "$@" >"$log/out" 2>&1; then
		case $_n in
		checkpatch|kdoc*|selftests-install) ;;
		*)	echo "preset: by hand, $_n failed:" >&2
			tail -n 20 "$log/out" >&2
			exit 1 ;;
		esac
	fi
	_t=$(( $(ms) - _s ))
	case $_n in *-before) before=$((before + _t)) ;; esac
	[ -z "$verbose" ] || echo "  $_n $_t ms" >&2
}
files() {	# files A B: the .c files (and .h with "h") A..B touches
	git -C "$hw" diff --name-only "$1" "$2" -- '*.c' ${3:+'*.h'}
}
kbuild_c() { grep -v '^\(tools\|scripts\|Documentation\|usr\)/' || :; }
sparse() { files "$1" "$2" | kbuild_c | sed 's/\.c$/.o/' |
	xargs -r make -s -C "$hw" ARCH=x86_64 O="$hb" -j"$jobs" C=2 CHECK=sparse; }
w1() { files "$1" "$2" | kbuild_c | while read -r f; do
		touch "$hw/$f"; echo "${f%.c}.o"; done |
	xargs -r make -s -C "$hw" ARCH=x86_64 O="$hb" -j"$jobs" W=1; }
kdoc() { files "$1" "$2" h | (cd "$hw" && xargs -r scripts/kernel-doc -none); }
checkpatch() {
	git -C "$hw" format-patch -1 --stdout "$1" |
	(cd "$hw" && perl scripts/checkpatch.pl --terse --show-types --showfile --no-tree -)
}
selftests() {
	rm -rf "$hp"
	make -k -s --no-print-directory -C "$hw/tools/testing/selftests" \
		TARGETS=vm O="$hb" -j"$jobs" install INSTALL_PATH="$hp" \
		KSFT_INSTALL_PATH="$hp"
}
guest_run() {
	guest_kselftest "$guest" "$hb/arch/x86/boot/bzImage" "$hp" vm 900 quiet
}

s=$(ms)
parent=$base
for c in $commits; do
	[ -z "$verbose" ] || echo "by hand at $(git log -1 --format=%s "$c"):" >&2
	git -C "$hw" checkout -q --detach "$parent"	# the tree before it
	step sparse-before sparse "$parent" "$c"
	step w1-before w1 "$parent" "$c"
	step kdoc-before kdoc "$parent" "$c"
	git -C "$hw" checkout -q --detach "$c"
	step make kmake
	step checkpatch checkpatch "$c"
	step sparse sparse "$parent" "$c"
	step w1 w1 "$parent" "$c"
	step kdoc kdoc "$parent" "$c"
	step headers kmake headers
	step selftests-install selftests
	step guest-run guest_run
	parent=$c
done
hand=$(( $(ms) - s ))

# respin, from the same state: its worktree and build at the base
git -C "$wt" checkout -q -f --detach "$base"
make -s -C "$wt" ARCH=x86_64 O="$bd" -j"$jobs" >/dev/null 2>&1
rm -f "$bd/.respin-built"
"$RESPIN" track kp --tip kp-bench >/dev/null
s=$(ms)
"$RESPIN" check kp --preset mm >"$log/full" 2>&1 || :
full=$(( $(ms) - s ))
grep -q "^24 run, 2 reused" "$log/full" ||
	{ echo "preset: respin check did not run the 24 checks of 4 patches:" >&2
	  tail -n 5 "$log/full" >&2; exit 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "preset-mm: respin check --preset mm $full ms, the same steps by hand $hand ms, ratio $(ratio "$full" "$hand")x (4 patches after the base build: build, checkpatch, sparse, W=1, kdoc, the whole vm target in the patch's kernel); by hand without the static tools' runs before each patch (no telling its findings from the tree's) $((hand - before)) ms, ratio $(ratio "$full" $((hand - before)))x"

# the fixed cost of a run: the preset on the base alone, all reused
s=$(ms)
"$RESPIN" check kp --preset mm --patch 0 >/dev/null 2>&1 || :
fixed=$(( $(ms) - s ))

# a v2 changing only patch 3 (patch 4 picked again on top)
git checkout -q kp-bench~1
sed -i "s/(!ret && 0,/(!ret \&\& 1 == 0,/" tools/testing/selftests/vm/madv_populate.c
git commit -q --amend -a --no-edit
git cherry-pick kp-bench >/dev/null
git branch -f kp-bench HEAD
git checkout -q kp-bench
"$RESPIN" track kp --tip kp-bench >/dev/null
s=$(ms)
"$RESPIN" check kp --preset mm >"$log/v2" 2>&1 || :
again=$(( $(ms) - s ))
grep -q "^[0-9]* run" "$log/v2" || { tail -n 5 "$log/v2" >&2; exit 1; }
echo "preset-mm-v2: $again ms after only patch 3 changed ($(sed -n 's/ reused.*//p' "$log/v2" | tail -n 1) reused), full run $full ms: $(ratio "$again" "$full") of it; goal 2/4 (patches 3 and 4) + the fixed cost ($fixed ms, a run on the base, all reused): $(awk -v b="$full" -v f="$fixed" 'BEGIN { printf "%.2f", (b / 2 + f) / b }') of it"
