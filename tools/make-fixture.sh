#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/make-fixture.sh [--series N] DIR
#
# Creates a small kernel-shaped git repository at DIR for fast tests and
# prints its absolute path.  It has a top-level kbuild-like Makefile
# (make, make O=DIR, V=1, W=1, WERROR=1, single objects such as
# "make mm/compaction.o"; compiler warnings appear as
# "mm/compaction.c:LINE:COL: warning: ..." like an in-tree kbuild)
# building init/, kernel/ and mm/ into a tiny program "vmlinux";
# include/linux/*.h; scripts/ (a README only: checkpatch comes from
# tools/kernel-tree.sh); tools/testing/selftests/mm/ whose test program
# prints KTAP; MAINTAINERS, COPYING, .gitignore.
#
# The base commit is on branches main and mm-unstable (same commit).
# --series N adds branch "topic" with N small patches to mm/ on top of
# mm-unstable (kernel-style messages, Signed-off-by) and checks it out.
# Author, committer and dates are fixed, so every run gives the same
# object ids: base at 1700000000, patch i at 1700000000 + 3600 * i.
#
# The selftest honours KSFT_FIXTURE_FAIL=NAME (a subtest name) to make
# that subtest fail, for tests that need a "not ok".
set -eu

usage() { echo "usage: $0 [--series N] DIR" >&2; exit 129; }
die() { echo "make-fixture: error: $*" >&2; exit 1; }

series=""
dir=""
while [ $# -gt 0 ]; do
	case "$1" in
	--series) [ $# -ge 2 ] || usage; series=$2; shift 2 ;;
	--series=*) series=${1#--series=}; shift ;;
	-h|--help) sed -n '3,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; [ $# -eq 1 ] || usage; dir=$1; shift ;;
	-*) echo "make-fixture: unknown option '$1'" >&2; usage ;;
	*) [ -z "$dir" ] || usage; dir=$1; shift ;;
	esac
done
[ -n "$dir" ] || usage
case "$series" in
"") ;;
*[!0-9]*) die "--series wants a number, not '$series'" ;;
esac
if [ -e "$dir" ]; then
	[ -d "$dir" ] || die "'$dir' exists and is not a directory"
	[ -z "$(ls -A "$dir")" ] || die "'$dir' exists and is not empty"
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$dir"

# Nothing from the caller's git setup may change the object ids.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_TEMPLATE_DIR 2>/dev/null || true
export TZ=UTC LC_ALL=C
base_time=1700000000
author() {
	export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2"
	export GIT_COMMITTER_NAME="$1" GIT_COMMITTER_EMAIL="$2"
	export GIT_AUTHOR_DATE="$3 +0000" GIT_COMMITTER_DATE="$3 +0000"
}

# ---------------------------------------------------------------- files
mkdir -p include/linux init kernel mm scripts tools/testing/selftests/mm

cat >COPYING <<'EOF'
The fixture kernel is provided under:

	SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note

Being under the terms of the GNU General Public License version 2 only,
according to LICENSES/preferred/GPL-2.0, with an explicit syscall
exception described in LICENSES/exceptions/Linux-syscall-note.

This is a tiny stand-in for the Linux kernel used by respin's tests: a
few files shaped like the real tree, so that builds, checkpatch and
selftests can run in a second.  The license texts are not included.
EOF

cat >.gitignore <<'EOF'
# SPDX-License-Identifier: GPL-2.0-only
#
# NOTE! Don't add files that are generated in specific
# subdirectories here. Add them in the ".gitignore" file
# in that subdirectory instead.
#
# Normal rules (sorted alphabetically)
#
.*
*.a
*.o
*.o.*
*.s
*.tmp

#
# Top-level generic files
#
/vmlinux

# We don't want to ignore the following even if they are dot-files
!.gitignore
!.mailmap
EOF

cat >MAINTAINERS <<'EOF'
List of maintainers of the fixture kernel
=========================================

Descriptions of section entries and preferred order
---------------------------------------------------

	M: *Mail* patches to: FullName <address@domain>
	R: Designated *Reviewer*: FullName <address@domain>
	L: *Mailing list* that is relevant to this area
	S: *Status*, one of: Supported, Maintained, Odd Fixes, Orphan
	T: *SCM* tree type and location.
	F: *Files* and directories, wildcard patterns are accepted.

