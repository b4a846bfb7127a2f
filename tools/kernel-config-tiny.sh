#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tools/kernel-config-tiny.sh [--build] [--enable OPT]... [--try OPT]... KSRC OUTDIR
#
# Writes OUTDIR/.config: a 64-bit x86 tinyconfig that boots under QEMU
# with a serial console, either with an initramfs holding static test
# programs (tools/respin-qemu-ktap) or with the host's root filesystem
# over 9p (tools/respin-guest: PCI, virtio-pci, 9p, tmpfs, devtmpfs,
# overlayfs), and says what went wrong in a kernel log (BUG() and
# WARN() with their file and function: BUG, DEBUG_BUGVERBOSE,
# KALLSYMS).  Runs, with ARCH=x86_64 and O=OUTDIR so the source tree
# KSRC stays clean:
#
#   make tinyconfig
#   scripts/config --enable 64BIT PRINTK TTY SERIAL_8250
#       SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_ELF PROC_FS
#       SYSFS DEVTMPFS ADVISE_SYSCALLS ... 9P_FS ... (and each --enable OPT)
#       --disable IPV6 INET_DIAG WIRELESS (unless enabled or tried)
#   make olddefconfig
#
# and checks that every wanted option really is =y afterwards (an
# option whose dependencies are missing is dropped silently by
# olddefconfig: that is an error here).
#
# When OUTDIR/.config already came from this script with the same
# options (stamp OUTDIR/.respin-tiny-config), nothing is done, so the
# configuration's timestamps do not change and a rebuild is quick.
#
# --build: then also `make -jNPROC bzImage` and print the path of
# OUTDIR/arch/x86/boot/bzImage on stdout.
# --enable OPT: one more option (without CONFIG_), repeatable.
# --try OPT: one more option if its dependencies allow it (what respin's
#   kconfig = tiny-qemu asks for: the options of the touched files and
#   of the selftests, found in the tree).  One that olddefconfig drops
#   gets its dependencies tried too: the symbols its Kconfig entry
#   "depends on" (and the "if" blocks and menus around it) need set,
#   those of the first alternative of an ||, never COMPILE_TEST, up to
#   five levels deep (GUP_TEST brings DEBUG_FS; MEM_SOFT_DIRTY,
#   CHECKPOINT_RESTORE).  What is enabled so is named on stderr, and
#   an option still dropped is named, not an error.
#
# In a tree with the mm selftests (tools/testing/selftests/vm, mm since
# 6.3), what their run_vmtests.sh needs beyond their config file is
# tried as well (the vm/mm part below).
#
# Environment: MAKE (default make), JOBS (default nproc).
set -eu

# Bump when the base option list or what is tried changes, with
# KCONFIG_TINY_FORMAT in ci/kconfig.h.
# (3: the host's root over 9p for tools/respin-guest, and kernel
# warnings with their place: BUG DEBUG_BUGVERBOSE KALLSYMS; 4: with
# the vm/mm options run_vmtests.sh needs, tried; 5: VM_EVENT_COUNTERS,
# the /proc/vmstat events (pgfault, compact_*) a bench's vmstat reads)
format="respin-tiny-config 5"
base_opts="64BIT PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD
RD_GZIP BINFMT_ELF BINFMT_SCRIPT PROC_FS SYSFS DEVTMPFS ADVISE_SYSCALLS
MULTIUSER FUTEX POSIX_TIMERS EPOLL SIGNALFD TIMERFD EVENTFD SHMEM AIO
FILE_LOCKING
PCI VIRTIO_MENU VIRTIO_PCI NET INET UNIX NET_9P NET_9P_VIRTIO 9P_FS TMPFS
DEVTMPFS_MOUNT OVERLAY_FS TMPFS_XATTR PROC_SYSCTL BUG DEBUG_BUGVERBOSE
KALLSYMS VM_EVENT_COUNTERS"
# What INET brings along that no guest here uses (slower to build and
# to boot), unless asked for with --enable or --try.
base_off="IPV6 INET_DIAG WIRELESS"

