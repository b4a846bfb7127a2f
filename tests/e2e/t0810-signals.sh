#!/bin/sh
# respin check and signals: SIGINT, SIGTERM and SIGHUP end the running
# command's whole process group, record nothing for it, release the
# series' lock and end respin by the same signal (the shell shows 130,
# 143, 129).  A killed respin's leftovers keep the series locked and are
# named.  A command's own exit decides its result, even when it leaves
# a child holding its output open.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches || exit 1
git config respin.check.slow.kind command
# With $TRASH/hang present the command starts a long sleep (its pid in
# $TRASH/sleep.pid) and waits for it; otherwise it passes at once.
git config respin.check.slow.command \
	"if [ -e \"$TRASH/hang\" ]; then sleep 300 & echo \$! >\"$TRASH/sleep.pid\"; wait; fi; echo done"

# started: waits until the command's sleep runs; prints its pid.
started() {
	n=0 && while [ ! -s "$TRASH/sleep.pid" ]; do
		n=$((n + 1)) && [ $n -lt 100 ] || { echo "the check did not start"; return 1; }
		sleep 0.1
	done &&
	cat "$TRASH/sleep.pid"
}

# gone PID: the process ends within two seconds (a zombie has ended:
# only its new parent has not reaped it yet).
gone() {
	n=0 && while kill -0 "$1" 2>/dev/null &&
		! ps -o stat= -p "$1" | grep -q "^Z"; do
		n=$((n + 1)) && [ $n -lt 20 ] || { echo "pid $1 still runs:"; ps -o pid,pgid,stat,args -p "$1"; return 1; }
		sleep 0.1
	done
}

# interrupt SIG CODE: a check interrupted by SIG exits CODE, leaves no
# process and records nothing.  (A shell starts background jobs with
# SIGINT ignored, and respin keeps an ignored signal ignored: env gives
# it back its default.)
interrupt() {
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	{ env --default-signal=INT,TERM,HUP respin check a >out 2>err & } && p=$! &&
	sp=$(started) &&
	kill -$1 $p && rc=0 && { wait $p || rc=$?; } &&
	cat out err && echo "exit $rc" &&
	test $rc = $2 &&
	gone $sp &&
	test_grep "^respin: interrupted by SIG$1: the running command's process group was ended; nothing was recorded for it$" err &&
	test ! -s out &&
	respin results a >res && cat res && ! grep " ok " res
}

test_expect_success 'SIGINT: exit 130, the sleep is gone, nothing recorded' '
	interrupt INT 130
'

test_expect_success 'SIGTERM: exit 143, the sleep is gone, nothing recorded' '
	interrupt TERM 143
'

test_expect_success 'SIGHUP: exit 129, the sleep is gone, nothing recorded' '
	interrupt HUP 129
'

# -j 2 runs lint jobs in threads: the thread's message reaches the user.
test_expect_success 'SIGINT during -j 2 lint threads: the message says so' '
	git config respin.check.lint2.kind lint &&
	git config respin.check.lint2.command \
		"cat >/dev/null; if [ -e \"$TRASH/hang\" ]; then sleep 300 & echo \$! >\"$TRASH/sleep.pid\"; wait; fi; echo ok" &&
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	{ env --default-signal=INT respin check a -j 2 --only lint2 >out 2>err & } && p=$! &&
	sp=$(started) &&
	kill -INT $p && rc=0 && { wait $p || rc=$?; } &&
	git config --remove-section respin.check.lint2 &&
	cat out err && echo "exit $rc" &&
	test $rc = 130 &&
	gone $sp &&
	test_grep "^respin: interrupted by SIGINT: the running command.s process group was ended; nothing was recorded for it$" err &&
	! grep "unknown error" err &&
	test ! -s out
'

test_expect_success 'respin ends by the signal itself (what a parent sees)' '
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	perl -e "
		my \$pid = fork // die;
		if (!\$pid) { \$SIG{INT} = q(DEFAULT); exec qw(respin check a) or die }
		select(undef, undef, undef, 0.1) until -s q($TRASH/sleep.pid);
		kill q(INT), \$pid; waitpid \$pid, 0;
		print qq(wait status \$?\n); exit((\$? & 127) == 2 ? 0 : 1)
	" 2>err && cat err
'

test_expect_success 'after an interruption the lock is free and the rerun runs the check' '
	rm -f "$TRASH/hang" &&
	respin check a >out 2>err && cat out err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	respin results a >res && test "$(grep -c " ok " res)" = 3
'

