#!/bin/sh
# The static analysis kinds on the real linux 6.1 tree, with their
# default commands: a 3-patch mm/ series where patch 2 adds a function
# that sparse (not declared), kernel-doc (a parameter not described)
# and W=1 (no previous prototype, and kernel-doc's, which W=1 runs too)
# each warn about, and patch 3 an
# unneeded semicolon that Coccinelle finds; the tree's own old findings
# in mm/compaction.c (sparse's context imbalances) are nobody's.  Each
# finding is attributed to exactly its patch, a second run reuses every
# result, a v2 that changes only patch 3 looks at patch 3 alone.
#
# coccicheck runs one semantic patch (COCCI=, as the kernel's own make
# coccicheck takes it): all of them on mm/ take many minutes a side.
# The repository (its own clone, kstatic) and the build directory live
# in the test cache and are reused between runs; each run's patches
# carry a run-unique comment, so the checks really run.
. "$(dirname "$0")/lib.sh"

command -v sparse >/dev/null || test_skip_all "sparse is not installed (apt-get install sparse)"
command -v spatch >/dev/null || test_skip_all "spatch is not installed (apt-get install coccinelle)"
KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	test_skip_all "no kernel tree: $(tail -n 1 "$TRASH/kt.log")"
REPO=$RESPIN_TEST_CACHE/kstatic
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new

setup() {
	kernel_test_repo "$REPO" "$KSRC"
}

# 1 a comment, 2 respin_helper() (sparse, kdoc, W=1), 3 a semicolon
make_series() {
	git checkout -q -B ks-work mm-unstable &&
	sed -i "0,/^#include/s//\/* run $RUN *\/\n#include/" mm/compaction.c &&
	git commit -qam "mm/compaction: note the run" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	cat >>mm/compaction.c <<-\EOF &&

	/**
	 * respin_helper() - a helper for the tests
	 *
	 * Return: the order, doubled.
	 */
	int respin_helper(int order)
	{
	 	return order * 2;
	}
	EOF
	sed -i "s/^ \treturn order \* 2;/\treturn order * 2;/" mm/compaction.c &&
	git commit -qam "mm/compaction: add respin_helper()" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	sed -i "s/^\treturn order \* 2;/\tif (order < 0) {\n\t\torder = 0;\n\t};\n\treturn order * 2;/" mm/compaction.c &&
	git commit -qam "mm/compaction: no negative order in respin_helper()" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

{
	setup && make_series &&
	git config respin.check.checkpatch.command "perl scripts/checkpatch.pl --terse --show-types --showfile --no-tree -" &&
	git config respin.check.sparse.kind sparse &&
	git config respin.check.w1.kind w1 &&
	git config respin.check.kdoc.kind kdoc &&
	git config respin.check.coccicheck.kind coccicheck &&
	git config respin.check.coccicheck.timeout 600 &&
	respin track ks --base mm-unstable --tip ks-work
} >"$TRASH/setup.log" 2>&1
setup_rc=$?
export COCCI="$REPO/scripts/coccinelle/misc/semicolon.cocci"

# "name: n n n" for each static check: the findings each patch adds
added() {
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		for my $k (qw(sparse w1 kdoc coccicheck)) {
			print "$k: ", join(" ", map { my $c = $_->{results}{$k};
				$c ? scalar @{$c->{new_warnings}} : "-" } @p[1..3]), "\n";
		}
	' <"$1"
}

test_expect_success 'the real tree, a tinyconfig, a 3-patch series' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success 'check runs each static kind on each patch' '
	start=$(date +%s) &&
	{ respin check ks >out 2>err || { tail -n 30 err; false; }; } &&
	echo "# first check: $(( $(date +%s) - start )) s" &&
	test_grep -E "^(19 run, 0|18 run, 1) reused, 0 failed$" out
'

test_expect_success 'each finding is attributed to exactly its patch' '
	respin results ks --json >r && added r >got && cat got &&
	cat >want <<-\EOF &&
	sparse: 0 1 0
	w1: 0 2 0
	kdoc: 0 1 0
	coccicheck: 0 0 1
	EOF
	check_same want got &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my \$r = \$p[2]{results};
		exit 2 unless \$r->{sparse}{new_warnings}[0] =~
			/^mm\/compaction.c: warning: symbol .respin_helper. was not declared. Should it be static\?\$/;
		exit 3 unless \$r->{kdoc}{new_warnings}[0] =~
			/^mm\/compaction.c: warning: Function parameter or member .order. not described in .respin_helper.\$/;
		# (W=1 runs kernel-doc on what it compiles, too)
		exit 4 unless join(q(|), @{\$r->{w1}{new_warnings}}) =~
			/^mm\/compaction.c: warning: Function parameter or member .order. not described in .respin_helper.[|]mm\/compaction.c: warning: no previous prototype for .respin_helper. \[-Wmissing-prototypes\]\$/;
		exit 5 unless \$p[3]{results}{coccicheck}{new_warnings}[0] eq
			q(mm/compaction.c: Unneeded semicolon);
		# the tree old sparse findings are there, and nobody adds them
		exit 6 unless grep { /context imbalance/ } @{\$r->{sparse}{warnings}};
		for my \$k (qw(sparse w1 kdoc coccicheck)) {
			my \$t = 0; \$t += \$p[\$_]{results}{\$k}{duration} for 1..3;
			printf qq(# %s: %.1f s for 3 patches\n), \$k, \$t;
		}
	" <r &&
	respin results ks >t && cat t &&
	test_grep "^ *2/3  *0E [0-9]W  *ok  *+1  *+2  *+1  *ok  *mm/compaction: add respin_helper()$" t
'

test_expect_success 'a second check runs nothing' '
	respin check ks >out 2>err &&
	test_grep "^0 run, 19 reused, 0 failed$" out
'

test_expect_success 'a v2 that changes only patch 3 looks at patch 3 alone' '
	sed -i "s/^\t\torder = 0;/\t\torder = 1;/" mm/compaction.c &&
	git commit -q --amend -a --no-edit &&
	mark_sent ks && respin track ks --tip HEAD >/dev/null &&
	start=$(date +%s) &&
	{ respin check ks >out 2>err || { tail -n 5 err; false; }; } &&
	echo "# v2 check: $(( $(date +%s) - start )) s" &&
	test_grep "^6 run, 13 reused, 0 failed$" out &&
	respin results ks --json >r && added r >got &&
	check_same want got
'

test_done