# The vm/mm part: what run_vmtests.sh needs that the selftests' config
# file does not ask for (without HUGETLBFS it stops at once: "no
# hugetlbfs support in kernel?"), tried when the tree has those tests.
mm_tries="HUGETLBFS TRANSPARENT_HUGEPAGE USERFAULTFD SYSVIPC DEBUG_FS GUP_TEST
CHECKPOINT_RESTORE MEM_SOFT_DIRTY KSM COMPACTION MIGRATION"

die() { echo "kernel-config-tiny: error: $*" >&2; exit 1; }
usage() { echo "usage: $0 [--build] [--enable OPT]... [--try OPT]... KSRC OUTDIR" >&2; exit 129; }

build=
extra=
tries=
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=1; shift ;;
	--enable)
		[ $# -ge 2 ] || usage
		extra="$extra ${2#CONFIG_}"; shift 2 ;;
	--enable=*) o=${1#--enable=}; extra="$extra ${o#CONFIG_}"; shift ;;
	--try)
		[ $# -ge 2 ] || usage
		tries="$tries ${2#CONFIG_}"; shift 2 ;;
	-h|--help) sed -n '3,47s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# = 2 ] || usage
ksrc=$1
out=$2
: "${MAKE:=make}"
: "${JOBS:=$(nproc 2>/dev/null || echo 2)}"

[ -f "$ksrc/Makefile" ] && [ -x "$ksrc/scripts/config" ] ||
	die "$ksrc is not a kernel source tree (no Makefile or scripts/config)"
mkdir -p "$out"
ksrc=$(cd "$ksrc" && pwd)
out=$(cd "$out" && pwd)
[ "$ksrc" != "$out" ] || die "OUTDIR must not be the source tree"

if [ -d "$ksrc/tools/testing/selftests/vm" ] ||
	[ -d "$ksrc/tools/testing/selftests/mm" ]; then
	tries="$tries $mm_tries"
fi
opts=$(echo $base_opts $extra)
tries=$(echo $tries)
for o in $opts $tries; do
	case $o in
	*[!A-Za-z0-9_]*|"") die "'$o' is not an option name" ;;
	esac
done
want="$format: $opts${tries:+ try: $tries} off: $base_off"
stamp=$out/.respin-tiny-config
km() { $MAKE -s -C "$ksrc" ARCH=x86_64 O="$out" "$@"; }

# not_set OPT...: those not =y in the .config; is_set: those that are
not_set() {
	for o; do grep -qx "CONFIG_$o=y" "$out/.config" || echo "$o"; done
}
is_set() {
	for o; do ! grep -qx "CONFIG_$o=y" "$out/.config" || echo "$o"; done
}

