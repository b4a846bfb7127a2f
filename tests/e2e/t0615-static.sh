#!/bin/sh
# The static analysis kinds (sparse, w1, kdoc, coccicheck) on the
# fixture, with their default commands and stand-ins for the tools: a
# "sparse" on PATH, scripts/kernel-doc and a coccicheck target in the
# tree, each printing a finding for each line that carries its marker
# ("/* sparse: MESSAGE */" ...) in the tools' own formats.  Each finding
# is attributed to exactly the patch that adds it, the old ones the
# tree had are not, a second run runs nothing, a v2 changing patch 3
# runs only patch 3's checks; results, diff --results and the cover
# letter show them; and the errors a user can meet.
. "$(dirname "$0")/lib.sh"

make_fixture k && cd k || { echo "Bail out! no fixture"; exit 1; }

# ---- the stand-ins ----
mkdir -p "$TRASH/bin"
cat >"$TRASH/bin/sparse" <<'EOF'
#!/bin/sh
# like sparse: the source is the last argument; findings on stderr
for f; do :; done
awk -v f="$f" '/sparse: / { m = $0; sub(/.*sparse: /, "", m); sub(/ \*\/.*/, "", m)
	printf "%s:%d:5: warning: %s\n", f, NR, m }' "$f" >&2
EOF
printf '#!/bin/sh\nexit 0\n' >"$TRASH/bin/spatch"
chmod +x "$TRASH/bin/sparse" "$TRASH/bin/spatch"
PATH=$TRASH/bin:$PATH

# the base: the fixture with C=2 (kbuild's: the checker on each source,
# named by its absolute path, as kbuild does under O=), a coccicheck
# target and scripts/kernel-doc, and one old finding of each tool
setup_base() {
	git checkout -q -b static-base mm-unstable &&
	python3 - <<'EOPY' &&
p = 'Makefile'
s = open(p).read()
old = "\t$(call cmd,cc)\n"
assert old in s
s = s.replace(old, old + "\t$(if $(filter 1 2,$(C)),$(CHECK) $(srctree)/$<)\n", 1)
s = s.replace("clean:\n", "coccicheck:\n\t@sh scripts/fake-cocci $(M)\n\nclean:\n", 1)
open(p, 'w').write(s)
EOPY
	cat >scripts/kernel-doc <<-\EOF &&
	#!/bin/sh
	# a stand-in for kernel-doc -none: "FILE:LINE: warning: MESSAGE"
	[ "$1" = -none ] && shift
	for f; do
		awk -v f="$f" '/kdoc: / { m = $0; sub(/.*kdoc: /, "", m); sub(/ \*\/.*/, "", m)
			printf "%s:%d: warning: %s\n", f, NR, m }' "$f" >&2
	done
	EOF
	cat >scripts/fake-cocci <<-\EOF &&
	# a stand-in for coccicheck MODE=report M=DIR
	grep -rn "cocci: " "$1" --include="*.c" | while IFS=: read -r f l m; do
		m=${m#*cocci: }; printf "%s:%s:1-3: %s\n" "$f" "$l" "${m% \*/}"
	done
	EOF
	chmod +x scripts/kernel-doc &&
	printf '/* sparse: old noise in compaction */\n' >>mm/compaction.c &&
	printf '/* kdoc: old kdoc noise */\n/* cocci: old cocci noise */\n' >>mm/vmscan.c &&
	git add -A && git commit -qm "fixture: stand-ins for the static tools" &&
	git checkout -q -b work
}

# 1 adds a sparse and a kdoc finding, 2 a W=1 and a cocci one, 3
# removes the old sparse finding and touches no other C file
make_series() {
	tick &&
	printf '/* sparse: symbol '"'"'x'"'"' was not declared */\n/* kdoc: no description for foo */\n' >>mm/compaction.c &&
	git commit -qam "mm/compaction: add two findings" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	printf 'int vmscan_w1(void) { return 0; }\n/* cocci: Unneeded semicolon */\n' >>mm/vmscan.c &&
	git commit -qam "mm/vmscan: add vmscan_w1()" -m "Signed-off-by: A U Thor <author@example.org>" &&
	tick &&
	sed -i "/old noise in compaction/d" mm/compaction.c &&
	echo "more" >>COPYING &&
	git commit -qam "mm/compaction: drop the old finding" -m "Signed-off-by: A U Thor <author@example.org>"
}

