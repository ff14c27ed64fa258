#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the RPM packages of this tree with rpmbuild (rpm/) and put them in
# OUTDIR:
#
#   build-rpm.sh [OUTDIR]        (make rpm; OUTDIR defaults to the top of the tree)
#
# tcp_bbr2-dkms and bbr2-status (noarch) always; bbr2-bpf on x86_64 when
# clang and bpftool are installed; the akmod packages of
# rpm/tcp_bbr2-kmod.spec only where kmodtool is (RPM Fusion's kmodtool,
# on Fedora and EL with RPM Fusion), else that spec is only parsed
# (rpmspec -P).  On a host whose packages are not RPMs (Debian's rpm), the
# build dependencies cannot be checked by rpmbuild and are not (--nodeps).
# The source tarball holds the files git tracks, as build-deb.sh's copy.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:-$REPO}" && pwd)
command -v rpmbuild >/dev/null || { echo "build-rpm.sh: rpmbuild missing (rpm-build; Debian: rpm)" >&2; exit 1; }
version=$(sed -n 's/^Version:[[:space:]]*//p' "$REPO/rpm/tcp_bbr2-dkms.spec")
dkms_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$REPO/dkms.conf")

top=$(mktemp -d "${TMPDIR:-/tmp}/tcp-bbr2-rpm.XXXXXX")
trap 'rm -rf "$top"' EXIT
mkdir -p "$top"/{SOURCES,SPECS,BUILD,RPMS,SRPMS}
src=$top/tcp_bbr2-$version
mkdir "$src"
"$REPO/tools/copy-source-tree.sh" "$src"
tar -C "$top" -czf "$top/SOURCES/tcp_bbr2-$version.tar.gz" "tcp_bbr2-$version"
rm -rf "$src"

opts=(--define "_topdir $top" --define "dkms_version $dkms_version")
if ! rpm -q rpm >/dev/null 2>&1; then
	opts+=(--nodeps --define "debug_package %{nil}")
fi
build() {	# build SPEC: binary and source packages
	rpmbuild "${opts[@]}" -ba "$REPO/rpm/$1" >"$top/$1.log" 2>&1 || {
		tail -n 30 "$top/$1.log" >&2
		echo "build-rpm.sh: rpmbuild of rpm/$1 failed" >&2
		return 1
	}
}
build tcp_bbr2-dkms.spec
if [ "$(uname -m)" = x86_64 ] && command -v clang >/dev/null && command -v bpftool >/dev/null; then
	build bbr2-bpf.spec
else
	echo "build-rpm.sh: no clang/bpftool (or not x86_64): bbr2-bpf left out" >&2
fi
if command -v kmodtool >/dev/null; then
	# the akmod, which akmods rebuilds on the host for each kernel
	opts+=(--define "buildforkernels akmod")
	build tcp_bbr2-kmod.spec
else
	rpmspec -P "$REPO/rpm/tcp_bbr2-kmod.spec" >/dev/null
	echo "build-rpm.sh: no kmodtool: rpm/tcp_bbr2-kmod.spec parsed (rpmspec -P), not built" >&2
fi
find "$top/RPMS" "$top/SRPMS" -name '*.rpm' | while read -r f; do
	cp "$f" "$out/"
	echo "$out/${f##*/}"
done
