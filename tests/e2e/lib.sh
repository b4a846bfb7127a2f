# SPDX-License-Identifier: GPL-2.0-or-later
# The end-to-end test library: source it from tests/e2e/tNNNN-*.sh.
#
# Each test script runs in a fresh temporary directory with its own
# HOME and a fixed clock, with respin (from $RESPIN_BUILD, default
# ./build) first on PATH.  It prints TAP.
#
# Tests (each body runs in a subshell; chain every command with &&):
#
#   test_expect_success DESC BODY     BODY must succeed
#   test_expect_code CODE DESC BODY   BODY must exit with CODE
#   test_expect_failure DESC BODY     a known bug: BODY fails today
#                                     ("not ok ... # TODO known breakage")
#   test_skip REASON                  one skipped test ("ok N # skip REASON")
#   test_skip_all REASON              the whole script is skipped (call it
#                                     before the first test; exits)
#   test_done                         the plan; the exit status
#
# Inside a body:
#
#   test_expect_code CODE CMD...      CMD must exit with CODE (as git's)
#   test_must_fail CMD...             CMD must fail, but not by a signal,
#                                     "command not found" or 126
#   test_grep [!] [GREP-OPTION...] PATTERN FILE
#                                     a line of FILE matches (with !: no
#                                     line does); on failure it says what
#                                     it looked for and shows FILE
#   check_same WANT GOT               the files are equal (shows a diff)
#   test_path_is_missing PATH, test_path_is_file PATH, test_path_is_dir PATH
#   test_must_be_empty FILE
#   test_when_finished 'CMD...'       runs CMD after the body, passed or
#                                     failed (config undone, files put back)
#   grep_q PATTERN FILE               old name of test_grep -e PATTERN FILE
#
# Helpers say why they failed on fd 7, which goes to the test's output
# even when the body sends the command's stderr to a file.
#
# The chain lint: before a body runs, it is checked twice, and a body
# that fails either is a bug in the test ("not ok", body not run):
#  - run as "(exit 117) && BODY": an intact && chain stops at once with
#    117; anything else means a command is not chained (it ran, and its
#    status could not fail the test) or a here-doc swallowed the rest;
#  - read line by line: a command line must end in && (or ||, |, or
#    open a block) unless the next line closes one (} ) done fi esac ;;
#    else ...); that finds broken chains inside ( ) and { } too.  The
#    last command of a for/while/until loop must end in "|| return 1"
#    (or "|| exit 1"): otherwise only the last round's status counts.
#    A "|| exit 1" (or "|| { ...; exit 1; }") belongs in a loop or a
#    ( ) / { } block: at the top of a body it ends the body early.
# When the chain is broken, the commands after the break have run once
# during the (exit 117) run (as in git): the script fails either way.
# RESPIN_TEST_CHAIN_LINT=0 turns both off (never in a commit).
#
# Prefer test_expect_code CODE over test_must_fail for respin itself:
# it pins the code (1, 128 or 129), and an ASan report (exit 1 by
# default) then cannot pass for an expected failure.
#
# Switches, on the command line (sh tests/e2e/t0200-track.sh -v -i) or,
# since prove passes none, in RESPIN_TEST_OPTS="-v -i":
#   -v, --verbose     show each test's output (on stderr) as it runs
#   -x                trace each body with set -x (implies -v; note that
#                     the trace goes wherever the body sends stderr)
#   -i, --immediate   stop at the first failing test; keep the trash
#                     directory and say where it is
#   -d, --debug       keep the trash directory (as KEEP_TRASH=1)
#
# Other helpers: tick [SECONDS] (moves the fixed clock), refs_snapshot
# FILE (every ref under refs/respin with its value), make_fixture DIR
# (the small kernel-shaped repository from tools/make-fixture.sh),
# make_checked_fixture, commit_three_patches, checkpatch_path,
# kernel_test_repo DIR KSRC (a cached clone of the kernel tree).
#
# Where things are: SRC_DIR (the checkout), TEST_DATA (its tests/data:
# the real mail the tests read), SHARED_DIR ($RESPIN_SHARED or shared/
# beside the checkout: optional big data, such as the year of mail).