setup_base && make_series || { echo "Bail out! cannot make the series"; exit 1; }
respin track k --base static-base >/dev/null
git config respin.check.checkpatch.enabled false
for k in sparse w1 kdoc coccicheck; do
	git config respin.check.$k.kind $k
done

# the cells of check $1 at patches 1..3, from respin results --json
cells() {
	respin results k --json | perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>); my @p = @{$d->{patches}};
		print join(" ", map { $_->{results}{$ARGV[0]}{summary} // "-" } @p[1..3]), "\n";
	' "$1"
}

test_expect_success 'check --list names the kinds and their default commands' '
	respin check --list >out &&
	test_grep "^sparse  *sparse  *make C=2 CHECK=sparse" out &&
	test_grep "^kdoc  *kdoc  *scripts/kernel-doc -none" out &&
	test_grep "^coccicheck  *coccicheck make coccicheck MODE=report M=DIR" out &&
	respin check --list --json >j && test_grep "\"default_command\": \"command -v sparse" j
'

test_expect_success 'the first check runs each kind on each patch' '
	respin check k >out 2>err &&
	test_grep "^16 run, 0 reused, 0 failed$" out
'

test_expect_success 'each finding is attributed to exactly its patch' '
	cells sparse >got && echo "+1 ok ok -1" >want && check_same want got &&
	cells kdoc >got && echo "+1 ok ok" >want && check_same want got &&
	cells w1 >got && echo "ok +1 ok" >want && check_same want got &&
	cells coccicheck >got && echo "ok +1 ok" >want && check_same want got
'

test_expect_success 'the findings are the tools'"'"' lines without their numbers' '
	respin results k --json >j && perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>); my @p = @{\$d->{patches}};
		my \$r = \$p[1]{results};
		exit 2 unless join(q(|), @{\$r->{sparse}{new_warnings}}) =~
			/^mm\/compaction.c: warning: symbol .x. was not declared\$/;
		exit 3 unless join(q(|), @{\$r->{kdoc}{new_warnings}}) eq
			q(mm/compaction.c: warning: no description for foo);
		exit 4 unless \$p[2]{results}{w1}{new_warnings}[0] =~
			/^mm\/vmscan.c: warning: no previous prototype for .vmscan_w1. \[-Wmissing-prototypes\]\$/;
		exit 5 unless join(q(|), @{\$p[2]{results}{coccicheck}{new_warnings}}) eq
			q(mm/vmscan.c: Unneeded semicolon);
		exit 6 unless join(q(|), @{\$p[3]{results}{sparse}{fixed_warnings}}) eq
			q(mm/compaction.c: warning: old noise in compaction);
		exit 7 if @{\$p[2]{results}{kdoc}{new_warnings}};
	" <j &&
	respin results k --check sparse --patch 1 >d &&
	test_grep "^new  *mm/compaction.c: warning: symbol .x. was not declared$" d &&
	test_grep "^respin: before the patch, on:$" d &&
	test_grep "^respin: after the patch, on:$" d
'

test_expect_success 'results: the new columns, nothing on the base' '
	respin results k >out &&
	test_grep "^base  *ok, [0-9]* warnings$" out &&
	test_grep "^ *1/3  *ok  *+1  *ok  *+1  *ok  *mm/compaction: add two findings$" out
'

test_expect_success 'a second check runs nothing' '
	respin check k >out &&
	test_grep "^0 run, 16 reused, 0 failed$" out
'

test_expect_success 'v2 changes only patch 3: only patch 3 is looked at again' '
	tick &&
	echo "more again" >>COPYING &&
	git commit -q --amend -a --no-edit &&
	mark_sent k && respin track k >/dev/null &&
	respin check k >out &&
	test_grep "^5 run, 11 reused, 0 failed$" out &&
	cells sparse >got && echo "+1 ok ok -1" >want && check_same want got
