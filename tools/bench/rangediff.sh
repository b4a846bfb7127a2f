#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/bench/rangediff.sh: "respin diff NAME v1 v2" against
# "git range-diff" on the same two ranges, in the same run.
#
# In a temporary directory: a repository of a few kernel-shaped C
# files, a 30-patch series (patches of 10 to 60 lines, each adding a
# function or changing one) and a v2 with some patches changed, two
# swapped, two dropped and two added; both recorded with "respin
# track".  Then the median (with hyperfine, when installed; else the
# mean of a date +%s%N loop) of BENCH_RUNS (20) runs of each command,
# printed as
#
#   rangediff: respin 12.3 ms, git range-diff 45.6 ms, ratio 0.27x
#
# Before timing, it checks that both pair the patches the same way.
# Uses $RESPIN_BUILD/respin (default ./build/respin).  BENCH_KEEP=1
# keeps the directory.
set -eu

. "$(dirname "$0")/lib.sh"
bench_init rangediff
runs=${BENCH_RUNS:-20}

git init -q -b main "$repo"
cd "$repo"
git config gc.auto 0
# every version recorded is a new number (none is sent here)
git config respin.numbering track

# ------------------------------------------------------------ the base
# mm/f0.c .. mm/f7.c, twelve functions each, ~25 lines a function.
mkdir mm
for f in 0 1 2 3 4 5 6 7; do
	awk -v f="$f" 'BEGIN {
		printf "// SPDX-License-Identifier: GPL-2.0\n"
		printf "#include <linux/mm.h>\n#include <linux/slab.h>\n\n"
		for (n = 0; n < 12; n++) {
			printf "static int mm%d_op%d(struct page *page, unsigned long addr)\n{\n", f, n
			printf "\tstruct folio *folio = page_folio(page);\n"
			printf "\tint nr = folio_nr_pages(folio);\n\tint ret = 0;\n\n"
			printf "\tif (!folio_test_lru(folio))\n\t\treturn -EBUSY;\n\n"
			printf "\tspin_lock(&folio->lock_%d);\n", n
			for (k = 0; k < 8; k++)
				printf "\tret += walk_%d_%d(folio, addr + %d * PAGE_SIZE);\n", n, k, k
			printf "\tspin_unlock(&folio->lock_%d);\n", n
			printf "\tif (ret < 0)\n\t\tgoto out;\n\tcount_vm_events(PGSCAN, nr);\n"
			printf "out:\n\treturn ret;\n}\n\n"
		}
	}' >mm/f$f.c
done
git add mm && git commit -q -m "mm: the base"
git tag base

tick=1700000000
commit() {
	tick=$((tick + 60))
	GIT_AUTHOR_DATE="$tick +0000" GIT_COMMITTER_DATE="$tick +0000" \
		git commit -q -a -m "$1" -m "$2

Signed-off-by: A U Thor <author@example.org>"
}

# patch ID VARIANT: patch ID (0..29 plus 40, 41 for new ones) of the
# series; VARIANT 0 is v1's text, other values change a few lines.
# Even IDs add a helper function of 10..55 lines after mmF_opN; odd
# IDs rewrite the body of mmF_opN.
patch() {
	id=$1 var=$2
	f=$((id % 8)) n=$((id * 7 % 12))
	len=$((10 + id * 13 % 46))
	awk -v id="$id" -v var="$var" -v fn="mm${f}_op${n}(" -v len="$len" '
		function body(k) {
			if (k % 9 == 4 && var)
				return sprintf("\tnr_%d += folio_ref_count(folio) >> %d;", id, var)
			if (k % 5 == 0)
				return sprintf("\tif (unlikely(nr_%d > %d))\n\t\tbreak;", id, k * 3)
			return sprintf("\tnr_%d += lru_gen_%d(folio, %d);", id, k % 7, k)
		}
		{ lines[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (id % 2 == 1 && index(lines[i], fn) > 0) {
					print lines[i]; print lines[i + 1]
					printf "\tstruct folio *folio = page_folio(page);\n"
					printf "\tunsigned long nr_%d = 0;\n\n", id
					for (k = 0; k < len - 6; k++)
						print body(k)
					printf "\treturn nr_%d ? 0 : -EAGAIN;\n}\n", id
					for (i += 2; lines[i] != "}"; i++)
						;
					continue
				}
				print lines[i]
				if (id % 2 == 0 && lines[i] == "}" && hit) {
					printf "\nstatic unsigned long helper_%d(struct folio *folio)\n{\n", id
					printf "\tunsigned long nr_%d = 0;\n\n", id
					for (k = 0; k < len - 6; k++)
						print body(k)
					printf "\treturn nr_%d;\n}\n", id
					hit = 0
				}
				if (index(lines[i], fn) > 0)
					hit = 1
			}
		}' "mm/f$f.c" >.tmp && mv .tmp "mm/f$f.c"
	commit "mm/f$f: patch $id" "Rework mm${f}_op${n} for the batch walk (variant $var)."
}

