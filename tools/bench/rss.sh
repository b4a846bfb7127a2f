#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Peak RSS against input size for the worst shapes of mail (issue 27):
# a header-heavy reply (19,000 addresses, under the 20,000 refused
# unparsed), one giant hunk (RSS_HUNK_MB, default 32), and a deep
# multipart (30 levels, under the 32 respin reads, around a patch of
# RSS_HUNK_MB / 4); each read
# by respin thread, respin import --mail-only and, for the hunk,
# respin import --base (libgit2 applies it), with git am of the same
# hunk as the peer.  Peak RSS from GNU time's %M; the goal is at most
# 4x the input + 64 MB.  Then respin thread on a reply with 1M
# addresses: its peak.
#
# %M is the largest of respin and the programs it ran: import --base
# of a hunk from respin.import.gitApplyAbove (8 MiB) on has git apply
# --cached apply it, which then holds the most while respin waits with
# the mail once.  hunk-import-libgit2 is the same import with that
# size 0 (libgit2 applies, in respin itself); hunk-import-stored
# applies the version a --mail-only import stored.
set -eu
. "$(dirname "$0")/lib.sh"
bench_init rss
[ -x /usr/bin/time ] || { echo "rss: skipped: no GNU time (apt-get install time)"; exit 0; }
mb=${RSS_HUNK_MB:-32}

cd "$tmp"
python3 - "$mb" <<'EOPY'
import sys
mb = int(sys.argv[1])
line = "+" + "x" * 70 + "\n"

def patch_mail(name, msgid, nlines, extra_headers="", body_wrap=None):
    head = ("From: A U Thor <author@example.org>\n"
            "Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
            "Subject: [PATCH] big: add %s\n"
            "Message-Id: <%s>\n"
            "To: list@example.org\n%s" % (name, msgid, extra_headers))
    diff = ("Add it.\n\nSigned-off-by: A U Thor <author@example.org>\n---\n"
            " %s | %d +\n 1 file changed, %d insertions(+)\n"
            " create mode 100644 %s\n\n"
            "diff --git a/%s b/%s\nnew file mode 100644\n"
            "index 0000000..1111111\n--- /dev/null\n+++ b/%s\n"
            "@@ -0,0 +1,%d @@\n" % (name, nlines, nlines, name, name, name,
                                     name, nlines))
    return head, diff, line * nlines + "-- \n2.39.5\n"

# one giant hunk
n = mb * 1024 * 1024 // len(line)
h, d, rest = patch_mail("big.txt", "big-1@example.org", n)
with open("hunk.mbox", "w") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + h + "\n" + d + rest + "\n")

# a header-heavy reply to it: 19,000 addresses in To:
to = ",\n ".join("Person %d <p%d@example.org>" % (i, i) for i in range(19000))
with open("headers.mbox", "w") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            "From: R E Viewer <reviewer@example.org>\n"
            "Date: Tue, 2 Jan 2024 00:00:00 +0000\n"
            "Subject: Re: [PATCH] big: add big.txt\n"
            "Message-Id: <reply-1@example.org>\n"
            "In-Reply-To: <big-1@example.org>\n"
            "To: " + to + "\n\nReviewed-by: R E Viewer <reviewer@example.org>\n\n")

# a deep multipart: 30 levels, the patch inside the last
depth = 30
n4 = n // 4
h, d, rest = patch_mail("deep.txt", "deep-1@example.org", n4,
                        "MIME-Version: 1.0\n"
                        "Content-Type: multipart/mixed; boundary=\"b0\"\n")
parts = []
for i in range(1, depth):
    parts.append("--b%d\nContent-Type: multipart/mixed; boundary=\"b%d\"\n\n" % (i - 1, i))
last = depth - 1
inner = ("--b%d\nContent-Type: text/plain\n\n" % last + d + rest +
         "\n--b%d--\n" % last)
tail = "".join("--b%d--\n" % i for i in range(last - 1, -1, -1))
with open("deep.mbox", "w") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + h + "\n" + "".join(parts) + inner + tail)

# 1M addresses: refused
to = ",".join("p%d@example.org" % i for i in range(1000000))
with open("million.mbox", "w") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            "From: R E Viewer <reviewer@example.org>\n"
            "Subject: Re: [PATCH] big: add big.txt\n"
            "Message-Id: <million-1@example.org>\n"
            "In-Reply-To: <big-1@example.org>\n"
            "To: " + to + "\n\nThanks.\n")
EOPY

newrepo() {
	rm -rf "$repo" && git init -q "$repo" &&
		git -C "$repo" commit -q --allow-empty -m base
}
size_mb() { awk -v b="$(wc -c <"$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
# peak NAME FILE CMD...: run CMD in the repository, print its peak RSS
# against FILE's size and the goal
peak() {
	name=$1 file=$2
	shift 2
	newrepo
	[ -z "${setup:-}" ] || (cd "$repo" && $setup >/dev/null 2>&1) ||
		{ echo "rss: $name: $setup failed" >&2; exit 1; }
	(cd "$repo" && /usr/bin/time -f %M -o "$tmp/kb" "$@" >"$tmp/out" 2>&1) ||
		{ echo "rss: $name failed:" >&2; tail -n 5 "$tmp/out" >&2; exit 1; }
	awk -v kb="$(cat "$tmp/kb")" -v sz="$(wc -c <"$file")" -v n="$name" 'BEGIN {
		mb = kb / 1024; imb = sz / 1048576; goal = 4 * imb + 64
		printf "rss-%s: %.0f MB for %.1f MB of mail: %.1fx the input; goal 4x + 64 MB = %.0f MB: %s\n",
			n, mb, imb, mb / imb, goal, mb <= goal ? "met" : "NOT met"
	}'
}

peak hunk-thread hunk.mbox "$respin" thread "$tmp/hunk.mbox"
peak hunk-import-mail-only hunk.mbox "$respin" import big "$tmp/hunk.mbox" --mail-only
peak hunk-import-applied hunk.mbox "$respin" import big "$tmp/hunk.mbox" --base HEAD
libgit2() { git config respin.import.gitApplyAbove 0; }
setup=libgit2 peak hunk-import-libgit2 hunk.mbox "$respin" import big "$tmp/hunk.mbox" --base HEAD
stored() { "$respin" import big "$tmp/hunk.mbox" --mail-only; }
setup=stored peak hunk-import-stored hunk.mbox "$respin" import big@v1 --base HEAD
newrepo
(cd "$repo" && /usr/bin/time -f %M -o "$tmp/kb" git am -q "$tmp/hunk.mbox")
echo "rss-hunk-git-am: $(( $(cat "$tmp/kb") / 1024 )) MB for $(size_mb hunk.mbox) MB (the peer)"
peak headers-thread headers.mbox "$respin" thread "$tmp/headers.mbox"
peak deep-thread deep.mbox "$respin" thread "$tmp/deep.mbox"
peak deep-import-mail-only deep.mbox "$respin" import deep "$tmp/deep.mbox" --mail-only
newrepo
rc=0
(cd "$repo" && /usr/bin/time -f %M -o "$tmp/kb" "$respin" thread "$tmp/million.mbox") \
	>"$tmp/out" 2>&1 || rc=$?
echo "rss-million-addresses-thread: $(( $(cat "$tmp/kb") / 1024 )) MB for $(size_mb million.mbox) MB, exit $rc"
