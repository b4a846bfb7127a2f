#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin bisect against testing every patch: a 16-patch series whose
# patch 11 breaks a command check (a real git repository, the check run
# by respin's engine), with nothing stored first; the runs each takes,
set -eu
. "$(dirname "$0")/lib.sh"
bench_init bisect
git init -q "$repo" && cd "$repo"
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
echo base >README && git add README && git commit -qm base && git branch -q base
i=1
while [ $i -le 16 ]; do
	echo $i >"p$i"
	[ $i = 11 ] && echo broken >BROKEN
	git add -A && git commit -qm "p$i: patch $i"
	i=$((i + 1))
done
"$respin" track s --base base >/dev/null
git config respin.check.t.kind command
git config respin.check.t.command "echo x >>\"$tmp/runs\"; test ! -e BROKEN"
"$respin" bisect s --check t --retries 0 --json >"$tmp/j"
runs=$(wc -l <"$tmp/runs")
grep -q '"patch": 11,' "$tmp/j" || { echo "bisect: wrong patch" >&2; exit 1; }
# the same check, another definition: nothing of it stored
git config respin.check.t2.kind command
git config respin.check.t2.command "echo y >>\"$tmp/runs\"; test ! -e BROKEN"
rm -f "$tmp/runs"
"$respin" check s --only t2 --base-too >/dev/null 2>&1 || true
every=$(wc -l <"$tmp/runs")
echo "bisect: 16 patches, fault at 11: $runs check runs for respin bisect, $every testing every patch ($(awk "BEGIN { printf \"%.1f\", $every / $runs }")x fewer)"
