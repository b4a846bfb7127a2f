#!/bin/sh
# respin check / results on the fixture tree: builds, new warnings per
# patch, checkpatch findings per patch, results reused by content.
. "$(dirname "$0")/lib.sh"

make_checked_fixture k && cd k || { echo "Bail out! no fixture or checkpatch.pl"; exit 1; }

# 1: a real fix; 2: adds a compiler warning; 3: a checkpatch error.
commit_three_patches || exit 1
respin track k --base mm-unstable >/dev/null

test_expect_success 'check --list shows the built-in checks' '
	respin check --list >out &&
	test_grep "^checkpatch  *lint " out && test_grep "^build  *build .*\[built in\]" out &&
	respin check --list --json >out && test_grep "\"kind\": \"lint\"" out
'

test_expect_success 'the first check runs everything and finds the problems' '
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^7 run, 0 reused, 1 failed$" out &&
	test_grep "^checkpatch at 3/3: FAIL: 1E 0W$" err
'

test_expect_success 'the new warning is attributed to exactly patch 2' '
	respin results k --json >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my @new = map { scalar @{\$_->{results}{build}{new_warnings}} } @p[1..3];
		exit 2 unless \"@new\" eq q(0 1 0);
		exit 3 unless \$p[2]{results}{build}{new_warnings}[0] =~ m{^mm/compaction.c: warning: unused variable .unused_marker. \[-Wunused-variable\]\$};
		exit 4 unless @{\$p[3]{results}{build}{warnings}} == 1;
	" <out
'

test_expect_success 'the checkpatch error is attributed to exactly patch 3' '
	respin results k --json >out &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my @st = map { \$_->{results}{checkpatch}{status} } @p[1..3];
		exit 2 unless \"@st\" eq q(PASS PASS FAIL);
		exit 3 unless \$p[3]{results}{checkpatch}{summary} =~ /^1E /;
	" <out &&
	respin results k --check checkpatch --patch 3 >d &&
	test_grep "ERROR:TRAILING_WHITESPACE" d
'

test_expect_success 'results: a table, a patch a row' '
	respin results k >out && cat out &&
	test_grep "^base  *ok, 0 warnings" out &&
	test_grep "^ *2/3  *0E 0W  *ok +1 warning  *mm/compaction: prepare a marker for later$" out &&
	test_grep "^ *3/3  *FAIL 1E [0-9]W " out &&
	test_grep "^ *2/3  *0E 0W  " out
'

test_expect_success 'every failure is named by its check, whatever its kind' '
	git config respin.check.mmfail.kind command &&
	git config respin.check.mmfail.command "! grep -q vmscan_extra mm/vmscan.c" &&
	test_when_finished "git config --remove-section respin.check.mmfail" &&
	test_expect_code 1 respin check k --only checkpatch,mmfail >out 2>err &&
	test_grep "^checkpatch at 3/3: FAIL: 1E 0W (stored, not run again)$" err &&
	n=$(sed -n "s/^.* run, .* reused, \([0-9]*\) failed$/\1/p" out) &&
	grep -c "^[a-z]* at [0-9]/3: \(FAIL\|ERROR\|TIMEOUT\)" err >named &&
	test "$(cat named)" = "$n" &&
	test_grep "^mmfail at 3/3: FAIL (exit 1)$" err
'

test_expect_success 'a second check runs nothing' '
	test_expect_code 1 respin check k >out &&
	test_grep "^0 run, 7 reused, 1 failed$" out
'

test_expect_success 'v2 changes only patch 3: only patch 3 is checked' '
	tick &&
	sed -i "s/^int vmscan_extra(void) { return 1; }   $/int vmscan_extra(void)\n{\n\treturn 1;\n}/" mm/vmscan.c &&
	git commit -q --amend -a --no-edit &&
	respin track k >/dev/null &&
	respin check k >out &&
	test_grep "^2 run, 5 reused, 0 failed$" out &&
	respin results k --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		exit(\$d->{patches}[3]{results}{checkpatch}{status} eq q(PASS) ? 0 : 1);
	" <r
'

test_expect_success 'the worktree and build dir are the series own' '
	test -d .git/respin/worktrees/k && test -f .git/respin/build/k/vmlinux &&
	test -z "$(git status --porcelain --untracked-files=no)"
'

