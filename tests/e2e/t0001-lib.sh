#!/bin/sh
# The test library itself: small scripts that use lib.sh must fail
# when their tests are weak or wrong (a broken && chain, a loop that
# forgets a failure, a run-away here-doc) and pass when they are right;
# the helpers and the -v/-x/-i switches do what lib.sh says.
. "$(dirname "$0")/lib.sh"

# A checkout-shaped place for the scripts, so that lib.sh finds itself.
mkdir -p lt/tests/e2e && cp "$SRC_DIR/tests/e2e/lib.sh" lt/tests/e2e/ || exit 1

# run_lib NAME [SWITCH...]: writes the script from stdin to
# lt/tests/e2e/NAME.sh and runs it; its stdout goes to NAME.out, its
# stderr to NAME.err, its exit status to NAME.rc.
run_lib() {
	_n=$1
	shift
	{
		echo '. "$(dirname "$0")/lib.sh"'
		cat
		echo 'test_done'
	} >"lt/tests/e2e/$_n.sh" &&
	{
		RESPIN_TEST_OPTS= sh "lt/tests/e2e/$_n.sh" "$@" >"$_n.out" 2>"$_n.err"
		echo $? >"$_n.rc"
	}
	cat "$_n.out" "$_n.err"
}

test_expect_success 'a script whose tests are right passes' '
	run_lib good <<-\EOS &&
	test_expect_success "a chain, a here-doc, a case, a loop, a function" "
		echo one >a &&
		cat >b <<-EOF &&
		two
		EOF
		f () {
			cat \"\$1\"
		} &&
		case \$(cat a) in
		one)
			echo matched ;;
		*)
			false ;;
		esac &&
		for x in a b; do
			test -s \$x || return 1
		done &&
		for x in a b; do
			test -e \$x || { echo no \$x; return 1; }
			test -s \$x ||
			return 1
		done &&
		(
			cd . &&
			f b >c
		) &&
		test_grep ^two c
	"
	test_expect_code 3 "a body that ends with a code" "true && (exit 3)"
	EOS
	test "$(cat good.rc)" = 0 &&
	test_grep "^ok 1 - a chain" good.out &&
	test_grep "^ok 2 - a body that ends" good.out &&
	test_grep "^1\.\.2$" good.out
'

test_expect_success 'a command that is not chained fails the test, unrun' '
	run_lib unchained <<-\EOS &&
	test_expect_success "two lines, no &&" "
		false
		echo ran >ran
	"
	EOS
	test "$(cat unchained.rc)" = 1 &&
	test_grep "^not ok 1 - two lines, no &&$" unchained.out &&
	test_grep "BUG in the test .two lines, no &&.: broken && chain" unchained.err &&
	test_grep "line 2: \"false\" is not chained" unchained.err &&
	test ! -e lt/ran && test ! -e ran
'

test_expect_success 'the old error-test idiom (rc=$?; cat err; grep || rc=1) is refused' '
	run_lib oldidiom <<-\EOS &&
	test_expect_code 3 "old idiom" "
		sh -c \"echo boom >&2; exit 3\" 2>err; rc=\$?; cat err;
		grep -q boom err || rc=1; exit \$rc
	"
	test_expect_success "its replacement" "
		test_expect_code 3 sh -c \"echo boom >&2; exit 3\" 2>err &&
		test_grep boom err
	"
	EOS
	test_grep "^not ok 1 - old idiom$" oldidiom.out &&
	test_grep "line 2: .* is not chained" oldidiom.err &&
	test_grep "^ok 2 - its replacement$" oldidiom.out
'

test_expect_success 'a ; on one line is found by running it after (exit 117)' '
	run_lib semicolon <<-\EOS &&
	test_expect_success "a semicolon" "false; true"
	test_expect_success "a top-level || true" "false && echo x || true"
	EOS
	test "$(cat semicolon.rc)" = 1 &&
	test_grep "^not ok 1 - a semicolon$" semicolon.out &&
	test_grep "^not ok 2 - a top-level || true$" semicolon.out &&
	test_grep "BUG in the test .a semicolon.: broken && chain or a run-away here-doc" semicolon.err &&
	test_grep "it ended with 0" semicolon.err
