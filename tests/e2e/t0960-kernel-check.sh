#!/bin/sh
# respin check on the real linux 6.1 tree: a 3-patch mm/ series (a fix,
# one adding a compiler warning, one with a checkpatch error), built per
# patch (tinyconfig plus COMPACTION and what QEMU needs), KTAP tests run
# per patch inside the patched kernel under QEMU, one small benchmark
# per patch; then a next version whose new patch 3 breaks one KTAP subtest, found
# by respin bisect.
#
# The repository, its series worktree and build directory live in the
# shared test cache and are reused between runs (a full kernel build is
# ~3 minutes on 2 cores; later runs rebuild only what the patches
# touch).  Each run's patches carry a run-unique comment, so results
# are new and the checks really run.
. "$(dirname "$0")/lib.sh"

KSRC=$(RESPIN_CACHE=$RESPIN_TEST_CACHE sh "$SRC_DIR/tools/kernel-tree.sh" 2>"$TRASH/kt.log") ||
	{ cat "$TRASH/kt.log"; echo "Bail out! no kernel tree"; exit 1; }
REPO=$RESPIN_TEST_CACHE/kcheck
RUN=$(date +%s)-$$
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE	# real time: each run is new

setup() {
	kernel_test_repo "$REPO" "$KSRC"
}

# the series: 1 a fix, 2 a new warning, 3 a checkpatch error
make_series() {
	git checkout -q -B kc-work mm-unstable &&
	python3 - "$RUN" <<'EOPY' &&
import re, sys
run = sys.argv[1]
p = 'mm/compaction.c'
s = open(p).read()
# 1: in the spirit of the compaction fix: skip an impossible order early
old = ("\tenum compact_result ret;\n\tint fragindex;\n\n"
       "\tret = __compaction_suitable(zone, order, alloc_flags, highest_zoneidx,\n")
assert old in s
new = old.replace("\n\n\tret = ", "\n\n\t/* run %s: no order at or past MAX_ORDER can be compacted for */\n"
                  "\tif (order >= MAX_ORDER)\n\t\treturn COMPACT_SKIPPED;\n\n\tret = " % run)
s = s.replace(old, new, 1)
open(p, 'w').write(s)
EOPY
	git commit -qam "mm/compaction: skip an impossible order in compaction_suitable()" \
		-m "An order of MAX_ORDER or above cannot be allocated however the zone is compacted; say COMPACT_SKIPPED before computing watermarks and the fragmentation index for it." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	python3 - <<'EOPY' &&
p = 'mm/compaction.c'
s = open(p).read()
old = "\tenum compact_result ret;\n\tint fragindex;\n"
i = s.index(old) + len(old)
s = s[:i] + "\tint respin_unused;\n" + s[i:]
open(p, 'w').write(s)
EOPY
	git commit -qam "mm/compaction: prepare a counter" \
		-m "Nothing uses it yet." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	printf '\n/* run %s */\nint respin_extra(void) { return 1; }   \n' "$RUN" >>mm/compaction.c &&
	git commit -qam "mm/compaction: add respin_extra()" \
		-m "A helper for the tests." \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

# KTAP tests that run inside the patched kernel
mkdir -p "$TRASH/ktests"
cat >"$TRASH/mm_basic.c" <<'EOC'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void)
{
	size_t len = 1 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	FILE *f;
	char line[256];
	int memtotal = 0;

	printf("KTAP version 1\n1..4\n");
	printf("%sok 1 mmap\n", p == MAP_FAILED ? "not " : "");
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, len);
	ok = !madvise(p, len, MADV_DONTNEED) && p[0] == 0;
	printf("%sok 2 madvise_dontneed_zeroes\n", ok ? "" : "not ");
	printf("%sok 3 proc_meminfo\n", access("/proc/meminfo", R_OK) ? "not " : "");
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		memtotal |= !strncmp(line, "MemTotal:", 9);
	printf("%sok 4 meminfo_memtotal\n", memtotal ? "" : "not ");
	return 0;
}
EOC

# Set up here, not in a test: the tests run in the repository.
{
	gcc -static -O2 -o "$TRASH/ktests/mm_basic" "$TRASH/mm_basic.c" &&
	setup && make_series &&
	git config respin.check.checkpatch.command "perl scripts/checkpatch.pl --terse --show-types --showfile --no-tree -" &&
	git config respin.check.vm.kind ktap &&
	git config respin.check.vm.command "$SRC_DIR/tools/respin-qemu-ktap --timeout 300 \$RESPIN_BUILD/arch/x86/boot/bzImage $TRASH/ktests" &&
	git config respin.check.vm.timeout 400 &&
	git config respin.check.text.kind bench &&
	git config respin.check.text.command "size -A \$RESPIN_BUILD/mm/compaction.o | sed -n \"s/^\\.text  *\\([0-9]*\\).*/respin-metric: text \\1/p\"" &&
	git config respin.check.text.metric text &&
	git config respin.check.text.higher false &&
	git config respin.check.text.runs 3..3 &&
	respin track kc --base mm-unstable --tip kc-work
} >"$TRASH/setup.log" 2>&1
setup_rc=$?