set -u
TEST_NAME=$(basename "$0" .sh)
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
: "${RESPIN_BUILD:=$SRC_DIR/build}"
TEST_DATA=$SRC_DIR/tests/data
SHARED_DIR=${RESPIN_SHARED:-$SRC_DIR/../shared}
export RESPIN_BUILD SRC_DIR SHARED_DIR TEST_DATA

test_verbose= test_trace= test_immediate=
test_chain_lint=${RESPIN_TEST_CHAIN_LINT:-1}
[ "$test_chain_lint" = 0 ] && test_chain_lint=
# The script's own arguments (a sourced file sees them), then the
# environment's.
for _opt in "$@" ${RESPIN_TEST_OPTS:-}; do
	case $_opt in
	-v|--verbose) test_verbose=t ;;
	-x) test_trace=t test_verbose=t ;;
	-i|--immediate) test_immediate=t ;;
	-d|--debug) KEEP_TRASH=1 ;;
	-vx|-xv) test_trace=t test_verbose=t ;;
	*) echo "Bail out! $TEST_NAME: unknown switch '$_opt' (-v, -x, -i, -d)"
	   exit 1 ;;
	esac
done
unset _opt

# Big caches (the kernel tree, checkpatch, the year of mail) are shared
# between tests and runs: where they live is decided before HOME moves.
: "${RESPIN_TEST_CACHE:=${RESPIN_CACHE:-$HOME/.cache/respin}}"
export RESPIN_TEST_CACHE

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/respin-$TEST_NAME.XXXXXX")
trap 'cd /; [ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"' EXIT
# a script stopped by a signal (Ctrl-C, prove killed, a closed pipe)
# still cleans up: exit, so the EXIT trap runs
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap 'exit 141' PIPE
export HOME="$TRASH/home"
mkdir -p "$HOME"
cd "$TRASH" || exit 1

export PATH="$RESPIN_BUILD:$PATH"
export TZ=UTC LC_ALL=C LANG=C
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.org'
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL='committer@example.org'
export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'
unset GIT_DIR GIT_WORK_TREE EDITOR VISUAL GIT_EDITOR
# make check -jN must not hand its jobserver to the makes the tests run
unset MAKEFLAGS MFLAGS MAKELEVEL
git config --global user.name 'C O Mitter'
git config --global user.email 'committer@example.org'
git config --global init.defaultBranch main
git config --global gc.auto 0
git config --global advice.detachedHead false

# fd 7: where helpers explain a failure.  Outside a test it is stderr;
# a body gets its own (see _test_run).
exec 7>&2

test_count=0
test_failed=0
test_fixed=0
test_broken=0
_in_test=

# Advances the fixed clock by N seconds (default 60).
tick() {
	_t=${GIT_COMMITTER_DATE%% *}
	_t=$((_t + ${1:-60}))
	export GIT_COMMITTER_DATE="$_t +0000" GIT_AUTHOR_DATE="$_t +0000"
}

# ---- the chain lint ------------------------------------------------