'

test_expect_success 'the t0510 pattern: a loop, then "; true"' '
	run_lib donetrue <<-\EOS &&
	test_expect_success "done; true" "
		for f in a b; do
			test -e \$f || exit 1
		done; true
	"
	EOS
	test "$(cat donetrue.rc)" = 1 &&
	test_grep "^not ok 1 - done; true$" donetrue.out &&
	test_grep "broken && chain" donetrue.err
'

test_expect_success 'a broken chain inside a subshell or a { } block is found' '
	run_lib inner <<-\EOS &&
	test_expect_success "subshell" "
		(
			false
			true
		)
	"
	test_expect_success "group" "
		{
			false
			true
		} >out
	"
	EOS
	test "$(cat inner.rc)" = 1 &&
	test_grep "^not ok 1 - subshell$" inner.out &&
	test_grep "^not ok 2 - group$" inner.out &&
	test $(grep -c "line 3: \"false\" is not chained" inner.err) = 2
'

test_expect_success 'a loop must say "|| return 1"; with it, an early failure counts' '
	run_lib loops <<-\EOS &&
	test_expect_success "loop without return" "
		for i in 1 2; do
			test \$i = 2
		done
	"
	test_expect_success "loop with return, first round fails" "
		for i in 1 2; do
			test \$i = 2 || return 1
		done
	"
	test_expect_success "one-line loop with exit" "
		for i in 1 2; do test \$i -gt 0 || exit 1; done
	"
	test_expect_success "a block after || on its own lines, first round fails" "
		for i in 1 2; do
			test \$i = 2 || {
				echo round \$i; return 1; }
		done
	"
	EOS
	test "$(cat loops.rc)" = 1 &&
	test_grep "^not ok 4 - a block after || on its own lines, first round fails$" loops.out &&
	! grep -q "BUG.*first round fails" loops.err &&
	test_grep "^not ok 1 - loop without return$" loops.out &&
	test_grep "a loop whose last command has no \"|| return 1\"" loops.err &&
	test_grep "^not ok 2 - loop with return, first round fails$" loops.out &&
	test_grep "^ok 3 - one-line loop with exit$" loops.out
'

test_expect_success 'a top-level "|| exit 1" is found (it would end the lint run too)' '
	run_lib toplevel <<-\EOS &&
	test_expect_success "top-level exit" "
		true ||
			{ echo failed; exit 1; }
		true
	"
	test_expect_success "in a block it is fine" "
		{ true || { echo failed; false; }; } &&
		( true || exit 1 ) &&
		true
	"
	EOS
	test "$(cat toplevel.rc)" = 1 &&
	test_grep "^not ok 1 - top-level exit$" toplevel.out &&
	test_grep "a \"|| exit\" or \"|| return\" outside a loop" toplevel.err &&
	test_grep "^ok 2 - in a block it is fine$" toplevel.out
'

test_expect_success 'a here-doc that is never closed is found' '
	run_lib runaway <<-\EOS &&
	test_expect_success "run-away" "
		cat >x <<-EOF &&
		text
		EOT
		true
	"
	EOS
	test "$(cat runaway.rc)" = 1 &&
	test_grep "^not ok 1 - run-away$" runaway.out &&
	test_grep "a here-doc is never closed (no line \"EOF\")" runaway.err
'

test_expect_success 'RESPIN_TEST_CHAIN_LINT=0 turns the lint off' '
	{ echo ". \"\$(dirname \"\$0\")/lib.sh\"" &&
	  echo "test_expect_success unchained \"false; true\"" &&
	  echo test_done; } >lt/tests/e2e/nolint.sh &&
	RESPIN_TEST_CHAIN_LINT=0 RESPIN_TEST_OPTS= sh lt/tests/e2e/nolint.sh >nolint.out &&
	test_grep "^ok 1 - unchained$" nolint.out
'

