/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_SPLAT_H
#define RESPIN_CI_SPLAT_H

#include <stddef.h>
#include "ci/warnings.h"

/*
 * The warnings a running kernel printed in its log ("splats"), each
 * reduced to a key that stays the same from run to run and from patch
 * to patch, so that the splats a patch adds are those at the patch and
 * not at the position before (as a build's warnings, ci/warnings.h).
 *
 * A splat starts at a line with "WARNING:" (WARN(), lockdep's
 * "WARNING: possible circular locking dependency detected"), "BUG:"
 * (KASAN's "BUG: KASAN: ..."), "kernel BUG at", "KASAN:", "UBSAN:",
 * "Oops", or "general protection fault".  Its key is that line without
 * the log's timestamp, CPU and PID numbers, line numbers, addresses
 * and offsets ("WARNING: CPU: 0 PID: 57 at fs/proc/meminfo.c:40
 * meminfo_proc_show+0x1d/0x30" is "WARNING: at fs/proc/meminfo.c
 * meminfo_proc_show"), and, when the line does not name it, the
 * function it happened in: "(in FUNC)", from the splat's "RIP:" line,
 * else the first frame of its call trace that is not the reporting
 * machinery (dump_stack, __warn, lockdep, KASAN, ...).
 */
void splat_scan(const char *log, size_t len, struct warning_set *out);

/* The key of one splat's first line (no function): into out. */
void splat_line_key(const char *line, size_t len, struct strbuf *out);

#endif