# The line-by-line half: prints one line a problem, nothing when the
# body is fine.  It reads the body on stdin.
_test_lint_awk='
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# a line that lets the next one go on: a chain, a pipe or a block opens
function opens(s) {
	if (s ~ /(&&|\|\||\||\{|\()$/) return 1
	if (s ~ /(^|[ \t;])(then|do|else|in)$/) return 1
	if (s ~ /;;$/) return 1
	return 0
}
# a line that ends a block or goes on with the previous one
function closes(s) {
	if (s ~ /^(\}|\)|;;|&&|\|\||\|)/) return 1
	if (s ~ /^(done|fi|esac|else|elif|then|do)([ \t;)|&>]|$)/) return 1
	return 0
}
# a command whose failure ends the test: "|| return 1", "|| exit 1",
# "|| { ...; exit 1; }"; the group may be on a line of its own after a
# line that ends in ||
function aborts(i,    s) {
	s = L[i]
	if (s ~ /\|\|[ \t]*(return|exit)([ \t]+[0-9]+)?[ \t;]*$/) return 1
	if (s ~ /\|\|[ \t]*\{.*[ \t;](return|exit)([ \t]+[0-9]+)?[ \t;]*\}$/) return 1
	if (i > 1 && L[i - 1] ~ /\|\|$/ &&
	    (s ~ /^\{.*[ \t;](return|exit)([ \t]+[0-9]+)?[ \t;]*\}$/ ||
	     s ~ /^(return|exit)([ \t]+[0-9]+)?[ \t;]*$/)) return 1
	# "CMD || {" then "echo ...; return 1; }" on the next line
	if (i > 1 && L[i - 1] ~ /\|\|[ \t]*\{$/ &&
	    s ~ /(^|[ \t;])(return|exit)([ \t]+[0-9]+)?[ \t;]*\}$/) return 1
	return 0
}
# how many blocks a line opens (less those it closes): ( { do if case
function blocks(s, pattern,    t, d) {
	t = s
	d = 0
	if (!pattern) {
		d += gsub(/[({]/, "", t)
		t = s
		d -= gsub(/[)}]/, "", t)
	}
	t = " " s " "
	d += gsub(/[ \t;]do[ \t;]/, "", t)
	t = " " s " "
	d -= gsub(/[ \t;]done[ \t;)|&>]/, "", t)
	t = " " s " "
	d += gsub(/[ \t;]if[ \t]/, "", t)
	t = " " s " "
	d -= gsub(/[ \t;]fi[ \t;)|&>]/, "", t)
	return d
}
# the text outside quotes and comments (quoted text is dropped, the
# quotes stay); qs carries an open quote to the next line
function scan(s,    i, c, out, len) {
	# (sets bs_end when the line ends in a backslash outside quotes)
	out = ""
	len = length(s)
	for (i = 1; i <= len; i++) {
		c = substr(s, i, 1)
		if (qs == "s") {
			if (c == SQ) { qs = ""; out = out SQ }
			continue
		}
		if (qs == "d") {
			if (c == "\\") i++
			else if (c == "\"") { qs = ""; out = out "\"" }
			continue
		}
		if (c == "\\") {
			if (i == len) { bs_end = 1; break }
			i++; out = out "_"; continue
		}
		if (c == SQ) { qs = "s"; out = out SQ; continue }
		if (c == "\"") { qs = "d"; out = out "\""; continue }
		if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t;]/)) break
		out = out c
	}
	return out
}
BEGIN { SQ = sprintf("%c", 39) }
{
	line = $0
	if (heredoc != "") {
		t = line
		if (hd_strip) sub(/^\t+/, "", t)
		if (t == heredoc) heredoc = ""
		next
	}
	if (!pend) { first = NR; text = ""; orig = "" }
	orig = orig (pend ? " " : "") line
	bs_end = 0
	part = scan(line)
	text = text part
	if (qs != "" || bs_end) { text = text " "; pend = 1; next }
	pend = 0
	if (part ~ /<</ && match(line, /<<-?[ \t]*\\?["'"'"']?[A-Za-z_][A-Za-z0-9_]*/)) {
		tok = substr(line, RSTART, RLENGTH)
		hd_strip = (tok ~ /^<<-/)
		sub(/^<<-?[ \t]*\\?["'"'"']?/, "", tok)
		heredoc = tok
	}
	t = trim(text)
	if (t == "") next
	n++; L[n] = t; N[n] = first
	o = trim(orig)
	if (length(o) > 100) o = substr(o, 1, 97) "..."
	O[n] = o
}
END {
	if (qs != "")
		print "a quote is never closed"
	if (heredoc != "")
		print "a here-doc is never closed (no line \"" heredoc "\")"
	depth = 0
	nest = 0
	for (i = 1; i <= n; i++) {
		s = L[i]
		if (s ~ /(^|[ \t;(])case[ \t]/) depth++
		if (s ~ /(^|[ \t;])esac([ \t;)|&]|$)/) depth--
		pattern = depth > 0 && s ~ /^\(?[^()]*\)$/
		# "|| exit 1" where nothing encloses it: it ends the body
		# even when the chain before it is intact (and so under the
		# lint too); only loops, ( ) and { } may hold it
		if (nest == 0 && aborts(i) && !opens(s))
			print "line " N[i] ": \"" O[i] "\": a \"|| exit\" or \"|| return\" outside a loop or a ( ) / { } block; chain it with && (or write \"{ CMD || { ...; false; }; } &&\")"
		nest += blocks(s, pattern)
		if (i == n) break
		if (opens(s) || closes(L[i + 1]) || aborts(i)) continue
		# a case pattern on a line of its own
		if (pattern) continue
		print "line " N[i] ": \"" O[i] "\" is not chained (no && at its end)"
	}
	for (i = 1; i <= n; i++) {
		s = L[i]
		if (s !~ /(^|[ \t;])done([ \t;)|&>]|$)/) continue
		# the last command of the loop: before "done" on this line,
		# or the line before
		p = s
		sub(/(^|[ \t;])done([ \t;)|&>].*|$)/, "", p)
		p = trim(p)
		sub(/;$/, "", p)
		p = trim(p)
		shown = O[i]
		if (p != "") {
			keep = L[i]; L[i] = p; ok = aborts(i); L[i] = keep
			if (ok) continue
		} else if (i > 1) {
			shown = O[i - 1]
			if (aborts(i - 1)) continue
		}
		print "line " N[i] ": a loop whose last command has no \"|| return 1\" (only its last round would count): \"" shown "\""
	}
}'

