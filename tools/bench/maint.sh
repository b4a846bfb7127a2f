#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin replace of a 10-patch series (v1 -> v2, both from mail) inside a
# 5,000-commit branch kept as mm-unstable is (each series commit with
# Link:, Cc: and the maintainer's Signed-off-by), against the scripted
# equivalent in the same run: the new patches cherry-picked with the
# carried trailers written by git interpret-trailers, then git rebase
# --onto for every later commit.  Both must give the same tree.
# Goal: <= 1x.
#
# Then the same replace on the same 5,000 patches kept as a quilt stack
# (a series file and akpm-named patch files): respin replace --quilt
# against the scripted equivalent, the new patch files written with the
# carried trailers (git interpret-trailers), the series file edited
# (sed) and quilt push -a run on a fresh checkout of the base (quilt has
# no dry run; this is the check that the stack applies).
set -eu
. "$(dirname "$0")/lib.sh"
bench_init maint
NC=${BENCH_COMMITS:-5000}
NP=10
git init -q "$repo" && cd "$repo"
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false
ms() { date +%s%3N; }

python3 - "$NC" "$NP" >"$tmp/import" <<'EOPY'
import sys
nc, np = int(sys.argv[1]), int(sys.argv[2])
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
def commit(ref, msg, files, parent=None, committer="A U Thor <author@example.org>"):
    marks = [(p, blob(c)) for p, c in files]
    mark[0] += 1
    t[0] += 1
    msg = msg.encode()
    w("commit %s\nmark :%d\n" % (ref, mark[0]))
    w("author A U Thor <author@example.org> %d +0000\n" % t[0])
    w("committer %s %d +0000\n" % (committer, t[0]))
    w("data %d\n" % len(msg))
    out.write(msg)
    w("\n")
    if parent:
        w("from %s\n" % parent)
    for p, m in marks:
        w("M 100644 :%d %s\n" % (m, p))
    w("\n")
    return ":%d" % mark[0]
def patch(k, v):
    c = "series patch %d\n" % k
    if v == 2 and k == 5:
        c += "changed in v2\n"
    return ("mm/s_p%d.c" % k, c)
def msg(k, extra=""):
    return ("mm/lru_gen: step %d of the series\n\nWhy: step %d.\n\n"
            "Signed-off-by: A U Thor <author@example.org>\n%s" % (k, k, extra))
base = commit("refs/heads/base", "base\n", [("README", "base\n")])
for v in (1, 2):
    p = base
    for k in range(1, np + 1):
        p = commit("refs/heads/v%d" % v, msg(k), [patch(k, v)], p)
p = base
half = (nc - np) // 2
for n in range(1, nc - np + 1):
    p = commit("refs/heads/integ", "misc: change %d\n" % n,
               [("d%d/misc%d.c" % (n % 30, n % 97), "change %d\n" % n)], p)
    if n == half:
        for k in range(1, np + 1):
            extra = ("Link: https://lkml.kernel.org/r/s-v1-%d@example.org\n"
                     "Cc: Wei Xu <weixugc@google.com>\n"
                     "Cc: Yu Zhao <yuzhao@google.com>\n"
                     "Signed-off-by: Andrew Morton <akpm@linux-foundation.org>\n" % k)
            p = commit("refs/heads/integ", msg(k, extra), [patch(k, 1)], p,
                       "Andrew Morton <akpm@linux-foundation.org>")
EOPY
git fast-import --quiet <"$tmp/import"
# each version as sent: Message-IDs s-vN-K@example.org
for v in 1 2; do
	git format-patch -q --stdout --subject-prefix="PATCH v$v" base..v$v |
	perl -pe 'BEGIN { $n = 0 }
		if (/^From [0-9a-f]{40} /) { $n++; $_ = "From mboxrd\@z Thu Jan  1 00:00:00 1970\n" }
		s/^Subject: /Message-Id: <s-v'"$v"'-$n\@example.org>\n${\($n > 1 ? "In-Reply-To: <s-v'"$v"'-1\@example.org>\n" : "")}Subject: /' >"$tmp/v$v.mbox"
	"$respin" import s "$tmp/v$v.mbox" --base base >/dev/null 2>&1
done
cat "$tmp/v1.mbox" "$tmp/v2.mbox" >"$tmp/all.mbox"
commits=$(git rev-list --count base..integ)
git branch -q orig integ

