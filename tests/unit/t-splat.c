// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel splats as stable keys: WARN(), a NULL pointer Oops, lockdep,
 * KASAN, kernel BUG at, in logs as dmesg and the console print them
 * (timestamps, CPU and PID numbers, line numbers and offsets that
 * change from run to run and from patch to patch).
 */
#include "ci/splat.h"
#include "tests/unit/tap.h"

#include <string.h>

static const char warn_log[] =
	"[    0.000000] Linux version 6.1.192 (root@host) #1\n"
	"[    3.123456] ------------[ cut here ]------------\n"
	"[    3.123457] WARNING: CPU: 0 PID: 61 at fs/proc/meminfo.c:41 meminfo_proc_show+0x2d/0x5a0\n"
	"[    3.123458] Modules linked in:\n"
	"[    3.123459] CPU: 0 PID: 61 Comm: cat Not tainted 6.1.192 #1\n"
	"[    3.123460] RIP: 0010:meminfo_proc_show+0x2d/0x5a0\n"
	"[    3.123461] Call Trace:\n"
	"[    3.123462]  <TASK>\n"
	"[    3.123463]  seq_read_iter+0x10a/0x420\n"
	"[    3.123464] ---[ end trace 0000000000000000 ]---\n";

/* the same warning at another line, PID, time and offset */
static const char warn_log2[] =
	"[    5.000001] WARNING: CPU: 1 PID: 977 at fs/proc/meminfo.c:44 meminfo_proc_show+0x31/0x5b0\n"
	"[    5.000002] RIP: 0010:meminfo_proc_show+0x31/0x5b0\n";

static const char oops_log[] =
	"BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"#PF: supervisor read access in kernel mode\n"
	"#PF: error_code(0x0000) - not-present page\n"
	"PGD 0 P4D 0 \n"
	"Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	"CPU: 1 PID: 1234 Comm: foo Tainted: G        W          6.1.0 #1\n"
	"RIP: 0010:do_thing+0x12/0x40\n"
	"Code: 48 8b 47 08 c3\n";

static const char lockdep_log[] =
	"======================================================\n"
	"WARNING: possible circular locking dependency detected\n"
	"6.1.0 #1 Not tainted\n"
	"------------------------------------------------------\n"
	"cat/57 is trying to acquire lock:\n"
	"ffff888003d1a0b8 (&mm->mmap_lock){++++}-{3:3}, at: my_func+0x20/0x40\n"
	"\n"
	"stack backtrace:\n"
	"CPU: 0 PID: 57 Comm: cat Not tainted 6.1.0 #1\n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x45/0x5e\n"
	" check_noncircular+0x10e/0x130\n"
	" ? __lock_acquire+0x1/0x1f30\n"
	" __lock_acquire+0x1181/0x1f30\n"
	" lock_acquire+0xc2/0x2b0\n"
	" down_read+0x3e/0x150\n"
	" my_func+0x20/0x40\n"
	" </TASK>\n";

static const char kasan_log[] =
	"==================================================================\n"
	"BUG: KASAN: slab-out-of-bounds in foo_bar+0x34/0x50\n"
	"Write of size 1 at addr ffff888003a4c0c8 by task cat/61\n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x45/0x5e\n"
	" print_report+0x1/0x2\n"
	" kasan_report+0x1/0x2\n"
	" foo_bar+0x34/0x50\n";

static const char bug_log[] =
	"[   12.5] ------------[ cut here ]------------\n"
	"[   12.5] kernel BUG at mm/compaction.c:1234!\n"
	"[   12.5] invalid opcode: 0000 [#1] PREEMPT SMP\n"
	"[   12.5] RIP: 0010:isolate_freepages+0x99/0x100\n"
	"[   12.6] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#2] SMP\n"
	"[   12.6] RIP: 0010:list_del+0x1/0x2\n";

static const char quiet_log[] =
	"[    0.1] hrtimer: interrupt took 2345678 ns\n"
	"[    0.2] clocksource: timekeeping watchdog on CPU0: Marking clocksource 'tsc' as unstable\n"
	"[    0.3] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
	"[    0.4] user said: a WARNING: in the middle\n";

static void scan(const char *log, const char *want, const char *what)
{
	struct warning_set ws = { 0 };
	struct strbuf got = STRBUF_INIT;

	splat_scan(log, strlen(log), &ws);
	warning_set_format(&ws, &got);
	is_str(got.buf, want, "%s", what);
	strbuf_release(&got);
	warning_set_release(&ws);
}

int main(void)
{
	struct warning_set a = { 0 }, b = { 0 };
	struct strbuf key = STRBUF_INIT;

	scan(warn_log, "WARNING: at fs/proc/meminfo.c meminfo_proc_show\n",
	     "WARN(): no CPU, PID, line number or offset");
	splat_scan(warn_log, strlen(warn_log), &a);
	splat_scan(warn_log2, strlen(warn_log2), &b);
	ok(a.nr == 1 && b.nr == 1 && !strcmp(a.items[0], b.items[0]),
	   "the same WARN() moved by a patch has the same key");
	scan(oops_log, "BUG: kernel NULL pointer dereference, address "
	     "(in do_thing)\n", "a NULL pointer Oops: one splat, its RIP");
	scan(lockdep_log, "WARNING: possible circular locking dependency "
	     "detected (in my_func)\n", "lockdep: the first frame that is not "
	     "lockdep's or the lock's");
	scan(kasan_log, "BUG: KASAN: slab-out-of-bounds in foo_bar\n",
	     "KASAN: the function named in the line");
	scan(bug_log, "general protection fault, probably for non-canonical "
	     "address 0000 (in list_del)\nkernel BUG at mm/compaction.c! "
	     "(in isolate_freepages)\n", "kernel BUG at, general protection "
	     "fault: two splats");
	scan(quiet_log, "", "messages that are not splats");
	scan("", "", "an empty log");
	scan("WARNING: CPU: 0 PID: 1 at", "WARNING: at\n", "a cut line");

	splat_line_key("[T57] [    1.5] Oops: 0002 [#1] SMP", 36, &key);
	is_str(key.buf, "Oops: 0002", "the caller tag and the build's flags go");

	warning_set_release(&a);
	warning_set_release(&b);
	strbuf_release(&key);
	return done_testing();
}