test_expect_success 'a ktap check: KTAP subtests per patch' '
	git config respin.check.mm-selftests.kind ktap &&
	git config respin.check.mm-selftests.command \
		"make -s -C tools/testing/selftests/mm O=\$RESPIN_BUILD/selftests run_tests" &&
	respin check k --only mm-selftests >out 2>err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	respin results k --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		for my \$i (1..3) {
			my \$c = \$d->{patches}[\$i]{results}{q(mm-selftests)};
			exit 2 unless \$c->{status} eq q(PASS);
			exit 3 unless \$c->{summary} =~ m{^\\d+/\\d+ \\(1 skip\\)\$};
		}
	" <r &&
	respin results k --check mm-selftests --patch 2 >d && test_grep "^ok 1 " d
'

test_expect_success 'a failing subtest is a FAIL, whatever the exit code' '
	git config respin.check.mm-fail.kind ktap &&
	name=$(sed -n "s/^ok 1 \(.*\)/\1/p" d | head -n 1) &&
	git config respin.check.mm-fail.command \
		"KSFT_FIXTURE_FAIL=\"$name\" make -s -C tools/testing/selftests/mm O=\$RESPIN_BUILD/selftests run_tests; exit 0" &&
	test_expect_code 1 respin check k --only mm-fail --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "mm-fail at 1/3: FAIL" err
'

test_expect_success 'a failing command check is named, with its exit code and the end of its output' '
	git config respin.check.cmdfail.kind command &&
	git config respin.check.cmdfail.command "echo looked at mm/vmscan.c; echo broke here; exit 3" &&
	test_when_finished "git config --remove-section respin.check.cmdfail" &&
	test_expect_code 1 respin check k --only cmdfail --patch 2 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	test_grep "^cmdfail at 2/3: FAIL (exit 3)$" err &&
	test_grep "^broke here$" err &&
	test_expect_code 1 respin check k --only cmdfail --patch 2 >out 2>err &&
	test_grep "^0 run, 1 reused, 1 failed$" out &&
	test_grep "^cmdfail at 2/3: FAIL (stored, not run again)$" err
'

cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
# ops: 100 on the base, 10% more once vmscan_extra() exists, a little noise
base=100
grep -q vmscan_extra mm/vmscan.c && base=110
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
awk -v b=$base -v s=$seed 'BEGIN { srand(s); printf "respin-metric: ops %.3f\n", b + (rand() - 0.5) }'
EOB

test_expect_success 'a bench: samples stored, patch 3 is better, significantly' '
	git config respin.check.ops.kind bench &&
	git config respin.check.ops.command "sh $TRASH/bench.sh" &&
	git config respin.check.ops.metric ops &&
	git config respin.check.ops.runs 5..12 &&
	respin check k --only ops >out 2>err &&
	test_grep "^4 run, 0 reused, 0 failed$" out &&
	respin results k >t && cat t &&
	test_grep "^ *3/3 .* +[0-9]*\.[0-9]% \* (n=[0-9]*)" t &&
	respin results k --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		my \$p3 = \$d->{patches}[3]{results}{ops};
		exit 2 unless \$p3->{significant} && \$p3->{verdict} eq q(better);
		exit 5 unless \$p3->{gain_pct} > 9 && \$p3->{gain_pct} < 11;
		exit 3 unless @{\$p3->{samples}} >= 5;
		exit 4 unless @{\$d->{patches}[0]{results}{ops}{samples}} >= 5;
	" <r
'

test_expect_success 'a decided bench is not run again' '
	respin check k --only ops >out &&
	test_grep "^0 run, 4 reused, 0 failed$" out
'

test_expect_success 'a bench with no metric set reads the one named as the check' '
	git config respin.check.speed.kind bench &&
	git config respin.check.speed.command "echo respin-metric: speed 100" &&
	git config respin.check.speed.runs 3..3 &&
	respin check k --only speed --patch 1 >out 2>err &&
	test_grep "^2 run, 0 reused, 0 failed$" out &&
	git config respin.check.speed.command "echo respin-metric: other 100" &&
	test_expect_code 1 respin check k --only speed --patch 1 >out 2>err &&
	test_grep "speed at 0/3: ERROR: no metric in its output" err &&
	test_grep "respin-metric: speed VALUE" err &&
	git config --remove-section respin.check.speed
