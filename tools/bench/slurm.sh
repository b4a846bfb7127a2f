#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The slurm executor's overhead: the fixture series of 10 patches with
# 3 checks (build, checkpatch, a command) checked locally, then through
# a one-node Slurm on this machine (tests/e2e/lib-slurm.sh), each from
# an empty results store and build directory.  Skips, saying why, where
# Slurm cannot run (not root, slurm-wlm or munge not installed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
bench_init slurm
TRASH=$tmp
test_skip_all() {
	echo "slurm: skipped: $1"
	exit 0
}
. "$here/../../tests/e2e/lib-slurm.sh"
slurm_skip_unless_possible
checkpatch=$cache/checkpatch/checkpatch.pl
[ -f "$checkpatch" ] ||
	{ echo "slurm: skipped: no $checkpatch (make check fetches it)"; exit 0; }

sh "$src/tools/make-fixture.sh" "$repo" >/dev/null
cd "$repo"
git checkout -q -b work mm-unstable
for i in 1 2 3 4 5 6 7 8 9 10; do
	printf '\nint bench_extra_%d(void)\n{\n\treturn %d;\n}\n' $i $i >>mm/vmscan.c
	git commit -qam "mm/vmscan: add bench_extra_$i()" \
		-m "Signed-off-by: A U Thor <author@example.org>"
done
"$respin" track b --base mm-unstable >/dev/null
git config respin.check.checkpatch.command \
	"perl $checkpatch --terse --show-types --showfile --no-tree -"
git config respin.check.grep.kind command
git config respin.check.grep.command 'grep -rn "bench_extra" mm | wc -l'
ms() { date +%s%3N; }

fresh() {
	rm -rf .git/respin/results.db* .git/respin/build/b
}

# CPU of everything a run starts (respin, the daemons, the jobs on the
# node), where a cgroup (v1 cpuacct) can be made: it does not depend on
# what else the machine runs, as the wall-clock time does
cg=
for _root in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpu,cpuacct; do
	if [ -w "$_root/cgroup.procs" ] 2>/dev/null &&
	   mkdir "$_root/respin-bench.$$" 2>/dev/null; then
		cg=$_root/respin-bench.$$
		echo $$ >"$cg/cgroup.procs" || cg=
		break
	fi
done
cg_leave() {
	[ -n "$cg" ] || return 0
	echo $$ >"${cg%/*}/cgroup.procs" 2>/dev/null
	rmdir "$cg" 2>/dev/null || :
}
trap 'slurm_stop; cg_leave; cd /; rm -rf "$TRASH"' EXIT
cpu_ns() { if [ -n "$cg" ]; then cat "$cg/cpuacct.usage"; else echo 0; fi; }

slurm_start >/dev/null 2>&1 || { echo "slurm: skipped: the one-node Slurm did not start"; exit 0; }
mkdir -p "$tmp/shared"
git config respin.slurm.shared "$tmp/shared"

# one run of the whole series from an empty store with executor $1: ms
timed() {
	git config respin.executor "$1"
	fresh
	_c=$(cpu_ns)
	_s=$(ms)
	"$respin" check b >/dev/null
	echo $(( $(ms) - _s )) $(( ($(cpu_ns) - _c) / 1000000 ))
}

# rounds in turns (local, slurm), so both see the same machine; medians
rounds=${SLURM_BENCH_ROUNDS:-5}
: >"$tmp/t-local" && : >"$tmp/t-slurm"
r=0
while [ $r -lt "$rounds" ]; do
	timed local >>"$tmp/t-local"
	timed slurm >>"$tmp/t-slurm"
	[ -n "${SLURM_BENCH_VERBOSE:-}" ] &&
		echo "slurm: round $r: local $(tail -1 "$tmp/t-local") slurm $(tail -1 "$tmp/t-slurm") (ms, CPU ms)" >&2
	r=$((r + 1))
done
# median of column $2 of file $1
median() {
	cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
local_ms=$(median "$tmp/t-local" 1)
slurm_ms=$(median "$tmp/t-slurm" 1)
local_cpu=$(median "$tmp/t-local" 2)
slurm_cpu=$(median "$tmp/t-slurm" 2)
jobs=$(( $(squeue -h -t all -o %j | grep -c '^respin-b-') / rounds ))

echo "slurm: 10 patches x 3 checks ($jobs jobs a run, median of $rounds rounds in turns):" \
	"local $(awk "BEGIN { printf \"%.2f\", $local_ms / 1000 }") s," \
	"one-node Slurm $(awk "BEGIN { printf \"%.2f\", $slurm_ms / 1000 }") s" \
	"($(awk "BEGIN { printf \"%.2f\", $slurm_ms / $local_ms }")x;" \
	"$(awk "BEGIN { printf \"%.3f\", ($slurm_ms - $local_ms) / $jobs / 1000 }") s a job more)"
if [ -n "$cg" ]; then
	echo "slurm: CPU of a run (respin, the daemons, the jobs):" \
		"local $(awk "BEGIN { printf \"%.2f\", $local_cpu / 1000 }") s," \
		"one-node Slurm $(awk "BEGIN { printf \"%.2f\", $slurm_cpu / 1000 }") s" \
		"($(awk "BEGIN { printf \"%.3f\", ($slurm_cpu - $local_cpu) / $jobs / 1000 }") s a job more)"
else
	echo "slurm: CPU not measured: no cgroup (v1 cpuacct) could be made here"
fi

