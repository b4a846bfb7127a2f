#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# respin diff: a range-diff between two recorded versions.  Every
# series here is also given to git range-diff, and the pairing (and,
# where nothing is abbreviated differently, the whole output) must be
# the same.
. "$(dirname "$0")/lib.sh"

# A base of six C files with ten functions each.
git init -q repo
cd repo || exit 1
mkdir src
for f in 1 2 3 4 5 6; do
	awk -v f="$f" 'BEGIN {
		printf "// SPDX-License-Identifier: GPL-2.0\n#include \"f%d.h\"\n\n", f
		for (n = 0; n < 10; n++) {
			printf "static int fn_%d_%d(struct ctx *c, int arg)\n{\n", f, n
			printf "\tint ret = 0;\n\n\tif (!c)\n\t\treturn -EINVAL;\n"
			printf "\tret = helper_%d(c, arg + %d);\n", n, f
			printf "\tif (ret < 0)\n\t\tgoto out;\n\tc->count += %d;\n", n
			printf "out:\n\treturn ret;\n}\n\n"
		}
	}' >src/f$f.c
done
git add src && git commit -q -m "base: six files"
git tag base
tick

# mkp FILE FUNC NLINES VARIANT SUBJECT [BODY]: a patch that adds NLINES
# lines to fn_FILE_FUNC; VARIANT changes the second line only.
mkp() {
	awk -v fn="fn_$1_$2(" -v n="$3" -v var="$4" -v id="$1_$2" '
		{ print }
		index($0, fn) > 0 { want = 1; next }
		want && $0 == "{" {
			for (k = 1; k <= n; k++)
				printf "\tv%s_%d = %s;\n", id, k, k == 2 ? var : k
			want = 0
		}' "src/f$1.c" >.tmp && mv .tmp "src/f$1.c"
	git commit -q -a -m "$5" -m "${6:-Body of $5.}"
	tick
}

# series NAME BRANCH BASE: starts BRANCH at BASE
start() {
	git checkout -q -B "$1" "$2"
}

# pairs FILE: "A status B" for every pairing line of range-diff output
pairs() {
	sed -n -E 's/^ *([0-9]+|-): +[0-9a-f-]+ ([=!<>]) +([0-9]+|-): +[0-9a-f-]+ .*/\1 \2 \3/p' "$1"
}

# blocks FILE: each pairing line with the diff under it, one a line:
# "A<tab>STATUS<tab>B<tab>the lines joined by |".
blocks() {
	awk '
		/^ *([0-9]+|-): +[0-9a-f-]+ [=!<>] +([0-9]+|-): +[0-9a-f-]+ / {
			if (b != "") print b
			split($0, f, / +/)
			k = (f[1] == "" ? 2 : 1)
			sub(/:$/, "", f[k]); sub(/:$/, "", f[k + 3])
			b = f[k] "\t" f[k + 2] "\t" f[k + 3] "\t" $0
			next
		}
		{ b = b "|" $0 }
		END { if (b != "") print b }' "$1"
}

# title_leftovers GIT-OUT MINE-OUT: MINE (respin diff, pairing git's
# leftovers by title) has every block of GIT (git range-diff), line for
# line, but for the patches git left alone ("<" and ">") that it paired
# "(paired by title)".
title_leftovers() {
	blocks "$2" >mine.blocks && blocks "$1" >git.blocks &&
	awk -F '\t' '
		FNR == NR {
			if ($4 ~ /\(paired by title\)(\||$)/) { ta[$1]; tb[$3] }
			else mine[$4]
			next
		}
		$2 == "<" && ($1 in ta) { delete ta[$1]; next }
		$2 == ">" && ($3 in tb) { delete tb[$3]; next }
		!($4 in mine) { print "respin diff lacks: " $4; bad = 1; next }
		{ delete mine[$4] }
		END {
			for (k in mine) { print "git lacks: " k; bad = 1 }
			for (k in ta) { print "paired by title, not left by git: " k; bad = 1 }
			for (k in tb) { print "paired by title, not left by git: " k; bad = 1 }
			exit bad
		}' mine.blocks git.blocks >&7
}

# same_as_git NAME V1 V2 RANGE1 RANGE2 [OPTIONS]: respin diff
# --no-title-pairs and git range-diff pair the same, and print the
# same; respin diff (pairing git's leftovers by title) changes nothing
# else.
same_as_git() {
	_n=$1 _a=$2 _b=$3 _r1=$4 _r2=$5
	shift 5
	respin diff "$_n" "$_a" "$_b" --no-title-pairs "$@" >mine.out &&
	git range-diff --no-color "$@" "$_r1" "$_r2" >git.out &&
	pairs git.out >git.pairs && pairs mine.out >mine.pairs &&
	test -s git.pairs &&
	check_same git.pairs mine.pairs &&
	check_same git.out mine.out &&
	respin diff "$_n" "$_a" "$_b" "$@" >title.out &&
	title_leftovers git.out title.out
}