# _test_lint DESC BODY: 0 when the body is chained; else says why on
# stdout.
_test_lint() {
	[ -n "$test_chain_lint" ] || return 0
	_lint_static=$(printf '%s\n' "$2" | awk "$_test_lint_awk")
	if [ -n "$_lint_static" ]; then
		echo "BUG in the test '$1': broken && chain"
		printf '%s\n' "$_lint_static"
		return 1
	fi
	_lint_end=$( ( eval "(exit 117) && $2
echo \"chain-lint-end:\$?\" >&8" ) 8>&1 >/dev/null 2>"$TRASH/.lint" </dev/null)
	[ "$_lint_end" = "chain-lint-end:117" ] && return 0
	echo "BUG in the test '$1': broken && chain or a run-away here-doc"
	if [ -z "$_lint_end" ]; then
		echo "(run as \"(exit 117) && BODY\" it never reached its end:"
		echo " an exit/return outside the chain, a here-doc that swallows"
		echo " the rest, or a syntax error)"
	else
		echo "(run as \"(exit 117) && BODY\" it ended with ${_lint_end#chain-lint-end:},"
		echo " not 117: a command after a missing && ran, or a top-level"
		echo " \"|| ...\" caught the failure)"
	fi
	sed 's/^/  /' "$TRASH/.lint"
	return 1
}

# ---- running tests -------------------------------------------------

# _test_run BODY: runs the body in a subshell; sets _test_rc.
_test_run() {
	if [ -n "$test_verbose" ]; then
		(
			_in_test=t _test_cleanup=
			_test_eval "$1"
			_test_finish $?
		) </dev/null >&2 7>&2
	else
		(
			_in_test=t _test_cleanup=
			_test_eval "$1"
			_test_finish $?
		) </dev/null >"$TRASH/.out" 2>&1 7>&1
	fi
	_test_rc=$?
}

# A body runs inside a function, so that its "return 1" ends the body
# (and not the subshell: the clean-ups still run).
_test_eval() {
	[ -z "$test_trace" ] || set -x
	eval "$1"
	_te_rc=$?
	{ set +x; } 2>/dev/null
	return $_te_rc
}

# _test_finish STATUS: runs what test_when_finished left, exits with
# STATUS (or 1 when a clean-up fails after a passing body).
_test_finish() {
	_tc_failed=
	eval "$_test_cleanup"
	if [ -n "$_tc_failed" ]; then
		echo "test_when_finished: a clean-up failed" >&7
		[ "$1" != 0 ] || exit 1
	fi
	exit "$1"
}

