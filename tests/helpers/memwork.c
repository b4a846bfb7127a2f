// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memwork: kernel work that /proc/vmstat counts, in known amounts, for
 * the tests of respin.check.NAME.vmstat (tests/e2e/t0626).
 *
 *	memwork MLOCK_PAGES [THP_MB]
 *
 * mlocks MLOCK_PAGES pages of its own and unlocks them (each counted
 * once in unevictable_pgs_mlocked and unevictable_pgs_munlocked: other
 * processes rarely mlock, so these stay near 0 without it), then, with
 * THP_MB, asks for transparent huge pages (madvise MADV_HUGEPAGE) over
 * that many MiB and touches each 2 MiB (thp_fault_alloc, where THP is
 * not "never").  MLOCK_PAGES stays within the default RLIMIT_MEMLOCK
 * (8 MiB) below 2048.  Exits 0, 1 when the kernel refused, 2 on bad use.
 * It calls mlock through syscall(): AddressSanitizer's mlock does
 * nothing, and the tests run under it too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HUGE (2UL << 20)

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long pages, mb = 0, i;
	char *p;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: memwork MLOCK_PAGES [THP_MB]\n");
		return 2;
	}
	pages = strtoul(argv[1], NULL, 10);
	if (argc == 3)
		mb = strtoul(argv[2], NULL, 10);
	if (pages) {
		p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || syscall(SYS_mlock, p, pages * page)) {
			fprintf(stderr, "memwork: mlock of %lu pages: %s\n",
				pages, strerror(errno));
			return 1;
		}
		syscall(SYS_munlock, p, pages * page);
		munmap(p, pages * page);
	}
	if (mb) {
		size_t len = mb << 20;
		char *raw = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (raw == MAP_FAILED) {
			fprintf(stderr, "memwork: mmap: %s\n", strerror(errno));
			return 1;
		}
		/* a 2 MiB boundary, so that every huge page can be one */
		p = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
		madvise(p, len, MADV_HUGEPAGE);
		for (i = 0; i < len; i += HUGE)
			p[i] = 1;
		munmap(raw, len + HUGE);
	}
	return 0;
}
