# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the benchmarks: bench_init NAME sets src, build, respin and
# a temporary directory tmp (removed at exit unless BENCH_KEEP is set),
# with its own HOME, a fixed identity and clock, and repo=$tmp/repo.
bench_init() {
	src=$(cd "$(dirname "$0")/../.." && pwd)
	build=${RESPIN_BUILD:-$src/build}
	respin=$(cd "$build" && pwd)/respin
	[ -x "$respin" ] || { echo "$1: no respin in $build" >&2; exit 1; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/respin-bench-$1.XXXXXX")
	if [ -n "${BENCH_KEEP:-}" ]; then
		echo "$1: keeping $tmp" >&2
	else
		trap 'rm -rf "$tmp"' EXIT
	fi
	trap 'exit 130' INT TERM HUP
	export HOME=$tmp/home TZ=UTC LC_ALL=C
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.org'
	export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL='committer@example.org'
	export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'
	unset GIT_DIR GIT_WORK_TREE 2>/dev/null || true
	mkdir -p "$HOME"
	repo=$tmp/repo
}

# guest_kselftest GUEST BZIMAGE DIR TARGET TIMEOUT APPEND: a target
# installed in DIR run by hand as respin's kselftest check runs it:
# through the guest runner GUEST (tools/respin-guest) in BZIMAGE, with
# /dev/std* and debugfs as a booted system has them, DIR copied to the
# guest's /tmp, TIMEOUT appended to the target's settings, then the
# tree's run_kselftest.sh -c TARGET; its output on stdout.
guest_kselftest() {
	"$1" --timeout 600 --memory 1G --smp 2 --append "$6" "$2" -- sh -c '
		for f in stdin:0 stdout:1 stderr:2; do
			[ -e /dev/${f%:*} ] || ln -s /proc/self/fd/${f#*:} /dev/${f%:*}
		done
		[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
		mountpoint -q /sys/kernel/debug ||
			mount -t debugfs debugfs /sys/kernel/debug
		cp -a "$1" /tmp/k && printf "timeout=%s\n" "$3" >>"/tmp/k/$2/settings" &&
		cd /tmp/k && ./run_kselftest.sh -c "$2" 2>&1 | cat' sh "$3" "$4" "$5"
}

# guest_runner BUILD: the guest runner beside respin (its build tree's
# tools/, or libexec/respin/ where it is installed), or nothing.
guest_runner() {
	for _g in "$1/../tools/respin-guest" "$1/../libexec/respin/respin-guest"; do
		[ -x "$_g" ] && { echo "$_g"; return 0; }
	done
	return 1
}