'

test_expect_success 'a bench whose output has no metric: ERROR naming the check' '
	git config respin.check.nometric.kind bench &&
	git config respin.check.nometric.command "echo hello" &&
	git config respin.check.nometric.metric ops &&
	test_when_finished "git config --remove-section respin.check.nometric" &&
	test_expect_code 1 respin check k --only nometric --patch 1 >out 2>err &&
	test_grep "nometric at 0/3: ERROR: no metric in its output" err &&
	test_grep "respin-metric: ops VALUE" err
'

test_expect_success '-j 3 runs the lint jobs at once, with the same verdicts' '
	git checkout -q -b para work &&
	git rebase -q --exec "git commit -q --amend -m \"\$(git log -1 --format=%B | sed \"1s/\$/ (again)/\")\"" mm-unstable &&
	respin track para --base mm-unstable >/dev/null &&
	respin check para --only checkpatch -j 3 >out 2>err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	respin results para --json >r && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my @s = map { \$_->{results}{checkpatch}{status} } @p[1..3];
		exit(qq(@s) eq q(PASS PASS PASS) ? 0 : 1);
	" <r &&
	respin check para --only checkpatch -j 3 >out && test_grep "^0 run, 3 reused, 0 failed$" out &&
	git checkout -q work
'

test_expect_code 129 '-j 0 is a usage error' 'respin check k -j 0'

test_expect_success 'a build that fails: FAIL with the last lines of the log' '
	tick && echo "this is not C" >>mm/page_alloc.c &&
	git commit -qam "mm: break the build" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track broken --base mm-unstable >/dev/null &&
	test_expect_code 1 respin check broken --only build >out 2>err &&
	test_grep "build at 4/4: build failed; the last lines:" err &&
	test_grep "page_alloc.c" err
'

test_expect_success 'a command that hangs: TIMEOUT, and its process group is gone' '
	git config respin.check.hang.kind command &&
	git config respin.check.hang.command "sleep 300 & echo \$! >$TRASH/hang.pid; sleep 300" &&
	git config respin.check.hang.timeout 1 &&
	test_when_finished "git config --remove-section respin.check.hang" &&
	test_expect_code 1 respin check k --only hang --patch 1 >out 2>err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	sleep 1 &&
	pid=$(cat $TRASH/hang.pid) &&
	test -n "$pid" &&
	# gone, or a zombie waiting for init to reap it
	{
		test ! -d /proc/$pid ||
		grep -q "^State:.*Z" /proc/$pid/status 2>/dev/null ||
		test ! -d /proc/$pid ||
		{ echo "process $pid of the hung command is still running"; false; }
	}
'

test_expect_success 'no checkpatch.pl in the tree: an ERROR that says how to get one' '
	saved=$(git config respin.check.checkpatch.command) &&
	git config --unset respin.check.checkpatch.command &&
	test_when_finished "git config respin.check.checkpatch.command \"\$saved\"" &&
	test_expect_code 1 respin check broken --only checkpatch >out 2>err &&
	test_grep "no scripts/checkpatch.pl" err &&
	test_grep "kernel-tree.sh" err
'

test_expect_success 'a dirty worktree is not overwritten' '
	echo junk >>.git/respin/worktrees/k/mm/vmscan.c &&
	git config respin.check.dirty.kind command && git config respin.check.dirty.command true &&
	test_when_finished "git -C .git/respin/worktrees/k checkout -q -- mm/vmscan.c" &&
	test_expect_code 128 respin check k --only dirty 2>err &&
	test_grep "has changes (mm/vmscan.c)" err
'

test_expect_success 'a damaged results database is reported, never replaced' '
	cp .git/respin/results.db "$TRASH/good.db" &&
	rm -f .git/respin/results.db-wal .git/respin/results.db-shm &&
	head -c 4096 /dev/urandom >.git/respin/results.db &&
	cp .git/respin/results.db "$TRASH/damaged.db" &&
	test_expect_code 128 respin results k 2>err &&
	test_grep "damaged" err &&
	cmp .git/respin/results.db "$TRASH/damaged.db"
'

