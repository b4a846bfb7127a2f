#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/layout.sh [DIR]: the rules of the source layout (docs/design.md),
# checked in the checkout at DIR (default: the one this script is in).
# Prints one line a breach and exits 1 when there is any.
#
#  - a command file (cmd-*.c) parses, calls and prints: at most
#    $CMD_MAX_LINES lines; its work lives in its folder's other files;
#  - dependencies run one way,
#        tools/lib <- patches <- series <- ci <- review <- bisect <- tools/respin.c
#    a file includes nothing from a folder to its right.  tools/builtin.h
#    (the command table's declarations) is for cmd-*.c and the entry
#    point alone.
#
# tests/e2e/t0005-layout.sh runs it in make check.

CMD_MAX_LINES=${CMD_MAX_LINES:-400}

# Command files over the limit today, each to be split, then taken off
# this list (one path a line); empty now.
known_long='
'

dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir" || exit 2

# The rank of a path's folder in the order above; empty outside it.
rank() {
	case $1 in
	tools/lib/*) echo 0 ;;
	patches/*) echo 1 ;;
	series/*) echo 2 ;;
	ci/*) echo 3 ;;
	review/*) echo 4 ;;
	bisect/*) echo 5 ;;
	tools/respin.c) echo 6 ;;
	esac
}

bad=0
for f in $(ls */cmd-*.c 2>/dev/null); do
	n=$(wc -l <"$f")
	[ "$n" -le "$CMD_MAX_LINES" ] && continue
	case $known_long in
	*"
$f
"*)
		continue ;;
	esac
	echo "$f: $n lines; a command file has at most $CMD_MAX_LINES (move its work into $(dirname "$f")/)"
	bad=1
done

for f in $(ls tools/respin.c tools/lib/*.[ch] patches/*.[ch] series/*.[ch] \
	      ci/*.[ch] review/*.[ch] bisect/*.[ch] 2>/dev/null); do
	from=$(rank "$f")
	d=$(dirname "$f")
	# each quoted include: "line path"
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		*/*) path=$inc ;;
		*) path=$d/$inc ;;	# tools/lib's own "strbuf.h"
		esac
		if [ "$path" = tools/builtin.h ]; then
			case $f in
			*/cmd-*.c|tools/respin.c) ;;
			*)
				echo "$f includes tools/builtin.h: only command files and tools/respin.c may"
				bad=1 ;;
			esac
			continue
		fi
		to=$(rank "$path")
		if [ -z "$to" ]; then
			echo "$f includes $inc, from outside the layered folders"
			bad=1
		elif [ "$to" -gt "$from" ]; then
			echo "$f includes $inc: $(dirname "$path")/ is above $d/ (tools/lib <- patches <- series <- ci <- review <- bisect <- tools/respin.c)"
			bad=1
		fi
	done
done
exit $bad
