# SPDX-License-Identifier: GPL-2.0-or-later
# A real one-node Slurm cluster on 127.0.0.1 for a test: source it after
# lib.sh.  slurm_start starts munged (its own key), slurmctld and slurmd,
# every file of theirs under $SLURM_DIR, and waits until the node is
# idle; SLURM_CONF is exported for sbatch, squeue, scancel and sinfo.
# At exit only the daemons it started are stopped, by their PIDs.
#
#   slurm_skip_unless_possible   test_skip_all with the reason when the
#                                cluster cannot run here (not root, or
#                                slurm-wlm / munge not installed)
#   slurm_start                  starts it (1 with a reason on fd 2)
#   SLURM_PARTITION              the default partition ("respin")

SLURM_PARTITION=respin
SLURM_DIR=
_slurm_pids=

# _slurm_kill PID: TERM, then KILL after 5 s.
_slurm_kill() {
	kill "$1" 2>/dev/null || return 0
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -9 "$1" 2>/dev/null || :
	wait "$1" 2>/dev/null || :
	return 0
}

slurm_stop() {
	# slurmd first (its jobs end with it), then the controller, munged
	for _p in $_slurm_pids; do
		_slurm_kill "$_p"
	done
	_slurm_pids=
}

trap 'slurm_stop; cd /; [ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"' EXIT

slurm_skip_unless_possible() {
	[ "$(id -u)" = 0 ] ||
		test_skip_all "a one-node Slurm runs its daemons as root; not root here"
	for _b in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
		command -v "$_b" >/dev/null 2>&1 || [ -x "/usr/sbin/$_b" ] ||
			test_skip_all "no $_b: install slurm-wlm and munge (tools/install-deps.sh)"
	done
}

_slurm_bin() {
	command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"
}

# _slurm_wait WHAT CMD...: up to 30 s until CMD succeeds.
_slurm_wait() {
	_what=$1
	shift
	_i=0
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -gt 300 ]; then
			echo "slurm: $_what did not come up; see $SLURM_DIR/*.log" >&2
			return 1
		fi
		sleep 0.1
	done
}

_slurm_idle() {
	[ "$(sinfo -h -o %T 2>/dev/null)" = idle ]
}

slurm_start() {
	# munged wants every parent of its socket executable by all
	SLURM_DIR=$TRASH/slurm
	mkdir -p "$SLURM_DIR/munge" "$SLURM_DIR/state" "$SLURM_DIR/spool" &&
	chmod 755 "$TRASH" "$SLURM_DIR" "$SLURM_DIR/munge" || return 1
	"$(_slurm_bin mungekey)" -c -k "$SLURM_DIR/munge/munge.key" || return 1
	"$(_slurm_bin munged)" -F -f --key-file="$SLURM_DIR/munge/munge.key" \
		--socket="$SLURM_DIR/munge/socket" \
		--pid-file="$SLURM_DIR/munge/munged.pid" \
		--log-file="$SLURM_DIR/munge/munged.log" \
		--seed-file="$SLURM_DIR/munge/munged.seed" \
		>"$SLURM_DIR/munge/munged.out" 2>&1 &
	_slurm_pids="$! $_slurm_pids"
	_slurm_wait munged test -S "$SLURM_DIR/munge/socket" || return 1
	# OverSubscribe: up to 16 jobs share a core, as a site's partition
	# for small jobs does; with a slot a core, the scheduler (a pass a
	# second) would start only nproc of the queued jobs each second
	cat >"$SLURM_DIR/slurm.conf" <<EOF
ClusterName=respin-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(_slurm_port)
SlurmdPort=$(( $(_slurm_port) + 1 ))
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SlurmdParameters=config_overrides
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
KillWait=2
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=$SLURM_PARTITION Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:16
EOF
	SLURM_CONF=$SLURM_DIR/slurm.conf
	export SLURM_CONF
	"$(_slurm_bin slurmctld)" -D -i -f "$SLURM_CONF" \
		>"$SLURM_DIR/slurmctld.out" 2>&1 &
	_slurm_pids="$! $_slurm_pids"
	"$(_slurm_bin slurmd)" -D -N localhost -f "$SLURM_CONF" \
		>"$SLURM_DIR/slurmd.out" 2>&1 &
	_slurm_pids="$! $_slurm_pids"
	_slurm_wait "the node (sinfo idle)" _slurm_idle
}

# A port of our own, from the test's PID: two tests at once do not meet.
_slurm_port() {
	echo $(( 20000 + ($$ % 10000) * 2 ))
}