Maintainers List
----------------

THE REST
M:	Linus Fixture <torvalds@example.org>
L:	linux-kernel@example.org
S:	Buried alive in reporters
F:	*
F:	*/

MEMORY COMPACTION
M:	Mel Fixture <mel@example.org>
R:	Vlasta Reviewer <vlasta@example.org>
L:	linux-mm@example.org
S:	Maintained
F:	include/linux/compaction.h
F:	mm/compaction.c

MEMORY MANAGEMENT
M:	Andrew Fixture <akpm@example.org>
L:	linux-mm@example.org
S:	Maintained
W:	http://www.linux-mm.example.org
T:	git git://git.example.org/pub/scm/linux/kernel/git/akpm/mm
F:	include/linux/gfp.h
F:	include/linux/mm.h
F:	include/linux/swap.h
F:	mm/
F:	tools/testing/selftests/mm/

PRINTK
M:	Petr Fixture <pmladek@example.org>
L:	linux-kernel@example.org
S:	Maintained
F:	include/linux/printk.h
F:	kernel/printk.c
EOF

cat >scripts/README <<'EOF'
The fixture kernel carries no scripts.

respin's tests take scripts/checkpatch.pl, spelling.txt and
const_structs.checkpatch from Debian's linux-source-6.1, unpacked by
tools/kernel-tree.sh into ~/.cache/respin/checkpatch/.
EOF

cat >Makefile <<'EOF'
# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 0
EXTRAVERSION = -fixture
NAME = Hurr durr I'ma ninja sloth

# A kbuild look-alike for the fixture kernel.
#
#   make                  build vmlinux in the source tree
#   make O=dir            build into dir (relative to this directory)
#   make mm/compaction.o  build one object
#   make V=1              show the commands
#   make W=1              extra warnings
#   make WERROR=1         warnings are errors (like CONFIG_WERROR=y)
#   make clean / kernelrelease / help
#
# Warnings name sources relative to the top of the tree, like an
# in-tree kbuild: "mm/compaction.c:42:9: warning: ...".

MAKEFLAGS += -rR --no-print-directory

ifeq ("$(origin O)", "command line")
  KBUILD_OUTPUT := $(O)
endif
ifneq ($(KBUILD_OUTPUT),)
  objtree := $(abspath $(KBUILD_OUTPUT))
else
  objtree := $(CURDIR)
endif
srctree := $(CURDIR)

ifeq ("$(origin V)", "command line")
  KBUILD_VERBOSE = $(V)
endif
ifeq ($(KBUILD_VERBOSE),1)
  cmd = $(cmd_$(1))
else
  cmd = @printf '  %-7s %s\n' '$(quiet_cmd_$(1))' '$(patsubst $(objtree)/%,%,$@)'; $(cmd_$(1))
endif

CC := gcc
KBUILD_CFLAGS := -std=gnu11 -O2 -g0 -Iinclude -Wall -Wundef \
	-Wstrict-prototypes -Wno-trigraphs -fno-strict-aliasing \
	-fno-common -Werror=implicit-function-declaration \
	-Werror=implicit-int -Wno-format-security \
	-Wdeclaration-after-statement -Wvla
ifeq ("$(origin W)", "command line")
  KBUILD_EXTRA_WARN := $(W)
endif
ifneq ($(findstring 1,$(KBUILD_EXTRA_WARN)),)
KBUILD_CFLAGS += -Wextra -Wunused -Wno-unused-parameter \
	-Wmissing-declarations -Wmissing-format-attribute \
	-Wmissing-prototypes -Wold-style-definition \
	-Wmissing-include-dirs -Wunused-but-set-variable \
	-Wunused-const-variable -Wpacked-not-aligned \
	-Wno-sign-compare -Wno-missing-field-initializers
endif
ifeq ($(WERROR),1)
KBUILD_CFLAGS += -Werror
endif
KBUILD_CFLAGS += $(KCFLAGS)

obj-y := init/main.o kernel/printk.o mm/page_alloc.o mm/compaction.o \
	mm/vmscan.o
