# Sourced by the maintainer tests (t0646, t0647): make_mm builds, in the
# fixture of the current directory, a maintainer's branch "mmu" above
# "mm-unstable" made the way akpm's mm-unstable is:
#
#   misc: a commit of no series
#   other 1/1   mm/vmscan: scan less under pressure   (another author's
#                series, from mail, between)
#   lru 1/2     mm/lru_gen: batch update counters on aging
#   lru 1/2 fix mm-lru_gen-batch-update-counters-on-aging-fix  (akpm's
#                quilt-named fix, underscores kept)
#   lru 2/2     mm/page_alloc: protect PCP lists with a spinlock  (its
#                code edited by akpm, its Link: in the lore.kernel.org form)
#   misc: a second commit of no series
#
# Every series commit as akpm applies it: the author's message, then
# "Link: https://lkml.kernel.org/r/<its Message-ID>", Cc: lines and
# "Signed-off-by: Andrew Morton <akpm@linux-foundation.org>" last, with
# Andrew Morton as committer.  lru v2 (cover letter + 2 patches,
# Message-IDs lru-v2-N@example.org) and other v1 are imported from mail
# ($TRASH/lru-v2.mbox, $TRASH/other.mbox); $TRASH/lru-v3.mbox is v3
# (patch 1 the same, patch 2 changed), not imported; $TRASH/replies.mbox
# holds a review of v2 1/2 (Reviewed-by) and of v3 2/2 (Acked-by).

AKPM='Andrew Morton <akpm@linux-foundation.org>'

# mm_ci FILE LINE SUBJECT [BODY]: append LINE to FILE and commit as the
# author, signed off.
mm_ci() {
	mkdir -p "$(dirname "$1")" && echo "$2" >>"$1" && git add "$1" &&
	git commit -q -m "$3" -m "${4:-Why: because.}" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

# mm_mail NAME VERSION RANGE: the commits of RANGE as the author sends
# them, a cover letter first, threaded, each Message-ID
# NAME-vVERSION-K@example.org (K = 0 the cover).
mm_mail() {
	git format-patch -q --stdout --cover-letter --thread=shallow \
		--subject-prefix="PATCH v$2" "$3" |
	perl -pe '
		BEGIN { $n = -1 }
		if (/^From [0-9a-f]{40} /) { $n++; $_ = "From mboxrd\@z Thu Jan  1 00:00:00 1970\n" }
		s/^Message-ID: <[^>]*>/"Message-ID: <'"$1-v$2"'-$n\@example.org>"/ie;
		s/^(In-Reply-To|References): <[^>]*>/$1: <'"$1-v$2"'-0\@example.org>/i;
		s/\*\*\* SUBJECT HERE \*\*\*/'"$1"' things/;
	'
}

# mm_reply TO TRAILER: a reply to Message-ID TO giving TRAILER.
mm_reply() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: R E Viewer <reviewer@example.org>
Subject: Re: a patch
Date: Tue, 14 Nov 2023 23:00:00 +0000
Message-Id: <re-$1>
In-Reply-To: <$1>
References: <$1>

Looks good.

$2

EOM
}