'

test_expect_success 'diff --results, the cover letter and the patch mail show them' '
	tick &&
	sed -i "s|^/\* kdoc: no description for foo \*/|/* kdoc: no description for bar */|" mm/compaction.c &&
	git commit -q -a --fixup HEAD~2 &&
	GIT_SEQUENCE_EDITOR=true git rebase -q -i --autosquash static-base &&
	mark_sent k && respin track k >/dev/null &&
	respin check k >out &&
	respin diff k v2 v3 --results >d &&
	test_grep "kdoc: -1 warning: mm/compaction.c: warning: no description for foo" d &&
	test_grep "kdoc: +1 warning: mm/compaction.c: warning: no description for bar" d &&
	respin cover k >c &&
	test_grep "^1/3  *ok  *+1  *ok  *+1  *ok" c &&
	respin format k -o fmt >/dev/null &&
	test_grep "^respin: build ok, no new warnings; sparse ok, 1 new warning; w1 ok, no new warnings; kdoc ok, 1 new warning; coccicheck ok, no new warnings$" fmt/v3-0001-*.patch &&
	test_grep "; w1 ok, 1 new warning; kdoc ok, no new warnings; coccicheck ok, 1 new warning$" fmt/v3-0002-*.patch
'

test_expect_success 'a result depends on the tree before the patch too' '
	git checkout -q -B squashed static-base &&
	git merge -q --squash work~1 && git commit -qm "mm: patches 1 and 2 in one" -m "Signed-off-by: A U Thor <author@example.org>" &&
	test "$(git rev-parse HEAD^{tree})" = "$(git rev-parse work~1^{tree})" &&
	respin track sq --base static-base >/dev/null &&
	respin check sq --only sparse,coccicheck >out &&
	test_grep "^2 run, 0 reused, 0 failed$" out &&
	respin results sq >t &&
	test_grep "^ *1/1  *ok  *+1  *-  *-  *+1  *mm: patches 1 and 2 in one$" t
'

# ---- what a user can meet ----
# a one-patch series of its own (new trees: nothing stored for them)
one_patch() {
	git checkout -q -B "$1" static-base &&
	tick &&
	printf '/* %s */\n' "$1" >>mm/page_alloc.c &&
	git commit -qam "mm/page_alloc: $1" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track "$1" --base static-base >/dev/null
}

test_expect_success 'sparse not installed: an ERROR that says so, not stored' '
	one_patch e1 &&
	mkdir nosparse &&
	for f in $(ls /usr/bin); do
		{ test "$f" = sparse || ln -s "/usr/bin/$f" "nosparse/$f"; } || return 1
	done &&
	test_expect_code 1 env PATH="$RESPIN_BUILD:$PWD/nosparse" respin check e1 --only sparse >out 2>err &&
	test_grep "^sparse at 1/1: ERROR: a program the command runs is missing (exit 127):$" err &&
	test_grep "respin: sparse is not installed (Debian: apt-get install sparse)" err &&
	test_grep "^1 run, 0 reused, 1 failed$" out &&
	respin results e1 --json >j && test_grep ! "\"sparse\"" j &&
	respin check e1 --only sparse >out 2>err &&
	test_grep "^1 run, 0 reused, 0 failed$" out
'

test_expect_success 'a tool that fails: FAIL, with the end of what it printed' '
	one_patch e2 &&
	git config respin.check.broken.kind kdoc &&
	git config respin.check.broken.command "echo it broke >&2; exit 3" &&
	test_when_finished "git config --remove-section respin.check.broken" &&
	test_expect_code 1 respin check e2 --only broken >out 2>err &&
	test_grep "^broken at 1/1: FAIL (exit 3 before the patch); the last lines:$" err &&
	test_grep "^it broke$" err &&
	respin results e2 --json >j && test_grep "\"summary\": \"FAIL\"" j
'

