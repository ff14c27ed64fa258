#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian packages of this tree with dpkg-buildpackage (debian/,
# dh-dkms) in a copy of it, and put them in OUTDIR:
#
#   build-deb.sh [OUTDIR]        (make deb; OUTDIR defaults to the top of the tree)
#
# tcp-bbr2-dkms and bbr2-status always; bbr2-bpf on amd64 when its build
# dependencies (clang, bpftool, libbpf-dev, ...) are installed, else the
# build profile pkg.tcp-bbr2.nobpf leaves it out.  The copy holds the
# files git tracks (all of them outside a git checkout), so that what a
# build leaves in the tree never reaches the packages.  The maintainer is
# DEBFULLNAME <DEBEMAIL> when DEBEMAIL is set, else debian/control's.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:-$REPO}" && pwd)

for tool in dpkg-buildpackage dpkg-parsechangelog dh dh_dkms; do
	command -v "$tool" >/dev/null || {
		echo "build-deb.sh: $tool missing (apt install dpkg-dev debhelper dh-dkms)" >&2
		exit 1
	}
done
version=$(dpkg-parsechangelog -l "$REPO/debian/changelog" -S Version)

stage=$(mktemp -d "${TMPDIR:-/tmp}/tcp-bbr2-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
src=$stage/tcp-bbr2-$version
mkdir "$src"
"$REPO/tools/copy-source-tree.sh" "$src"

opts=(-us -uc)
if ! (cd "$src" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
	(cd "$src" && dpkg-checkbuilddeps -Ppkg.tcp-bbr2.nobpf) || exit 1
	echo "build-deb.sh: the BPF build's dependencies are missing: building without bbr2-bpf (profile pkg.tcp-bbr2.nobpf)" >&2
	opts+=(-Ppkg.tcp-bbr2.nobpf)
fi
if [ -n "${DEBEMAIL:-}" ]; then
	case $DEBEMAIL in
	*"<"*) maint=$DEBEMAIL ;;
	*) maint="${DEBFULLNAME:-${DEBEMAIL%%@*}} <$DEBEMAIL>" ;;
	esac
	opts+=("-m$maint" "-e$maint" "--source-option=-DMaintainer=$maint")
fi
(cd "$src" && dpkg-buildpackage "${opts[@]}") >"$stage/build.log" 2>&1 || {
	tail -n 40 "$stage/build.log" >&2
	echo "build-deb.sh: dpkg-buildpackage failed" >&2
	exit 1
}
for f in "$stage"/*.deb "$stage"/*.dsc "$stage"/*.tar.* "$stage"/*.changes "$stage"/*.buildinfo; do
	[ -e "$f" ] || continue
	cp "$f" "$out/"
	echo "$out/${f##*/}"
done