headers := $(wildcard include/linux/*.h)

PHONY := all vmlinux clean kernelrelease help $(obj-y)
all: vmlinux

vmlinux: $(objtree)/vmlinux
$(obj-y): %.o: $(objtree)/%.o

quiet_cmd_cc = CC
cmd_cc = $(CC) $(KBUILD_CFLAGS) -c -o $@ $<
quiet_cmd_ld = LD
cmd_ld = $(CC) -o $@ $^

$(objtree)/%.o: %.c $(headers) Makefile
	@mkdir -p $(dir $@)
	$(call cmd,cc)

$(objtree)/vmlinux: $(addprefix $(objtree)/,$(obj-y))
	$(call cmd,ld)
	@echo 'Kernel: vmlinux is ready'

clean:
	rm -f $(addprefix $(objtree)/,$(obj-y)) $(objtree)/vmlinux

kernelrelease:
	@echo $(VERSION).$(PATCHLEVEL).$(SUBLEVEL)$(EXTRAVERSION)

help:
	@sed -n '/^# A kbuild/,/^$$/s/^# \{0,1\}//p' Makefile

.PHONY: $(PHONY)
EOF

# ------------------------------------------------------------- headers
cat >include/linux/types.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef unsigned int gfp_t;
typedef unsigned long pgoff_t;

#endif /* _LINUX_TYPES_H */
EOF

cat >include/linux/kernel.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/printk.h>

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define min(x, y) ({				\
	typeof(x) _min1 = (x);			\
	typeof(y) _min2 = (y);			\
	(void) (&_min1 == &_min2);		\
	_min1 < _min2 ? _min1 : _min2; })

#define max(x, y) ({				\
	typeof(x) _max1 = (x);			\
	typeof(y) _max2 = (y);			\
	(void) (&_max1 == &_max2);		\
	_max1 > _max2 ? _max1 : _max2; })

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#endif /* _LINUX_KERNEL_H */
EOF

cat >include/linux/printk.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#define KERN_SOH	"\001"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

__attribute__((format(printf, 1, 2)))
int printk(const char *fmt, ...);

extern int console_loglevel;

#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

#endif /* _LINUX_PRINTK_H */
EOF

cat >include/linux/gfp.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

#include <linux/types.h>

#define __GFP_DIRECT_RECLAIM	0x400u
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_NOWARN		0x2000u
#define __GFP_COMP		0x40000u

#define __GFP_RECLAIM	(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC	(__GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM)

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

#endif /* _LINUX_GFP_H */
EOF

cat >include/linux/mm.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/gfp.h>
#include <linux/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define MAX_ORDER	11

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

/*
 * A zone of the fixture kernel: free blocks are only counted per order,
 * which is all the buddy allocator, reclaim and compaction below need.
 */
struct zone {
	const char *name;
	unsigned long managed_pages;
	unsigned long nr_free[MAX_ORDER];
	unsigned long nr_inactive;
	unsigned long nr_active;
	unsigned long watermark[NR_WMARK];
};

static inline unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/* mm/page_alloc.c */
void zone_init(struct zone *zone, const char *name, unsigned long pages);
unsigned long zone_free_pages(const struct zone *zone);
bool zone_watermark_ok(const struct zone *zone, unsigned int order,
		       unsigned long mark);
int alloc_pages_zone(struct zone *zone, gfp_t gfp_mask, unsigned int order);
void free_pages_zone(struct zone *zone, unsigned int order);

#endif /* _LINUX_MM_H */
EOF

cat >include/linux/compaction.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_COMPACTION_H
#define _LINUX_COMPACTION_H

#include <linux/mm.h>

enum compact_result {
	/* compaction didn't start as it was not possible or direct reclaim was more suitable */
	COMPACT_SKIPPED,
	/* compaction should continue to another pageblock */
	COMPACT_CONTINUE,
	/* there are no free blocks of the order to be made */
	COMPACT_COMPLETE,
	/* a free block of the requested order is available */
	COMPACT_SUCCESS,
};

int fragmentation_index(const struct zone *zone, unsigned int order);
enum compact_result compaction_suitable(const struct zone *zone,
					unsigned int order);
enum compact_result compact_zone(struct zone *zone, unsigned int order);

#endif /* _LINUX_COMPACTION_H */
EOF

cat >include/linux/swap.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SWAP_H
#define _LINUX_SWAP_H

#include <linux/mm.h>

#define DEF_PRIORITY	12