# _test_report STATUS DESC [DIRECTIVE]
_test_report() {
	test_count=$((test_count + 1))
	if [ "$1" = 0 ]; then
		echo "ok $test_count - $2${3:+ # $3}"
		return 0
	fi
	echo "not ok $test_count - $2${3:+ # $3}"
	[ -z "${3:-}" ] || return 0
	test_failed=$((test_failed + 1))
	# On stderr, so that prove (and so the CI log) shows why.
	if [ -s "$TRASH/.why" ]; then
		sed 's/^/# /' "$TRASH/.why" >&2
	elif [ -z "$test_verbose" ]; then
		sed 's/^/# /' "$TRASH/.out" 2>/dev/null | tail -n 60 >&2
	fi
	if [ -n "$test_immediate" ]; then
		KEEP_TRASH=1
		echo "# -i: stopped at the first failure; the trash is $TRASH" >&2
		echo "1..$test_count"
		exit 1
	fi
}

_test_args() {
	[ "$1" = "$2" ] && return 0
	echo "Bail out! $TEST_NAME: BUG: $3 takes $2 arguments, got $1"
	exit 1
}

# _test_one DESC BODY WANT-STATUS: lint, run, and compare the status.
# Returns 0 when the body ended with WANT-STATUS (0 or a code), 1 when
# not, 2 when the lint found a bug in the test; .why says why.
_test_one() {
	: >"$TRASH/.why"
	: >"$TRASH/.out"
	if ! _test_lint "$1" "$2" >"$TRASH/.why"; then
		return 2
	fi
	: >"$TRASH/.why"
	_test_run "$2"
	[ "$_test_rc" = "$3" ] && return 0
	if [ "$3" != 0 ]; then
		echo "expected exit $3, got $_test_rc" >>"$TRASH/.out"
		[ -z "$test_verbose" ] || echo "expected exit $3, got $_test_rc" >&2
	fi
	return 1
}

test_expect_success() {
	_test_args $# 2 test_expect_success
	_test_one "$1" "$2" 0
	_test_report $? "$1"
}

# test_expect_code CODE DESC BODY: a test whose body must exit with
# CODE.  Inside a body, test_expect_code CODE CMD...: CMD must exit
# with CODE.
test_expect_code() {
	if [ -n "$_in_test" ]; then
		_tec_want=$1
		shift
		"$@"
		_tec_rc=$?
		[ "$_tec_rc" = "$_tec_want" ] && return 0
		echo "test_expect_code: '$*' exited with $_tec_rc, not $_tec_want" >&7
		return 1
	fi
	_test_args $# 3 test_expect_code
	_test_one "$2" "$3" "$1"
	_test_report $? "$2"
}

# test_expect_failure DESC BODY: a known bug.  The body must be a real
# test (it is linted); it is reported "not ok ... # TODO known breakage"
# while it fails and "ok ... # TODO known breakage vanished" once it
# passes (then make it a test_expect_success).
test_expect_failure() {
	_test_args $# 2 test_expect_failure
	_test_one "$1" "$2" 0
	case $? in
	0) test_fixed=$((test_fixed + 1))
	   _test_report 0 "$1" "TODO known breakage vanished" ;;
	1) test_broken=$((test_broken + 1))
	   _test_report 1 "$1" "TODO known breakage" ;;
	*) _test_report 1 "$1" ;;
	esac
}

# test_skip REASON: one test skipped, saying why.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

# test_skip_all REASON: nothing in this script can run here.
test_skip_all() {
	if [ "$test_count" != 0 ]; then
		echo "Bail out! $TEST_NAME: BUG: test_skip_all after $test_count tests"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" = 0 ] && return_code=0 || {
		echo "# $TEST_NAME: $test_failed of $test_count tests failed" >&2
		return_code=1
	}
	[ "$test_broken" = 0 ] ||
		echo "# $TEST_NAME: $test_broken known breakage(s) still there"
	[ "$test_fixed" = 0 ] ||
		echo "# $TEST_NAME: $test_fixed known breakage(s) vanished"
	exit $return_code
}

# ---- helpers for bodies --------------------------------------------