test_expect_success 'test_must_fail: a failure passes; success, a signal, not found fail' '
	run_lib mustfail <<-\EOS &&
	test_expect_success "exit 1" "test_must_fail sh -c \"exit 1\""
	test_expect_success "exit 129 (usage)" "test_must_fail sh -c \"exit 129\""
	test_expect_success "success" "test_must_fail true"
	test_expect_success "a signal" "test_must_fail sh -c \"kill -TERM \\\$\\\$\""
	test_expect_success "not found" "test_must_fail no-such-command-here"
	EOS
	test "$(cat mustfail.rc)" = 1 &&
	test_grep "^ok 1 - exit 1$" mustfail.out &&
	test_grep "^ok 2 - exit 129 (usage)$" mustfail.out &&
	test_grep "^not ok 3 - success$" mustfail.out &&
	test_grep "test_must_fail: .true. succeeded" mustfail.err &&
	test_grep "^not ok 4 - a signal$" mustfail.out &&
	test_grep "died of signal 15" mustfail.err &&
	test_grep "^not ok 5 - not found$" mustfail.out &&
	test_grep "command not found" mustfail.err
'

test_expect_success 'test_expect_code in a body checks one command, even with 2>file' '
	run_lib code <<-\EOS &&
	test_expect_success "right code" "
		test_expect_code 3 sh -c \"echo oops >&2; exit 3\" 2>err &&
		test_grep oops err
	"
	test_expect_success "wrong code" "
		test_expect_code 3 sh -c \"exit 4\" 2>err
	"
	test_expect_code 128 "a test that must end with 128" "true"
	EOS
	test "$(cat code.rc)" = 1 &&
	test_grep "^ok 1 - right code$" code.out &&
	test_grep "^not ok 2 - wrong code$" code.out &&
	test_grep "test_expect_code: .sh -c exit 4. exited with 4, not 3" code.err &&
	test_grep "^not ok 3 - a test that must end with 128$" code.out &&
	test_grep "expected exit 128, got 0" code.err
'

test_expect_success 'test_when_finished runs after a pass, a failure and a return' '
	run_lib finished <<-\EOS &&
	test_expect_success "passes" "
		test_when_finished \"echo one >>log\" &&
		test_when_finished \"echo two >>log\" &&
		true
	"
	test_expect_success "fails" "
		test_when_finished \"echo three >>log\" &&
		false
	"
	test_expect_success "returns" "
		test_when_finished \"echo four >>log\" &&
		for i in 1; do false || return 1; done
	"
	test_expect_success "a clean-up that fails" "
		test_when_finished false &&
		true
	"
	test_expect_success "the log" "
		printf \"%s\\n\" two one three four >want &&
		check_same want log
	"
	EOS
	test "$(cat finished.rc)" = 1 &&
	test_grep "^ok 1 - passes$" finished.out &&
	test_grep "^not ok 2 - fails$" finished.out &&
	test_grep "^not ok 3 - returns$" finished.out &&
	test_grep "^not ok 4 - a clean-up that fails$" finished.out &&
	test_grep "test_when_finished: a clean-up failed" finished.err &&
	test_grep "^ok 5 - the log$" finished.out
'

test_expect_success 'test_grep says what it looked for and what the file held' '
	run_lib grep <<-\EOS &&
	test_expect_success "found" "echo hello >f && test_grep -i HELLO f"
	test_expect_success "not found" "echo hello >f && test_grep goodbye f"
	test_expect_success "! and not there" "echo hello >f && test_grep ! goodbye f"
	test_expect_success "! but there" "echo hello >f && test_grep ! ^hel f"
	test_expect_success "no file" "test_grep ! x no-such-file"
	test_expect_success "a bad pattern" "echo x >f && test_grep ! \"\\\\(\" f"
	EOS
	test "$(cat grep.rc)" = 1 &&
	test_grep "^ok 1 - found$" grep.out &&
	test_grep "^not ok 2 - not found$" grep.out &&
	test_grep "^# test_grep: no line of f matches .goodbye.$" grep.err &&
	test_grep "^# | hello$" grep.err &&
	test_grep "^ok 3 - ! and not there$" grep.out &&
	test_grep "^not ok 4 - ! but there$" grep.out &&
	test_grep "^# test_grep: lines of f match .\^hel., and none should:$" grep.err &&
	test_grep "^not ok 5 - no file$" grep.out &&
	test_grep "there is no file no-such-file" grep.err &&
	test_grep "^not ok 6 - a bad pattern$" grep.out
