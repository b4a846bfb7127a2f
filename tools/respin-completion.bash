# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for respin and "git respin".
#
# make install puts this file in bash-completion's directory twice: as
# "respin" (loaded when "respin <TAB>" is first completed) and as
# "git-respin" (git's own completion loads that one for "git respin
# <TAB>" and calls _git_respin).  Or source it from ~/.bashrc.
#
# It completes the commands, each command's options (read from its
# --help, so they never fall behind), series names (refs/respin/series/)
# and their versions (NAME@vN), and files where a command takes them.

# The series names in the current repository.
__respin_series()
{
	git for-each-ref --format='%(refname:strip=3)' refs/respin/series/ \
		2>/dev/null
}

# NAME@v1 NAME@v2 ... for a series (its store's vN directories).
__respin_versions()
{
	git ls-tree --name-only "refs/respin/series/$1" 2>/dev/null |
		sed -n "s/^v\([0-9][0-9]*\)$/$1@v\1/p"
}

# The commands, from respin --help's list.
__respin_commands()
{
	"${RESPIN:-respin}" --help 2>/dev/null |
		sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p'
	echo help
}

# A command's long options, from its --help.
__respin_options()
{
	"${RESPIN:-respin}" "$1" --help 2>&1 |
		grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

# Sets COMPREPLY for the words of a respin command line: $1 is the index
# of "respin" (or of "respin" after "git") in COMP_WORDS-like array
# __respin_words, $2 the index of the word being completed.
__respin_complete_words()
{
	local at=$1 cword=$2 cur cmd i w
	cur=${__respin_words[cword]}
	COMPREPLY=()

	cmd=
	for ((i = at + 1; i < cword; i++)); do
		w=${__respin_words[i]}
		case "$w" in
		-*) ;;
		*) cmd=$w; break ;;
		esac
	done

	if [ -z "$cmd" ]; then
		case "$cur" in
		-*) COMPREPLY=($(compgen -W "--help --version" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(__respin_commands)" -- "$cur")) ;;
		esac
		return
	fi

	case "$cur" in
	-*)
		COMPREPLY=($(compgen -W "$(__respin_options "$cmd")" -- "$cur"))
		return ;;
	esac

	case "$cmd" in
	help)
		COMPREPLY=($(compgen -W "$(__respin_commands)" -- "$cur"))
		return ;;
	esac

	# the word before: an option's value
	case "${__respin_words[cword - 1]}" in
	-o|--output|--file|--mbox|--source)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--quilt)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--in|--base|--onto|--tip|--branch)
		COMPREPLY=($(compgen -W "$(git for-each-ref \
			--format='%(refname:short)' refs/heads/ 2>/dev/null)" \
			-- "$cur"))
		return ;;
	esac

	case "$cur" in
	*@*)
		COMPREPLY=($(compgen -W "$(__respin_versions "${cur%%@*}")" \
			-- "$cur"))
		return ;;
	esac
	case "$cmd" in
	list|status|thread)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	import)
		COMPREPLY=($(compgen -W "$(__respin_series)" -- "$cur")
			   $(compgen -f -- "$cur")) ;;
	*)
		COMPREPLY=($(compgen -W "$(__respin_series)" -- "$cur")) ;;
	esac
}

# "respin ...": bash calls it with COMP_WORDS and COMP_CWORD.
_respin()
{
	local __respin_words=("${COMP_WORDS[@]}")
	__respin_complete_words 0 "$COMP_CWORD"
}

# "git respin ...": git's completion calls it with its words and cword.
_git_respin()
{
	local __respin_words i at=0
	if [ -n "${words+set}" ] && [ -n "${cword:-}" ]; then
		__respin_words=("${words[@]}")
		i=$cword
	else
		__respin_words=("${COMP_WORDS[@]}")
		i=$COMP_CWORD
	fi
	for ((at = 0; at < i; at++)); do
		[ "${__respin_words[at]}" = respin ] && break
	done
	__respin_complete_words "$at" "$i"
}

complete -o bashdefault -o default -F _respin respin 2>/dev/null ||
	complete -o default -F _respin respin