# test_must_fail CMD...: CMD must fail.  A death by a signal (an exit
# status from 130 to 192: 129 is respin's and git's usage error),
# 126 (cannot run) and 127 (not found) are not the failure a test
# means, so they fail the test too.
test_must_fail() {
	"$@"
	_tmf_rc=$?
	if [ "$_tmf_rc" = 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&7
		return 1
	elif [ "$_tmf_rc" -gt 129 ] && [ "$_tmf_rc" -le 192 ]; then
		echo "test_must_fail: '$*' died of signal $((_tmf_rc - 128))" >&7
		return 1
	elif [ "$_tmf_rc" = 127 ]; then
		echo "test_must_fail: '$*': command not found" >&7
		return 1
	elif [ "$_tmf_rc" = 126 ]; then
		echo "test_must_fail: '$*': cannot run it" >&7
		return 1
	fi
	return 0
}

# test_when_finished CMD...: runs CMD (one string for eval, as git's)
# after the body, whether it passed or not (not after an "exit" in
# the body); the last one given runs first.  A failing clean-up fails
# a test that passed.
test_when_finished() {
	if [ -z "$_in_test" ]; then
		echo "BUG: test_when_finished outside a test" >&7
		return 1
	fi
	_test_cleanup="{ $*
} || _tc_failed=t; $_test_cleanup"
}