test_expect_success 'a killed respin: its leftovers keep the series locked, and are named' '
	git config respin.check.slow.command \
		"if [ -e \"$TRASH/hang\" ]; then sleep 300 & echo \$! >\"$TRASH/sleep.pid\"; wait; fi; echo done2" &&
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	{ respin check a >out 2>err & } && p=$! &&
	sp=$(started) &&
	kill -KILL $p && { wait $p || true; } &&
	group=$(ps -o pgid= -p $sp | tr -d " ") &&
	rc=0 && { respin check a >out 2>err || rc=$?; } && cat err &&
	test $rc = 128 &&
	test_grep "^fatal: series .a.: programs started by an earlier respin (pid $p, gone now, since [0-9:]*) still run in its worktree or build directory (slow at 1/3)$" err &&
	test_grep "^hint: wait for them to end, or end them with .kill -- -$group.; --wait waits for them$" err &&
	kill -- -$group && gone $sp &&
	rm -f "$TRASH/hang" &&
	respin check a >out && test_grep "^3 run, 0 reused, 0 failed$" out
'

test_expect_success '--wait waits for the holder, then runs' '
	git config respin.check.slow.command \
		"if [ -e \"$TRASH/hang\" ]; then sleep 300 & echo \$! >\"$TRASH/sleep.pid\"; wait; fi; echo done3" &&
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	{ respin check a >out1 2>err1 & } && p=$! &&
	sp=$(started) && rm -f "$TRASH/hang" &&
	{ respin check a --wait >out2 2>err2 & } && p2=$! &&
	sleep 0.5 && kill -0 $p2 &&
	kill $sp && { wait $p || true; } && rc=0 && { wait $p2 || rc=$?; } && cat err2 out2 &&
	test $rc = 0 &&
	test_grep "^respin: series .a. is being checked by another respin (pid $p, .respin check a@v1., since [0-9:]*): its worktree and build directory are in use; waiting...$" err2 &&
	test_grep "^0 run, 3 reused, 0 failed$" out2
'

test_expect_success 'a build cut short by a signal: the next one starts over, warnings and all' '
	git config respin.check.build.enabled true &&
	git config respin.check.build.command \
		"make O=\"\$RESPIN_BUILD\" -j2 && if [ -e \"$TRASH/hang\" ]; then sleep 300 & echo \$! >\"$TRASH/sleep.pid\"; wait; fi" &&
	rm -f "$TRASH/sleep.pid" && : >"$TRASH/hang" &&
	{ env --default-signal=INT respin check a --only build --patch 2 >out 2>err & } && p=$! &&
	sp=$(started) && kill -INT $p && rc=0 && { wait $p || rc=$?; } && test $rc = 130 &&
	gone $sp && test -f .git/respin/build/a/vmlinux &&
	rm -f "$TRASH/hang" &&
	respin check a --only build --patch 2 >out 2>err && cat out err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin results a --check build --patch 2 >log && test_grep "^respin: the last build here was cut short; building from scratch (the .config stays)$" log &&
	respin results a --json >res &&
	test_grep "mm/compaction.c: warning: unused variable .unused_marker." res
'

test_expect_success 'a command that exits 0 but leaves a child holding its output passes' '
	git config respin.check.slow.command \
		"sleep 60 & echo \$! >\"$TRASH/child.pid\"; echo started" &&
	git config respin.check.slow.timeout 20 &&
	start=$(date +%s) &&
	respin check a --only slow --patch 1 >out 2>err && cat out err &&
	test $(( $(date +%s) - start )) -lt 10 &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin results a --json >res && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit(\$d->{patches}[1]{results}{slow}{status} eq q(PASS) ? 0 : 1)" <res &&
	gone $(cat "$TRASH/child.pid")
'

test_expect_success 'a command that exits 1 leaving such a child fails (not TIMEOUT)' '
	git config respin.check.slow.command \
		"sleep 60 & echo \$! >\"$TRASH/child.pid\"; exit 1" &&
	rc=0 && { respin check a --only slow --patch 1 >out 2>err || rc=$?; } && cat out err &&
	test $rc = 1 &&
	respin results a --json >res && test_grep "\"status\": \"FAIL\"" res &&
	! grep -q TIMEOUT res &&
	gone $(cat "$TRASH/child.pid")
'

test_expect_success 'a command still running at its timeout is TIMEOUT, its group killed' '
	git config respin.check.slow.command \
		"sleep 60 & echo \$! >\"$TRASH/child.pid\"; sleep 60" &&
	git config respin.check.slow.timeout 1 &&
	rc=0 && { respin check a --only slow --patch 1 >out 2>err || rc=$?; } && cat out err &&
	test $rc = 1 && test_grep "^1 run, 0 reused, 1 failed$" out &&
	gone $(cat "$TRASH/child.pid")
'

test_done
