#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# md2man.sh docs/respin-CMD.md: one command's doc page as a man page on
# stdout, made by lowdown (Debian's lowdown: Markdown to roff).
#
# The pages are Markdown with man's habits: the first line is the NAME
# line ("respin-send - what it does", with or without a leading "# "),
# "## SECTION" headings, and options written as a line holding only a
# code span followed by its description.  This script turns those
# habits into what lowdown reads: a NAME section, sections one level up
# ("# SECTION", which lowdown makes .SH), and each option a definition
# list entry (the description after ": "), which lowdown makes .IP.
set -eu
src=$1
name=$(basename "$src" .md)
command -v lowdown >/dev/null 2>&1 || {
	echo "md2man.sh: lowdown is not installed (make deps installs it)" >&2
	exit 1
}
awk '
NR == 1 {
	sub(/^# /, "")
	printf "# NAME\n\n%s\n", $0
	next
}
/^```/ { fence = !fence; print; next }
fence { print; next }
/^##+ / { sub(/^#/, ""); print; prev = ""; next }
# a line that is a code span alone, after a blank: an option ...
prev_blank && /^`[^`]+`(, `[^`]+`)*$/ { print; opt = 1; prev_blank = 0; next }
# ... and the line after it: its description
opt && NF { print ": " $0; opt = 0; next }
{ opt = 0; prev_blank = ($0 == ""); print }
BEGIN { prev_blank = 1 }
' "$src" | lowdown -s -Tman --out-no-smarty -M "title=$name" -M section=1 \
	-M "source=respin" -M "volume=respin manual"
