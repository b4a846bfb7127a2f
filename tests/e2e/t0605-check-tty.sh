#!/bin/sh
# respin check on a terminal (a pseudo-terminal made by script(1)): the
# progress line is drawn and cleared, then the report of what failed and
# the summary each start on a line of their own, summary last.  What a
# terminal shows is rebuilt from the bytes: a line is what follows its
# last carriage return.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null 2>&1 ||
	test_skip_all "no script(1) (util-linux) to make a pseudo-terminal"

git init -q r && cd r || exit 1
echo a >f && git add f && git commit -qm base && git branch base
echo b >>f && git commit -qam "f: change"
respin track s --base base >/dev/null
git config respin.check.checkpatch.enabled false
git config respin.check.build.command "echo building; echo oops >&2; exit 2"

# on_tty CMD: runs CMD with stdout and stderr on one pseudo-terminal;
# the bytes into tty.raw, CMD's exit status as its own.
on_tty() {
	script -qfec "$1" /dev/null </dev/null >tty.raw
}

# shown: what the terminal shows of tty.raw, a line a line.
shown() {
	sed 's/\r$//; s/.*\r//; s/^\x1b\[K//' tty.raw
}

test_expect_success 'the progress line is drawn on a terminal, then cleared' '
	test_expect_code 1 on_tty "respin check s" &&
	test_grep "\[1/1\] build: running" tty.raw &&
	# every progress line is cleared by the next one, the last by the
	# report: nothing of it is left on screen
	shown >screen && cat screen &&
	test_grep ! "\[[01]/1\] build" screen
'

test_expect_success 'a narrow terminal: the progress line is cut to fit, never wraps' '
	git config respin.check.slow.kind command &&
	git config respin.check.slow.command "sleep 0.2" &&
	test_when_finished "git config --remove-section respin.check.slow" &&
	on_tty "stty cols 20; respin check s --only slow" &&
	tr "\r" "\n" <tty.raw | sed "s/^\x1b\[K//" | grep "^\[" >lines &&
	test_grep "^\[1/1\] slow: checkin$" lines &&
	awk "length > 19 { bad = 1 } END { exit bad }" lines
'

test_expect_success 'report and summary: each on its own line, the summary last' '
	cat >want <<-\EOW &&
	build at 0/1: build failed; the last lines:
	building
	oops

	build at 1/1: build failed; the last lines:
	building
	oops

	2 run, 0 reused, 2 failed
	EOW
	check_same want screen
'

test_expect_success 'a second run reuses both results: each failure named, then the summary' '
	test_expect_code 1 on_tty "respin check s" &&
	shown >screen &&
	printf "%s\n" "build at 0/1: FAIL (stored, not run again)" \
		"build at 1/1: FAIL (stored, not run again)" \
		"0 run, 2 reused, 2 failed" >want &&
	check_same want screen
'

test_expect_success 'not on a terminal: no progress, the same text' '
	git config respin.check.build.command "echo building; echo oops >&2; exit 3" &&
	test_expect_code 1 respin check s >out 2>err &&
	test_grep ! "build: running" err &&
	test_grep "^build at 1/1: build failed; the last lines:$" err &&
	echo "2 run, 0 reused, 2 failed" >want &&
	check_same want out
'

test_done