# track2 NAME BASE V1TIP V2TIP [V2BASE]: records two versions
track2() {
	respin track "$1" --base "$2" --tip "$3" >/dev/null &&
	respin track "$1" --base "${5:-$2}" --tip "$4" --version 2 >/dev/null
}

# 1. the same patches, rebased onto a moved base
start s1-v1 base
mkp 1 1 5 2 "mm: add counters"
mkp 2 3 8 2 "mm: track misses"
mkp 3 5 4 2 "mm: document the fast path"
git checkout -q -B newbase base
echo "/* unrelated */" >>src/f6.c && git commit -q -a -m "unrelated change"
git tag base2
tick
git checkout -q -B s1-v2 base2
git cherry-pick base..s1-v1 >/dev/null

# 2. reordered
start s2-v1 base
mkp 1 2 6 2 "lib: one"
mkp 2 2 9 2 "lib: two"
mkp 3 2 12 2 "lib: three"
mkp 4 2 7 2 "lib: four"
start s2-v2 base
mkp 1 2 6 2 "lib: one"
mkp 3 2 12 2 "lib: three"
mkp 2 2 9 2 "lib: two"
mkp 4 2 7 2 "lib: four"

# 3. a patch dropped, two added
start s3-v1 base
mkp 1 4 10 2 "net: first"
mkp 2 4 6 2 "net: second (dropped in v2)"
mkp 3 4 8 2 "net: third"
start s3-v2 base
mkp 5 4 7 2 "net: new at the front"
mkp 1 4 10 2 "net: first"
mkp 3 4 8 2 "net: third"
mkp 6 4 9 2 "net: new at the end"

# 4. small edits in two patches
start s4-v1 base
mkp 1 5 12 2 "fs: alpha"
mkp 2 5 15 2 "fs: beta"
mkp 3 5 9 2 "fs: gamma"
start s4-v2 base
mkp 1 5 12 2 "fs: alpha"
mkp 2 5 15 77 "fs: beta"
mkp 3 5 10 2 "fs: gamma"

# 5. a patch rewritten under the same subject
start s5-v1 base
mkp 1 6 8 2 "sched: keep"
mkp 2 6 14 2 "sched: rework the balancer"
mkp 3 6 5 2 "sched: tail"
start s5-v2 base
mkp 1 6 8 2 "sched: keep"
mkp 5 8 20 91 "sched: rework the balancer" "Entirely new approach."
mkp 3 6 5 2 "sched: tail"

# 6. a reworded commit message
start s6-v1 base
mkp 1 7 6 2 "mm: reword me" "The old explanation."
mkp 2 7 6 2 "mm: leave me"
start s6-v2 base
mkp 1 7 6 2 "mm: reword me" "A much better explanation
	with a tab	in it."
mkp 2 7 6 2 "mm: leave me"

# 7. everything at once, ten patches
start s7-v1 base
for i in 0 1 2 3 4 5 6 7 8 9; do
	mkp $((i % 6 + 1)) 9 $((4 + i)) 2 "all: patch $i"
done
git checkout -q -B s7-v2 base
for i in 0 2 1 3 5 6 8 9; do
	v=2; [ $i = 3 ] && v=33
	n=$((4 + i)); [ $i = 8 ] && n=20
	mkp $((i % 6 + 1)) 9 $n $v "all: patch $i"
done
mkp 4 0 6 2 "all: a new one"

test_expect_success 'track the seven series' '
	track2 s1 base s1-v1 s1-v2 base2 &&
	track2 s2 base s2-v1 s2-v2 &&
	track2 s3 base s3-v1 s3-v2 &&
	track2 s4 base s4-v1 s4-v2 &&
	track2 s5 base s5-v1 s5-v2 &&
	track2 s6 base s6-v1 s6-v2 &&
	track2 s7 base s7-v1 s7-v2
'

test_expect_success 'series 1: pairs and prints as git range-diff' '
	same_as_git s1 v1 v2 base..s1-v1 base2..s1-v2
'

for s in 2 3 4 5 6 7; do
	test_expect_success "series $s: pairs and prints as git range-diff" "
		same_as_git s$s v1 v2 base..s$s-v1 base..s$s-v2
	"
done

test_expect_success 'rebased series: every pair is =' '
	respin diff s1 v1 v2 >out &&
	test $(grep -c " = " out) = 3 && test $(wc -l <out) = 3