git checkout -q -b v1 base
i=0
while [ $i -lt 30 ]; do
	patch $i 0
	i=$((i + 1))
done

# v2: patches 3, 11, 17, 24 changed, 7 and 8 swapped, 13 and 21
# dropped, 40 and 41 added.
git checkout -q -b v2 base
for i in 0 1 2 3 4 5 6 8 7 9 10 11 40 12 14 15 16 17 18 19 20 22 23 24 25 \
	 26 27 28 29 41; do
	case $i in
	3|11|17|24) patch $i 2 ;;
	*) patch $i 0 ;;
	esac
done

"$respin" track bench --base base --tip v1 >/dev/null
"$respin" track bench --base base --tip v2 >/dev/null

# ------------------------------------------------------------ same pairs?
pairs() {
	sed -n -E 's/^ *([0-9]+|-): +[0-9a-f-]+ ([=!<>]) +([0-9]+|-): +[0-9a-f-]+ .*/\1 \2 \3/p'
}
"$respin" diff bench v1 v2 | pairs >"$tmp/respin.pairs"
git range-diff base..v1 base..v2 | pairs >"$tmp/git.pairs"
if ! cmp -s "$tmp/respin.pairs" "$tmp/git.pairs"; then
	echo "rangediff: respin and git pair differently:" >&2
	diff "$tmp/git.pairs" "$tmp/respin.pairs" >&2 || true
	exit 1
fi

# ------------------------------------------------------------ timing
ms_now() { date +%s%N; }
mean_ms() {	# mean_ms COMMAND...: mean wall time over $runs runs
	_t0=$(ms_now)
	_k=0
	while [ $_k -lt "$runs" ]; do
		"$@" >/dev/null
		_k=$((_k + 1))
	done
	_t1=$(ms_now)
	awk -v a="$_t0" -v b="$_t1" -v n="$runs" \
		'BEGIN { printf "%.1f", (b - a) / n / 1e6 }'
}

if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N -w 3 -r "$runs" --export-json "$tmp/h.json" \
		"$respin diff bench v1 v2" \
		"git range-diff base..v1 base..v2" >/dev/null 2>&1 ||
	hyperfine -w 3 -r "$runs" --export-json "$tmp/h.json" \
		"$respin diff bench v1 v2" \
		"git range-diff base..v1 base..v2" >/dev/null 2>&1
	# the two "median" fields, in seconds, in command order (the
	# median: other work on a shared machine makes the mean jumpy)
	set -- $(sed -n 's/^ *"median": *\([0-9.eE+-]*\),*$/\1/p' "$tmp/h.json")
	r_ms=$(awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }')
	g_ms=$(awk -v s="$2" 'BEGIN { printf "%.1f", s * 1000 }')
else
	mean_ms "$respin" diff bench v1 v2 >/dev/null
	r_ms=$(mean_ms "$respin" diff bench v1 v2)
	g_ms=$(mean_ms git range-diff base..v1 base..v2)
fi
ratio=$(awk -v a="$r_ms" -v b="$g_ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "rangediff: respin $r_ms ms, git range-diff $g_ms ms, ratio ${ratio}x"
