#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sid-kernel.sh: Debian sid's newest 7.x kernel for the VM test bed, kept in
# the cache and never installed on the host (nothing in /boot, /lib/modules
# or the host's dpkg database), with tcp_bbr2.ko built for it.
#
#   sid-kernel.sh            fetch (once) and build; prints the kernel's ABI
#
#   1. selftests/build/build-matrix.sh 7 builds tcp_bbr2.ko with W=1 against the
#      newest 7.x headers in the build matrix's sid chroot (creating the
#      chroot if needed) and keeps it: $CACHE/kernels/<ABI>/tcp_bbr2.ko
#   2. apt-get in that chroot downloads the unsigned kernel of the same ABI
#      (linux-binary-unsigned-, linux-modules- and linux-base-<ABI>; before
#      7.x, linux-image-<ABI>-unsigned); dpkg-deb -x unpacks them into
#      $CACHE/kernels/<ABI>/ (usr/lib/modules/<ABI>, the image linked as
#      boot/vmlinuz-<ABI>) and the host's depmod indexes the modules there
#      (the guest's modprobe is the host's kmod)
#   3. $CACHE/kernels/7 points to <ABI>
#
# Then "vm-run -k 7" (or -k <ABI>) boots it, and
# "make -C selftests vm-selftest KVER=7" runs all three steps and the suite.
# If sid no longer has the image of the chroot's headers, the chroot gets
# sid's newest 7.x headers and the module is built again.
#
# Needs root (chroot).  CACHE defaults to ~/.cache/tcp_bbr2, as for the
# build matrix.  Exit code 0 only if the module built cleanly and the
# kernel is in place.
set -euo pipefail
export LC_ALL=C

VM_DIR=$(cd "$(dirname "$0")" && pwd)
SELFTESTS=$(cd "$VM_DIR/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/tcp_bbr2}
export CACHE
ROOT=$CACHE/sid-chroot
KERNELS=$CACHE/kernels

log() { echo "sid-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (the sid chroot): sudo $0"
for c in dpkg-deb depmod; do
	command -v "$c" >/dev/null || die "$c missing: apt-get install dpkg kmod"
done

# the ABI of the newest 7.x headers in the chroot
chroot_abi() {
	local d

	for d in "$ROOT"/usr/src/linux-headers-7.*-amd64; do
		[ -d "$d" ] && echo "${d##*/linux-headers-}"
	done | sort -V | tail -n 1
}

# build: the module, kept in $KERNELS/<ABI>/; the ABI on stdout
build() {
	local abi

	log "building tcp_bbr2.ko against sid's 7.x headers (build-matrix.sh 7)"
	KEEP_KO=$KERNELS "$SELFTESTS/build/build-matrix.sh" 7 >&2 ||
		die "the 7.x build failed (above)"
	abi=$(chroot_abi)
	if [ -z "$abi" ] || [ ! -f "$KERNELS/$abi/tcp_bbr2.ko" ]; then
		die "no module kept for '$abi' in $KERNELS"
	fi
	echo "$abi"
}

# fetch ABI DIR: download the kernel's packages into DIR (a path inside
# the chroot, as seen from the host).  From 7.x sid splits the old
# linux-image-ABI-unsigned into an image, a modules and a base package.
fetch() {
	local abi=$1 dir=$2 pkgs

	if chroot "$ROOT" apt-cache show "linux-binary-unsigned-$abi" >/dev/null 2>&1; then
		pkgs="linux-binary-unsigned-$abi linux-modules-$abi linux-base-$abi"
	else
		pkgs="linux-image-$abi-unsigned"
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	log "downloading $pkgs (apt-get download in the sid chroot)"
	# shellcheck disable=SC2016,SC2086 # the inner shell's $1 and $@; a word list
	chroot "$ROOT" sh -c 'cd "$1" && shift && apt-get -q -o APT::Sandbox::User=root download "$@"' \
		sh "${dir#"$ROOT"}" $pkgs >&2
}

abi=$(build)
dir=$KERNELS/$abi
if [ ! -r "$dir/boot/vmlinuz-$abi" ]; then
	debs=$ROOT/tmp/sid-kernel.$$
	tmp=$(mktemp -d "$KERNELS/.unpack.XXXXXX")
	trap 'rm -rf "$tmp" "$debs"' EXIT
	if ! fetch "$abi" "$debs"; then
		log "sid has no $abi kernel any more: updating the chroot"
		chroot "$ROOT" apt-get -q update >&2 || die "apt-get update in $ROOT failed"
		new=$(chroot "$ROOT" apt-cache pkgnames linux-headers-7 |
			sed -n 's/^linux-headers-\(7\.[0-9.]*+deb[0-9]*-amd64\)$/\1/p' |
			sort -V | tail -n 1) || new=
		if [ -z "$new" ] || [ "$new" = "$abi" ]; then
			die "no newer 7.x kernel in sid"
		fi
		log "installing linux-headers-$new in the sid chroot"
		chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
			--no-install-recommends "linux-headers-$new" >&2 ||
			die "installing linux-headers-$new in $ROOT failed"
		chroot "$ROOT" apt-get clean
		abi=$(build)
		[ "$abi" = "$new" ] || die "built for $abi, expected $new"
		dir=$KERNELS/$abi
		fetch "$abi" "$debs" || die "cannot download the $abi kernel from sid"
	fi
	log "unpacking them into $dir (dpkg-deb -x: the host's dpkg is not told)"
	for deb in "$debs"/*.deb; do
		dpkg-deb -x "$deb" "$tmp" || die "dpkg-deb -x $deb failed"
	done
	# the package's modules, wherever it puts them (usr/lib or lib)
	base=
	for b in "$tmp/usr" "$tmp"; do
		[ -d "$b/lib/modules/$abi/kernel" ] && base=$b && break
	done
	[ -n "$base" ] || die "no [usr/]lib/modules/$abi/kernel in $debs"
	depmod -b "$base" "$abi" || die "depmod for $abi failed"
	# the image as boot/vmlinuz-ABI (sid's 7.x ships it beside the modules)
	if [ ! -e "$tmp/boot/vmlinuz-$abi" ]; then
		for img in "$base/lib/modules/$abi/vmlinuz" "$base/lib/modules/$abi/vmlinuz.unsigned"; do
			[ -f "$img" ] || continue
			mkdir -p "$tmp/boot"
			ln -s "../${img#"$tmp"/}" "$tmp/boot/vmlinuz-$abi"
		done
	fi
	[ -r "$tmp/boot/vmlinuz-$abi" ] || die "no kernel image for $abi in $debs"
	# the kept module joins the unpacked tree, which then replaces the old
	cp "$dir/tcp_bbr2.ko" "$tmp/"
	chmod 755 "$tmp"
	rm -rf "$dir"
	mv "$tmp" "$dir"
fi
ln -sfn "$abi" "$KERNELS/7"
log "$dir: $(du -sh "$dir" | cut -f1); boot it with: $VM_DIR/vm-run -k 7 CMD"
echo "$abi"
