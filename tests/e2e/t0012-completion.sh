#!/bin/sh
# bash completion (tools/respin-completion.bash), sourced in a real bash
# and asked as bash asks: commands, options from each command's --help,
# series names and NAME@vN versions, for "respin" and, through git's own
# completion script, for "git respin".
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null || test_skip_all "no bash"
COMPLETION=$SRC_DIR/tools/respin-completion.bash
GITCOMP=/usr/share/bash-completion/completions/git

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }
track_three_patches >/dev/null || { echo "Bail out! no series"; exit 1; }
mark_sent a && git commit -q --amend -m "mm: third, v2" && respin track a >/dev/null &&
	respin track other --base mm-unstable~0 >/dev/null 2>&1

# complete WORD...: what bash would offer for the last word, a line each
complete_respin() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_respin
		printf "%s\n" "${COMPREPLY[@]}"' sh "$COMPLETION" "$@"
}

complete_git() {
	bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		__git_wrap__git_main
		printf "%s\n" "${COMPREPLY[@]}"' sh "$GITCOMP" "$COMPLETION" "$@"
}

test_expect_success 'respin <TAB>: the commands' '
	complete_respin respin "" >got &&
	test_grep "^track$" got && test_grep "^send$" got &&
	test_grep "^bisect-base$" got && test_grep "^help$" got &&
	complete_respin respin tr >got &&
	printf "%s\n" track trailers tree >want && LC_ALL=C sort got >sorted &&
	check_same want sorted
'

test_expect_success 'options from the command'"'"'s own --help' '
	complete_respin respin send --dr >got &&
	echo --dry-run >want && check_same want got &&
	complete_respin respin check --pre >got &&
	echo --preset >want && check_same want got
'

test_expect_success 'series names, then their versions' '
	complete_respin respin show "" >got &&
	test_grep "^a$" got &&
	complete_respin respin diff a@ >got &&
	printf "%s\n" a@v1 a@v2 >want && check_same want got &&
	complete_respin respin help se >got &&
	echo send >want && check_same want got
'

test_expect_success 'a branch after --in, files after -o' '
	complete_respin respin replace a --in mm- >got &&
	test_grep "^mm-unstable$" got &&
	mkdir -p outdir && complete_respin respin format a -o outd >got &&
	echo outdir >want && check_same want got
'

if test -f "$GITCOMP"; then
	test_expect_success 'git respin <TAB> through git'"'"'s completion' '
		complete_git git respin tr >got &&
		printf "%s\n" track trailers tree >want &&
		LC_ALL=C sort got >sorted && check_same want sorted &&
		complete_git git respin diff a@ >got &&
		test_grep "a@v1" got && test_grep "a@v2" got
	'
else
	test_skip "git's bash completion is not installed"
fi

test_done