struct scan_control {
	/* How many pages shrink_zone() should reclaim */
	unsigned long nr_to_reclaim;
	/* Scan (total_size >> priority) pages at once */
	int priority;
	unsigned long nr_scanned;
	unsigned long nr_reclaimed;
};

unsigned long shrink_zone(struct zone *zone, struct scan_control *sc);
unsigned long try_to_free_pages(struct zone *zone, unsigned long nr_pages);

#endif /* _LINUX_SWAP_H */
EOF

# --------------------------------------------------------------- sources
cat >init/main.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
/*
 *  linux/init/main.c
 *
 *  The fixture kernel's start: set up one zone, fragment it, reclaim
 *  and compact, and report what happened.
 */

#define pr_fmt(fmt) "init: " fmt

#include <linux/compaction.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/swap.h>

static struct zone normal_zone;

static void __init_mm(struct zone *zone)
{
	unsigned int i;

	zone_init(zone, "Normal", 4096);
	/* Leave the zone fragmented: take order-3 blocks, give order-0 back */
	for (i = 0; i < 64; i++)
		alloc_pages_zone(zone, GFP_KERNEL, 3);
	zone->nr_free[0] += 256;
	zone->nr_inactive = 512;
	zone->nr_active = 256;
}

static int start_kernel(void)
{
	struct zone *zone = &normal_zone;
	unsigned long reclaimed;
	enum compact_result result;

	pr_info("Linux version 6.1.0-fixture\n");
	__init_mm(zone);
	pr_info("zone %s: %lu pages free of %lu\n", zone->name,
		zone_free_pages(zone), zone->managed_pages);

	reclaimed = try_to_free_pages(zone, 32);
	pr_info("reclaimed %lu pages\n", reclaimed);

	result = compact_zone(zone, 4);
	pr_info("compaction for order 4: %s\n",
		result == COMPACT_SUCCESS ? "success" : "failed");
	return result == COMPACT_SUCCESS ? 0 : 1;
}

int main(void)
{
	return start_kernel();
}
EOF

cat >kernel/printk.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
/*
 *  linux/kernel/printk.c
 *
 *  The fixture kernel's console is stdout.
 */

#include <stdarg.h>
#include <stdio.h>

#include <linux/kernel.h>

int console_loglevel = 7;

static int printk_get_level(const char *buffer)
{
	if (buffer[0] == KERN_SOH[0] && buffer[1] >= '0' && buffer[1] <= '7')
		return buffer[1] - '0';
	return 4;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int level, r;

	level = printk_get_level(fmt);
	if (fmt[0] == KERN_SOH[0])
		fmt += 2;
	if (level >= console_loglevel)
		return 0;

	va_start(args, fmt);
	r = vprintf(fmt, args);
	va_end(args);
	return r;
}
EOF

cat >mm/page_alloc.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
/*
 *  linux/mm/page_alloc.c
 *
 *  Manages the free list, the system allocates free pages here.
 *  The fixture's buddy allocator only counts free blocks per order.
 */

#include <linux/kernel.h>
#include <linux/mm.h>

void zone_init(struct zone *zone, const char *name, unsigned long pages)
{
	unsigned int order;

	zone->name = name;
	zone->managed_pages = pages;
	for (order = 0; order < MAX_ORDER; order++)
		zone->nr_free[order] = 0;

	/* Hand the pages to the allocator in the largest blocks possible */
	order = MAX_ORDER - 1;
	while (pages) {
		while ((1UL << order) > pages)
			order--;
		zone->nr_free[order]++;
		pages -= 1UL << order;
	}

	zone->nr_inactive = 0;
	zone->nr_active = 0;
	zone->watermark[WMARK_MIN] = zone->managed_pages / 64;
	zone->watermark[WMARK_LOW] = zone->watermark[WMARK_MIN] * 5 / 4;
	zone->watermark[WMARK_HIGH] = zone->watermark[WMARK_MIN] * 3 / 2;
}

unsigned long zone_free_pages(const struct zone *zone)
{
	unsigned long free = 0;
	unsigned int order;

	for (order = 0; order < MAX_ORDER; order++)
		free += zone->nr_free[order] << order;
	return free;
}

/*
 * Return true if free pages are above 'mark' and a block of at least
 * 'order' is free.
 */
