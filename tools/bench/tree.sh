#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin tree and respin replace on an integration branch of 500
# tracked series (3 patches each) among 5,000 commits (in 30 top
# folders, as a kernel tree has its mm/, fs/, net/...), against a
# scripted "git rebase -i" doing the same replacement (drop the old
# version, cherry-pick the new one and every later commit) in the same
# run.  Goals: tree <= 1 s; replace <= 1x the scripted rebase.
set -eu
. "$(dirname "$0")/lib.sh"
bench_init tree
NS=${BENCH_SERIES:-500}
NC=${BENCH_COMMITS:-5000}
git init -q "$repo" && cd "$repo"
# every version recorded is a new number (none is sent here)
git config respin.numbering track
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
ms() { date +%s%3N; }

# everything by git fast-import: a base, a branch per series, and the
# integration branch with each series' patches among commits of no series
python3 - "$NS" "$NC" >"$tmp/import" <<'EOPY'
import sys
ns, nc = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout.buffer
mark = [0]
t = [1700000000]
def w(text):
    out.write(text.encode())
def blob(data):
    mark[0] += 1
    data = data.encode()
    w("blob\nmark :%d\ndata %d\n" % (mark[0], len(data)))
    out.write(data)
    w("\n")
    return mark[0]
def commit(ref, msg, files, parent=None):
    marks = [(p, blob(c)) for p, c in files]
    mark[0] += 1
    t[0] += 1
    msg = msg.encode()
    w("commit %s\nmark :%d\n" % (ref, mark[0]))
    w("author A U Thor <author@example.org> %d +0000\n" % t[0])
    w("committer C O Mitter <committer@example.org> %d +0000\n" % t[0])
    w("data %d\n" % len(msg))
    out.write(msg)
    w("\n")
    if parent:
        w("from %s\n" % parent)
    for p, m in marks:
        w("M 100644 :%d %s\n" % (m, p))
    w("\n")
    return ":%d" % mark[0]
def patch(s, k, v=1):
    c = "series %d patch %d\n" % (s, k)
    if v == 2 and k == 2:
        c += "changed in v2\n"
    # a kernel-like layout: 30 top folders, a few files each patch
    return ("d%d/s%d_p%d.c" % (s % 30, s, k), c)
base = commit("refs/heads/base", "base\n", [("README", "base\n")])
for s in range(ns):
    p = base
    for k in range(1, 4):
        p = commit("refs/heads/s%d" % s, "s%d: patch %d\n" % (s, k), [patch(s, k)], p)
    if s == ns // 2:
        p = commit("refs/heads/s%d-v2" % s, "s%d: patch 1\n" % s, [patch(s, 1)], base)
        for k in range(2, 4):
            p = commit("refs/heads/s%d-v2" % s, "s%d: patch %d\n" % (s, k), [patch(s, k, 2)], p)
other = nc - 3 * ns
per = max(other // ns, 0)
p = base
n = 0
for s in range(ns):
    for i in range(per):
        n += 1
        p = commit("refs/heads/integ", "misc: change %d\n" % n, [("d%d/misc%d.c" % (n % 30, n % 97), "change %d\n" % n)], p)
    for k in range(1, 4):
        p = commit("refs/heads/integ", "s%d: patch %d\n" % (s, k), [patch(s, k)], p)
EOPY
git fast-import --quiet <"$tmp/import"
s=$(ms)
i=0
while [ $i -lt "$NS" ]; do
	"$respin" track "s$i" --base base --tip "s$i" >/dev/null
	i=$((i + 1))
done
half=$((NS / 2))
"$respin" track "s$half" --tip "s$half-v2" >/dev/null
setup=$(( $(ms) - s ))
commits=$(git rev-list --count base..integ)

s=$(ms)
"$respin" tree integ --base base >"$tmp/tree"
tree=$(( $(ms) - s ))
grep -q "^integ: $commits commits above .*, $NS tracked series in it" "$tmp/tree" ||
	{ echo "tree: wrong answer" >&2; head -3 "$tmp/tree" >&2; exit 1; }

# the scripted equivalent: drop v1, pick v2 and everything after it
first=$(git log --format=%H --grep="^s$half: patch 1\$" integ | tail -n 1)
last=$(git log --format=%H --grep="^s$half: patch 3\$" integ | head -n 1)
git branch -q scripted integ
s=$(ms)
git checkout -q --detach "$first~1"
git cherry-pick "base..s$half-v2" >/dev/null
git cherry-pick "$last..scripted" >/dev/null
git branch -q -f scripted HEAD
git checkout -q base
script=$(( $(ms) - s ))

s=$(ms)
"$respin" replace "s$half" --in integ --base base >"$tmp/replace"
replace=$(( $(ms) - s ))
[ "$(git rev-parse integ^{tree})" = "$(git rev-parse scripted^{tree})" ] ||
	{ echo "replace: a different tree than the scripted rebase" >&2; exit 1; }

echo "tree: $NS series in $commits commits: respin tree $tree ms (goal <= 1000 ms)"
echo "replace: one series in the middle: respin replace $replace ms, scripted git cherry-pick $script ms ($(awk "BEGIN { printf \"%.2f\", $replace / $script }")x)"
echo "tree: setup (respin track x $NS): $setup ms"