test_expect_success 'the real tree, a tinyconfig for QEMU, a 3-patch series' '
	cat "$TRASH/setup.log" && test "$setup_rc" = 0 && test "$(pwd)" = "$REPO"
'

test_expect_success 'check builds, lints, boots and benches every patch' '
	{
		test_expect_code 1 respin check kc >out 2>err ||
		{ tail -n 30 err; false; }
	} &&
	test_grep "^[0-9]* run, [0-9]* reused, 1 failed$" out
'

test_expect_success 'the new warning is attributed to exactly patch 2' '
	respin results kc --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my @n = map { scalar @{\$_->{results}{build}{new_warnings}} } @p[1..3];
		print qq(new warnings per patch: @n\n);
		exit 2 unless qq(@n) eq q(0 1 0);
		exit 3 unless \$p[2]{results}{build}{new_warnings}[0] =~ /compaction.c: warning: unused variable .respin_unused./;
	" <r
'

test_expect_success 'the checkpatch error is attributed to exactly patch 3' '
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my @s = map { \$_->{results}{checkpatch}{status} } @p[1..3];
		print qq(checkpatch per patch: @s\n);
		exit 2 unless qq(@s) eq q(PASS PASS FAIL);
	" <r
'

test_expect_success 'KTAP subtests ran in each patched kernel' '
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		for my \$i (1..3) {
			my \$c = \$p[\$i]{results}{vm};
			print qq(\$i: \$c->{status} \$c->{summary}\n);
			exit 2 unless \$c->{status} eq q(PASS) && \$c->{summary} =~ m{^4/4};
		}
	" <r &&
	respin results kc --check vm --patch 2 >d && test_grep "madvise_dontneed_zeroes" d
'

# (the base is the same tree in every run, and the cached store keeps
# its samples: each run adds base runs of its own time beside the new
# patches, and each patch is compared with those)
test_expect_success 'a benchmark per patch against the base' '
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		exit 2 unless @{\$p[0]{results}{text}{samples}} >= 3;
		for my \$i (1..3) {
			my \$c = \$p[\$i]{results}{text};
			print qq(\$i: \$c->{verdict} \$c->{change_pct}% n=\$c->{n_patch} vs \$c->{n_base}\n);
			exit 3 unless @{\$c->{samples}} == 3 && \$c->{n_base} == 3;
			exit 4 unless \$c->{verdict} =~ /^(same|better|worse)\$/;
		}
	" <r && respin results kc >t && cat t
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check kc >out 2>err &&
	test_grep "^0 run, [0-9]* reused, 1 failed$" out
'

# (the bench's base runs again beside the new patch 3: a patch is
# compared with base runs of its own time, see respin-check(1))
test_expect_success 'a v2 that changes only patch 3 runs only patch 3 (and the bench base beside it)' '
	sed -i "s/^int respin_extra(void) { return 1; }   $/int respin_extra(void)\n{\n\treturn 1;\n}/" mm/compaction.c &&
	git commit -q --amend -a --no-edit &&
	mark_sent kc && respin track kc --tip HEAD >/dev/null &&
	{ respin check kc >out 2>err || { tail -n 5 err; false; }; } &&
	test_grep "^5 run, [0-9]* reused, 0 failed$" out &&
	respin results kc --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my \$c = \$p[3]{results}{text};
		print qq(3: \$c->{verdict} n=\$c->{n_patch} vs \$c->{n_base}\n);
		exit 2 unless @{\$p[0]{results}{text}{samples}} >= 6;
		exit 3 unless @{\$c->{samples}} == 3 && \$c->{n_base} == 3;
	" <r
'

test_expect_success 'bisect: a next version whose new patch 3 breaks one KTAP subtest in the booted kernel' '
	old=$(git rev-parse HEAD) &&
	git checkout -q -B kc-work HEAD~1 &&
	sed -i "s/\"MemTotal:       \"/\"MemTotaI:       \"/" fs/proc/meminfo.c &&
	git commit -qam "proc: rename MemTotal (run $RUN)" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	git cherry-pick "$old" >/dev/null &&
	mark_sent kc && respin track kc --tip HEAD >/dev/null &&
	respin show kc >show && test_grep "^patches    4$" show &&
	{ respin bisect kc --check vm --subtest "*meminfo_memtotal" --retries 1 >out 2>err ||
	  { cat out; tail -n 20 err; false; }; } &&
	cat out &&
	test_grep "^Bisected to 3/4 [0-9a-f]\{12\} \"proc: rename MemTotal (run $RUN)\": vm subtest \*meminfo_memtotal fails (FAIL .*meminfo_memtotal); passes at 2/4; 2 of 2 runs failed there, 0 of 2 before$" out &&
	test_grep "^  1/4 *good *stored" out && test_grep "^  2/4 *good " out &&
	test_grep "^  3/4 *bad *ran" out &&
	respin bisect kc --check vm --retries 0 --json >j &&
	test_grep "\"patch\": 3," j && test_grep "\"runs\": 0," j
'

test_done