bool zone_watermark_ok(const struct zone *zone, unsigned int order,
		       unsigned long mark)
{
	unsigned long free_pages = zone_free_pages(zone);
	unsigned int o;

	if (free_pages <= mark + (1UL << order))
		return false;
	for (o = order; o < MAX_ORDER; o++)
		if (zone->nr_free[o])
			return true;
	return false;
}

/*
 * Take a block of 2^order pages, splitting a larger block if needed.
 * Returns 0 on success, -1 if no block is large enough.
 */
int alloc_pages_zone(struct zone *zone, gfp_t gfp_mask, unsigned int order)
{
	unsigned int current_order;

	if (unlikely(order >= MAX_ORDER))
		return -1;

	for (current_order = order; current_order < MAX_ORDER; current_order++) {
		if (!zone->nr_free[current_order])
			continue;
		zone->nr_free[current_order]--;
		/* expand(): give back the halves we do not need */
		while (current_order > order) {
			current_order--;
			zone->nr_free[current_order]++;
		}
		return 0;
	}

	if (!(gfp_mask & __GFP_NOWARN))
		pr_warn("page allocation failure: order:%u, zone %s\n",
			order, zone->name);
	return -1;
}

void free_pages_zone(struct zone *zone, unsigned int order)
{
	zone->nr_free[order]++;
}
EOF

cat >mm/compaction.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * linux/mm/compaction.c
 *
 * Memory compaction for the reduction of external fragmentation. Note that
 * this heavily depends upon page migration to do all the real heavy
 * lifting. The fixture only merges counted free blocks.
 */

#include <linux/compaction.h>
#include <linux/kernel.h>
#include <linux/mm.h>

/*
 * Index of the external fragmentation of a zone for an order: towards
 * 0 a failed allocation is due to lack of memory, towards 1000 it is
 * due to fragmentation. -1000 means an allocation would succeed.
 */
int fragmentation_index(const struct zone *zone, unsigned int order)
{
	unsigned long requested = 1UL << order;
	unsigned long free_pages = 0, free_blocks_total = 0;
	unsigned long free_blocks_suitable = 0;
	unsigned int o;

	if (order >= MAX_ORDER)
		return 0;

	for (o = 0; o < MAX_ORDER; o++) {
		free_blocks_total += zone->nr_free[o];
		free_pages += zone->nr_free[o] << o;
		if (o >= order)
			free_blocks_suitable += zone->nr_free[o] << (o - order);
	}

	if (!free_blocks_total)
		return 0;
	if (free_blocks_suitable)
		return -1000;

	return 1000 - (int)DIV_ROUND_UP(1000 + free_pages * 1000 / requested,
					free_blocks_total);
}

/*
 * compaction_suitable: Is this suitable to run compaction on this zone
 * now?
 */
