#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: runs every benchmark under tools/bench/ (each prints its
# figures as "name: ..." lines, comparing respin with its peer in the
# same run) and collects the lines into $RESPIN_BUILD/bench.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
export RESPIN_BUILD
out="$RESPIN_BUILD/bench.txt"
: >"$out.tmp"
status=0
for b in "$here"/*.sh; do
	case "$(basename "$b")" in run.sh|lib.sh) continue ;; esac
	if [ -n "${BENCH:-}" ] && ! basename "$b" | grep -q -- "$BENCH"; then
		continue
	fi
	echo "== $(basename "$b" .sh)" >&2
	if ! sh "$b" | tee -a "$out.tmp"; then
		echo "bench $(basename "$b") failed" | tee -a "$out.tmp" >&2
		status=1
	fi
done
mv "$out.tmp" "$out"
echo "figures written to $out" >&2
exit $status
