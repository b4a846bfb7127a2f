#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# notmuch: queries against a real notmuch database built from the real
# series (tools/lib/nm.c through tests/helpers/nm-query), checked
# against notmuch(1) itself.

. "$(dirname "$0")/lib.sh"

MAIL=$TEST_DATA/mail
NMQ="$RESPIN_BUILD/tests/helpers/nm-query"
DB=$TRASH/mail
V1_COVER=20190728125438.1550-1-cmr@informatik.wtf
V3_PATCH2=20190806030112.15232-3-cmr@informatik.wtf

# msgids FILE...: the Message-IDs in the headers of mail files or
# mboxes, sorted.
msgids() {
	awk 'FNR == 1 || /^From / { hdr = 1; want = 0 }
	     hdr && /^$/ { hdr = 0 }
	     !hdr { next }
	     want && /^[ \t]/ { print; want = 0; next }
	     { want = 0 }
	     tolower($0) ~ /^message-id:/ {
		v = substr($0, 12); if (v ~ /[^ \t]/) print v; else want = 1
	     }' "$@" |
	sed -n 's/.*<\([^>]*\)>.*/\1/p' | sort -u
}

# The user's own notmuch config, for notmuch(1) and for nm-query
# without --db.
export NOTMUCH_CONFIG="$TRASH/notmuch-config"
unset NOTMUCH_PROFILE NOTMUCH_DATABASE MAILDIR

test_expect_success 'a notmuch database of the real series' '
	cat >"$NOTMUCH_CONFIG" <<-EOF &&
	[database]
	path=$DB
	[new]
	tags=new
	[maildir]
	synchronize_flags=false
	EOF
	for s in spinlock-oops lru_gen-batch; do
		for f in "$MAIL/$s"/v*.mbox; do
			v=$(basename "$f" .mbox) &&
			mkdir -p "$DB/$s/$v/cur" "$DB/$s/$v/new" "$DB/$s/$v/tmp" &&
			git mailsplit --mboxrd -o"$DB/$s/$v/cur" "$f" >/dev/null ||
			exit 1
		done || exit 1
	done &&
	notmuch new >new.out 2>&1 &&
	cat new.out &&
	test $(find "$DB" -path "*/cur/*" -type f | wc -l) = 48 &&
	# messages repeated inside an mbox are one message, two files
	test $(notmuch count "*") = 44
'

# same QUERY: nm-query --db and notmuch search --output=files agree.
same() {
	"$NMQ" --db="$DB" "$1" >got &&
	test -s got &&
	notmuch search --output=files --sort=oldest-first "$1" >want &&
	check_same want got
}

test_expect_success 'id: one message, one file' '
	"$NMQ" --db="$DB" "id:$V1_COVER" >got &&
	test $(wc -l <got) = 1 &&
	case "$(cat got)" in "$DB"/spinlock-oops/v1/cur/*) ;; *) false ;; esac &&
	msgids $(cat got) >ids &&
	echo "$V1_COVER" >want &&
	check_same want ids
'

test_expect_success 'thread:{id:...}: the whole v1 thread, every file' '
	"$NMQ" --db="$DB" "thread:{id:$V1_COVER}" >got &&
	test $(wc -l <got) = 15 &&
	msgids $(cat got) >ids &&
	msgids "$MAIL/spinlock-oops/v1.mbox" >want &&
	check_same want ids
'

test_expect_success 'a thread without its cover letter, by one patch' '
	"$NMQ" --db="$DB" "thread:{id:$V3_PATCH2}" >got &&
	msgids $(cat got) >ids &&
	msgids "$MAIL/spinlock-oops/v3.mbox" >want &&
	check_same want ids
'

test_expect_success 'oldest first, in the order notmuch(1) gives' '
	same "thread:{id:$V1_COVER}" &&
	same "subject:spinlocks" &&
	same "from:cmr@informatik.wtf" &&
	same "subject:lru_gen and tag:new" &&
	same "*"
'

test_expect_success 'the oldest message comes first' '
	"$NMQ" --db="$DB" "thread:{id:$V1_COVER}" >got &&
	msgids "$(head -n 1 got)" >first &&
	echo "$V1_COVER" >want &&
	check_same want first
'

test_expect_success 'a query that matches nothing: no files, exit 0' '
	"$NMQ" --db="$DB" "id:no-such@example.org" >got &&
	test ! -s got
'

test_expect_success 'the callback can stop the walk' '
	"$NMQ" --db="$DB" --max=3 "*" >got &&
	notmuch search --output=files --sort=oldest-first "*" | head -n 3 >want &&
	check_same want got
'

test_expect_success 'no --db: the user database from their notmuch config' '
	"$NMQ" "thread:{id:$V1_COVER}" >got &&
	"$NMQ" --db="$DB" "thread:{id:$V1_COVER}" >want &&
	check_same want got
'

test_expect_success '--db ignores the user config' '
	NOTMUCH_CONFIG=$TRASH/no-such-config "$NMQ" --db="$DB" "id:$V1_COVER" >got &&
	test $(wc -l <got) = 1
'

test_expect_success 'a missing directory: exit 128, says so' '
	test_expect_code 128 "$NMQ" --db="$TRASH/nowhere" "*" >out 2>err &&
	test ! -s out &&
	test_grep "^fatal: no notmuch database at .$TRASH/nowhere.: No such file or directory" err
'

test_expect_success 'a directory without a database: says how to make one' '
	mkdir -p empty &&
	test_expect_code 128 "$NMQ" --db="$TRASH/empty" "*" >out 2>err &&
	test_grep "^fatal: no notmuch database at .$TRASH/empty." err &&
	test_grep "^hint: .*notmuch new" err
'

test_expect_success 'no notmuch config and no --db' '
	test_expect_code 128 env NOTMUCH_CONFIG= HOME=$TRASH/empty "$NMQ" "*" >out 2>err &&
	test_grep "^fatal: no notmuch configuration found" err &&
	test_grep "^hint: .*notmuch setup" err
'

# libxapian leaks 72 bytes when its query parser throws (seen under
# SAN=1 builds): not ours, so LeakSanitizer is told to skip that one.
test_expect_success 'a broken query: exit 128 and notmuch'"'"'s reason' '
	echo "leak:libxapian.so" >lsan.supp &&
	test_expect_code 128 env LSAN_OPTIONS=suppressions=$PWD/lsan.supp \
		"$NMQ" --db="$DB" "thread:{" >out 2>err &&
	test_grep "^fatal: notmuch query .thread:{. failed: .*missing }" err &&
	test $(grep -c "^fatal:" err) = 1 &&
	test_grep ! "Query string" err
'

test_expect_success 'respin thread notmuch:QUERY reads the user database' '
	respin thread "notmuch:thread:{id:$V1_COVER}" >out 2>err && cat out err &&
	test_grep "^\"Fix oops in shared-processor spinlocks\" by .*, 1 version$" out &&
	test_grep "3/3 patches + cover, 7 replies" out
'

test_expect_success 'respin.notmuch-path names another database' '
	git config --global respin.notmuch-path "$DB" &&
	NOTMUCH_CONFIG=$TRASH/no-such-config respin thread "notmuch:subject:lru_gen" >out 2>err &&
	cat out err && test_grep "3 versions" out
'

test_expect_success 'respin thread notmuch: without a database' '
	git config --global respin.notmuch-path "$TRASH/nowhere" &&
	test_when_finished "git config --global --unset respin.notmuch-path" &&
	test_expect_code 128 respin thread "notmuch:*" 2>err &&
	test_grep "no notmuch database at" err
'

test_done
