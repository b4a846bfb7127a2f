#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/kernel-tree.sh [--print-dir]
#
# Makes Debian's linux-source-6.1 into a git repository, cached between
# runs in ${RESPIN_CACHE:-$HOME/.cache/respin}/linux-6.1, and prints its
# path.  The repository has one commit (fixed identity and date) on the
# branches main and mm-unstable, gc.auto=0, and a clean working tree.
# checkpatch.pl, spelling.txt, const_structs.checkpatch and
# get_maintainer.pl are also put side by side in ${cache}/checkpatch/ for
# running them standalone (on the test fixture, say).
#
# The first run takes a few minutes (download of 139 MB unless
# /usr/src/linux-source-6.1.tar.xz is installed, unpacking, git add,
# commit); later runs return at once.  The tree is built in a
# temporary directory next to the cache and renamed into place, with a
# stamp (.git/respin-ready, holding the package version) written before
# the rename, so an interrupted run never leaves a half-made cache.  A
# lock (flock) keeps concurrent callers from building it twice: the
# second one waits and then reuses the first one's tree.
#
# --print-dir: print where the repository is (or would be) without
# building it; exit 0 when it is ready, 1 when it is not.
set -eu

PKG=linux-source-6.1
cache=${RESPIN_CACHE:-$HOME/.cache/respin}
repo=$cache/linux-6.1
stamp=.git/respin-ready
# Bump when the way the tree is made changes: older caches are rebuilt.
format="respin-kernel-tree 2"
cpdir=$cache/checkpatch
cpfiles="checkpatch.pl spelling.txt const_structs.checkpatch get_maintainer.pl"

say() { echo "kernel-tree: $*" >&2; }
die() { echo "kernel-tree: error: $*" >&2; exit 1; }

is_ready() {
	[ -f "$repo/$stamp" ] && grep -q "^$format " "$repo/$stamp"
}

case "${1:-}" in
--print-dir)
	echo "$repo"
	is_ready
	exit $? ;;
"") ;;
-h|--help)
	sed -n '3,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
*)
	echo "usage: $0 [--print-dir]" >&2; exit 129 ;;
esac

# The checkpatch files, from the repository (cheap: git show).
cp_ready() {
	for f in $cpfiles; do
		[ -f "$cpdir/$f" ] || return 1
	done
}

checkpatch_dir() {
	cp_ready && return 0
	_t=$(mktemp -d "$cache/.checkpatch.tmp.XXXXXX")
	for f in $cpfiles; do
		git -C "$1" show "main:scripts/$f" >"$_t/$f"
	done
	chmod 755 "$_t" "$_t/checkpatch.pl" "$_t/get_maintainer.pl"
	rm -rf "$cpdir"
	mv "$_t" "$cpdir"
}

ready() {
	is_ready || return 1
	checkpatch_dir "$repo"
	echo "$repo"
	exit 0
}

mkdir -p "$cache"
# Fast path: no lock needed, the stamp is written before the rename.
is_ready && cp_ready && { echo "$repo"; exit 0; }

exec 9>"$cache/.linux-6.1.lock"
if ! flock -n 9; then
	say "waiting for another kernel-tree.sh to finish the cache..."
	flock 9
fi
ready || true

# We hold the lock: anything half-made is from an interrupted run.
rm -rf "$cache"/.linux-6.1.tmp.* "$cache"/.checkpatch.tmp.*
[ -e "$repo" ] && say "$repo is incomplete or out of date: making it again"

