# SPDX-License-Identifier: GPL-2.0-or-later
# kguest_series BRANCH RUN: in a clone of the real 6.1 tree (the current
# directory), the 3-patch series of t0996-kernel-guest.sh on BRANCH from
# mm-unstable, each patch carrying "run RUN" so that each RUN's trees
# are new:
#  1. /proc/meminfo gets a line "RespinProbe:" (what a guest command
#     reads: not there on the base, there from patch 1 on);
#  2. reading /proc/meminfo warns, once (a WARN_ON_ONCE() that the
#     guest command triggers: a runtime warning from patch 2 on);
#  3. a comment in mm/vmstat.c (the warning stays: not patch 3's).
# Shared by the test and tools/bench/guest.sh.
kguest_series() {
	git checkout -q -B "$1" mm-unstable &&
	python3 - "$2" <<-\EOPY &&
	import sys
	p = 'fs/proc/meminfo.c'
	s = open(p).read()
	old = '\tshow_val_kb(m, "MemTotal:       ", i.totalram);\n'
	assert old in s
	new = '\t/* run %s */\n\tseq_puts(m, "RespinProbe:    1\\n");\n' % sys.argv[1] + old
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "proc: meminfo: show a RespinProbe line" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	python3 - <<-\EOPY &&
	p = 'fs/proc/meminfo.c'
	s = open(p).read()
	old = '\tseq_puts(m, "RespinProbe:    1\\n");\n'
	assert old in s
	new = old + '\tWARN_ON_ONCE(i.totalram);\n'
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "proc: meminfo: warn when it is read" \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	sed -i "0,/^#include/s//\/* run $2: a comment *\/\n#include/" mm/vmstat.c &&
	git commit -qam "mm/vmstat: a comment" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}

# kguest_delay_patch RUN: on the current branch, a 4th patch that makes
# every page fault 20 us slower (a udelay() in handle_mm_fault(), whose
# PGFAULT event counts them): work a bench of page faults (stress-ng
# --vm) measures in the patch's kernel.  (50 us left stress-ng --vm no
# bogo op at all in its 3 s under TCG.)
kguest_delay_patch() {
	python3 - "$1" <<-\EOPY &&
	import sys
	p = 'mm/memory.c'
	s = open(p).read()
	inc = '#include <linux/delayacct.h>\n'
	old = '\t__set_current_state(TASK_RUNNING);\n\n\tcount_vm_event(PGFAULT);\n'
	assert inc in s and s.count(old) == 1
	s = s.replace(inc, inc + '#include <linux/delay.h>\n', 1)
	new = '\t/* run %s */\n\tudelay(20);\n' % sys.argv[1] + old
	open(p, 'w').write(s.replace(old, new, 1))
	EOPY
	git commit -qam "mm: wait 20us in each page fault" \
		-m "Signed-off-by: A U Thor <author@example.org>"
}
