#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Patch mails whose diff respin cannot read, against those git apply
# rejects, on the year of linuxppc-dev: respin's reader
# (build/tests/helpers/diff-read) beside `git mailinfo | git apply
# --numstat` (git's parser; no kernel tree, so context is not checked)
# on each of the same messages (split by git mailsplit).  Prints the
# two counts, how many respin refuses that git reads and how many it
# reads that git rejects (the goal: both 0, the same set).  Without the
# year it says it skips and exits 0.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${RESPIN_BUILD:=$here/../../build}"
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
shared=${RESPIN_SHARED:-$here/../../../shared}
year="$cache/linuxppc-dev-2023.mbox"
xz_file="$shared/data/mail/linuxppc-dev-2023.mbox.xz"
reader="$RESPIN_BUILD/tests/helpers/diff-read"

if [ ! -s "$year" ] && [ ! -f "$xz_file" ]; then
	echo "diff-read: skipped: the year of mail is not here (no $xz_file)"
	exit 0
fi
if [ ! -x "$reader" ]; then
	echo "diff-read: skipped: no $reader (make units builds it)"
	exit 0
fi
mkdir -p "$cache"
if [ ! -s "$year" ]; then
	xz -dc "$xz_file" >"$year.tmp.$$" || { rm -f "$year.tmp.$$"; exit 1; }
	mv "$year.tmp.$$" "$year"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/respin-bench-diffread.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$reader" "$year" >"$tmp/respin" 2>"$tmp/respin.sum"
mkdir "$tmp/split"
git mailsplit --mboxrd -o"$tmp/split" "$year" >/dev/null
for n in $(cut -d" " -f1 "$tmp/respin"); do
	f=$(printf "%s/split/%04d" "$tmp" "$n")
	git mailinfo "$tmp/m" "$tmp/p" <"$f" >/dev/null 2>&1 || :
	if git apply --numstat "$tmp/p" >/dev/null 2>&1; then
		echo "$n ok"
	else
		echo "$n bad"
	fi
done >"$tmp/git"
mails=$(wc -l <"$tmp/respin")
rb=$(awk '$2 == "bad"' "$tmp/respin" | wc -l)
gb=$(grep -c " bad" "$tmp/git" || :)
cut -d" " -f1,2 "$tmp/respin" | paste -d" " - "$tmp/git" >"$tmp/both"
only=$(awk '$2 == "bad" && $4 == "ok"' "$tmp/both" | wc -l)
more=$(awk '$2 == "ok" && $4 == "bad"' "$tmp/both" | wc -l)
echo "diff-read: of $mails patch mails respin cannot read $rb, git apply rejects $gb; respin refuses $only that git apply parses, reads $more that git apply rejects"