# test_grep [!] [GREP-OPTION...] PATTERN FILE
test_grep() {
	_tg_neg=
	if [ "${1-}" = "!" ]; then
		_tg_neg=t
		shift
	fi
	if [ $# -lt 2 ]; then
		echo "BUG: test_grep [!] [GREP-OPTION...] PATTERN FILE, got: $*" >&7
		return 1
	fi
	eval "_tg_file=\${$#}"
	_tg_what= _tg_i=0
	for _tg_a in "$@"; do
		_tg_i=$((_tg_i + 1))
		[ "$_tg_i" -lt $# ] && _tg_what="$_tg_what '$_tg_a'"
	done
	if [ ! -f "$_tg_file" ]; then
		echo "test_grep: there is no file $_tg_file" >&7
		return 1
	fi
	grep "$@" >/dev/null 2>"$TRASH/.grep-err"
	_tg_rc=$?
	if [ $_tg_rc -gt 1 ]; then
		echo "test_grep: grep$_tg_what $_tg_file failed:" >&7
		cat "$TRASH/.grep-err" >&7
		return 1
	fi
	if [ -z "$_tg_neg" ]; then
		[ $_tg_rc = 0 ] && return 0
		# the file first, what was looked for last: a failure report
		# shows the end of the test's output
		if [ -s "$_tg_file" ]; then
			_tg_n=$(wc -l <"$_tg_file")
			if [ "$_tg_n" -le 30 ]; then
				echo "test_grep: $_tg_file holds:" >&7
			else
				echo "test_grep: $_tg_file holds ($_tg_n lines, the first 30):" >&7
			fi
			sed -n '1,30s/^/| /p' "$_tg_file" >&7
		else
			echo "test_grep: $_tg_file is empty" >&7
		fi
		echo "test_grep: no line of $_tg_file matches$_tg_what" >&7
		return 1
	fi
	[ $_tg_rc = 1 ] && return 0
	echo "test_grep: lines of $_tg_file match$_tg_what, and none should:" >&7
	grep "$@" 2>&1 | sed -n '1,30s/^/| /p' >&7
	return 1
}

# test_path_is_missing PATH / test_path_is_file PATH / test_path_is_dir
# PATH: says what is there when it is not as expected.
test_path_is_missing() {
	[ ! -e "$1" ] && [ ! -L "$1" ] && return 0
	echo "test_path_is_missing: $1 exists:" >&7
	ls -ld "$1" >&7 2>&1
	return 1
}

test_path_is_file() {
	[ -f "$1" ] && return 0
	echo "test_path_is_file: $1 is not a file" >&7
	ls -ld "$1" >&7 2>&1
	return 1
}

# test_must_be_empty FILE: FILE exists and is empty; shows it when not.
test_must_be_empty() {
	[ -f "$1" ] && [ ! -s "$1" ] && return 0
	echo "test_must_be_empty: $1 is not an empty file:" >&7
	sed -n '1,30s/^/| /p' "$1" >&7 2>&1
	return 1
}

test_path_is_dir() {
	[ -d "$1" ] && return 0
	echo "test_path_is_dir: $1 is not a directory" >&7
	ls -ld "$1" >&7 2>&1
	return 1
}

# grep_q PATTERN FILE: the old name of test_grep -e PATTERN FILE.
grep_q() {
	test_grep -e "$1" "$2"
}

# check_same WANT GOT: compare two files, show the diff when they differ.
check_same() {
	diff -u "$1" "$2" >&7
}

# refs_snapshot FILE: every respin ref and its value.
refs_snapshot() {
	git for-each-ref --format='%(refname) %(objectname)' refs/respin >"$1"
}

# checkpatch_path: prints the path of a checkpatch.pl (made by
# tools/kernel-tree.sh in the shared cache on first use).
checkpatch_path() {
	if [ ! -x "$RESPIN_TEST_CACHE/checkpatch/checkpatch.pl" ]; then
		RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" \
			>/dev/null 2>"$TRASH/kernel-tree.log" || {
			cat "$TRASH/kernel-tree.log" >&2; return 1; }
	fi
	echo "$RESPIN_TEST_CACHE/checkpatch/checkpatch.pl"
}

# fake_smtp: git send-email in this repository hands its mails to a
# script that keeps them in $TRASH/sent.mbox and their envelope
# recipients, a line a mail, in $TRASH/rcpts (sendemail.smtpServer,
# confirm never, from A U Thor).
fake_smtp() {
	printf '%s\n' '#!/bin/sh' \
		"echo \"\$*\" >>\"$TRASH/rcpts\"" \
		"{ echo \"From mboxrd@z Thu Jan  1 00:00:00 1970\"; cat; echo; } >>\"$TRASH/sent.mbox\"" \
		>"$TRASH/smtp" &&
	chmod +x "$TRASH/smtp" &&
	git config sendemail.smtpServer "$TRASH/smtp" &&
	git config sendemail.confirm never &&
	git config sendemail.from "A U Thor <author@example.org>"
}

# get_maintainer_into DIR: the real scripts/get_maintainer.pl (from the
# kernel source package, beside checkpatch) into the fixture DIR, with
# the top-level files and folders it looks for to know a kernel tree
# (untracked: the fixture's object ids stay the same).
get_maintainer_into() {
	_cp=$(checkpatch_path) || return 1
	cp "${_cp%/*}/get_maintainer.pl" "$1/scripts/" &&
	(cd "$1" && touch CREDITS Kbuild README &&
	 mkdir -p Documentation arch drivers fs ipc lib)
}

# patch_mail N MSGID [PARENT]: a small patch mail (mboxrd) that adds
# mm/fN.c with the line "one"; a reply to PARENT (a Message-ID) when
# given.  $PM_FROM is its From: (default A U Thor), $PM_SUBJECT its
# subject (default "[PATCH] mm: change N").
patch_mail() {
	cat <<EOM
From mboxrd@z Thu Jan  1 00:00:00 1970
From: ${PM_FROM:-A U Thor <author@example.org>}
Subject: ${PM_SUBJECT:-[PATCH] mm: change $1}
Date: Tue, 14 Nov 2023 22:13:2${1:-0} +0000
Message-Id: <$2>
${3:+In-Reply-To: <$3>
References: <$3>
}
Change $1.

Signed-off-by: A U Thor <author@example.org>
---
 mm/f$1.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/mm/f$1.c b/mm/f$1.c
new file mode 100644
index 0000000..5626abf
--- /dev/null
+++ b/mm/f$1.c
@@ -0,0 +1 @@
+one

EOM
}

make_fixture() {
	sh "$SRC_DIR/tools/make-fixture.sh" "$1" >/dev/null
}

# make_checked_fixture DIR: the fixture in DIR on a branch "work" from
# mm-unstable, with the real checkpatch.pl configured; the caller then
# cd's into DIR.
make_checked_fixture() {
	_cp=$(checkpatch_path) || return 1
	make_fixture "$1" &&
	git -C "$1" checkout -q -b work mm-unstable &&
	git -C "$1" config respin.check.checkpatch.command \
		"perl $_cp --terse --show-types --showfile --no-tree -"
}

# kernel_test_repo DIR KSRC [OPT...]: a clone (--shared) of the kernel tree KSRC
# (tools/kernel-tree.sh) kept in DIR between runs, with a branch
# mm-unstable; cd's into it, checks out mm-unstable clean and gives it
# a .config (tinyconfig for QEMU plus COMPACTION and MIGRATION, and
# each OPT given after KSRC) once; with --no-config instead of OPTs,
# none (the test's checks make their own).  Each kernel test has a DIR
# of its own.
kernel_test_repo() {
	_ktr_opts= _ktr_config=1
	for _o in $(shift 2 && echo "$@")
	do
		if [ "$_o" = --no-config ]
		then
			_ktr_config=
		else
			_ktr_opts="$_ktr_opts --enable $_o"
		fi || return 1
	done
	if [ ! -d "$1/.git" ]; then
		rm -rf "$1.tmp" &&
		git clone -q --shared "$2" "$1.tmp" &&
		git -C "$1.tmp" config gc.auto 0 &&
		git -C "$1.tmp" branch -q mm-unstable origin/mm-unstable &&
		mv "$1.tmp" "$1" || return 1
	fi
	cd "$1" &&
	git checkout -q -f --detach mm-unstable &&
	git clean -q -fdx -e .config &&
	if [ -n "$_ktr_config" ] && [ ! -f .config ]; then
		sh "$SRC_DIR/tools/kernel-config-tiny.sh" --enable COMPACTION \
			--enable MIGRATION $_ktr_opts . "$TRASH/cfg" >/dev/null &&
		cp "$TRASH/cfg/.config" .config
	fi
}

# mark_sent NAME: the latest version of series NAME marked sent, as an
# author who sends it by hand does (respin track --mark-sent, with a
# Message-ID of its own), so that the next change recorded is a new
# version: versions are numbered by what was sent.  A version sent
# already stays as it is.
mark_sent() {
	_ms=$(git rev-parse --short=12 "refs/respin/series/$1") &&
	{ respin track "$1" --mark-sent "<$1-$_ms@example.org>" >/dev/null \
		2>"$TRASH/mark_sent.err" ||
	  grep -q " was sent already as " "$TRASH/mark_sent.err"; }
}

# track_three_patches: in the fixture (the current directory), the
# three patches of commit_three_patches on a branch "work", tracked as
# series "a", with the built-in build and checkpatch checks turned off
# (for tests of the engine with checks of their own).
track_three_patches() {
	git checkout -q -b work mm-unstable &&
	commit_three_patches &&
	respin track a --base mm-unstable >/dev/null &&
	git config respin.check.build.enabled false &&
	git config respin.check.checkpatch.enabled false
}

# commit_three_patches: three patches on mm/ in the current fixture:
# 1 a real fix, 2 adds a compiler warning (an unused variable), 3 a
# checkpatch error (trailing whitespace).
commit_three_patches() {
	tick
	sed -i 's/^\tif (!free_blocks_total)$/\tif (!free_blocks_total || !requested)/' mm/compaction.c
	git commit -qam "mm/compaction: guard fragmentation_index() against a zero request" \
		-m "A zero request cannot fragment anything: return 0 early." \
		-m "Signed-off-by: A U Thor <author@example.org>" || return 1
	tick
	sed -i 's/^\tunsigned int o;$/\tunsigned int o;\n\tint unused_marker;/' mm/compaction.c
	git commit -qam "mm/compaction: prepare a marker for later" \
		-m "Nothing uses it yet." \
		-m "Signed-off-by: A U Thor <author@example.org>" || return 1
	tick
	printf '\nint vmscan_extra(void) { return 1; }   \n' >>mm/vmscan.c
	git commit -qam "mm/vmscan: add vmscan_extra()" \
		-m "A helper for later." \
		-m "Signed-off-by: A U Thor <author@example.org>"
}
