#!/bin/sh
# The built-in bench recipes (respin.check.NAME.recipe, issue 22) end
# to end on this machine: stress-ng-vm and fio-randread really run
# (3 s a run), each run's value is read from the tool's own output and
# stored, and every patch gets a verdict.  On the host a patch cannot
# change what the kernel does, so the series' patch touches a file
# only: the point is the recipe's path through respin, not an effect.
# Skipped, saying so, where stress-ng or fio is not installed (make
# deps installs both).
. "$(dirname "$0")/lib.sh"

have_stress=$(command -v stress-ng)
have_fio=$(command -v fio)
[ -n "$have_stress$have_fio" ] ||
	test_skip_all "neither stress-ng nor fio is installed (Debian: apt-get install stress-ng fio, or make deps)"

git init -q t && cd t || exit 1
echo "base" >README && git add README && git commit -qm base && git branch base
git checkout -q -b r base && echo "a change" >>README &&
git commit -qam "README: a change" && respin track r --base base >/dev/null &&
git checkout -q base || { echo "Bail out! no series"; exit 1; }
git config respin.check.build.enabled false
git config respin.check.checkpatch.enabled false

# recipe NAME CHECK: the check runs the recipe, 2 runs a side
recipe() {
	git config respin.check.$2.kind bench &&
	git config respin.check.$2.recipe $1 &&
	git config respin.check.$2.runs 2
}

# verdict CHECK: "metric verdict n_base n_patch" of patch 1, and the
# samples of both sides (all above 0)
verdict() {
	respin results r --json | perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		my ($b, $p) = map { $d->{patches}[$_]{results}{$ARGV[0]} } 0, 1;
		$b && $p or exit 3;
		exit 4 if grep { !($_ > 0) } @{$b->{samples}}, @{$p->{samples}};
		print join(" ", $p->{verdict}, $p->{n_base}, $p->{n_patch},
			   scalar @{$b->{samples}}), "\n";
	' "$1"
}

if [ -n "$have_stress" ]; then
	test_expect_success 'recipe stress-ng-vm: runs, stores bogo ops/s, gives a verdict' '
		recipe stress-ng-vm sng &&
		git config respin.check.sng.vmstat "pgfault" &&
		respin check r --only sng >out 2>err && cat out err &&
		test_grep "^2 run, 0 reused, 0 failed$" out &&
		verdict sng >v && cat v &&
		test_grep "^\(better\|worse\|same\|inconclusive\) 2 2 2$" v &&
		respin results r --check sng --patch 1 >log &&
		test_grep "^respin-metric: bogo-ops/s [0-9.]*$" log &&
		test_grep "stress-ng: .*successful run completed" log &&
		test_grep "^respin-metric: vmstat:pgfault [0-9]*$" log &&
		respin results r --format mmtests >mm && cat mm &&
		test_grep "^sng (bogo-ops/s, higher is better, the same within +-2%), v1, against the base:$" mm &&
		test_grep "^Hmean     sng  *[0-9.]* (   0.00%)  *[0-9.]* [(*?] *-\?[0-9.]*%[)*?]$" mm &&
		test_grep "^Runs      sng  *2  *2" mm &&
		respin check --list >list &&
		test_grep "^sng  *bench    recipe stress-ng-vm (vmstat pgfault)$" list &&
		respin check r --only sng >out && test_grep "^0 run, 2 reused, 0 failed$" out
	'
else
	test_skip "stress-ng is not installed (Debian: apt-get install stress-ng)"
fi

if [ -n "$have_fio" ]; then
	test_expect_success 'recipe fio-randread: runs on a tmpfs, stores MiB/s, gives a verdict' '
		recipe fio-randread fio &&
		# a tmpfs directory of this test alone: another respin
		# running a recipe meanwhile leaves its files elsewhere
		shm=$(mktemp -d /dev/shm/t0627.XXXXXX) &&
		test_when_finished "rm -rf \"$shm\"" &&
		TMPDIR=$shm respin check r --only fio >out 2>err && cat out err &&
		test_grep "^2 run, 0 reused, 0 failed$" out &&
		verdict fio >v && cat v &&
		test_grep "^\(better\|worse\|same\|inconclusive\) 2 2 2$" v &&
		respin results r --check fio --patch 0 >log &&
		test_grep "^respin-metric: MiB/s [0-9.]*$" log &&
		respin results r --json >j &&
		perl -MJSON::PP -e "
			local \$/; my \$d = decode_json(<STDIN>);
			exit 2 unless \$d->{patches}[1]{results}{fio}{kind} eq q(bench);
		" <j &&
		# the workload files are gone: nothing left in the tmpfs
		ls -A "$shm" >left && test_must_be_empty left
	'
else
	test_skip "fio is not installed (Debian: apt-get install fio)"
fi

test_expect_success 'a recipe whose tool is missing: ERROR with the last lines, nothing stored' '
	git config respin.check.gone.kind bench &&
	git config respin.check.gone.recipe stress-ng-vm &&
	git config respin.check.gone.runs 2 &&
	test_when_finished "git config --remove-section respin.check.gone" &&
	mkdir -p "$TRASH/bin" && ln -sf "$(command -v sh)" "$TRASH/bin/sh" &&
	PATH="$RESPIN_BUILD:$TRASH/bin" test_expect_code 1 respin check r --only gone >out 2>err &&
	cat out err &&
	test_grep "^gone at 0/1: ERROR: the recipe stress-ng-vm gave no value; the last lines:$" err &&
	test_grep "^    respin-bench-run: stress-ng is not installed (Debian: apt-get install stress-ng)$" err &&
	respin results r --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit 2 if \$d->{patches}[0]{results}{gone};
	" <j
'

test_done
