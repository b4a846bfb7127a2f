#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lore: the other versions of a series, found with the public-inbox
# search of a real public-inbox-httpd on 127.0.0.1 (series/lorefind.c):
# `respin import NAME lore:MSGID --all` and `respin thread lore:MSGID
# --search` find versions that are threads of their own by change-id,
# by subject and author, by links between versions and by patch-id,
# say how each was found, leave other series of the same author alone,
# degrade to the one thread on a server without search, and stop at
# respin.lore.timeout on a server that never answers a search.

. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-lore.sh"

MAIL=$TEST_DATA/mail
SPIN_V1=20190728125438.1550-1-cmr@informatik.wtf
SPIN_V2=20190802042233.20835-1-cmr@informatik.wtf
SPIN_V3=20190806030112.15232-1-cmr@informatik.wtf
SPIN_V4=20190813031314.1828-1-cmr@informatik.wtf
LRU_V1=20231222102255.56993-1-ryncsn@gmail.com
LRU_V2=20240111183321.19984-1-ryncsn@gmail.com
LRU_V3=20240123184552.59758-1-ryncsn@gmail.com

# msg ID SUBJECT IRT DATE TEXT [FILE LINE]: one message by $FROM, with
# a one-line new FILE holding LINE when FILE is given.
msg() {
	printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\n'
	printf 'From: %s\nTo: test-list@example.org\n' "$FROM"
	printf 'Subject: %s\nDate: %s\nMessage-Id: <%s>\n' "$2" "$4" "$1"
	[ -z "$3" ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$3" "$3"
	printf '\n%s\n' "$5"
	if [ -n "${6:-}" ]; then
		printf '\nSigned-off-by: %s\n---\n' "$FROM"
		printf ' %s | 1 +\n 1 file changed, 1 insertion(+)\n\n' "$6"
		printf 'diff --git a/%s b/%s\nnew file mode 100644\n' "$6" "$6"
		printf 'index 0000000..5626abf\n--- /dev/null\n+++ b/%s\n' "$6"
		printf '@@ -0,0 +1 @@\n+%s\n' "$7"
	fi
	printf '\n'
}

# widget VERSION TITLE COVER-TEXT CODE: a version of a two-patch
# series, a thread of its own (the cover's id is wV.0@example.org).
widget() {
	_t=$([ "$1" = 1 ] && echo PATCH || echo "PATCH v$1")
	_d="Mon, $1 Jan 2024 10:00:00 +0000"
	msg "w$1.0@example.org" "[$_t 0/2] $2" "" "$_d" "$3" &&
	msg "w$1.1@example.org" "[$_t 1/2] mm: add widget frobbing" \
		"w$1.0@example.org" "$_d" "Add it." mm/w1.c "one-$4" &&
	msg "w$1.2@example.org" "[$_t 2/2] mm: use widget frobbing" \
		"w$1.0@example.org" "$_d" "Use it." mm/w2.c "two-$4"
}

CID="change-id: 20240101-widget-1a2b3c"
# v1 and v2 share a change-id (v2 has a new title); v3 has no change-id
# and links to v2; v4 resends v3's patches unchanged under a new title.
{
	FROM='Wid Get <wid@example.org>'
	widget 1 "mm: frob the widget" "Frob it.
---
$CID" v1 &&
	widget 2 "mm: frob widgets, faster" "Faster.
---
$CID" v2 &&
	widget 3 "mm: widget frobbing" "Reworked.

Link to v2: https://lore.kernel.org/all/w2.0@example.org/" v3 &&
	widget 4 "mm: rebased frobbing of widgets" "Only rebased." v3
} >widget.mbox

# Two other series by the author of spinlock-oops: one whose title
# holds spinlock-oops' title (the subject search finds it), one not.
{
	FROM='"Christopher M. Riedl" <cmr@informatik.wtf>'
	d="Mon, 2 Sep 2019 10:00:00 -0500"
	msg st.0@example.org "[PATCH 0/2] Fix oops in shared-processor spinlocks selftest" \
		"" "$d" "A test for the fix." &&
	msg st.1@example.org "[PATCH 1/2] selftests/powerpc: add a spinlock test" \
		st.0@example.org "$d" "Add it." tools/t1.c t1 &&
	msg st.2@example.org "[PATCH 2/2] selftests/powerpc: run the spinlock test" \
		st.0@example.org "$d" "Run it." tools/t2.c t2 &&
	msg xm.1@example.org "[PATCH] powerpc/xmon: fix a typo" "" \
		"Tue, 3 Sep 2019 10:00:00 -0500" "A typo." arch/x.c x
} >other.mbox

# A title with what a URL or a shell would take apart.
ODD='odd: 100% "sure" & #1 + $(touch pwned) ;x=A'
{
	FROM='Odd One <odd@example.org>'
	msg odd1@example.org "[PATCH] $ODD" "" "Mon, 5 Feb 2024 10:00:00 +0000" \
		"First." lib/odd.c one &&
	msg odd2@example.org "[PATCH v2] $ODD" "" "Mon, 12 Feb 2024 10:00:00 +0000" \
		"Second." lib/odd.c two
} >odd.mbox

# The server has to outlive each test's subshell: start it here.  The
# test inbox answers to the real lists' addresses too (public-inbox-mda
# keeps only mail addressed to one of them); basic-list is indexed
# without Xapian: it has no search.
{
	lore_init test-list linuxppc-dev@lists.ozlabs.org linux-mm@kvack.org &&
	lore_add "$MAIL"/spinlock-oops/v[1-4].mbox "$MAIL"/lru_gen-batch/v[1-3].mbox \
		widget.mbox other.mbox odd.mbox &&
	LORE_LEVEL=basic lore_init basic-list &&
	lore_add "$MAIL"/spinlock-oops/v[1-4].mbox &&
	lore_start
} >setup.log 2>&1
setup_rc=$?
URL=http://127.0.0.1:${LORE_PORT:-9}/test-list
BASIC=http://127.0.0.1:${LORE_PORT:-9}/basic-list

git init -q repo && cd repo || exit 1
git config respin.lore-url "$URL"

# versions NAME: "vN <msgid>" for every version of series NAME.
versions() {
	respin show "$1" --json >show.json || return 1
	for _n in $(python3 -c 'import json
print(" ".join(str(n) for n in json.load(open("show.json"))["versions"]))'); do
		respin show "$1@v$_n" --json | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("v%d %s" % (d["version"], d["message_id"]))' || return 1
	done
}

test_expect_success 'the inbox is searchable; the basic one is not' '
	cat ../setup.log &&
	test "$setup_rc" = 0 &&
	test "$(lore_http_status "$URL/$SPIN_V1/")" = 200 &&
	test "$(lore_http_status "$BASIC/$SPIN_V1/")" = 200
'

test_expect_success 'import --all from v2 of spinlock-oops records v1-v4' '
	respin import spin "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	cat out err &&
	test_grep "^spin v1: 3 patches recorded from mail only" out &&
	test_grep "^spin v4: 3 patches recorded from mail only" out &&
	versions spin >got &&
	cat >want <<-EOF &&
	v1 $SPIN_V1
	v2 $SPIN_V2
	v3 $SPIN_V3
	v4 $SPIN_V4
	EOF
	check_same want got
'

test_expect_success 'and says how it found each' '
	test_grep "^note: v1 <$SPIN_V1>: found by subject and author\$" err &&
	test_grep "^note: v2 <$SPIN_V2>: in the thread asked for\$" err &&
	test_grep "^note: v3 <$SPIN_V3>: found by subject and author\$" err &&
	test_grep "^note: v4 <$SPIN_V4>: found by subject and author\$" err
'

test_expect_success 'the same author'"'"'s other series are not pulled in' '
	test_grep ! "selftest\|xmon\|st\.0@\|xm\.1@" out &&
	test_grep ! "selftest\|xmon\|st\.0@\|xm\.1@" err &&
	respin list >list &&
	test $(wc -l <list) = 1
'

test_expect_success 'a second import finds the same and records nothing' '
	respin import spin "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	test_grep "^spin v1 already has these 3 patches; nothing recorded" out &&
	test_grep "^spin v4 already has these 3 patches; nothing recorded" out
'

test_expect_success 'each version found by its own way (change-id, link, patch-id)' '
	respin import widget lore:w1.0@example.org --mail-only --all >out 2>err &&
	cat out err &&
	versions widget >got &&
	cat >want <<-EOF &&
	v1 w1.0@example.org
	v2 w2.0@example.org
	v3 w3.0@example.org
	v4 w4.0@example.org
	EOF
	check_same want got &&
	test_grep "^note: v1 <w1.0@example.org>: in the thread asked for\$" err &&
	test_grep "^note: v2 <w2.0@example.org>: found by change-id 20240101-widget-1a2b3c\$" err &&
	test_grep "^note: v3 <w3.0@example.org>: found by its link to v2\$" err &&
	test_grep "^note: v4 <w4.0@example.org>: found by patch-id\$" err
'

test_expect_success 'from the last version back: by patch-id, by a link in v3, by change-id' '
	respin import widget2 lore:w4.0@example.org --mail-only --all >out 2>err &&
	cat out err &&
	versions widget2 >got &&
	printf "v%d w%d.0@example.org\n" 1 1 2 2 3 3 4 4 >want &&
	check_same want got &&
	test_grep "^note: v3 <w3.0@example.org>: found by patch-id\$" err &&
	test_grep "^note: v2 <w2.0@example.org>: found by a link in v3\$" err &&
	test_grep "^note: v1 <w1.0@example.org>: found by change-id 20240101-widget-1a2b3c\$" err
'

# A v5 arrives.  The server is restarted where it was: a running
# public-inbox-httpd shows new mail in its search only after ~30 s.
FROM='Wid Get <wid@example.org>' widget 5 "mm: rebased frobbing of widgets" \
	"Only rebased, again." v3 >v5.mbox
OLD_PORT=$LORE_PORT
{
	lore_stop &&
	LORE_INBOX=test-list lore_add v5.mbox &&
	LORE_BIND_PORT=$LORE_PORT lore_start
} >restart.log 2>&1
restart_rc=$?

test_expect_success 'searches are cached: a version sent since shows with --refresh' '
	cat restart.log &&
	test "$restart_rc" = 0 &&
	test "$LORE_PORT" = "$OLD_PORT" &&
	respin thread lore:w1.0@example.org --search >out 2>err &&
	test_grep ", 4 versions\$" out &&
	test_grep ! "w5.0@" err &&
	respin thread lore:w1.0@example.org --search --refresh >out 2>err &&
	cat out err &&
	test_grep ", 5 versions\$" out &&
	test_grep "^note: v5 <w5.0@example.org>: found by " err
'

test_expect_success 'a title with & # % " + $( ) in the query: found, nothing run' '
	respin import odd lore:odd2@example.org --mail-only --all >out 2>err &&
	cat out err &&
	versions odd >got &&
	printf "v1 odd1@example.org\nv2 odd2@example.org\n" >want &&
	check_same want got &&
	test_grep "^note: v1 <odd1@example.org>: found by subject and author\$" err &&
	test_path_is_missing pwned &&
	test_path_is_missing ../pwned
'

test_expect_success 'without --all, import records the one version and asks nothing' '
	respin import one "lore:$LRU_V2" --mail-only >out 2>err &&
	cat out err &&
	test_grep "^one v2: 3 patches" out &&
	test_grep ! "found by" err &&
	versions one >got &&
	echo "v2 $LRU_V2" >want &&
	check_same want got
'

test_expect_success '--no-search: only the thread' '
	respin import only "lore:$SPIN_V2" --mail-only --all --no-search >out 2>err &&
	versions only >got &&
	echo "v2 $SPIN_V2" >want &&
	check_same want got &&
	test_grep ! "found by" err
'

test_expect_success 'thread --search shows every version and how it was found' '
	respin thread "lore:$LRU_V2" --search >out 2>err &&
	cat out err &&
	test_grep "^\"mm, lru_gen: batch update pages when aging\" by Kairui Song <ryncsn@gmail.com>, 3 versions\$" out &&
	test_grep "^  v1 .*<$LRU_V1>\$" out &&
	test_grep "^  v3 .*<$LRU_V3>\$" out &&
	test_grep "^note: v1 <$LRU_V1>: found by a link in v2\$" err &&
	test_grep "^note: v2 <$LRU_V2>: in the thread asked for\$" err &&
	test_grep "^note: v3 <$LRU_V3>: found by subject and author\$" err
'

test_expect_success 'thread --search --json: each version says how it was found' '
	respin thread "lore:$LRU_V2" --search --json >out.json 2>err &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
vs = d[\"series\"][0][\"versions\"]
print(\" \".join(\"v%d:%s\" % (v[\"version\"], v[\"found\"]) for v in vs))" >got &&
	echo "v1:link v2:thread v3:subject" >want &&
	check_same want got
'

test_expect_success 'progress on a terminal, one line a request; none in a pipe' '
	test_grep ! "lore: request" err &&
	script -qec "respin thread lore:$LRU_V2 --search --refresh" /dev/null \
		>tty.out 2>&1 </dev/null &&
	test_grep "lore: request 1: fetching the thread v2 links to" tty.out &&
	test_grep "lore: request 2: searching by subject and author" tty.out &&
	test_grep "lore: request 3: searching for mail that names the versions" tty.out &&
	test_grep "lore: request 4: searching by patch-id" tty.out &&
	test_grep "note: v1 <$LRU_V1>: found by a link in v2" tty.out
'

test_expect_success 'thread without --search: one version' '
	respin thread "lore:$LRU_V2" >out 2>err &&
	test_grep ", 1 version\$" out
'

test_expect_success 'thread --search on a file is a usage error' '
	test_expect_code 129 respin thread "$MAIL/lru_gen-batch/v2.mbox" --search 2>err &&
	test_grep "^error: --search needs a lore:MSGID source" err
'

test_expect_success 'a server without search: the one thread, and a note' '
	git config respin.lore-url "$BASIC" &&
	test_when_finished "git config respin.lore-url \"$URL\"" &&
	respin import basic "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	cat out err &&
	versions basic >got &&
	echo "v2 $SPIN_V2" >want &&
	check_same want got &&
	test_grep "^note: $BASIC has no search (HTTP 501); only the versions in the thread of <$SPIN_V2>\$" err
'

lore_stop

test_expect_success 'with the server gone, the cache answers the searches too' '
	respin import again "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	cat out err &&
	versions again >got &&
	cat >want <<-EOF &&
	v1 $SPIN_V1
	v2 $SPIN_V2
	v3 $SPIN_V3
	v4 $SPIN_V4
	EOF
	check_same want got
'

test_expect_code 128 '--refresh with the server gone: the thread cannot be fetched' '
	respin import again2 "lore:$SPIN_V2" --mail-only --all --refresh >out 2>err
'

# cache_thread_for URL: the thread of spinlock-oops v2 in the cache as
# if URL had sent it, so that only the searches go to the server there.
cache_thread_for() {
	_c=$HOME/.cache/respin/lore
	cp "$_c/$(printf %s "$URL/$SPIN_V2/t.mbox.gz" | git hash-object --stdin).mbox" \
		"$_c/$(printf %s "$1/$SPIN_V2/t.mbox.gz" | git hash-object --stdin).mbox"
}

test_expect_success 'searches answered 404: nothing found, said so' '
	lore_fake_start status 404 &&
	test_when_finished lore_fake_stop &&
	cache_thread_for "$FAKE_URL" &&
	git config respin.lore-url "$FAKE_URL" &&
	respin import s404 "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	lore_fake_stop &&
	cat out err &&
	test_grep "^s404 v2: 3 patches" out &&
	test_grep "^note: no other versions of \"Fix oops in shared-processor spinlocks\" found at $FAKE_URL (3 requests)\$" err &&
	test $(grep -c "^POST /test-list/?q=.*&x=m&t=1 HTTP" "$FAKE_LOG") = 3
'

test_expect_success 'a search answered with a page that is no mail: no search there' '
	lore_fake_start status 200 &&
	test_when_finished lore_fake_stop &&
	cache_thread_for "$FAKE_URL" &&
	git config respin.lore-url "$FAKE_URL" &&
	respin import s200 "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	lore_fake_stop &&
	cat out err &&
	test_grep "^s200 v2: 3 patches" out &&
	test_grep "^note: $FAKE_URL has no search (the answer from $FAKE_URL/?q=.* is not an mbox .*); only the versions in the thread of <$SPIN_V2>\$" err &&
	test $(wc -l <"$FAKE_LOG") = 1
'

test_expect_success 'a search answered 501 (no search): not retried, not asked again' '
	lore_fake_start status 501 &&
	test_when_finished lore_fake_stop &&
	cache_thread_for "$FAKE_URL" &&
	git config respin.lore-url "$FAKE_URL" &&
	respin import s501 "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	lore_fake_stop &&
	test_grep "^note: $FAKE_URL has no search (HTTP 501); only the versions in the thread of <$SPIN_V2>\$" err &&
	test $(wc -l <"$FAKE_LOG") = 1
'

test_expect_success 'a search answered 503: retried, then the search stops' '
	lore_fake_start status 503 &&
	test_when_finished lore_fake_stop &&
	cache_thread_for "$FAKE_URL" &&
	git config respin.lore-url "$FAKE_URL" &&
	respin import s503 "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	lore_fake_stop &&
	cat out err &&
	test_grep "^s503 v2: 3 patches" out &&
	test_grep "^note: lore search stopped: cannot fetch $FAKE_URL/?q=.*: HTTP 503 (gave up after 3 tries); only the versions found so far\$" err &&
	test $(wc -l <"$FAKE_LOG") = 3
'

# The thread comes from the cache; the server takes the search and says
# nothing, ever.  The default respin.lore.timeout bounds it.
test_expect_success 'a search that never answers costs respin.lore.timeout (30 s), then the thread' '
	lore_fake_start silent &&
	test_when_finished lore_fake_stop &&
	cache_thread_for "$FAKE_URL" &&
	git config respin.lore-url "$FAKE_URL" &&
	start=$(date +%s) &&
	respin import silent "lore:$SPIN_V2" --mail-only --all >out 2>err &&
	end=$(date +%s) &&
	cat out err &&
	echo "took $((end - start)) s" &&
	test $((end - start)) -le 32 &&
	test $((end - start)) -ge 29 &&
	versions silent >got &&
	echo "v2 $SPIN_V2" >want &&
	check_same want got &&
	test_grep "^note: lore search stopped: no answer from $FAKE_URL within respin.lore.timeout (30.0 s for the whole search); only the versions found so far\$" err &&
	test $(wc -l <"$FAKE_LOG") = 1 &&
	test_grep "^POST /test-list/?q=" "$FAKE_LOG"
'

test_done
