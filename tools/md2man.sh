#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# md2man.sh docs/respin-CMD.md: turns one command's doc page (a small
# Markdown subset: "# title", "## SECTION", paragraphs, "- " lists,
# indented or fenced code, `code`, **bold**) into a man page on stdout.
set -eu
src=$1
name=$(basename "$src" .md)
awk -v name="$name" '
function inline(s) {
	gsub(/\\/, "\\e", s)
	gsub(/^\./, "\\\\\\&.", s)
	gsub(/^'"'"'/, "\\\\\\&'"'"'", s)
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART-1) "\\fB" substr(s, RSTART+2, RLENGTH-4) "\\fR" substr(s, RSTART+RLENGTH)
	while (match(s, /`[^`]+`/))
		s = substr(s, 1, RSTART-1) "\\fB" substr(s, RSTART+1, RLENGTH-2) "\\fR" substr(s, RSTART+RLENGTH)
	return s
}
BEGIN { infence = 0 }
NR == 1 && /^# / {
	title = substr($0, 3)
	printf ".TH %s 1 \"\" \"respin\" \"respin manual\"\n", toupper(name)
	printf ".SH NAME\n%s\n", inline(title)
	next
}
/^```/ {
	if (infence) { print ".fi\n.RE"; infence = 0 } else { print ".RS 4\n.nf"; infence = 1 }
	next
}
infence { line = $0; gsub(/\\/, "\\e", line); sub(/^\./, "\\\\\\&.", line); print line; next }
/^## / { printf ".SH %s\n", toupper(substr($0, 4)); next }
/^### / { printf ".SS %s\n", substr($0, 5); next }
/^- / { printf ".IP \\(bu 2\n%s\n", inline(substr($0, 3)); next }
/^    / { line = substr($0, 5); gsub(/\\/, "\\e", line); printf ".RS 4\n.nf\n%s\n.fi\n.RE\n", line; next }
/^`[^`]*`$/ { printf ".TP\n%s\n", inline($0); next }
/^$/ { print ".PP"; next }
{ print inline($0) }
' "$src"