tmp=$(mktemp -d "$cache/.linux-6.1.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
start=$(date +%s)

tree=$tmp/linux-6.1
mkdir "$tree"
# untar: the tarball's top directory is linux-source-6.1/.
untar() {
	tar -xJ --no-same-owner --no-same-permissions --strip-components=1 -C "$tree"
}
if [ -f /usr/src/$PKG.tar.xz ]; then
	version=$(dpkg-query -W -f='${Version}' $PKG 2>/dev/null || echo unknown)
	say "unpacking /usr/src/$PKG.tar.xz ($version)"
	untar </usr/src/$PKG.tar.xz
else
	say "downloading $PKG with apt-get download"
	mkdir "$tmp/deb"
	aptopt=""
	# as root, apt warns that its sandbox user cannot write here
	[ "$(id -u)" = 0 ] && aptopt="-o APT::Sandbox::User=root"
	if ! (cd "$tmp/deb" && apt-get download -q $aptopt $PKG >&2); then
		[ "$(id -u)" = 0 ] || die "apt-get download $PKG failed (try: sudo apt-get update)"
		say "apt-get download failed; running apt-get update and retrying"
		apt-get update -q >&2
		(cd "$tmp/deb" && apt-get download -q $aptopt $PKG >&2) ||
			die "apt-get download $PKG failed"
	fi
	deb=$(ls "$tmp"/deb/${PKG}_*.deb)
	version=$(dpkg-deb -f "$deb" Version)
	say "unpacking $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/$PKG.tar.xz | untar
	rm -rf "$tmp/deb"
fi
[ -f "$tree/mm/compaction.c" ] && [ -f "$tree/scripts/checkpatch.pl" ] ||
	die "the unpacked tree has no mm/compaction.c or scripts/checkpatch.pl"

# Debian's tarball ends its top .gitignore with a stanza that ignores
# everything ("/*"): drop it from its comment line to the end.  Debian
# also dropped upstream's exceptions to ".*" (.mailmap, .gitignore...),
# hiding 324 real files: put them back.
gi=$tree/.gitignore
line=$(grep -n -i '^#.*debian' "$gi" | tail -n 1 | cut -d: -f1)
if [ -n "$line" ] && tail -n +"$line" "$gi" | grep -qx '/\*'; then
	# ...and the blank or bare "#" lines just before it
	awk -v stop="$line" 'NR < stop { l[NR] = $0; n = NR }
		END { while (n > 0 && l[n] ~ /^#?[ \t]*$/) n--
		      for (i = 1; i <= n; i++) print l[i] }' "$gi" >"$gi.new"
	cat >>"$gi.new" <<'EOF'

#
# We don't want to ignore the following even if they are dot-files
#
!.clang-format
!.cocciconfig
!.get_maintainer.ignore
!.gitattributes
!.gitignore
!.mailmap
!.rustfmt.toml
EOF
	mv "$gi.new" "$gi"
elif grep -qx '/\*' "$gi"; then
	die "cannot find the Debian stanza in .gitignore"
fi

nfiles=$(cd "$tree" && find . \( -type f -o -type l \) -print | wc -l)
say "git add + commit ($nfiles files)"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME='respin kernel-tree' GIT_AUTHOR_EMAIL='respin@example.org'
export GIT_COMMITTER_NAME='respin kernel-tree' GIT_COMMITTER_EMAIL='respin@example.org'
export GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
git -C "$tree" init -q -b main
git -C "$tree" config gc.auto 0
git -C "$tree" config core.fsync none 2>/dev/null || true
git -C "$tree" add -A
# Every file of the tarball is source: add any that are still ignored.
git -C "$tree" ls-files -z --others --ignored --exclude-standard |
	(cd "$tree" && xargs -0 -r git add -f --)
ntracked=$(git -C "$tree" ls-files | wc -l)
[ "$ntracked" = "$nfiles" ] ||
	die "git tracks $ntracked files of the $nfiles unpacked"
git -C "$tree" commit -q -m "Linux ${version%%-*} ($PKG $version)" \
	-m "The tree of Debian's $PKG package, version $version, made into
a git repository by respin's tools/kernel-tree.sh."
git -C "$tree" branch mm-unstable main
# No repack: packing 83k objects and deleting the loose ones costs a
# minute or more of disk time, and loose objects read just as well
# (clone --shared, worktree add).  gc.auto=0 keeps git from doing it.
[ -z "$(git -C "$tree" status --porcelain)" ] || die "git status is not clean"

checkpatch_dir "$tree"
echo "$format $version" >"$tree/$stamp"
# Replace an outdated tree in two renames, never leaving none.
[ -e "$repo" ] && mv "$repo" "$tmp/old"
mv "$tree" "$repo"
say "done in $(( $(date +%s) - start )) s"
echo "$repo"
