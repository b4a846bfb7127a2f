#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs each fuzz target for FUZZ_TIME seconds on a copy of its seed
# corpus (tests/fuzz/corpus/NAME/) in the build directory, after its
# stored crashes (tests/fuzz/regress/NAME/) ran clean; then prints
# the executions per target.  Fails if any target crashed, leaked or
# hung; its reproducer stays in FUZZ_BUILD/run/NAME/ and its path is
# printed.  Usage: run.sh FUZZ_BUILD FUZZ_TIME NAME...
set -u
build=$1 time=$2
shift 2
src=$(pwd)
# GMime's and GLib's one-time set-up is not a leak (tests/lsan.supp).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=""
summary=""
for t in "$@"; do
	dir=$build/run/$t
	rm -rf "$dir"
	mkdir -p "$dir/corpus"
	if [ -d "tests/fuzz/corpus/$t" ]; then
		cp tests/fuzz/corpus/"$t"/* "$dir/corpus/" 2>/dev/null
	fi
	# the stored crashes first: clang's UBSan sees some that gcc's does not
	if ls tests/fuzz/regress/"$t"/* >/dev/null 2>&1; then
		if ! "$build/fuzz-$t" tests/fuzz/regress/"$t"/* >"$dir/regress.log" 2>&1; then
			failed="$failed $t"
			echo "fuzz-$t fails on a stored input of tests/fuzz/regress/$t:" >&2
			tail -n 40 "$dir/regress.log" >&2
			continue
		fi
	fi
	echo "  FUZZ    $t (${time}s)"
	"$build/fuzz-$t" -max_total_time="$time" -print_final_stats=1 \
		-timeout=25 -rss_limit_mb=2048 -artifact_prefix="$dir/" \
		"$dir/corpus" >"$dir/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -n 1)
	units=$(ls "$dir/corpus" | wc -l)
	summary="$summary$(printf '%-10s %10s execs %7s exec/s %6s corpus' \
		"$t" "${execs:-?}" "${speed:-?}" "$units")
"
	if [ "$rc" != 0 ]; then
		failed="$failed $t"
		echo "fuzz-$t failed (exit $rc); the end of $dir/log:" >&2
		tail -n 40 "$dir/log" >&2
		for f in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* \
			 "$dir"/oom-* "$dir"/slow-unit-*; do
			[ -e "$f" ] && echo "reproducer: $f" >&2
		done
	fi
done
printf '%s' "$summary"
if [ -n "$failed" ]; then
	echo "fuzzing found problems in:$failed" >&2
	exit 1
fi