# mm_am MBOX: MBOX's patches (a cover letter left out) applied by git am
# on a branch "am" from mm-unstable.
mm_am() {
	rm -rf "$TRASH/am" && mkdir "$TRASH/am" &&
	git mailsplit -o"$TRASH/am" "$1" >/dev/null &&
	for _m in "$TRASH"/am/*; do
		grep -q "^Subject: \[PATCH[^]]* 0*0/" "$_m" && rm "$_m"
		:
	done &&
	git checkout -q -B am mm-unstable && git am -q "$TRASH"/am/*
}

# mm_pick COMMIT MSGID [URL]: COMMIT cherry-picked onto HEAD as akpm
# applies a patch: "Link: URL/MSGID" (URL: https://lkml.kernel.org/r),
# Cc:, his Signed-off-by last, him committing.
mm_pick() {
	git cherry-pick "$1" >/dev/null &&
	git log -1 --format=%B | git stripspace >"$TRASH/msg" &&
	printf '%s\n' "Link: ${3:-https://lkml.kernel.org/r}/$2" \
		"Cc: Wei Xu <weixugc@google.com>" "Cc: Yu Zhao <yuzhao@google.com>" \
		"Signed-off-by: $AKPM" >>"$TRASH/msg" &&
	GIT_COMMITTER_NAME='Andrew Morton' GIT_COMMITTER_EMAIL=akpm@linux-foundation.org \
		git commit -q --amend -F "$TRASH/msg"
}

make_mm() {
	git config respin.check.build.enabled false &&
	git config respin.check.checkpatch.enabled false &&
	git config user.name "A U Thor" && git config user.email author@example.org &&

	# the other author's one patch
	git checkout -q -b other-work mm-unstable &&
	GIT_AUTHOR_NAME="O Ther" GIT_AUTHOR_EMAIL=other@example.org \
		mm_ci mm/other.c one "mm/vmscan: scan less under pressure" &&
	git format-patch -q --stdout -1 --add-header="Message-Id: <other-v1-1@example.org>" \
		--subject-prefix=PATCH >"$TRASH/other.mbox" &&

	# lru v2, as sent
	git checkout -q -b lru-work mm-unstable &&
	mm_ci mm/lru.c one "mm/lru_gen: batch update counters on aging" &&
	mm_ci mm/pcp.c two "mm/page_alloc: protect PCP lists with a spinlock" &&
	mm_mail lru 2 mm-unstable..lru-work >"$TRASH/lru-v2.mbox" &&
	git tag lru-v2 &&
	# v3: patch 2's code changed
	echo "two, v3" >mm/pcp.c && git commit -q -a --amend --no-edit &&
	mm_mail lru 3 mm-unstable..lru-work >"$TRASH/lru-v3.mbox" &&
	git tag lru-v3 &&
	{ mm_reply lru-v2-1@example.org "Reviewed-by: R E Viewer <reviewer@example.org>" &&
	  mm_reply lru-v3-2@example.org "Acked-by: R E Viewer <reviewer@example.org>"; } \
		>"$TRASH/replies.mbox" &&
	git checkout -q mm-unstable &&
	respin import other "$TRASH/other.mbox" --base mm-unstable >/dev/null 2>&1 &&
	respin import lru "$TRASH/lru-v2.mbox" --base mm-unstable >/dev/null 2>&1 &&

	# the maintainer's branch
	mm_am "$TRASH/other.mbox" && git tag other-am &&
	mm_am "$TRASH/lru-v2.mbox" && git tag lru-am &&
	git checkout -q -b mmu mm-unstable &&
	mm_ci misc/a.c one "misc: one of no series" &&
	mm_pick other-am other-v1-1@example.org &&
	mm_pick lru-am~1 lru-v2-1@example.org &&
	echo fix >>mm/lru.c && git add mm/lru.c &&
	GIT_COMMITTER_NAME='Andrew Morton' GIT_COMMITTER_EMAIL=akpm@linux-foundation.org \
	GIT_AUTHOR_NAME='Andrew Morton' GIT_AUTHOR_EMAIL=akpm@linux-foundation.org \
		git commit -q -m "mm-lru_gen-batch-update-counters-on-aging-fix" \
		-m "fix the thing" -m "Cc: Kairui Song <kasong@tencent.com>
Signed-off-by: $AKPM" &&
	mm_pick lru-am lru-v2-2@example.org https://lore.kernel.org/r &&
	# akpm's edit of 2/2 on the way in
	echo "two, edited" >mm/pcp.c &&
	GIT_COMMITTER_NAME='Andrew Morton' GIT_COMMITTER_EMAIL=akpm@linux-foundation.org \
		git commit -q -a --amend --no-edit &&
	mm_ci misc/b.c two "misc: two of no series" &&
	git checkout -q mm-unstable
}

# mm_quilt RANGE DIR: the commits of RANGE as akpm keeps them in quilt:
# DIR/series (comments first, then one file name a line) and a patch
# file each, named from its title as the mm tree names it (lower case,
# runs of characters other than letters, digits and '_' become '-';
# ".patch"), holding From:, Subject:, Date:, the message, "---", the
# diffstat and the diff in akpm's form ("--- a/f.c~NAME", "+++ a/f.c",
# no "diff --git" or "index" lines).
mm_quilt() {
	mkdir -p "$2" &&
	printf '%s\n' "# mm-unstable, as quilt keeps it" "#NEXT_PATCHES_START mm-unstable" >"$2/series" &&
	for _c in $(git rev-list --reverse "$1"); do
		_n=$(git log -1 --format=%s "$_c" | perl -ne 'chomp; $_ = lc; s/[^a-z0-9_]+/-/g; s/^-+|-+$//g; print') &&
		{ git log -1 --format="From: %an <%ae>%nSubject: %s%nDate: %aD%n%n%b" "$_c" | git stripspace &&
		  printf -- '---\n\n' && git diff --stat "$_c^" "$_c" && echo &&
		  git diff "$_c^" "$_c" | perl -ne '
			next if /^(diff --git|index |new file mode|deleted file mode)/;
			s{^--- (a/\S+)$}{--- $1~'"$_n"'}; s{^\+\+\+ b/}{+++ a/}; print'; } >"$2/$_n.patch" &&
		echo "$_n.patch" >>"$2/series" || return 1
	done &&
	echo "#NEXT_PATCHES_END" >>"$2/series"
}
