#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lore: against a hostile peer (tests/helpers/hostile-http.py on
# 127.0.0.1) and a real public-inbox-httpd: a 200 answer that is not
# mail is refused and never cached, a silent server costs
# respin.lore.timeout, a redirect to another host is refused unless
# respin.lore.allowRedirectHost names it, dot segments in lore: ids are
# refused before any request, a gzip bomb stops at respin.maxMailSize.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-lore.sh"

HOSTILE_PID=
hostile_stop() {
	[ -n "$HOSTILE_PID" ] || return 0
	_lore_kill "$HOSTILE_PID"
	HOSTILE_PID=
}
trap 'hostile_stop; lore_stop; lore_fake_stop; cd /; [ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"' EXIT

# mk_mail IDX: one message of a two-patch thread.
mk_mail() {
	PM_SUBJECT="[PATCH v2 $1/2] mm: change $1" \
		patch_mail "$1" "p$1.hostile@example.org" p0.hostile@example.org
}
{
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: A U Thor <author@example.org>
Subject: [PATCH v2 0/2] mm: two changes
Date: Tue, 14 Nov 2023 22:13:20 +0000
Message-Id: <p0.hostile@example.org>

The cover.

EOM
	mk_mail 1; mk_mail 2
} >thread.mbox

COVER=p0.hostile@example.org
HLOG=$TRASH/hostile.log
{
	lore_init test-list &&
	lore_add thread.mbox &&
	lore_start
} >setup.log 2>&1
setup_rc=$?
: >"$HLOG"
python3 "$SRC_DIR/tests/helpers/hostile-http.py" "$TRASH/hostile.port" \
	"$HLOG" "${LORE_URL:-http://127.0.0.1:9}" 2>hostile.err &
HOSTILE_PID=$!
HPORT=$(_lore_wait_port "$TRASH/hostile.port" "$HOSTILE_PID" hostile-http.py) ||
	setup_rc=1
H=http://127.0.0.1:$HPORT
git init -q repo && cd repo || exit 1

test_expect_success 'the real inbox answers through respin (the control case)' '
	cat ../setup.log ../hostile.err &&
	test "$setup_rc" = 0 &&
	git config respin.lore-url "$LORE_URL" &&
	respin thread "lore:$COVER" >out 2>err &&
	cat out err &&
	test_grep "^\"mm: two changes\" by A U Thor" out
'

test_expect_code 128 'a 200 HTML page: refused' '
	git config respin.lore-url "$H/html/test-list" &&
	respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'the refusal names the URL and what came' '
	cat err &&
	test ! -s out &&
	test_grep "^fatal: the answer from $H/html/test-list/$COVER/t.mbox.gz is an HTML page (a bot check or a login page?): not used, not cached\$" err &&
	test_grep "^hint: open the URL in a browser" err
'

test_expect_code 128 'asked again, the page is refused again: it was not cached' '
	respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'the server was asked twice' '
	test $(grep -c "GET /html/test-list/$COVER/t.mbox.gz" "$HLOG") = 2
'

test_expect_code 128 'a 200 answer that is not mail: refused' '
	git config respin.lore-url "$H/notmbox/test-list" &&
	respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'the refusal says it is no mbox' '
	cat err &&
	test_grep "is not an mbox (it does not start with a \"From \" line): not used, not cached" err
'

test_expect_success 'a bad page in the cache (an older respin) is asked for again' '
	url="$LORE_URL/$COVER/t.mbox.gz" &&
	key=$(printf %s "$url" | git hash-object --stdin) &&
	mkdir -p "$HOME/.cache/respin/lore" &&
	echo "<html>challenge</html>" >"$HOME/.cache/respin/lore/$key.mbox" &&
	git config respin.lore-url "$LORE_URL" &&
	respin thread "lore:$COVER" >out 2>err &&
	cat out err &&
	test_grep "^\"mm: two changes\"" out &&
	head -n 1 "$HOME/.cache/respin/lore/$key.mbox" >first &&
	test_grep "^From " first
'

test_expect_code 128 'a redirect to another host:port is refused' '
	git config respin.lore-url "$H/redirect" &&
	respin thread "lore:$COVER" --refresh >out 2>err
'

test_expect_success 'the refusal names both URLs and the setting' '
	cat err &&
	test_grep "^fatal: cannot fetch $H/redirect/$COVER/t.mbox.gz: it redirects to $LORE_URL/$COVER/t.mbox.gz, another host: not followed\$" err &&
	test_grep "^hint: .*git config --add respin.lore.allowRedirectHost HOST" err
'