test_expect_success 'a tool that runs too long: TIMEOUT, not stored' '
	one_patch e3 &&
	git config respin.check.slow.kind kdoc &&
	git config respin.check.slow.command "sleep 10" &&
	git config respin.check.slow.timeout 1 &&
	test_when_finished "git config --remove-section respin.check.slow" &&
	test_expect_code 1 respin check e3 --only slow >out 2>err &&
	test_grep "^slow at 1/1: TIMEOUT after 1 s before the patch (respin.check.slow.timeout)$" err &&
	respin results e3 --json >j && test_grep ! "\"slow\"" j
'

test_expect_success 'paths with syntax in them are left out and named, never run' '
	git checkout -q -B e4 static-base &&
	tick &&
	echo "int a;" >"mm/\$(touch PWNED).c" &&
	echo "int b;" >"mm/we ird.c" &&
	echo "int c;" >"mm/semi;colon.h" &&
	git add mm && git commit -qm "mm: odd names" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track e4 --base static-base >/dev/null &&
	respin check e4 --only sparse,kdoc,coccicheck,w1 >out 2>err &&
	test_grep "^sparse at 1/1: left out .mm/\$(touch PWNED).c.: respin gives a tool only paths of letters, digits and \"_-.,+/\"$" err &&
	test_grep "^sparse at 1/1: left out .mm/we ird.c.: " err &&
	test_grep "^kdoc at 1/1: left out .mm/semi;colon.h.: " err &&
	test_grep "^4 run, 0 reused, 0 failed$" out &&
	test_path_is_missing PWNED && test_path_is_missing .git/respin/worktrees/e4/PWNED &&
	test_path_is_missing .git/respin/worktrees/e4/mm/PWNED &&
	cells_of() { respin results e4 --json | perl -MJSON::PP -e "local \$/; print decode_json(<STDIN>)->{patches}[1]{results}{\$ARGV[0]}{summary}" "$1"; } &&
	test "$(cells_of sparse)" = "no kernel .c files" &&
	test "$(cells_of kdoc)" = "no .c or .h files"
'

test_expect_success 'a patch with no C file: a skip, said in the cell' '
	git checkout -q -B e5 static-base &&
	tick && echo more >>COPYING &&
	git commit -qam "COPYING: more" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track e5 --base static-base >/dev/null &&
	respin check e5 --only sparse >out &&
	respin results e5 >t &&
	# (sparse makes in the build directory: --only builds the tree first)
	test_grep "^ *1/1  *ok  *no kernel .c files  *-  *-  *-  *COPYING: more$" t
'

test_expect_success 'sparse and W=1 leave the selftests and host tools out, kdoc not' '
	git checkout -q -B e6 static-base &&
	tick && mkdir -p tools/testing/selftests/vm scripts &&
	printf "int t(void) { return 0; }\\n" >tools/testing/selftests/vm/t.c &&
	printf "int h(void) { return 0; }\\n" >scripts/h.c &&
	git add tools scripts &&
	git commit -qm "selftests: a test" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track e6 --base static-base >/dev/null &&
	respin check e6 --only sparse,w1,kdoc >out 2>err &&
	test_grep "^3 run, 0 reused, 0 failed$" out &&
	cells_of() { respin results e6 --json | perl -MJSON::PP -e "local \$/; print decode_json(<STDIN>)->{patches}[1]{results}{\$ARGV[0]}{summary}" "$1"; } &&
	test "$(cells_of sparse)" = "no kernel .c files" &&
	test "$(cells_of w1)" = "no kernel .c files" &&
	test "$(cells_of kdoc)" = "ok"
'

test_expect_success 'an unknown kind names the kinds there are' '
	git config respin.check.bad.kind sparce &&
	test_when_finished "git config --remove-section respin.check.bad" &&
	test_expect_code 128 respin check --list >out 2>err &&
	test_grep "unknown kind .sparce. (build, lint, ktap, bench, command, sparse, w1, kdoc, coccicheck or kselftest)" err
'

test_expect_success 'bisect: a static check looks at each patch alone' '
	test_expect_code 129 respin bisect k --check sparse >out 2>err &&
	test_grep "looks at each patch alone (a sparse check)" err
'

test_done