enum compact_result compaction_suitable(const struct zone *zone,
					unsigned int order)
{
	unsigned long watermark;

	watermark = zone->watermark[WMARK_LOW] + (2UL << order);
	if (zone_watermark_ok(zone, order, zone->watermark[WMARK_LOW]))
		return COMPACT_SUCCESS;
	if (zone_free_pages(zone) < watermark)
		return COMPACT_SKIPPED;
	if (fragmentation_index(zone, order) <= 500)
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

/* Merge free buddies upwards until a block of 'order' exists. */
enum compact_result compact_zone(struct zone *zone, unsigned int order)
{
	enum compact_result ret;
	unsigned int o;

	ret = compaction_suitable(zone, order);
	if (ret != COMPACT_CONTINUE)
		return ret;

	for (o = 0; o < order; o++) {
		zone->nr_free[o + 1] += zone->nr_free[o] / 2;
		zone->nr_free[o] %= 2;
	}
	return zone->nr_free[order] ? COMPACT_SUCCESS : COMPACT_COMPLETE;
}
EOF

cat >mm/vmscan.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 *  linux/mm/vmscan.c
 *
 *  Copyright (C) 1991, 1992, 1993, 1994  Linus Torvalds
 *
 *  Page reclaim for the fixture kernel: inactive pages are reclaimed,
 *  active pages are deactivated, both in proportion to the priority.
 */

#define pr_fmt(fmt) "vmscan: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/swap.h>

static unsigned long shrink_inactive_list(struct zone *zone,
					  unsigned long nr_to_scan)
{
	unsigned long nr_reclaimed;

	nr_to_scan = min(nr_to_scan, zone->nr_inactive);
	/* Every other page is dirty or mapped and stays */
	nr_reclaimed = (nr_to_scan + 1) / 2;
	zone->nr_inactive -= nr_reclaimed;
	zone->nr_free[0] += nr_reclaimed;
	return nr_reclaimed;
}

static void shrink_active_list(struct zone *zone, unsigned long nr_to_scan)
{
	nr_to_scan = min(nr_to_scan, zone->nr_active);
	zone->nr_active -= nr_to_scan;
	zone->nr_inactive += nr_to_scan;
}

unsigned long shrink_zone(struct zone *zone, struct scan_control *sc)
{
	unsigned long nr_scan, nr_reclaimed;

	nr_scan = max((zone->nr_inactive + zone->nr_active) >> sc->priority,
		      1UL);
	nr_reclaimed = shrink_inactive_list(zone, nr_scan);
	if (zone->nr_inactive < zone->nr_active)
		shrink_active_list(zone, nr_scan);

	sc->nr_scanned += nr_scan;
	sc->nr_reclaimed += nr_reclaimed;
	return nr_reclaimed;
}

unsigned long try_to_free_pages(struct zone *zone, unsigned long nr_pages)
{
	struct scan_control sc = {
		.nr_to_reclaim = nr_pages,
		.priority = DEF_PRIORITY,
	};

	do {
		shrink_zone(zone, &sc);
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
	} while (--sc.priority >= 0);

	if (sc.nr_reclaimed < sc.nr_to_reclaim)
		pr_warn("reclaimed only %lu of %lu pages\n", sc.nr_reclaimed,
			sc.nr_to_reclaim);
	return sc.nr_reclaimed;
}
EOF

# ------------------------------------------------------------- selftests
cat >tools/testing/selftests/mm/Makefile <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# Makefile for the fixture's mm selftests.
#
#   make                 build compaction_test here
#   make OUTPUT=dir      (or O=dir) build into dir
#   make run_tests       build and run, printing KTAP
#
# The test links the kernel's mm/ code itself, so a patch to mm/
# changes what the test sees.

top := ../../../..
ifeq ("$(origin O)", "command line")
  OUTPUT := $(abspath $(O))
endif
OUTPUT ?= $(CURDIR)

CC := gcc
CFLAGS := -std=gnu11 -O2 -Wall -I$(top)/include
TEST_GEN_PROGS := $(OUTPUT)/compaction_test
mm_srcs := $(top)/mm/page_alloc.c $(top)/mm/compaction.c \
	$(top)/mm/vmscan.c $(top)/kernel/printk.c

all: $(TEST_GEN_PROGS)

$(OUTPUT)/compaction_test: compaction_test.c $(mm_srcs) \
		$(wildcard $(top)/include/linux/*.h)
	@mkdir -p $(OUTPUT)
	$(CC) $(CFLAGS) -o $@ compaction_test.c $(mm_srcs)

run_tests: all
	@$(OUTPUT)/compaction_test

clean:
	rm -f $(TEST_GEN_PROGS)

.PHONY: all run_tests clean
EOF

cat >tools/testing/selftests/mm/.gitignore <<'EOF'
# SPDX-License-Identifier: GPL-2.0-only
compaction_test
EOF

cat >tools/testing/selftests/mm/compaction_test.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * Tests the fixture kernel's page allocator, reclaim and compaction,
 * printing KTAP.  Exit status as kselftest: 0 pass, 1 fail, 4 skip.
 *
 * KSFT_FIXTURE_FAIL=NAME makes the subtest NAME fail (for testing the
 * tools that read this output).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/compaction.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/swap.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

static unsigned int ksft_pass, ksft_fail, ksft_skip, ksft_test;

static void ksft_result(int ok, const char *name)
{
	const char *forced = getenv("KSFT_FIXTURE_FAIL");

	if (forced && !strcmp(forced, name))
		ok = 0;
	ksft_test++;
	if (ok)
		ksft_pass++;
	else
		ksft_fail++;
	printf("%sok %u %s\n", ok ? "" : "not ", ksft_test, name);
}

static void ksft_result_skip(const char *name, const char *reason)
{
	ksft_test++;
	ksft_skip++;
	printf("ok %u %s # SKIP %s\n", ksft_test, name, reason);
}

static int test_page_alloc_split(void)
{
	struct zone zone;
	unsigned long before;

	zone_init(&zone, "Test", 1024);
	before = zone_free_pages(&zone);
	if (alloc_pages_zone(&zone, GFP_KERNEL, 2))
		return 0;
	/* order-10 split down to order 2: one free block at each order */
	return zone_free_pages(&zone) == before - 4 &&
	       zone.nr_free[2] == 1 && zone.nr_free[9] == 1;
}

static int test_compaction_fragmented(void)
{
	struct zone zone;

	zone_init(&zone, "Test", 1024);
	zone.nr_free[MAX_ORDER - 1] = 0;
	zone.nr_free[0] = 512;
	if (compaction_suitable(&zone, 4) != COMPACT_CONTINUE)
		return 0;
	return compact_zone(&zone, 4) == COMPACT_SUCCESS &&
	       zone.nr_free[4] == 32;
}

static int test_reclaim(void)
{
	struct zone zone;
	unsigned long reclaimed;

	zone_init(&zone, "Test", 1024);
	zone.nr_inactive = 300;
	zone.nr_active = 100;
	reclaimed = try_to_free_pages(&zone, 32);
	return reclaimed >= 32 && zone.nr_inactive + zone.nr_active < 400;
}

int main(void)
{
	console_loglevel = 0;	/* keep printk out of the KTAP */

	printf("KTAP version 1\n");
	printf("1..4\n");
	ksft_result(test_page_alloc_split(), "page_alloc_split");
	ksft_result(test_compaction_fragmented(), "compaction_fragmented");
	ksft_result(test_reclaim(), "reclaim_inactive");
	ksft_result_skip("thp_migration",
			 "transparent hugepages are not in the fixture");
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
	       ksft_pass, ksft_fail, ksft_skip);

	if (ksft_fail)
		return KSFT_FAIL;
	return ksft_pass ? KSFT_PASS : KSFT_SKIP;
}
EOF

