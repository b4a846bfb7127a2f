#!/bin/sh
# A results database that becomes unreadable while respin uses it (a
# table dropped under it) is an error that says so, exit 128: never
# taken for "nothing stored", which would run every check again and
# store its results in a database that lost the rest.
. "$(dirname "$0")/lib.sh"

SQL="$RESPIN_BUILD/tests/helpers/db-sql"
DB=.git/respin/results.db

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches || exit 1
git config respin.check.count.kind command
git config respin.check.count.command "echo run >>\"$TRASH/ran\"; echo ok"

test_expect_success 'setup: three results stored' '
	respin check a >out && test_grep "^3 run, 0 reused, 0 failed$" out &&
	test "$(wc -l <"$TRASH/ran")" = 3 &&
	cp $DB* "$TRASH/"
'

# The table goes while the check runs: patch 2's command drops it.
test_expect_success 'a table dropped during a check stops it (128), naming the database' '
	git config respin.check.drop.kind command &&
	git config respin.check.drop.command "if [ \"\$RESPIN_PATCH\" = 2 ]; then \"$SQL\" \"$PWD/$DB\" \"DROP TABLE results\"; fi; echo drop >>\"$TRASH/dropped\"" &&
	rc=0 && { respin check a --only drop >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 &&
	test_grep "^fatal: results database .*/results.db: .*no such table: results" err &&
	test "$(wc -l <"$TRASH/dropped")" = 2 && test ! -s out
'

test_expect_success 'the next check finds the table gone: 128, nothing runs' '
	rc=0 && { respin check a >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 &&
	test_grep "^fatal: the results database .*/results.db is damaged: it has no table results" err &&
	test_grep "^hint: respin never starts over on its own" err &&
	test "$(wc -l <"$TRASH/ran")" = 3 && test "$(wc -l <"$TRASH/dropped")" = 2 &&
	test ! -s out
'

test_expect_success 'respin results says so too (128)' '
	rc=0 && { respin results a >out 2>err || rc=$?; } && cat err &&
	test $rc = 128 && test_grep "has no table results" err
'

test_expect_success 'the samples table too' '
	rm -f $DB* && cp "$TRASH"/results.db* .git/respin/ &&
	"$SQL" $DB "DROP TABLE samples" &&
	rc=0 && { respin check a >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 && test_grep "is damaged: it has no table samples" err &&
	test "$(wc -l <"$TRASH/ran")" = 3
'

test_expect_success 'a status this respin does not know is an error, not "not stored"' '
	rm -f $DB* && cp "$TRASH"/results.db* .git/respin/ &&
	"$SQL" $DB "UPDATE results SET status = '\''FLAKY'\'' WHERE id = (SELECT min(id) FROM results)" &&
	rc=0 && { respin check a --only count >out 2>err || rc=$?; } && cat out err &&
	test $rc = 128 &&
	test_grep "^fatal: results database .*: the result of count for tree:[0-9a-f]* has the status .FLAKY., which this respin does not know$" err &&
	test "$(wc -l <"$TRASH/ran")" = 3
'

test_expect_success 'with the database restored, everything is reused as before' '
	rm -f $DB* && cp "$TRASH"/results.db* .git/respin/ &&
	respin check a --only count >out && test_grep "^0 run, 3 reused, 0 failed$" out &&
	respin results a --json >json && test_grep "\"status\": \"PASS\"" json &&
	test "$(wc -l <"$TRASH/ran")" = 3
'

test_done
