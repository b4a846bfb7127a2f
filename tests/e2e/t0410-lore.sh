#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lore: threads and messages from a real public-inbox-httpd on 127.0.0.1
# (tools/lib/lore.c through tests/helpers/lore-fetch): Message-IDs,
# 404s, the cache, timeouts, retries.

. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-lore.sh"

MAIL=$TEST_DATA/mail
FETCH="$RESPIN_BUILD/tests/helpers/lore-fetch"
V1_COVER=20190728125438.1550-1-cmr@informatik.wtf
V3_PATCH2=20190806030112.15232-3-cmr@informatik.wtf
ROBOT='201908120917.L7bXpUsz%lkp@intel.com'

# The server has to outlive each test's subshell: start it here.  The
# spinlock-oops versions go in through public-inbox's importer, the
# lru_gen v1 thread through public-inbox-mda (the slow, documented way).
{
	lore_init test-list &&
	LORE_FEED=mda lore_add "$MAIL/lru_gen-batch/v1.mbox" &&
	lore_add "$MAIL"/spinlock-oops/v[1-4].mbox &&
	lore_start
} >setup.log 2>&1
setup_rc=$?

test_expect_success 'a real public-inbox-httpd serves the test inbox' '
	cat setup.log &&
	test "$setup_rc" = 0 &&
	test "$(lore_http_status "$LORE_URL/$V1_COVER/")" = 200
'

test_expect_success 'a thread by its cover letter: every message of v1' '
	"$FETCH" "$LORE_URL" "$V1_COVER" >v1.got &&
	head -n 1 v1.got >first &&
	test_grep "^From " first &&
	mbox_msgids "$MAIL/spinlock-oops/v1.mbox" >want &&
	mbox_msgids v1.got >got &&
	test_line_count() { test $(wc -l <"$2") = "$1"; } &&
	test_line_count 11 got &&
	check_same want got
'

test_expect_success 'a thread by one of its patches, <> around the id' '
	"$FETCH" "$LORE_URL" "<$V3_PATCH2>" >v3.got &&
	mbox_msgids "$MAIL/spinlock-oops/v3.mbox" >want &&
	mbox_msgids v3.got >got &&
	check_same want got
'

test_expect_success 'the fetched thread is what the list sent (bodies too)' '
	grep -c "^Signed-off-by: Christopher M. Riedl" v1.got >got &&
	grep -c "^Signed-off-by: Christopher M. Riedl" \
		"$MAIL/spinlock-oops/v1.mbox" >want &&
	check_same want got
'

test_expect_success 'a Message-ID with % is escaped (raw message)' '
	"$FETCH" --raw "$LORE_URL" "$ROBOT" >raw.got &&
	mbox_msgids raw.got >got &&
	echo "$ROBOT" >want &&
	check_same want got &&
	"$FETCH" "$LORE_URL" "$ROBOT" >robot-thread.got &&
	mbox_msgids robot-thread.got >got &&
	grep -q "^$V3_PATCH2\$" got
'

test_expect_success 'a thread fed by public-inbox-mda' '
	"$FETCH" "$LORE_URL/" \
		"$(mbox_msgids "$MAIL/lru_gen-batch/v1.mbox" | head -n 1)" \
		>lru.got &&
	mbox_msgids "$MAIL/lru_gen-batch/v1.mbox" >want &&
	mbox_msgids lru.got >got &&
	check_same want got
'

test_expect_success 'an unknown Message-ID: exit 128, a clear message' '
	test_expect_code 128 "$FETCH" "$LORE_URL" "no-such-thread@example.org" >out 2>err &&
	test ! -s out &&
	test_grep "^fatal: no thread <no-such-thread@example.org> at $LORE_URL/no-such-thread@example.org/t.mbox.gz\$" err
'

test_expect_success 'an unknown raw message' '
	test_expect_code 128 "$FETCH" --raw "$LORE_URL" "<no/such@example.org>" 2>err &&
	test_grep "no message <no/such@example.org> at $LORE_URL/no%2Fsuch@example.org/raw" err
'

test_expect_success 'threads are cached under $HOME/.cache/respin/lore' '
	ls "$HOME/.cache/respin/lore/" >cached &&
	test $(grep -c "\.mbox\$" cached) = 5 &&
	test_grep ! tmp cached
'

test_expect_success 'an unwritable cache costs a warning, not the answer' '
	: >not-a-dir &&
	RESPIN_CACHE=$PWD/not-a-dir "$FETCH" "$LORE_URL" "$V1_COVER" \
		>out 2>err &&
	cmp v1.got out &&
	test_grep "^warning: cannot make the directory .*not-a-dir/lore: Not a directory$" err
