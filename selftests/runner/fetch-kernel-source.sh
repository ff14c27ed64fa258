#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the few files of a Debian kernel source package that the quick
# tier uses, into a cache directory, and print that directory:
#   net/ipv4/tcp_bbr.c, tcp_cubic.c   reference CCs for the model tests
#                                     (make -C selftests/model check KSRC=...)
#   scripts/checkpatch.pl (+ data)    the kernel's style checker
# Nothing from the kernel source is committed to this repository.
#
# Usage: fetch-kernel-source.sh [CACHE_DIR]   (default ~/.cache/tcp_bbr2)
set -euo pipefail

PKG=linux-source-6.1
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/tcp_bbr2}
dest=$cache/$PKG
files=(net/ipv4/tcp_bbr.c net/ipv4/tcp_cubic.c scripts/checkpatch.pl
       scripts/spelling.txt scripts/const_structs.checkpatch)

complete() {
	local f
	for f in "${files[@]}"; do [ -r "$dest/$f" ] || return 1; done
}

if ! complete; then
	mkdir -p "$cache"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# A fresh machine may have no package lists yet.
	(cd "$tmp" && { apt-get download "$PKG" >&2 ||
		{ apt-get update >&2 && apt-get download "$PKG" >&2; }; }) || {
		echo "fetch-kernel-source.sh: apt-get download $PKG failed (apt-get update?)" >&2
		exit 1
	}
	dpkg-deb --fsys-tarfile "$tmp"/"$PKG"_*.deb |
		tar -x -C "$tmp" --wildcards './usr/src/linux-source-*.tar.xz'
	mkdir -p "$dest"
	tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$dest" \
		--strip-components=1 "${files[@]/#/linux-source-6.1/}"
	complete || { echo "fetch-kernel-source.sh: files missing in $PKG" >&2; exit 1; }
fi
echo "$dest"
