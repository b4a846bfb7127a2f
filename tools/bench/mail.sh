#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mail benchmarks on a real year of linuxppc-dev (14,688 messages):
#  1. one series with its replies and trailers:
#     respin thread YEAR MSGID  versus  b4 am -m YEAR -o DIR MSGID
#  2. a full scan listing every series:
#     respin thread YEAR  versus  git mailsplit
#  3. the review of one version (comments and trailers):
#     respin review NAME --source YEAR  versus  b4 am -m (trailers only)
# All in the same run, medians of $RUNS runs, and respin's peak memory
# beyond the size of the file.  Without the year (shared/data beside
# the checkout, or $RESPIN_SHARED/data) it says it skips and exits 0.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
RESPIN="$RESPIN_BUILD/respin"
RUNS=${RUNS:-3}
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
shared=${RESPIN_SHARED:-$here/../../../shared}
year="$cache/linuxppc-dev-2023.mbox"
msgid=${MSGID:-cover.1672767868.git.geoff@infradead.org}

xz_file="$shared/data/mail/linuxppc-dev-2023.mbox.xz"

# The year is not in the repository (23 MB packed): without it there
# is nothing to measure, which is not a failure.
if [ ! -s "$year" ] && [ ! -f "$xz_file" ]; then
	echo "mail: skipped: the year of mail is not here (no $xz_file," \
		"no unpacked $year); set RESPIN_SHARED to the directory that" \
		"holds data/mail/linuxppc-dev-2023.mbox.xz"
	exit 0
fi
mkdir -p "$cache"
if [ ! -s "$year" ]; then
	xz -dc "$xz_file" >"$year.tmp.$$" || { rm -f "$year.tmp.$$"; exit 1; }
	mv "$year.tmp.$$" "$year"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/respin-bench-mail.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# median_ms CMD...: runs CMD $RUNS times, prints the median in ms.
median_ms() {
	i=0
	: >"$tmp/times"
	while [ $i -lt "$RUNS" ]; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		echo $(( (e - s) / 1000000 )) >>"$tmp/times"
		i=$((i + 1))
	done
	sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

peak_kb() {
	/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

b4_am() {
	rm -rf "$tmp/b4" && mkdir "$tmp/b4"
	(cd "$tmp/b4" && b4 -n am -m "$year" -o . "$msgid")
}

mailsplit() {
	rm -rf "$tmp/split" && mkdir "$tmp/split"
	git mailsplit -o"$tmp/split" "$year"
}

size_kb=$(( $(stat -c %s "$year") / 1024 ))

"$RESPIN" thread "$year" "$msgid" >/dev/null
r1=$(median_ms "$RESPIN" thread "$year" "$msgid")
b1=$(median_ms b4_am)
m1=$(peak_kb "$RESPIN" thread "$year" "$msgid")
echo "thread-one-series: respin $r1 ms, b4 am -m $b1 ms, respin $(awk -v a="$b1" -v b="$r1" 'BEGIN { printf "%.1f", a / (b ? b : 1) }')x faster; peak $(( (m1 - size_kb) / 1024 )) MB beyond the $(( size_kb / 1024 )) MB file"

r2=$(median_ms "$RESPIN" thread "$year")
g2=$(median_ms mailsplit)
m2=$(peak_kb "$RESPIN" thread "$year")
echo "thread-full-scan: respin $r2 ms, git mailsplit $g2 ms, ratio $(awk -v a="$r2" -v b="$g2" 'BEGIN { printf "%.2f", a / (b ? b : 1) }')x; peak $(( (m2 - size_kb) / 1024 )) MB beyond the file"

# 3. respin review (comments and trailers of one version) from the year,
#    against b4 am -m on the same thread (trailers only).
git init -q "$tmp/repo"
(cd "$tmp/repo" && "$RESPIN" import bench "$year" "$msgid" --mail-only >/dev/null 2>&1) || {
	echo "review-one-series: skipped: the series of $msgid does not import"; exit 0; }
review() { (cd "$tmp/repo" && "$RESPIN" review bench --source "$year"); }
r3=$(median_ms review)
m3=$(cd "$tmp/repo" && peak_kb "$RESPIN" review bench --source "$year")
echo "review-one-series: respin $r3 ms, b4 am -m $b1 ms, respin $(awk -v a="$b1" -v b="$r3" 'BEGIN { printf "%.1f", a / (b ? b : 1) }')x faster; peak $(( (m3 - size_kb) / 1024 )) MB beyond the file"