# --------------------------------------------------------------- commits
author 'Linus Fixture' 'torvalds@example.org' $base_time
git init -q -b main
git add -A
git commit -q -m 'Linux 6.1-fixture' -m 'The base of the fixture kernel.

Signed-off-by: Linus Fixture <torvalds@example.org>'
git branch mm-unstable

# ------------------------------------------------------------ the series
# sub FILE PERL-SUBSTITUTION: edit FILE, failing if nothing changed.
sub() {
	cp "$1" "$1.orig"
	perl -0pi -e "$2" "$1"
	if cmp -s "$1" "$1.orig"; then
		rm -f "$1.orig"
		die "internal: patch did not apply to $1"
	fi
	rm -f "$1.orig"
}

# patch I: the I-th patch of the series, edited into the work tree;
# prints its commit message.
patch() {
	case $1 in
	1)
		sub mm/compaction.c 's/if \(order >= MAX_ORDER\)\n\t\treturn 0;/if (WARN_ON_ONCE(order >= MAX_ORDER))\n\t\treturn 0;/'
		sub include/linux/kernel.h 's|(#define DIV_ROUND_UP.*\n)|$1\n#define WARN_ON_ONCE(condition) ({\t\t\t\t\\\n\tstatic bool __warned;\t\t\t\t\\\n\tint __ret_warn_once = !!(condition);\t\t\\\n\t\t\t\t\t\t\t\\\n\tif (unlikely(__ret_warn_once \&\& !__warned)) {\t\\\n\t\t__warned = true;\t\t\t\\\n\t\tpr_warn("WARNING at %s:%d\\n",\t\t\\\n\t\t\t__FILE__, __LINE__);\t\t\\\n\t}\t\t\t\t\t\t\\\n\tunlikely(__ret_warn_once); })\n|'
		cat <<'EOF'
mm/compaction: warn once on an impossible order in fragmentation_index()

No caller passes an order of MAX_ORDER or more: such an order means a
bug further up, so say so once instead of silently returning 0.
Add a minimal WARN_ON_ONCE() for that.
EOF
		;;
	2)
		sub mm/vmscan.c 's/(\tnr_reclaimed = shrink_inactive_list\(zone, nr_scan\);\n)/\tnr_scan = min(nr_scan, sc->nr_to_reclaim - sc->nr_reclaimed + 1);\n$1/'
		cat <<'EOF'
