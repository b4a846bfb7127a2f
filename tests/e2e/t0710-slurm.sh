#!/bin/sh
# respin check through the slurm executor, on a real one-node Slurm
# (munged, slurmctld and slurmd on 127.0.0.1, started by the test): the
# fixture series' checks give the results the local executor gives; a
# job cancelled with scancel is recorded as such and run again; a
# respin check killed midway resumes without submitting twice; progress
# shows queued / running / done; a bad partition is a clear error.
. "$(dirname "$0")/lib.sh"
. "$SRC_DIR/tests/e2e/lib-slurm.sh"

slurm_skip_unless_possible
make_checked_fixture k && cd k || { echo "Bail out! no fixture or checkpatch.pl"; exit 1; }
commit_three_patches || exit 1
respin track k --base mm-unstable >/dev/null
git config respin.check.lines.kind command
git config respin.check.lines.command 'test "$(pwd)" = "$RESPIN_SRC" && test $RESPIN_PATCHES = 3 && wc -l mm/compaction.c'
git config respin.check.novmscan.kind command
git config respin.check.novmscan.command '! grep -q vmscan_extra mm/vmscan.c'
slurm_start || { echo "Bail out! the one-node Slurm did not start"; exit 1; }
mkdir "$TRASH/shared" && chmod 755 "$TRASH/shared"

# results: the --json of every result, without the durations
results() {
	respin results k --json | sed '/"duration":/d'
}

# submitted NAME-PART: how many jobs Slurm was given whose name has it
submitted() {
	squeue -h -t all -o %j | grep -c -- "$1"
}

# wait_for CMD...: up to 30 s until CMD succeeds
wait_for() {
	_n=0
	until "$@"; do
		_n=$((_n + 1))
		[ $_n -lt 300 ] || return 1
		sleep 0.1
	done
}

# the node's temporary directories (TMPDIR=nodetmp): some, none
node_tmp_used() {
	test -n "$(ls nodetmp)"
}
node_tmp_clean() {
	test -z "$(ls nodetmp)"
}

# cancel_jobs NAME-PART: scancel the queued and running jobs named so
cancel_jobs() {
	for _id in $(squeue -h -o "%i %j" | awk -v p="$1" "index(\$2, p) { print \$1 }"); do
		scancel "$_id" || return 1
	done
}

job_running() {
	squeue -h -t running -o %j | grep -q -- "$1"
}

test_expect_success 'locally: the fixture series checked' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^13 run, 0 reused, 2 failed$" out &&
	results >local.json &&
	test_grep "\"status\": \"FAIL\"" local.json
'

test_expect_success 'through Slurm: the same results; a job a check and tree, the builds one chain' '
	rm -rf .git/respin/results.db* .git/respin/build/k &&
	git config respin.executor slurm &&
	git config respin.slurm.shared "$TRASH/shared" &&
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^13 run, 0 reused, 2 failed$" out &&
	results >slurm.json &&
	check_same local.json slurm.json &&
	# 3 checkpatch, 3 lines, 3 novmscan; the 4 builds in one job
	test "$(submitted respin-k-)" = 10 &&
	test "$(submitted respin-k-build-chain-)" = 1 &&
	# each job handed over: nothing left behind
	test -z "$(ls "$TRASH/shared/jobs")"
'

test_expect_success 'stored results: nothing is submitted again' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^0 run, 13 reused, 2 failed$" out &&
	test "$(submitted respin-k-)" = 10
'