'

test_expect_success 'dropped and added patches show < and >' '
	respin diff s3 1 2 -s >out &&
	test_grep "^2:  [0-9a-f]* < -:  -------* net: second" out &&
	test_grep "^-:  -------* > 1:  [0-9a-f]* net: new at the front" out &&
	test_grep "^-:  -------* > 4:  [0-9a-f]* net: new at the end" out
'

test_expect_success 'a changed patch shows the diff of diffs' '
	respin diff s4 v1 v2 >out &&
	test_grep "^2:  [0-9a-f]* ! 2:  [0-9a-f]* fs: beta" out &&
	test_grep "^    @@ src/f2.c: out:" out &&
	test_grep "^      static int fn_2_5" out &&
	test_grep "^    -+	v2_5_2 = 2;" out &&
	test_grep "^    ++	v2_5_2 = 77;" out
'

test_expect_success 'without versions: the previous against the latest' '
	respin diff s4 >a && respin diff s4 v1 v2 >b && check_same b a
'

test_expect_success '--no-patch and -s print the pairing lines only' '
	respin diff s7 v1 v2 --no-patch >a &&
	respin diff s7 v1 v2 -s >b &&
	check_same a b &&
	git range-diff -s base..s7-v1 base..s7-v2 >c &&
	check_same c a
'

for cf in 0 20 100 200; do
	test_expect_success "--creation-factor $cf pairs as git" "
		for s in 2 3 4 5 7; do
			same_as_git s\$s v1 v2 base..s\$s-v1 base..s\$s-v2 \
				--creation-factor=$cf || exit 1
		done
	"
done

test_expect_success '--creation-factor N (separate argument) works' '
	respin diff s5 v1 v2 --creation-factor 10 -s --no-title-pairs >a &&
	git range-diff -s --creation-factor=10 base..s5-v1 base..s5-v2 >b &&
	check_same b a
'

test_expect_success 'a patch rewritten under its subject: git leaves it, respin pairs it by title' '
	respin diff s5 v1 v2 -s --no-title-pairs >git-like &&
	test_grep "^2:  [0-9a-f]* < -:  -------* sched: rework the balancer$" git-like &&
	test_grep "^-:  -------* > 2:  [0-9a-f]* sched: rework the balancer$" git-like &&
	respin diff s5 v1 v2 -s >out &&
	sed "s/[0-9a-f]\{7,\}/X/g" out >got &&
	cat >want <<-\EOF &&
	1:  X = 1:  X sched: keep
	2:  X ! 2:  X sched: rework the balancer (paired by title)
	3:  X = 3:  X sched: tail
	EOF
	check_same want got &&
	respin diff s5 v1 v2 >out &&
	sed -n "/(paired by title)$/,/^3:/p" out >block &&
	test_grep "^    -+	v2_6_1 = 1;" block &&
	test_grep "^    ++	v5_8_1 = 1;" block
'

test_expect_success '--json says how each pair was found' '
	respin diff s5 v1 v2 --json >out &&
	respin diff s3 v1 v2 --json >out3 &&
	python3 -c "import json; d = json.load(open(\"out\")); \
assert [(p[\"status\"], p[\"paired_by\"]) for p in d[\"pairs\"]] == \
[(\"=\", \"range-diff\"), (\"!\", \"title\"), (\"=\", \"range-diff\")], d; \
d = json.load(open(\"out3\")); \
assert [p[\"paired_by\"] for p in d[\"pairs\"]] == \
[None, \"range-diff\", None, \"range-diff\", None], d" &&
	respin diff s5 v1 v2 --json --no-title-pairs >out &&
	python3 -c "import json; d = json.load(open(\"out\")); \
assert [p[\"status\"] for p in d[\"pairs\"]] == [\"=\", \"<\", \">\", \"=\"], d"
'

test_expect_success '--json lists the pairs' '
	respin diff s3 v1 v2 --json >out &&
	test_grep "\"series\": \"s3\"" out &&
	test_grep "\"status\": \"<\"" out &&
	test_grep "\"status\": \">\"" out &&
	test_grep "\"a_subject\": \"net: second (dropped in v2)\"" out &&
	test $(grep -c "\"status\"" out) = 5 &&
	if command -v python3 >/dev/null; then
		python3 -c "import json,sys; d=json.load(open(\"out\")); \
assert [p[\"status\"] for p in d[\"pairs\"]] == [\">\", \"=\", \"<\", \"=\", \">\"], d"
	fi
'