# depends_of OPT...: the symbols these options' Kconfig entries need
# set, one a line: from "depends on", the "if" blocks and the menus
# around the entry; of an || the first alternative; no negated ones.
# The Kconfig files of x86 and of no other arch are read.
depends_of() {
	find "$ksrc" \( -type d -path "$ksrc/arch/*" ! -path "$ksrc/arch/x86*" \) -prune \
		-o \( -path "$ksrc/Documentation" -o -path "$ksrc/tools" \) -prune \
		-o -name 'Kconfig*' -type f -print |
	sort | xargs awk -v want=" $* " '
	function deps(e,   n, k, w) {
		gsub(/![ \t]*\([^)]*\)/, " ", e)	# !(A && B)
		gsub(/![ \t]*[A-Za-z0-9_]+/, " ", e)	# !A
		gsub(/[A-Za-z0-9_]+[ \t]*!?=[ \t]*n/, " ", e)
		sub(/\|\|.*/, "", e)			# the first alternative
		gsub(/[^A-Za-z0-9_]/, " ", e)
		n = split(e, w, " ")
		for (k = 1; k <= n; k++)
			if (w[k] ~ /^[A-Z][A-Z0-9_]*$/ && w[k] != "COMPILE_TEST")
				print w[k]
	}
	FNR == 1 { nif = 0; nmenu = 0; cur = "" }
	{
		line = $0
		while (line ~ /\\$/ && (getline more) > 0) {
			sub(/\\$/, " ", line)
			line = line more
		}
		sub(/#.*/, "", line)
		if (match(line, /^[ \t]*(menu)?config[ \t]+[A-Za-z0-9_]+/)) {
			w = substr(line, RSTART, RLENGTH)
			sub(/.*[ \t]/, "", w)
			cur = (index(want, " " w " ") ? w : "")
			if (cur != "") {
				for (k = 1; k <= nif; k++) deps(ifs[k])
				for (k = 1; k <= nmenu; k++) {
					n = split(menus[k], m, "\001")
					for (l = 1; l <= n; l++) deps(m[l])
				}
			}
		} else if (line ~ /^[ \t]*menu[ \t]/) {
			menus[++nmenu] = ""; cur = "@menu"
		} else if (line ~ /^[ \t]*endmenu/) {
			if (nmenu) nmenu--; cur = ""
		} else if (line ~ /^if[ \t]/) {
			e = line; sub(/^if[ \t]+/, "", e); ifs[++nif] = e; cur = ""
		} else if (line ~ /^endif/) {
			if (nif) nif--; cur = ""
		} else if (line ~ /^[ \t]*(choice|endchoice|comment|source|mainmenu)/) {
			cur = ""
		} else if (line ~ /^[ \t]*depends[ \t]+on[ \t]/) {
			e = line; sub(/^[ \t]*depends[ \t]+on[ \t]+/, "", e)
			if (cur == "@menu") menus[nmenu] = menus[nmenu] "\001" e
			else if (cur != "") deps(e)
		}
	}' | sort -u
}

if [ -f "$out/.config" ] && [ -f "$stamp" ] &&
	[ "$(cat "$stamp")" = "$want" ]; then
	:
else
	rm -f "$stamp"
	echo "kernel-config-tiny: tinyconfig + $opts${tries:+ (if they can be: $tries)}" >&2
	km tinyconfig >&2
	set --
	for o in $base_off; do
		case " $opts $tries " in *" $o "*) ;; *) set -- "$@" --disable "$o" ;; esac
	done
	for o in $opts $tries; do set -- "$@" --enable "$o"; done
	"$ksrc/scripts/config" --file "$out/.config" "$@"
	km olddefconfig >&2
	missing=
	for o in $opts; do
		grep -qx "CONFIG_$o=y" "$out/.config" || missing="$missing $o"
	done
	[ -z "$missing" ] ||
		die "not enabled after olddefconfig (missing dependencies?):$missing"
	dropped=$(not_set $tries)
	added= round=0
	while [ -n "$dropped" ] && [ $round -lt 5 ]; do
		round=$((round + 1))
		deps=$(depends_of $dropped)
		deps=$(not_set $deps)
		new=
		for d in $deps; do
			case " $added " in *" $d "*) ;; *) new="$new $d" ;; esac
		done
		[ -n "$new" ] || break
		added="$added$new"
		# (olddefconfig unset the dropped ones: set again with theirs)
		set --
		for d in $new $dropped; do set -- "$@" --enable "$d"; done
		"$ksrc/scripts/config" --file "$out/.config" "$@"
		km olddefconfig >&2
		# (what this round enabled may bring other tries with it)
		dropped=$(not_set $tries $added)
	done
	enabled=$(is_set $added)
	dropped=$(not_set $tries)
	[ -z "$enabled" ] ||
		echo "kernel-config-tiny: enabled for the options wanted:" $enabled >&2
	[ -z "$dropped" ] ||
		echo "kernel-config-tiny: not enabled (their dependencies are not):" $dropped >&2
	echo "$want" >"$stamp"
fi

if [ -n "$build" ]; then
	km -j"$JOBS" bzImage >&2 || die "make bzImage failed in $out"
	echo "$out/arch/x86/boot/bzImage"
fi
