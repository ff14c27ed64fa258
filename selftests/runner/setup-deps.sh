#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything the tcp_bbr2 selftests need on a Debian bookworm
# machine (run as root; idempotent: installed pieces are left alone).
#
#   setup-deps.sh            the test VM bed: pinned kernels, QEMU, virtme-ng,
#                            network tools (what `make vm-selftest` needs)
#   setup-deps.sh --host     only the tools needed to run the tests directly
#                            on this host (`make selftest` on a real DTN)
#
# Kernels are pinned by ABI in vm/kernels.conf (KERNEL_ABIS): image and
# headers of exactly that ABI, never the linux-*-amd64 metapackages, which
# may pull a newer ABI than the one booted.

set -euo pipefail

# Any command that fails ends the script; say which one, so that a failed
# set-up never ends with make's bare "Error 1".
trap 'echo "setup-deps.sh: FAILED (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

die() {	# die WHAT HINT: the step that failed and what to do about it
	echo "setup-deps.sh: $1" >&2
	echo "setup-deps.sh: $2" >&2
	trap - ERR
	exit 1
}

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"
VIRTME_NG_VERSION=1.42

host_only=0
[ "${1:-}" = "--host" ] && host_only=1

if [ "$(id -u)" -ne 0 ]; then
	echo "setup-deps.sh: run as root (sudo $0)" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null; then
	echo "setup-deps.sh: needs a Debian (bookworm) system with apt-get" >&2
	exit 1
fi

# tools the tests run (inside the guest they come from the host's files)
pkgs=(iproute2 iperf3 iputils-ping ethtool kmod procps python3 jq gawk coreutils
      make gcc perl shellcheck)
# tools/: bbr2-lab's plots and the bpftrace scripts on the module's tracepoints
pkgs+=(python3-matplotlib bpftrace python3-docutils)
# bbr2-lab between hosts over SSH: its VM test runs an sshd per namespace
# (a Debian install also starts the host's sshd unless policy-rc.d denies
# it; the test never uses that one); mpstat for per-core CPU
pkgs+=(openssh-client openssh-server sysstat)
# static checks of the quick tier: sparse (make C=2), -m32 build of src/
pkgs+=(sparse gcc-multilib)
# make bpf: the BPF build of bbr2 (bpf/) and its loader, bbr2-bpf
pkgs+=(clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev zstd)
if [ $host_only = 0 ]; then
	pkgs+=(qemu-system-x86 busybox-static python3-pip)
	# vm-bench-peers: the peer kernel's initramfs (cpio), its static
	# TCP_CC_INFO sampler (libc.a)
	pkgs+=(cpio libc6-dev)
	for abi in $KERNEL_ABIS; do
		pkgs+=("linux-image-$abi-unsigned" "linux-headers-$abi")
	done
	# the build matrix's sid chroot; the DKMS and .deb packaging test
	pkgs+=(debootstrap dkms)
	# make deb and make rpm, and their checks (selftests/packaging):
	# dh-dkms, lintian, rpmbuild, rpmlint, systemd-analyze
	pkgs+=(dpkg-dev debhelper dh-dkms lintian rpm rpmlint systemd)
fi

missing=()
for p in "${pkgs[@]}"; do
	# dpkg-query exits 1 for a package it has never seen: not installed
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup-deps.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update ||
		die "apt-get update failed" "check /etc/apt/sources.list and the network, then rerun"
	apt-get install -y --no-install-recommends "${missing[@]}" ||
		die "apt-get install ${missing[*]} failed" \
			"a pinned kernel ABI (vm/kernels.conf) may have left the archive; see the apt error above"
else
	echo "setup-deps.sh: Debian packages already installed"
fi

if [ $host_only = 0 ]; then
	# "pip show" exits 1 when the package is absent: that is the
	# not-installed-yet case, not a failure.
	have=$(python3 -m pip show virtme-ng 2>/dev/null || true)
	have=$(awk '/^Version:/ { print $2 }' <<<"$have")
	if [ "$have" != "$VIRTME_NG_VERSION" ]; then
		echo "setup-deps.sh: installing virtme-ng==$VIRTME_NG_VERSION from PyPI"
		# bookworm's system python is "externally managed"
		python3 -m pip install "virtme-ng==$VIRTME_NG_VERSION" ||
			python3 -m pip install --break-system-packages "virtme-ng==$VIRTME_NG_VERSION" ||
			die "pip install virtme-ng==$VIRTME_NG_VERSION failed" \
				"check that PyPI is reachable (pip's error is above), then rerun"
	else
		echo "setup-deps.sh: virtme-ng $VIRTME_NG_VERSION already installed"
	fi
	# pip may put vng where PATH does not look: pyenv needs a rehash for
	# its shim, and a user install lands in ~/.local/bin.
	if ! command -v vng >/dev/null && command -v pyenv >/dev/null; then
		pyenv rehash || true
	fi
	if ! command -v vng >/dev/null; then
		scripts=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
		for d in "$scripts" "$HOME/.local/bin"; do
			if [ -x "$d/vng" ]; then
				ln -sf "$d/vng" /usr/local/bin/vng
				break
			fi
		done
	fi
	command -v vng >/dev/null ||
		die "virtme-ng is installed but vng is not on PATH" \
			"add pip's script directory ($(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')) to PATH"
	for abi in $KERNEL_ABIS; do
		if [ ! -r "/boot/vmlinuz-$abi" ] || [ ! -d "/lib/modules/$abi/build" ]; then
			die "kernel $abi incomplete (/boot/vmlinuz-$abi, /lib/modules/$abi/build)" \
				"apt-get install --reinstall linux-image-$abi-unsigned linux-headers-$abi"
		fi
	done
fi
echo "setup-deps.sh: done"