'

test_expect_success 'test_path_is_missing, _is_file, _is_dir' '
	run_lib paths <<-\EOS &&
	test_expect_success "right" "
		mkdir d && : >f &&
		test_path_is_missing nothing && test_path_is_file f && test_path_is_dir d
	"
	test_expect_success "there" "test_path_is_missing f"
	test_expect_success "not a file" "test_path_is_file d"
	test_expect_success "not a dir" "test_path_is_dir f"
	EOS
	test_grep "^ok 1 - right$" paths.out &&
	test_grep "^not ok 2 - there$" paths.out &&
	test_grep "test_path_is_missing: f exists:" paths.err &&
	test_grep "^not ok 3 - not a file$" paths.out &&
	test_grep "^not ok 4 - not a dir$" paths.out
'

test_expect_success 'test_expect_failure: TODO while broken, noted once fixed' '
	run_lib todo <<-\EOS &&
	test_expect_failure "still broken" "false"
	test_expect_failure "fixed" "true"
	EOS
	test "$(cat todo.rc)" = 0 &&
	test_grep "^not ok 1 - still broken # TODO known breakage$" todo.out &&
	test_grep "^ok 2 - fixed # TODO known breakage vanished$" todo.out
'

test_expect_success 'test_skip and test_skip_all' '
	run_lib skip <<-\EOS &&
	test_skip "no frobnicator here"
	EOS
	test_grep "^ok 1 # skip no frobnicator here$" skip.out &&
	run_lib skipall <<-\EOS &&
	test_skip_all "nothing to do here"
	test_expect_success "never" "false"
	EOS
	test "$(cat skipall.rc)" = 0 &&
	test "$(cat skipall.out)" = "1..0 # SKIP nothing to do here"
'

cat >two-failures <<-\EOS
test_expect_success "first" "echo first-output && false"
test_expect_success "second" "echo second-output && false"
test_expect_success "third" "echo third-output"
EOS

test_expect_success 'quiet by default: output only for a failure, on stderr' '
	run_lib quiet <two-failures &&
	test_grep ! third-output quiet.out &&
	test_grep ! third-output quiet.err &&
	test_grep "^# first-output$" quiet.err &&
	test_grep "^not ok 2 - second$" quiet.out &&
	test_grep "^ok 3 - third$" quiet.out
'

test_expect_success '-v shows every test output; -x traces the body' '
	run_lib verbose -v <two-failures &&
	test_grep "^third-output$" verbose.err &&
	run_lib trace -x <two-failures &&
	test_grep "^+ echo third-output$" trace.err
'

test_expect_success '-i stops at the first failure and keeps the trash' '
	run_lib immediate -i <two-failures &&
	test "$(cat immediate.rc)" = 1 &&
	test_grep "^not ok 1 - first$" immediate.out &&
	test_grep ! "second" immediate.out &&
	test_grep "^1\.\.1$" immediate.out &&
	trash=$(sed -n "s/^# -i: stopped at the first failure; the trash is //p" immediate.err) &&
	test -d "$trash" && rm -rf "$trash"
'

test_expect_success 'the switches also come from RESPIN_TEST_OPTS; unknown ones stop' '
	{ echo ". \"\$(dirname \"\$0\")/lib.sh\"" && cat two-failures &&
	  echo test_done; } >lt/tests/e2e/env.sh &&
	test_expect_code 1 env RESPIN_TEST_OPTS="--immediate" sh lt/tests/e2e/env.sh >env.out 2>env.err &&
	test_grep "^1\.\.1$" env.out &&
	rm -rf "$(sed -n "s/^# -i: stopped at the first failure; the trash is //p" env.err)" &&
	test_expect_code 1 env RESPIN_TEST_OPTS= sh lt/tests/e2e/env.sh --frobnicate >bad.out &&
	test_grep "^Bail out! env: unknown switch .--frobnicate." bad.out
'

test_done
