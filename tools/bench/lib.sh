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