# the scripted equivalent: the new patches with the carried trailers,
# then every later commit rebased onto them
first=$(git log --format=%H --grep="^mm/lru_gen: step 1 of" integ | tail -n 1)
last=$(git log --format=%H --grep="^mm/lru_gen: step $NP of" integ | head -n 1)
git branch -q scripted integ
s=$(ms)
git checkout -q --detach "$first~1"
k=0
for c in $(git rev-list --reverse base..v2); do
	k=$((k + 1))
	git cherry-pick "$c" >/dev/null
	git log -1 --format=%B | git interpret-trailers \
		--trailer "Link: https://lkml.kernel.org/r/s-v2-$k@example.org" \
		--trailer "Cc: Wei Xu <weixugc@google.com>" \
		--trailer "Cc: Yu Zhao <yuzhao@google.com>" \
		--trailer "Signed-off-by: Andrew Morton <akpm@linux-foundation.org>" |
	GIT_COMMITTER_NAME='Andrew Morton' GIT_COMMITTER_EMAIL=akpm@linux-foundation.org \
		git commit -q --amend -F -
done
git rebase -q --onto HEAD "$last" scripted >/dev/null
git checkout -q base
script=$(( $(ms) - s ))

s=$(ms)
"$respin" replace s --in integ --base base --source "$tmp/all.mbox" >"$tmp/replace"
replace=$(( $(ms) - s ))
[ "$(git rev-parse integ^{tree})" = "$(git rev-parse scripted^{tree})" ] ||
	{ echo "maint: replace gave another tree than the script" >&2; exit 1; }
[ "$(git log --format=%B integ | grep -c '^Link: https://lkml.kernel.org/r/s-v2-')" = "$NP" ] ||
	{ echo "maint: the Links were not carried" >&2; exit 1; }

echo "maint: replace of a $NP-patch series in $commits commits, its trailers carried: respin replace $replace ms, git rebase --onto + interpret-trailers $script ms ($(awk "BEGIN { printf \"%.2f\", $replace / $script }")x, goal <= 1x)"

# the quilt stack: base..orig as akpm keeps it
git format-patch -q -k --no-signature -o "$tmp/q" base..orig
(
	cd "$tmp/q"
	for f in [0-9][0-9][0-9][0-9]-*.patch; do
		echo "${f#[0-9][0-9][0-9][0-9]-}"
	done >series
	for f in [0-9][0-9][0-9][0-9]-*.patch; do
		mv "$f" "${f#[0-9][0-9][0-9][0-9]-}"
	done
)
cp -r "$tmp/q" "$tmp/q2"

# the scripted equivalent: each new patch file with the carried
# trailers, the series file edited, the stack pushed on the base
s=$(ms)
k=0
for c in $(git rev-list --reverse base..v2); do
	k=$((k + 1))
	name=$(git log -1 --format=%f "$c").patch
	old=$(grep -n "^$name\$" "$tmp/q2/series" | cut -d: -f1)
	{
		git log -1 --format="From: %an <%ae>%nSubject: %s%nDate: %aD%n" "$c"
		git log -1 --format=%b "$c" | git interpret-trailers \
			--trailer "Link: https://lkml.kernel.org/r/s-v2-$k@example.org" \
			--trailer "Cc: Wei Xu <weixugc@google.com>" \
			--trailer "Cc: Yu Zhao <yuzhao@google.com>" \
			--trailer "Signed-off-by: Andrew Morton <akpm@linux-foundation.org>"
		printf -- '---\n\n'
		git diff --stat "$c^" "$c"
		echo
		git diff "$c^" "$c"
	} >"$tmp/q2/$name.new"
	mv "$tmp/q2/$name.new" "$tmp/q2/$name"
	sed -i "${old}s/.*/$name/" "$tmp/q2/series"
done
git worktree add -q --detach "$tmp/qw" base
(cd "$tmp/qw" && QUILT_PATCHES="$tmp/q2" quilt push -a -q >/dev/null)
qscript=$(( $(ms) - s ))

s=$(ms)
"$respin" replace s --quilt "$tmp/q" --base base --source "$tmp/all.mbox" >"$tmp/qreplace"
qreplace=$(( $(ms) - s ))
cmp -s "$tmp/q/series" "$tmp/q2/series" ||
	{ echo "maint: replace --quilt gave another series file than the script" >&2; exit 1; }
[ "$(cat "$tmp"/q/mm-lru_gen-step-*.patch | grep -c '^Link: https://lkml.kernel.org/r/s-v2-')" = "$NP" ] &&
grep -q "changed in v2" "$tmp/q/mm-lru_gen-step-5-of-the-series.patch" ||
	{ echo "maint: replace --quilt did not put v2 in" >&2; exit 1; }
git worktree remove --force "$tmp/qw"

echo "maint: replace of a $NP-patch series in a quilt stack of $commits patches, its trailers carried: respin replace --quilt $qreplace ms, new patch files + interpret-trailers + series edit + quilt push -a $qscript ms ($(awk "BEGIN { printf \"%.2f\", $qreplace / $qscript }")x, goal <= 1x)"