'

test_expect_success 'respin thread lore:MSGID reads the thread from lore' '
	git config --global respin.lore-url "$LORE_URL" &&
	respin thread "lore:$V3_PATCH2" >out 2>err && cat out &&
	test_grep "^\"Fix oops in shared-processor spinlocks\" by .*, 1 version$" out &&
	test_grep "^    2/3 powerpc/spinlocks: Rename SPLPAR-only spinlocks  \[[0-9a-f]*\]$" out &&
	test_grep "^      ! report by kbuild test robot <lkp@intel.com>: build errors$" out &&
	test_grep ! "+ Reported-by: kbuild test robot" out
'

test_expect_success 'respin import from lore:MSGID' '
	git init -q imp && (cd imp &&
	respin import spin "lore:$V1_COVER" --mail-only >out && cat out &&
	test_grep "^spin v1: 3 patches recorded from mail only" out &&
	respin show spin >show && test_grep "powerpc/spinlocks: Refactor SHARED_PROCESSOR" show)
'

test_expect_success 'respin thread lore: with an unknown Message-ID' '
	test_expect_code 128 respin thread "lore:nosuch@example.org" 2>err &&
	test_grep "no thread <nosuch@example.org> at $LORE_URL" err
'

lore_stop

test_expect_success 'with the server gone, the cache still answers' '
	test "$(lore_http_status "$LORE_URL/")" = none &&
	"$FETCH" "$LORE_URL" "<$V1_COVER>" >again &&
	cmp v1.got again &&
	"$FETCH" --raw "$LORE_URL" "$ROBOT" >again &&
	cmp raw.got again
'

test_expect_success '--refresh bypasses the cache (and names the URL)' '
	test_expect_code 128 "$FETCH" --refresh --tries=2 --backoff=50 "$LORE_URL" "$V1_COVER" \
		>out 2>err &&
	test ! -s out &&
	test_grep "^fatal: cannot fetch $LORE_URL/$V1_COVER/t.mbox.gz: .*onnect" err &&
	test_grep "gave up after 2 tries" err
'

test_expect_success 'a server that never answers: a timeout, in seconds' '
	lore_fake_start silent &&
	test_when_finished lore_fake_stop &&
	start=$(date +%s) &&
	test_expect_code 128 "$FETCH" --no-cache --timeout=700 --tries=2 --backoff=100 \
		"$FAKE_URL" "$V1_COVER" >out 2>err &&
	end=$(date +%s) &&
	lore_fake_stop &&
	test ! -s out &&
	test_grep "^fatal: cannot fetch $FAKE_URL/$V1_COVER/t.mbox.gz: .*timed out" err &&
	test_grep "gave up after 2 tries" err &&
	test $(wc -l <"$FAKE_LOG") = 2 &&
	test $((end - start)) -le 5
'

test_expect_success 'a stalled transfer trips the low-speed limit' '
	lore_fake_start silent &&
	test_when_finished lore_fake_stop &&
	test_expect_code 128 "$FETCH" --no-cache --timeout=0 --low-speed-time=1 --tries=1 \
		"$FAKE_URL" "$V1_COVER" 2>err &&
	lore_fake_stop &&
	test_grep "^fatal: cannot fetch $FAKE_URL/.*: Operation too slow" err
'

test_expect_success 'HTTP 503 is retried with back-off' '
	lore_fake_start status 503 &&
	test_when_finished lore_fake_stop &&
	test_expect_code 128 "$FETCH" --no-cache --tries=3 --backoff=50 "$FAKE_URL" "$V1_COVER" 2>err &&
	lore_fake_stop &&
	test_grep "HTTP 503 (gave up after 3 tries)" err &&
	test $(grep -c "^GET /test-list/$V1_COVER/t.mbox.gz HTTP" "$FAKE_LOG") = 3
'

test_expect_success 'HTTP 404 is not retried' '
	lore_fake_start status 404 &&
	test_when_finished lore_fake_stop &&
	test_expect_code 128 "$FETCH" --no-cache --tries=3 --backoff=50 "$FAKE_URL" "$V1_COVER" 2>err &&
	lore_fake_stop &&
	test_grep "^fatal: no thread <$V1_COVER> at $FAKE_URL/" err &&
	test $(wc -l <"$FAKE_LOG") = 1
'

test_expect_success 'an empty Message-ID is a usage error' '
	test_expect_code 129 "$FETCH" --no-cache "$LORE_URL" "<>" 2>err &&
	test_grep "empty Message-ID" err
'

test_done
