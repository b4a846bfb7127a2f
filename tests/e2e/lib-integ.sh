# Sourced by the tests of respin tree and replace: make_integ builds, in
# the fixture of the current directory, five tracked series and an
# integration branch "integ" above "upstream" that holds them the way
# mm-unstable does:
#   A v2 (v1 also recorded), applied as sent;
#   B v1, patch 2's subject edited by the maintainer, patch 3's code;
#   C v1 (v2 known), with two fixups of patch 1 ("c-core-make-one-fix",
#     "c-core-make-one-fix-2");
#   D v1 (imported from mail), its code and subject edited, found by the
#     Link: the maintainer added;
#   E v2 (v1 before it, v3 after it: patch 2 changed, patch 3 dropped,
#     a new patch 3);
# and three commits of no series (u1, u2, u3) between them.

ci() {	# ci FILE LINE SUBJECT...: append LINE to FILE and commit
	_f=$1 _l=$2; shift 2
	mkdir -p "$(dirname "$_f")" && echo "$_l" >>"$_f" && git add "$_f" &&
	git commit -q -m "$*" -m "Signed-off-by: $(git config user.name) <$(git config user.email)>"
}

make_integ() {
	# The versions stand for versions a maintainer took from the list,
	# each a number of its own; made here by track, with no mail (a
	# Message-ID would have replace ask lore for their tags), so in the
	# numbering that gives each recorded change a new number.
	git config respin.numbering track
	git config respin.check.build.enabled false
	git config respin.check.checkpatch.enabled false
	git checkout -q -b upstream mm-unstable &&
	ci base.txt base "base: the upstream it starts from" || return 1

	git checkout -q -b a-work upstream &&
	ci a/a.c one "a: add one" && ci a/a.c two "a: add two" &&
	respin track A --base upstream >/dev/null &&
	git commit -q --amend -m "a: add two, better" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track A >/dev/null || return 1

	git checkout -q -b b-work upstream &&
	ci b/b1.c one "b: add one" && ci b/b2.c two "b: add two" &&
	ci b/b3.c three "b: add three" &&
	respin track B --base upstream >/dev/null || return 1

	git checkout -q -b c-work upstream &&
	ci c/core.c one "c/core: make one" && ci c/core2.c two "c/core: make two" &&
	respin track C --base upstream >/dev/null &&
	echo "two, v2" >c/core2.c && git commit -q -a --amend --no-edit &&
	respin track C >/dev/null || return 1

	git checkout -q -b d-work upstream &&
	ci d/d.c one "d: the only one" &&
	git format-patch -q --stdout -1 --add-header="Message-Id: <d1-v1@example.org>" >"$TRASH/d.mbox" &&
	git checkout -q upstream &&
	respin import D "$TRASH/d.mbox" --base upstream >/dev/null 2>&1 || return 1

	git checkout -q -b e-work upstream &&
	ci e/e1.c one "e: one" && ci e/e2.c two "e: two" && ci e/e3.c three-old "e: three" &&
	respin track E --base upstream >/dev/null &&
	echo three >e/e3.c && git commit -q -a --amend --no-edit &&
	respin track E >/dev/null && git tag e-v2 &&
	git reset -q --hard HEAD~2 &&
	ci e/e2.c "two, v3" "e: two" && ci e/e4.c four "e: four" &&
	respin track E >/dev/null || return 1

	# the integration branch
	git checkout -q -b integ upstream &&
	ci u/u1 one "misc: one of no series" &&
	git cherry-pick a-work~1 a-work >/dev/null &&
	git cherry-pick b-work~2 >/dev/null &&
	git cherry-pick b-work~1 >/dev/null && git commit -q --amend -m "b: add two (edited)" &&
	git cherry-pick b-work >/dev/null && echo "three, fixed" >b/b3.c && git commit -q -a --amend --no-edit &&
	ci u/u2 two "misc: two of no series" &&
	git cherry-pick "c-work@{1}~1" >/dev/null &&
	ci c/core.c fix "c-core-make-one-fix" &&
	ci c/core.c fix2 "c-core-make-one-fix-2" &&
	git cherry-pick "c-work@{1}" >/dev/null &&
	git cherry-pick d-work >/dev/null && echo "one, edited" >d/d.c &&
	git commit -q -a --amend -m "d: the only one, edited" \
		-m "Link: https://lore.kernel.org/r/d1-v1@example.org" &&
	git cherry-pick e-v2~2 e-v2~1 e-v2 >/dev/null &&
	ci u/u3 three "misc: three of no series" &&
	git checkout -q upstream
}