test_expect_success 'a job cancelled with scancel while it runs is recorded as cancelled' '
	git config respin.check.slow.kind command &&
	git config respin.check.slow.command \
		"test -f \"$TRASH/ran-once\" || { touch \"$TRASH/ran-once\"; sleep 60; }" &&
	mkdir nodetmp &&
	{ TMPDIR=$PWD/nodetmp respin check k --only slow --patch 1 >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; cancel_jobs -slow-" &&
	wait_for job_running -slow- &&
	wait_for node_tmp_used &&
	scancel --name="$(squeue -h -t running -o %j | grep -- -slow-)" &&
	test_expect_code 1 wait $pid &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "^slow at 1/3: ERROR: slurm job [0-9]* cancelled; the next respin check runs it again$" err &&
	respin results k --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$c = \$d->{patches}[1]{results}{slow};
		exit 2 unless \$c->{status} eq q(ERROR);
		exit 3 unless \$c->{summary} =~ /^slurm job \d+ cancelled\$/;
	" <r &&
	# the node cleans up the tree it made
	wait_for node_tmp_clean
'

test_expect_success 'the cancelled job is run again by the next respin check' '
	respin check k --only slow --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out &&
	test "$(submitted -slow-1-)" = 2 &&
	respin results k --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit 2 unless \$d->{patches}[1]{results}{slow}{status} eq q(PASS);
	" <r
'

test_expect_success 'a respin check killed midway resumes: no job is submitted twice' '
	git config respin.check.pause.kind command &&
	git config respin.check.pause.command "sleep 2" &&
	{ respin check k --only pause >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; :" &&
	wait_for job_running -pause- &&
	kill -9 $pid &&
	{ wait $pid; test $? = 137; } &&
	# all three were queued at once (one array): each found again
	respin check k --only pause >out 2>err &&
	test_grep -E "^(3 run, 0|2 run, 1) reused, 0 failed$" out &&
	test "$(submitted -pause-)" = 3
'

test_expect_success 'killed before it wrote the ids sbatch gave: found again by the array name' '
	git config respin.check.late.kind command &&
	git config respin.check.late.command "sleep 2.5" &&
	{ respin check k --only late >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; :" &&
	wait_for job_running -late- &&
	kill -9 $pid &&
	{ wait $pid; test $? = 137; } &&
	for f in "$TRASH"/shared/jobs/respin-k-late-*/id; do
		test_path_is_file "$f" && rm "$f" || return 1
	done &&
	respin check k --only late >out 2>err &&
	test_grep -E "^(3 run, 0|2 run, 1) reused, 0 failed$" out &&
	test "$(submitted -late-)" = 3
'

test_expect_success 'SIGTERM while jobs run: exit 143, they go on, the next check takes their results' '
	git config respin.check.term.kind command &&
	git config respin.check.term.command "sleep 2.2" &&
	{ respin check k --only term >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; :" &&
	wait_for job_running -term- &&
	kill -TERM $pid &&
	{ wait $pid; test $? = 143; } &&
	test_grep "^respin: interrupted by SIGTERM: the jobs queued on the cluster go on; the next respin check finds them by name and records what they give$" err &&
	job_running -term- &&
	respin check k --only term >out 2>err &&
	test_grep -E "^(3 run, 0|2 run, 1) reused, 0 failed$" out &&
	test "$(submitted -term-)" = 3
'

test_expect_success 'the time limit of the check: TIMEOUT, not stored' '
	git config respin.check.long.kind command &&
	git config respin.check.long.command "sleep 30" &&
	git config respin.check.long.timeout 2 &&
	test_expect_code 1 respin check k --only long --patch 1 >out 2>err &&
	test_grep "^long at 1/3: TIMEOUT after 2 s$" err &&
	squeue -h -t all -o "%j %l" | grep -- -long- >lim &&
	test_grep " 2:00$" lim
'

# kill_job NAME-PART: SIGKILL to the processes of the running job so
# named, on the node: it ends without its exit status
kill_job() {
	_id=$(squeue -h -t running -o "%i %j" | awk -v p="$1" "index(\$2, p) { print \$1 }") &&
	test -n "$_id" &&
	for _p in $(scontrol listpids "$_id" | awk "NR > 1 { print \$1 }"); do
		kill -9 "$_p" 2>/dev/null || :
	done
}

test_expect_success 'a job that ends with no exit status of its own: recorded as lost, run again' '
	git config respin.slurm.grace 1 &&
	test_when_finished "git config --unset respin.slurm.grace" &&
	git config respin.check.gone.kind command &&
	git config respin.check.gone.command \
		"test -f \"$TRASH/gone-once\" || { touch \"$TRASH/gone-once\"; sleep 60; }" &&
	{ respin check k --only gone --patch 1 >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; cancel_jobs -gone-" &&
	wait_for job_running -gone- &&
	wait_for test -f "$TRASH/gone-once" &&
	kill_job -gone- &&
	test_expect_code 1 wait $pid &&
	test_grep "^gone at 1/3: ERROR: slurm job [0-9]* lost; the next respin check runs it again$" err &&
	respin results k --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$c = \$d->{patches}[1]{results}{gone};
		exit 2 unless \$c->{status} eq q(ERROR);
		exit 3 unless \$c->{summary} =~ /^slurm job \d+ lost\$/;
	" <r &&
	respin check k --only gone --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out
'

test_expect_success 'respin.slurm.grace that is not a number of seconds: a usage error' '
	git config respin.slurm.grace soon &&
	test_when_finished "git config --unset respin.slurm.grace" &&
	test_expect_code 129 respin check k --only gone --patch 1 >out 2>err &&
	test_grep "respin.slurm.grace is .soon.: seconds" err
'

test_expect_success 'a check that needs the build reads the artifacts the chain kept of its tree' '
	git config respin.check.build.artifacts vmlinux &&
	git config respin.check.kt.kind ktap &&
	git config respin.check.kt.command "case \"\$RESPIN_BUILD\" in */\$RESPIN_TREE) ;; *) echo \"not its tree: \$RESPIN_BUILD\"; exit 1;; esac && test -x \"\$RESPIN_BUILD/vmlinux\" && printf \"TAP version 13\\n1..1\\nok 1 its build\\n\"" &&
	rm -rf .git/respin/build/k .git/respin/artifacts &&
	chains=$(submitted -build-chain-) &&
	respin check k --only build,kt >out 2>err &&
	# the builds are stored: the chain builds the 3 trees kt needs
	test_grep "^3 run, 4 reused, 0 failed$" out &&
	test "$(submitted -build-chain-)" = $((chains + 1)) &&
	test "$(ls .git/respin/artifacts/*/ | wc -l)" = 3 &&
	respin results k --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$i (1 .. 3) {
			my \$c = \$d->{patches}[\$i]{results}{kt};
			exit 2 unless \$c->{status} eq q(PASS);
		}
	" <r &&
	test -z "$(ls "$TRASH/shared/jobs")"
'

test_expect_success 'sparse makes in the build directory itself: no chain, even with artifacts' '
	git config respin.check.sp.kind sparse &&
	git config respin.check.sp.command "test \"\$RESPIN_BUILD\" = \"$PWD/.git/respin/build/k\" && test -f \"\$RESPIN_BUILD/vmlinux\" && cat >/dev/null" &&
	test_when_finished "git config --remove-section respin.check.sp" &&
	rm -rf .git/respin/build/k .git/respin/artifacts &&
	chains=$(submitted -build-chain-) &&
	respin check k --only build,kt,sp >out 2>err &&
	# (the builds and kt stored: sp needs the trees built again)
	test_grep "^3 run, 7 reused, 0 failed$" out &&
	test "$(submitted -build-chain-)" = $chains &&
	test -z "$(ls "$TRASH/shared/jobs")"
'

test_expect_success 'a respin check killed while its build chain runs finds the chain again' '
	git config respin.check.build.command "sleep 1 && make O=\"\$RESPIN_BUILD\"" &&
	test_when_finished "git config --unset respin.check.build.command" &&
	chains=$(submitted -build-chain-) &&
	{ respin check k --only build >out 2>err & pid=$!; } &&
	test_when_finished "kill $pid 2>/dev/null; :" &&
	wait_for job_running -build-chain- &&
	kill -9 $pid &&
	{ wait $pid; test $? = 137; } &&
	respin check k --only build >out 2>err &&
	test_grep "^4 run, 0 reused, 0 failed$" out &&
	test "$(submitted -build-chain-)" = $((chains + 1)) &&
	respin results k --json >now.json &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$i (0 .. 3) {
			exit 2 unless \$d->{patches}[\$i]{results}{build}{status} eq q(PASS);
		}
	" <now.json &&
	test -z "$(ls "$TRASH/shared/jobs")"
'

if ! command -v script >/dev/null 2>&1; then
	test_skip "no script(1) (util-linux) to make a pseudo-terminal"
else
test_expect_success 'on a terminal the progress line says queued, running, done' '
	git config respin.check.tty.kind command &&
	git config respin.check.tty.command "sleep 1" &&
	script -qfec "respin check k --only tty --patch 1" /dev/null </dev/null >tty.raw &&
	tr "\r" "\n" <tty.raw | sed "s/^\x1b\[K//" >lines &&
	test_grep "^\[1/3\] tty: queued (job [0-9]*) " lines &&
	test_grep "^\[1/3\] tty: running (job [0-9]*) " lines &&
	test_grep "^\[1/3\] tty: done (job [0-9]*) " lines
'
fi

test_expect_success 'a partition the cluster does not have: exit 128, named, nothing left' '
	git config respin.slurm.partition nosuch &&
	test_when_finished "git config --unset respin.slurm.partition" &&
	git config respin.check.other.kind command &&
	git config respin.check.other.command true &&
	test_expect_code 128 respin check k --only other --patch 1 >out 2>err &&
	test_grep "sbatch refused the partition .nosuch. (respin.slurm.partition): " err &&
	test -z "$(ls "$TRASH/shared/jobs")"
'

test_expect_success 'a check of its own partition: respin.check.NAME.partition' '
	git config respin.check.other.partition nosuch2 &&
	test_when_finished "git config --unset respin.check.other.partition" &&
	test_expect_code 128 respin check k --only other --patch 1 >out 2>err &&
	test_grep "sbatch refused the partition .nosuch2. (respin.check.NAME.partition)" err &&
	git config respin.check.other.partition "$SLURM_PARTITION" &&
	respin check k --only other --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out
'

test_expect_success 'no shared directory set: a usage error before any work' '
	git config --unset respin.slurm.shared &&
	test_when_finished "git config respin.slurm.shared \"$TRASH/shared\"" &&
	test_expect_code 129 respin check k >out 2>err &&
	test_grep "respin.slurm.shared" err
'

test_expect_success 'the static kinds through Slurm: the findings found locally' '
	# (stand-ins for the tools: each use of vmscan_extra is a finding)
	cmd="while read -r f; do grep -n vmscan_extra \"\$f\" | sed \"s|^\\([0-9]*\\):.*|\$f:\\1: warning: vmscan_extra here|\"; done; :" &&
	git config respin.check.sp.kind sparse &&
	git config respin.check.sp.command "$cmd" &&
	git config respin.check.kd.kind kdoc &&
	git config respin.check.kd.command "$cmd" &&
	test_when_finished "git config --remove-section respin.check.sp && git config --remove-section respin.check.kd" &&
	git config respin.executor local &&
	rm -rf .git/respin/results.db* &&
	respin check k --only sp,kd >out 2>err &&
	test_grep "^6 run, 0 reused, 0 failed$" out &&
	respin results k --json >r &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$k (qw(sp kd)) {
			print join(q( ), map { scalar @{\$d->{patches}[\$_]{results}{\$k}{new_warnings}} } 1..3), qq(\n);
		}
	" <r >local &&
	printf "0 0 1\n0 0 1\n" >want &&
	check_same want local &&
	results >local.json &&
	rm -rf .git/respin/results.db* &&
	git config respin.executor slurm &&
	before=$(submitted respin-k-) &&
	respin check k --only sp,kd >out 2>err &&
	test_grep "^6 run, 0 reused, 0 failed$" out &&
	test "$(submitted respin-k-)" -gt "$before" &&
	results >slurm.json &&
	check_same local.json slurm.json
'

test_expect_success 'a check of its own executor: respin.check.NAME.executor = local' '
	git config respin.executor local &&
	git config respin.check.other.executor slurm &&
	git config respin.check.other.command "echo other" &&
	before=$(submitted -other-) &&
	respin check k --only other --patch 2 >out 2>err &&
	test "$(submitted -other-)" = $((before + 1))
'

test_done