test_expect_success 'respin.lore.allowRedirectHost lets it through to the real inbox' '
	git config respin.lore-url "$H/redirect" &&
	git config --add respin.lore.allowRedirectHost example.org &&
	git config --add respin.lore.allowRedirectHost "127.0.0.1:$LORE_PORT" &&
	respin thread "lore:$COVER" --refresh >out 2>err &&
	cat out err &&
	test_grep "^\"mm: two changes\"" out &&
	git config --unset-all respin.lore.allowRedirectHost &&
	git config respin.lore.allowRedirectHost "*" &&
	respin thread "lore:$COVER" --refresh >out 2>err &&
	test_grep "^\"mm: two changes\"" out &&
	git config --unset-all respin.lore.allowRedirectHost
'

test_expect_code 128 'a redirect within the host is followed (to its HTML page)' '
	git config respin.lore-url "$H/self/test-list" &&
	respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'it was followed: the page it led to is named' '
	cat err &&
	test_grep "^fatal: the answer from $H/self/test-list/$COVER/t.mbox.gz is an HTML page" err &&
	grep -q "GET /html/test-list/$COVER/t.mbox.gz" "$HLOG"
'

test_expect_code 128 'a silent server: respin gives up' '
	git config respin.lore-url "$H/silent/test-list" &&
	git config respin.lore.timeout 2 &&
	date +%s >start &&
	respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'after respin.lore.timeout, not minutes, saying so' '
	end=$(date +%s) &&
	echo "took $((end - $(cat start))) s" &&
	cat err &&
	test $((end - $(cat start))) -le 4 &&
	test_grep "^fatal: cannot fetch $H/silent/test-list/$COVER/t.mbox.gz: gave up after 2.0 s (respin.lore.timeout; 1 try)\$" err &&
	test_grep "^hint: .*git config respin.lore.timeout SECONDS" err
'

test_expect_code 128 'a respin.lore.timeout that is no number: refused' '
	git config respin.lore.timeout soon &&
	respin thread "lore:$COVER" 2>err
'

test_expect_success 'the message names the key and the value' '
	cat err &&
	test_grep "^fatal: bad respin.lore.timeout .soon. in git config" err &&
	git config --unset respin.lore.timeout
'

git config respin.lore-url "$H/html/test-list"
: >"$HLOG"
for id in . "<..>" "../../etc" "a/../b" "x/." "a b@example.org" ..; do
	test_expect_code 129 "lore:$id is a usage error" '
		respin thread "lore:$id" >out 2>err
	'
done

test_expect_success 'no request was made; the message names the segment' '
	test ! -s "$HLOG" &&
	test_grep "^error: Message-ID .\.\.. has a .\.\.. path segment" err
'

# peak_kib FILE: the "Maximum resident set size" that time -v wrote.
peak_kib() {
	sed -n "s/^[[:space:]]*Maximum resident set size (kbytes): //p" "$1"
}

# What respin itself takes (more under ASan): peaks are measured against
# it, and may be 3 caps above it (6 under ASan, whose realloc copies and
# keeps freed blocks in quarantine).
RSS_CAPS=3
ldd "$RESPIN_BUILD/respin" 2>/dev/null | grep -q libasan && RSS_CAPS=6
/usr/bin/time -v -o "$TRASH/base.time" respin thread "lore:$COVER" >/dev/null 2>&1
BASE_KIB=$(peak_kib "$TRASH/base.time")

test_expect_code 128 'a gzip bomb is refused' '
	git config respin.maxMailSize 8m &&
	git config respin.lore-url "$H/bomb/512/test-list" &&
	/usr/bin/time -v -o time.txt respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'at respin.maxMailSize, with RSS near the cap' '
	cat err &&
	peak=$(peak_kib time.txt) &&
	echo "peak RSS: $peak KiB, respin alone: $BASE_KIB KiB" &&
	test_grep "^fatal: the inflated answer from $H/bomb/512/test-list/$COVER/t.mbox.gz is larger than respin.maxMailSize (8 MiB): not read\$" err &&
	test "$peak" -lt $((BASE_KIB + RSS_CAPS * 8 * 1024))
'

test_expect_code 128 'a plain answer above respin.maxMailSize is refused' '
	git config respin.lore-url "$H/big/64/test-list" &&
	/usr/bin/time -v -o time.txt respin thread "lore:$COVER" >out 2>err
'

test_expect_success 'as it arrives, with RSS near the cap' '
	cat err &&
	peak=$(peak_kib time.txt) &&
	echo "peak RSS: $peak KiB, respin alone: $BASE_KIB KiB" &&
	test_grep "^fatal: the answer from $H/big/64/test-list/$COVER/t.mbox.gz is larger than respin.maxMailSize (8 MiB): not read\$" err &&
	test "$peak" -lt $((BASE_KIB + RSS_CAPS * 8 * 1024))
'

hostile_stop
lore_stop

test_done