test_expect_success 'the worktree follows added, deleted and new-directory files both ways' '
	make_fixture "$TRASH/d" && cd "$TRASH/d" &&
	git checkout -q -b w mm-unstable &&
	echo x >mm/newfile.txt && git add mm/newfile.txt && tick &&
	git commit -qm "mm: add a file" &&
	git rm -q mm/newfile.txt && mkdir mm/sub && echo y >mm/sub/f &&
	git add mm/sub && tick && git commit -qm "mm: drop it, add a directory" &&
	respin track d --base mm-unstable >/dev/null &&
	git config respin.check.checkpatch.enabled false &&
	git config respin.check.build.enabled false &&
	git config respin.check.files.kind command &&
	git config respin.check.files.command "if [ \$RESPIN_PATCH = 1 ]; then test -f mm/newfile.txt && ! test -e mm/sub; else ! test -e mm/newfile.txt && test -f mm/sub/f; fi" &&
	respin check d >out && test_grep "^2 run, 0 reused, 0 failed$" out &&
	git config respin.check.files.command "true; if [ \$RESPIN_PATCH = 1 ]; then test -f mm/newfile.txt && ! test -e mm/sub; else ! test -e mm/newfile.txt && test -f mm/sub/f; fi" &&
	respin check d --patch 2 >out && test_grep "^1 run, 0 reused, 0 failed$" out &&
	respin check d --patch 1 >out && test_grep "^1 run, 0 reused, 0 failed$" out &&
	test -z "$(git -C .git/respin/worktrees/d status --porcelain)"
'

test_expect_success 'an unknown check' '
	test_expect_code 129 respin check k --only nosuch 2>err &&
	test_grep "no check named .nosuch." err
'

test_expect_success 'an unknown executor: 129 naming the key, nothing run or stored' '
	rm -f .git/respin/results.db .git/respin/results.db-wal .git/respin/results.db-shm &&
	git config respin.check.ex.kind command &&
	git config respin.check.ex.command "echo ran >>\"$TRASH/ex.runs\"" &&
	git config respin.executor nosuch &&
	test_when_finished "git config --unset respin.executor" &&
	test_expect_code 129 respin check k --only ex 2>err &&
	test_grep "respin.executor is .nosuch.: no such executor (known: local, slurm)" err &&
	test_path_is_missing "$TRASH/ex.runs" &&
	git config respin.executor local &&
	respin check k --only ex >out && test_grep "^3 run, 0 reused, 0 failed$" out
'

test_expect_success 'each check its own executor: respin.check.NAME.executor first' '
	git config respin.check.ex.executor nosuch &&
	test_when_finished "git config --unset respin.check.ex.executor" &&
	rm -f "$TRASH/ex.runs" &&
	test_expect_code 129 respin check k --only ex 2>err &&
	test_grep "respin.check.ex.executor is .nosuch.: no such executor (known: local, slurm)" err &&
	test_path_is_missing "$TRASH/ex.runs" &&
	git config respin.executor nosuch &&
	test_when_finished "git config --unset respin.executor" &&
	git config respin.check.ex.executor local &&
	git config respin.check.ex.command "echo ran >>\"$TRASH/ex.runs\"; false" &&
	test_expect_code 1 respin check k --only ex >out &&
	test_grep "^3 run, 0 reused, 3 failed$" out &&
	test "$(wc -l <"$TRASH/ex.runs")" = 3
'

test_expect_success 'partition and constraint are settings of a check; a bench asking for a node type keeps its own samples' '
	git config respin.check.sp.kind bench &&
	git config respin.check.sp.command "echo respin-metric: sp 1" &&
	test_when_finished "git config --remove-section respin.check.sp" &&
	respin check --list --json --only sp >before &&
	git config respin.check.sp.partition fast &&
	git config respin.check.sp.constraint epyc &&
	respin check --list --json --only sp >after &&
	test_grep "\"partition\": \"fast\"" after &&
	test_grep "\"constraint\": \"epyc\"" after &&
	def_before=$(sed -n "s/.*\"definition\": \"\([0-9a-f]*\)\".*/\1/p" before) &&
	def_after=$(sed -n "s/.*\"definition\": \"\([0-9a-f]*\)\".*/\1/p" after) &&
	test -n "$def_before" && test -n "$def_after" &&
	test "$def_before" != "$def_after" &&
	git config --unset respin.check.sp.constraint &&
	respin check --list --json --only sp >again &&
	test_grep "\"definition\": \"$def_before\"" again
'

test_done