# Random series: seeded, so the run is repeatable; slots never clash,
# so any order applies.
random_series() {
	awk -v seed="$1" 'BEGIN {
		srand(seed)
		n = 4 + int(rand() * 9)
		for (s = 0; s < 60; s++) slot[s] = s
		for (s = 59; s > 0; s--) {
			k = int(rand() * (s + 1)); t = slot[s]; slot[s] = slot[k]; slot[k] = t
		}
		for (i = 0; i < n; i++) {
			len[i] = 3 + int(rand() * 8)
			printf "v1 %d %d %d 2 p%d\n", slot[i] % 6 + 1, int(slot[i] / 6), len[i], i
		}
		m = 0
		for (i = 0; i < n; i++) {
			r = rand()
			if (r < 0.15) continue
			s = slot[i]; l = len[i]; var = 2; subj = "p" i
			if (r < 0.3) var = 100 + int(rand() * 5)
			else if (r < 0.4) l = l + 1 + int(rand() * 3)
			else if (r < 0.47) { s = slot[n + m + 20]; l = 3 + int(rand() * 8) }
			out[m++] = sprintf("%d %d %d %d %s", s % 6 + 1, int(s / 6), l, var, subj)
			if (rand() < 0.12)
				out[m++] = sprintf("%d %d %d 2 new%d", slot[40 + i] % 6 + 1, int(slot[40 + i] / 6), 3 + int(rand() * 8), i)
		}
		for (k = 0; k + 1 < m; k++)
			if (rand() < 0.2) { t = out[k]; out[k] = out[k + 1]; out[k + 1] = t }
		for (k = 0; k < m; k++) print "v2 " out[k]
	}'
}

test_expect_success 'twenty random series pair as git does' '
	for seed in $(seq 1 20); do
		random_series $seed >plan &&
		start r$seed-v1 base &&
		grep "^v1 " plan | while read -r v f fn n var subj; do
			mkp $f $fn $n $var "rnd: $subj" || exit 1
		done &&
		start r$seed-v2 base &&
		grep "^v2 " plan | while read -r v f fn n var subj; do
			mkp $f $fn $n $var "rnd: $subj" || exit 1
		done &&
		track2 r$seed base r$seed-v1 r$seed-v2 &&
		for cf in 60 30; do
			same_as_git r$seed v1 v2 base..r$seed-v1 base..r$seed-v2 \
				--creation-factor=$cf ||
			{ echo "seed $seed, creation factor $cf differs"; exit 1; }
		done || exit 1
	done
'

test_expect_success 'file additions, deletions, renames and mode changes' '
	start f-v1 base &&
	echo "new file" >src/new.c && git add src/new.c &&
	git commit -q -m "files: add" && tick &&
	git mv src/f5.c src/f5-renamed.c && git commit -q -m "files: rename" &&
	tick && git rm -q src/f6.c && git commit -q -m "files: delete" &&
	tick && chmod +x src/f4.c && git commit -q -a -m "files: mode" && tick &&
	start f-v2 base &&
	printf "new file\nwith two lines\n" >src/new.c && git add src/new.c &&
	git commit -q -m "files: add" && tick &&
	git mv src/f5.c src/f5-moved.c && git commit -q -m "files: rename" &&
	tick && chmod +x src/f4.c && git commit -q -a -m "files: mode" &&
	tick && git rm -q src/f6.c && git commit -q -m "files: delete" &&
	tick && printf "no newline" >src/eol.c && git add src/eol.c &&
	git commit -q -m "files: no newline at the end" && tick &&
	track2 files base f-v1 f-v2 &&
	same_as_git files v1 v2 base..f-v1 base..f-v2
'

test_expect_code 128 'an unknown series fails with 128' '
	respin diff nosuch v1 v2
'

test_expect_success 'an unknown version fails with 128' '
	test_expect_code 128 respin diff s1 v1 v9 2>err &&
	test_grep v9 err
'

test_expect_success 'a series with one version has nothing to compare' '
	respin track lonely --base base --tip s2-v1 >/dev/null &&
	test_expect_code 128 respin diff lonely
'

test_expect_code 129 'no arguments is a usage error' '
	respin diff
'

test_expect_code 129 'one version alone is a usage error' '
	respin diff s1 v2
'

test_expect_code 129 'a version that is not one is a usage error' '
	respin diff s1 v1 vx
'

test_expect_code 129 'too many arguments is a usage error' '
	respin diff s1 v1 v2 v3
'

test_expect_code 129 'a negative creation factor is a usage error' '
	respin diff s1 v1 v2 --creation-factor -5
'

test_expect_code 129 'an unknown option is a usage error' '
	respin diff s1 v1 v2 --frobnicate
'

test_done
