#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the DKMS Debian package tcp-bbr2-dkms_VERSION_all.deb from this tree.
#
#   build-deb.sh VERSION OUTDIR     (make deb)
#
# The package ships the module source in /usr/src/tcp_bbr2-VERSION, which
# its postinst registers with DKMS and builds for every installed kernel
# with headers; prerm removes it from DKMS again.  The snippets that make
# bbr2 the default are installed as examples only, never enabled.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
version=${1:?usage: build-deb.sh VERSION OUTDIR}
out=$(cd "${2:?usage: build-deb.sh VERSION OUTDIR}" && pwd)
pkg=tcp-bbr2-dkms

dkms_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$REPO/dkms.conf")
if [ "$dkms_version" != "$version" ]; then
	echo "build-deb.sh: dkms.conf has version $dkms_version, the module $version" >&2
	exit 1
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/tcp-bbr2-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
src=$root/usr/src/tcp_bbr2-$version
doc=$root/usr/share/doc/$pkg

mkdir -p "$src" "$doc/examples" "$root/DEBIAN"
cp -r "$REPO/Kbuild" "$REPO/Makefile" "$REPO/dkms.conf" "$REPO/src" "$REPO/include" "$src/"
# nothing a build in the worktree left behind
find "$src" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod' \
	-o -name '*.mod.c' \) -delete
cp "$REPO/tools/deb/copyright" "$doc/copyright"
cp "$REPO/tools/deb/modules-load.conf" "$doc/examples/tcp_bbr2.conf"
cp "$REPO/tools/deb/sysctl.conf" "$doc/examples/90-tcp-bbr2.conf"
[ -r "$REPO/Documentation/admin-guide.rst" ] &&
	cp "$REPO/Documentation/admin-guide.rst" "$doc/"

size=$(du -sk "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" \
	"$REPO/tools/deb/control" >"$root/DEBIAN/control"
for script in postinst prerm; do
	sed "s/@VERSION@/$version/" "$REPO/tools/deb/$script" >"$root/DEBIAN/$script"
	chmod 0755 "$root/DEBIAN/$script"
done
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f ! -path "$root/DEBIAN/*" -exec chmod 0644 {} +

dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${pkg}_${version}_all.deb" >/dev/null
echo "$out/${pkg}_${version}_all.deb"
