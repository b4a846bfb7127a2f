#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian 12 packages respin needs to build, test, demo and
# bench.  Quiet and quick when everything is there already.
set -eu
# (libcap-dev, libnuma-dev and rsync: installing the kernel's selftests)
pkgs="build-essential pkg-config git perl libgit2-dev libgmime-3.0-dev
libsqlite3-dev libcurl4-openssl-dev zlib1g-dev libjson-c-dev libnotmuch-dev notmuch b4
public-inbox xz-utils cpio bc flex bison libelf-dev libssl-dev libcap-dev
qemu-system-x86 man-db hyperfine time libc6-dev gzip chromium fonts-dejavu-core
python3 clang libclang-rt-14-dev git-email libmailtools-perl slurm-wlm munge
sparse coccinelle lowdown stress-ng fio libnuma-dev rsync quilt"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "respin needs these Debian packages:$missing" >&2
	echo "run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
