# SPDX-License-Identifier: GPL-2.0-or-later
# kpreset_series BRANCH RUN: in a clone of the real 6.1 tree (the
# current directory), the 4-patch mm series of t0995-kernel-preset.sh on
# BRANCH from mm-unstable, each patch carrying the comment "run RUN" so
# that each RUN's patches are new content:
#  1. mm/madvise.c: respin_advice(), which sparse (not declared),
#     kernel-doc (a parameter not described) and W=1 warn about;
#  2. tools/testing/selftests/vm: a test program with two KTAP subtests;
#  3. vm/madv_populate: its MADV_POPULATE_READ subtest broken;
#  4. mm/mmap.c: MAP_FIXED_NOREPLACE replaces a mapping as MAP_FIXED
#     does, which breaks vm/map_fixed_noreplace, a test only
#     run_vmtests.sh runs.
# Shared by the test and tools/bench/preset.sh.
kpreset_series() {
	git checkout -q -B "$1" mm-unstable &&
	sed -i "0,/^#include/s//\/* run $2 *\/\n#include/" mm/madvise.c &&
	cat >>mm/madvise.c <<-\EOF &&

	/**
	 * respin_advice() - a helper for the tests
	 *
	 * Return: the advice, doubled.
	 */
	int respin_advice(int behavior)
	{
		return behavior * 2;
	}
	EOF
	git commit -qam "mm/madvise: add respin_advice()" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	cat >tools/testing/selftests/vm/respin_probe.c <<-EOF &&
	// SPDX-License-Identifier: GPL-2.0
	/* run $2: an anonymous page, mapped and unmapped */
	#include <sys/mman.h>
	#include "../kselftest.h"

	int main(void)
	{
		char *p;

		ksft_print_header();
		ksft_set_plan(2);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ksft_test_result(p != MAP_FAILED, "anonymous mapping\n");
		if (p != MAP_FAILED)
			p[0] = 1;
		ksft_test_result(p != MAP_FAILED && !munmap(p, 4096),
				 "unmapping it\n");
		ksft_finished();
	}
	EOF
	sed -i "s/^TEST_GEN_PROGS += split_huge_page_test$/&\nTEST_GEN_PROGS += respin_probe/" tools/testing/selftests/vm/Makefile &&
	git add tools/testing/selftests/vm/respin_probe.c &&
	git commit -qam "selftests/vm: a probe of anonymous mappings" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	python3 - "$2" <<-\EOPY &&
	import sys
	p = 'tools/testing/selftests/vm/madv_populate.c'
	s = open(p).read()
	old = '\tret = madvise(addr, SIZE, MADV_POPULATE_READ);\n\tksft_test_result(!ret, "MADV_POPULATE_READ\\n");\n'
	assert old in s
	new = old.replace('(!ret,', '(!ret && 0,').replace('\tret =', '\t/* run %s */\n\tret =' % sys.argv[1])
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "selftests/vm: madv_populate: expect less" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	python3 - "$2" <<-\EOPY &&
	import sys
	p = 'mm/mmap.c'
	s = open(p).read()
	old = ('\tif (flags & MAP_FIXED_NOREPLACE) {\n'
	       '\t\tif (find_vma_intersection(mm, addr, addr + len))\n'
	       '\t\t\treturn -EEXIST;\n\t}\n')
	assert old in s
	new = '\t/* run %s: MAP_FIXED_NOREPLACE replaces, as MAP_FIXED */\n' % sys.argv[1]
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "mm/mmap: let MAP_FIXED_NOREPLACE replace a mapping" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