mm/vmscan: do not scan far past nr_to_reclaim

At low priority shrink_zone() scans the whole LRU even when only a few
pages are still wanted, reclaiming far more than the caller asked for.
Bound the scan by what is left to reclaim.
EOF
		;;
	3)
		sub mm/page_alloc.c 's/(unsigned long zone_free_pages\(const struct zone \*zone\)\n)/unsigned long zone_free_pages_order(const struct zone *zone, unsigned int order)\n{\n\tunsigned long free = 0;\n\n\tfor (; order < MAX_ORDER; order++)\n\t\tfree += zone->nr_free[order] << order;\n\treturn free;\n}\n\n$1/'
		sub mm/page_alloc.c 's/\tunsigned long free = 0;\n\tunsigned int order;\n\n\tfor \(order = 0; order < MAX_ORDER; order\+\+\)\n\t\tfree \+= zone->nr_free\[order\] << order;\n\treturn free;\n/\treturn zone_free_pages_order(zone, 0);\n/'
		sub include/linux/mm.h 's/(unsigned long zone_free_pages\(const struct zone \*zone\);\n)/$1unsigned long zone_free_pages_order(const struct zone *zone,\n\t\t\t\t   unsigned int order);\n/'
		cat <<'EOF'
mm/page_alloc: add zone_free_pages_order()

Compaction wants to know how many free pages sit in blocks of at least
a given order.  Add zone_free_pages_order() for that and make
zone_free_pages() its order-0 case.
EOF
		;;
	4)
		sub mm/page_alloc.c 's/\tunsigned long free_pages = zone_free_pages\(zone\);\n\tunsigned int o;\n/\tunsigned long free_pages = zone_free_pages(zone);\n/'
		sub mm/page_alloc.c 's/\tfor \(o = order; o < MAX_ORDER; o\+\+\)\n\t\tif \(zone->nr_free\[o\]\)\n\t\t\treturn true;\n\treturn false;\n/\treturn zone_free_pages_order(zone, order) != 0;\n/'
		cat <<'EOF'
mm/page_alloc: use zone_free_pages_order() in zone_watermark_ok()

The loop looking for a free block of the order is what
zone_free_pages_order() computes already.  No functional change.
EOF
		;;
	5)
		sub mm/compaction.c 's/\tif \(fragmentation_index\(zone, order\) <= 500\)/\tif (fragmentation_index(zone, order) <= sysctl_extfrag_threshold)/'
		sub mm/compaction.c 's/(#include <linux\/mm.h>\n)/$1\n\/*\n * Compaction is worth it only when a failed allocation would be due to\n * fragmentation rather than to a lack of memory.\n *\/\nstatic int sysctl_extfrag_threshold = 500;\n/'
		cat <<'EOF'
mm/compaction: name the fragmentation threshold

compaction_suitable() compares the fragmentation index with a bare
500.  Give it the name it has upstream, sysctl_extfrag_threshold.
EOF
		;;
	*)
		n=$(( $1 * 8 ))
		if ! grep -q 'reclaim_batch\[\]' mm/vmscan.c; then
			sub mm/vmscan.c 's/(#include <linux\/swap.h>\n)/$1\nstatic const unsigned long reclaim_batch[] = {\n\t32,\n};\n/'
			sub mm/vmscan.c 's/(\t\.nr_to_reclaim = )nr_pages,/${1}max(nr_pages, reclaim_batch[ARRAY_SIZE(reclaim_batch) - 1]),/'
		fi
		sub mm/vmscan.c "s/(\\n};\\n)/\\n\\t$n,\$1/"
		cat <<EOF
mm/vmscan: raise the reclaim batch to $n pages

Reclaiming one batch at a time costs a full priority loop each time.
Ask for at least $n pages at once.
EOF
		;;
	esac
}

if [ -n "$series" ]; then
	git checkout -q -b topic mm-unstable
	i=1
	while [ "$i" -le "$series" ]; do
		author 'A U Thor' 'author@example.org' $((base_time + 3600 * i))
		msg=$(patch $i)
		git commit -q -a -m "$msg" \
			-m 'Signed-off-by: A U Thor <author@example.org>'
		i=$((i + 1))
	done
fi

echo "$dir"
