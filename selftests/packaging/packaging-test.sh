#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install tcp_bbr2 the ways Documentation/admin-guide.rst describes, and
# remove it again, checking what each step leaves behind:
#
#   - DKMS from the source tree (dkms add/build/install) for two kernels,
#     DKMS's kernel-install hook rebuilding it, dkms remove
#   - the packages, built from a clean copy of the tree: make deb
#     (dh-dkms; lintian: no error but bogus-mail-host on the project's
#     default address) and make rpm (rpm -qp: files, requires, scriptlets;
#     rpmlint; the kmodtool spec parsed, kmodtool is not in Debian);
#     systemd-analyze verify of bbr2-bpf.service as the .deb installs it
#   - the Debian package: apt install ./tcp-bbr2-dkms_*.deb builds it for
#     every kernel with headers, a third kernel's headers installed later
#     get it from DKMS's kernel hook, apt purge leaves nothing
#   - upgrade from the 0.1.0 package (built from git at 8b68a68 with its
#     own tools/build-deb.sh) to this one, for one kernel: built, the new
#     version's module installed, purge leaves nothing
#   - the DKMS RPM installed with rpm --root --nodeps into the chroot: its
#     scriptlets build and install the module for one kernel, rpm -e
#     leaves nothing
#   - make install / make uninstall into a staging root (INSTALL_MOD_PATH)
#   - signing the module for Secure Boot with the kernel's sign-file
#
# DKMS and apt run inside a Debian bookworm chroot ($CACHE/bookworm-chroot,
# made with debootstrap and kept between runs) holding the headers of the
# test bed's kernels (vm/kernels.conf), so the host's /lib/modules, which
# the VM guests share, never sees a test module.  Needs root.
#
# Prints "ok N ..." / "not ok N ..." per check and "N passed, N failed,
# N skipped"; exit code 0 only if nothing failed.
# shellcheck disable=SC2317 # helpers run through ok(), after bail()'s exit
set -uo pipefail
export LC_ALL=C

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/tcp_bbr2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ROOT=$CACHE/bookworm-chroot
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"
read -r -a kernels <<<"$KERNEL_ABIS"
# A third kernel, installed during the test to see DKMS's hook build for
# it: the cloud flavour of the first kernel's ABI (its headers share the
# first kernel's common headers, so the package is small); kept in the
# chroot between runs.
THIRD=${kernels[0]%-amd64}-cloud-amd64
THIRD_DEB=/var/cache/tcp-bbr2-test/linux-headers-$THIRD.deb
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bbr2-pkgtest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

n=0 passed=0 failed=0 skipped=0
ok() {		# ok DESCRIPTION CMD...: one check
	local desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$WORK/check.log" 2>&1; then
		passed=$((passed + 1)); echo "ok $n $desc"
	else
		failed=$((failed + 1)); echo "not ok $n $desc"
		sed 's/^/#   /' "$WORK/check.log" | tail -n 20
	fi
}
finish() {
	echo "1..$n"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed -eq 0 ]
	exit
}
bail() {
	echo "Bail out! $*"
	failed=$((failed + 1))
	finish
}

# Run a command in the chroot, with /proc mounted in a private mount
# namespace (objtool and dkms read it) that vanishes with the command.
in_root() {
	unshare --mount --propagation private chroot "$ROOT" \
		sh -c 'mount -t proc proc /proc && exec "$@"' sh "$@"
}

[ "$(id -u)" = 0 ] || bail "needs root (debootstrap, chroot)"
# one run at a time owns the chroot
mkdir -p "$CACHE"
exec 9>"$CACHE/bookworm-chroot.lock"
flock 9
[ ${#kernels[@]} -ge 2 ] || bail "vm/kernels.conf lists fewer than two kernels"
version=$(sed -n 's/^#define BBR2_MODULE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$REPO/src/tcp_bbr2_main.c")
[ -n "$version" ] || bail "no BBR2_MODULE_VERSION in src/tcp_bbr2_main.c"
DOC=$REPO/Documentation/doc-commands.py
debversion=$(dpkg-parsechangelog -l "$REPO/debian/changelog" -S Version) ||
	bail "cannot read debian/changelog"

# ---- the chroot: bookworm, dkms, the headers of every test-bed kernel
setup_root() {
	local missing=() abi
	if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
		command -v debootstrap >/dev/null || { echo "debootstrap missing"; return 1; }
		rm -rf "$ROOT"
		debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" || return 1
		cat >"$ROOT/etc/apt/sources.list" <<-EOF
		deb $MIRROR bookworm main
		deb $MIRROR bookworm-updates main
		deb ${MIRROR%/debian}/debian-security bookworm-security main
		EOF
		# a snapshot mirror serves Release files past Valid-Until
		echo 'Acquire::Check-Valid-Until "false";' \
			>"$ROOT/etc/apt/apt.conf.d/99no-check-valid-until"
	fi
	for abi in "${kernels[@]}"; do
		[ -r "$ROOT/usr/src/linux-headers-$abi/Makefile" ] ||
			missing+=("linux-headers-$abi")
	done
	in_root dpkg-query -W dkms >/dev/null 2>&1 || missing+=(dkms)
	in_root dpkg-query -W mokutil >/dev/null 2>&1 || missing+=(mokutil)
	# make deb in the chroot (the admin guide's commands)
	# and the status command and bbr2-bpf packages' dependencies
	for p in build-essential dpkg-dev debhelper dh-dkms python3 iproute2 libbpf1; do
		in_root dpkg-query -W "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	if [ ! -s "$ROOT/$THIRD_DEB" ]; then
		mkdir -p "$ROOT/${THIRD_DEB%/*}"
		in_root apt-get -q update &&
		in_root sh -c "cd '${THIRD_DEB%/*}' && apt-get -q download 'linux-headers-$THIRD' &&
			mv linux-headers-${THIRD}_*.deb '$THIRD_DEB'" || return 1
	fi
	[ ${#missing[@]} -eq 0 ] && return 0
	in_root apt-get -q update &&
	in_root env DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
		--no-install-recommends dkms make gcc kmod openssl "${missing[@]}" &&
	in_root apt-get clean
}
setup_root >"$WORK/setup.log" 2>&1 || { tail -n 20 "$WORK/setup.log"; bail "cannot set up $ROOT"; }
echo "# chroot $ROOT, kernels: ${kernels[*]}"

# Nothing of ours in the chroot: a previous run that died half-way is
# cleaned up first, and each part below must end the same way.
leftovers() {	# prints what of tcp_bbr2 is installed in the chroot
	find "$ROOT/lib/modules" "$ROOT/usr/src" "$ROOT/var/lib/dkms" "$ROOT/etc" \
		\( -name 'tcp_bbr2*' -o -name '*tcp-bbr2*' \) 2>/dev/null
	# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
	in_root dpkg-query -W -f='${Status}\n' tcp-bbr2-dkms 2>/dev/null | grep -v '^unknown\|not-installed'
	in_root dkms status tcp_bbr2 2>/dev/null
}
clean_root() {
	in_root dpkg --purge tcp-bbr2-dkms >/dev/null 2>&1
	in_root dkms remove "tcp_bbr2/$version" --all >/dev/null 2>&1
	rm -rf "$ROOT/usr/src/tcp_bbr2-$version" "$ROOT/var/lib/dkms/tcp_bbr2" "$ROOT/build"
	rm -f "$ROOT/etc/modules-load.d/tcp_bbr2.conf" "$ROOT/etc/sysctl.d/90-tcp-bbr2.conf"
	find "$ROOT/lib/modules" -name 'tcp_bbr2.ko*' -delete
	rm -rf "$ROOT/var/lib/rpm"
	# a kernel that a headers metapackage brought in is not the test's
	# shellcheck disable=SC2016 # dpkg-query's format
	if in_root dpkg-query -W -f='${Status}' linux-headers-amd64 2>/dev/null | grep -q 'ok installed'; then
		in_root env DEBIAN_FRONTEND=noninteractive apt-get -q purge -y linux-headers-amd64 >/dev/null 2>&1
		in_root env DEBIAN_FRONTEND=noninteractive apt-get -q autoremove --purge -y >/dev/null 2>&1
	fi
	for d in "$ROOT"/lib/modules/*; do
		[ -e "$d/build" ] || rm -rf "$d"
	done
	in_root dpkg --purge "linux-headers-$THIRD" >/dev/null 2>&1
	rm -rf "$ROOT/lib/modules/$THIRD"
	show_kernels
}
# hide_kernels / show_kernels: only the first kernel in /lib/modules (the
# upgrade and RPM lifecycles build for one kernel)
hide_kernels() {
	local k
	mkdir -p "$ROOT/var/cache/tcp-bbr2-test/hidden"
	for k in "${kernels[@]:1}"; do
		mv "$ROOT/lib/modules/$k" "$ROOT/var/cache/tcp-bbr2-test/hidden/"
	done
}
show_kernels() {
	local d
	for d in "$ROOT"/var/cache/tcp-bbr2-test/hidden/*; do
		[ -e "$d" ] && mv "$d" "$ROOT/lib/modules/"
	done
	return 0
}
clean_root
nothing_left() { local l; l=$(leftovers); [ -z "$l" ] || { echo "left behind:"; echo "$l"; return 1; }; }
ok "chroot starts without tcp_bbr2" nothing_left

# status_is KVER STATE [VERSION]: "dkms status" reports tcp_bbr2/VERSION
# (default: the module's) for KVER as STATE
status_is() {
	local st v=${3:-$version}
	# captured first: under pipefail, grep -q leaving early can fail the
	# writer with SIGPIPE and so the whole check
	st=$(in_root dkms status "tcp_bbr2/$v" -k "$1")
	echo "$st" >&2
	grep -q "^tcp_bbr2/$v, $1, [^:]*: $2" <<<"$st"
}
# module_for KVER: the installed module is ours, built for KVER
module_for() {
	local ko
	ko=$(find "$ROOT/lib/modules/$1" -name 'tcp_bbr2.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "no tcp_bbr2.ko in /lib/modules/$1"; return 1; }
	echo "$ko"
	[ "$(modinfo -F version "$ko")" = "$version" ] &&
	[[ "$(modinfo -F vermagic "$ko")" == "$1 "* ]]
}

# ---- the admin guide's own commands
# Each step below runs the commands Documentation/admin-guide.rst shows,
# taken from the page (Documentation/doc-commands.py), as root in the
# chroot from the top of a copy of the source tree.  The page's example
# kernel is replaced by the test bed's first kernel if they differ, and
# modinfo is pointed at that kernel (on an admin's host it is the running
# one).  A command the page shows failing ("! cmd") must fail.
DOC_KVER=6.1.0-50-amd64
k=${kernels[0]}
doc_cmds() {	# doc_cmds TAG: the page's commands for TAG, one per line
	# the page names the .deb by the module's version; its file name has
	# the package's (debian/changelog), the same on a release
	python3 "$DOC" commands "$1" |
		sed -e "s/$DOC_KVER/$k/g" -e "s/tcp-bbr2-dkms_${version}_all/tcp-bbr2-dkms_${debversion}_all/g"
}
in_tree() {	# in_tree CMD: CMD as the admin types it, in /build/tcp_bbr2
	in_root env DEBIAN_FRONTEND=noninteractive bash -c \
		"cd /build/tcp_bbr2 && modinfo() { command modinfo -k '$k' \"\$@\"; } && $1"
}
run_doc() {	# run_doc TAG: one check per command of TAG
	local cmd
	while IFS= read -r cmd; do
		ok "admin guide [$1]: $cmd" in_tree "$cmd"
	done < <(doc_cmds "$1")
}
copy_tree() {
	rm -rf "$ROOT/build"
	mkdir -p "$ROOT/build/tcp_bbr2/tools" "$ROOT/build/tcp_bbr2/Documentation"
	cp -r "$REPO/Kbuild" "$REPO/Makefile" "$REPO/dkms.conf" "$REPO/src" "$REPO/include" \
		"$REPO/debian" "$REPO/packaging" "$ROOT/build/tcp_bbr2/"
	cp -r "$REPO/tools/build-deb.sh" "$REPO/tools/copy-source-tree.sh" "$REPO/tools/bbr2-status" \
		"$ROOT/build/tcp_bbr2/tools/"
	cp "$REPO/Documentation/admin-guide.rst" "$REPO/Documentation/packages.rst" \
		"$ROOT/build/tcp_bbr2/Documentation/"
}
# "apt install ./x.deb" asks before it installs; with no terminal it would
# abort, so the chroot's apt answers yes as the admin would.
# Recommends are not installed: the packages recommend the headers
# metapackage, which would bring the archive's newest kernel into the
# chroot's set of kernels.
printf 'APT::Get::Assume-Yes "true";\nAPT::Install-Recommends "false";\n' \
	>"$ROOT/etc/apt/apt.conf.d/90packaging-test-assume-yes"

# ---- 0. the packages, from a clean copy of the tree (make deb, make rpm)
pkgs=$WORK/pkgs
mkdir -p "$pkgs/deb" "$pkgs/deb-env" "$pkgs/rpm" "$WORK/tree"
# a copy of the tracked files, where the packages land (not in the tree)
git -C "$REPO" ls-files -z | (cd "$REPO" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) |
	tar -C "$WORK/tree" -xf -
while IFS= read -r cmd; do
	ok "packages.rst [pkg-build]: $cmd (in a clean copy of the tree)" \
		bash -c "cd '$WORK/tree' && $cmd"
done < <(python3 "$DOC" commands pkg-build)
mv "$WORK"/tree/*.deb "$WORK"/tree/*.dsc "$WORK"/tree/*.changes "$WORK"/tree/*.buildinfo \
	"$WORK"/tree/*.tar.xz "$pkgs/deb/" 2>/dev/null
mv "$WORK"/tree/*.rpm "$pkgs/rpm/" 2>/dev/null
deb=$pkgs/deb/tcp-bbr2-dkms_${debversion}_all.deb
ok "tcp-bbr2-dkms and bbr2-status built (bbr2-bpf too where clang/bpftool are)" sh -c \
	"test -s '$deb' && test -s '$pkgs/deb/bbr2-status_${debversion}_all.deb' &&
	 { ! command -v clang >/dev/null || test -s '$pkgs/deb/bbr2-bpf_${debversion}_amd64.deb'; }"
# the module's source under the DKMS version, dh-dkms's maintainer scripts
deb_has() {	# deb_has DEB PATH...: the package holds each PATH
	local list p
	list=$(dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|')
	shift
	for p; do grep -qx "$p" <<<"$list" || { echo "missing $p"; return 1; }; done
}
dkmsver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$REPO/dkms.conf")
ok "tcp-bbr2-dkms: /usr/src/tcp_bbr2-$dkmsver with dkms.conf, Kbuild, the probes; the examples" \
	deb_has "$deb" "/usr/src/tcp_bbr2-$dkmsver/dkms.conf" "/usr/src/tcp_bbr2-$dkmsver/Kbuild" \
	"/usr/src/tcp_bbr2-$dkmsver/include/compat-probe.sh" \
	/usr/share/doc/tcp-bbr2-dkms/examples/90-tcp-bbr2.conf \
	/usr/share/doc/tcp-bbr2-dkms/examples/tcp_bbr2.conf
ok "tcp-bbr2-dkms: dh-dkms's postinst/prerm, Depends on dkms, nothing in /etc" sh -c \
	"dpkg-deb -I '$deb' postinst | grep -q 'common.postinst' &&
	 dpkg-deb -I '$deb' prerm | grep -q 'dkms remove' &&
	 dpkg-deb -f '$deb' Depends | grep -q 'dkms' &&
	 ! dpkg-deb -c '$deb' | grep -q ' \./etc/'"
bpfdeb=$pkgs/deb/bbr2-bpf_${debversion}_amd64.deb
if [ -s "$bpfdeb" ]; then
	ok "bbr2-bpf: loader, unit, helper, config file (a conffile)" bash -c \
		"$(declare -f deb_has); deb_has '$bpfdeb' /usr/sbin/bbr2-bpf /lib/systemd/system/bbr2-bpf.service \
		 /usr/libexec/bbr2-bpf/bbr2-bpf-boot /etc/bbr2-bpf.conf &&
		 dpkg-deb -I '$bpfdeb' conffiles | grep -qx /etc/bbr2-bpf.conf"
	# installed disabled: its postinst enables the unit again only where
	# the admin had (was-enabled), and starts nothing
	ok "bbr2-bpf: the unit is neither enabled nor started by the package" sh -c \
		"dpkg-deb -I '$bpfdeb' postinst >'$WORK/bpf-postinst' &&
		 ! grep -q 'deb-systemd-invoke' '$WORK/bpf-postinst' &&
		 awk '/was-enabled/ { guard = 1 } /deb-systemd-helper enable/ && !guard { bad = 1 } END { exit bad }' '$WORK/bpf-postinst'"
	mkdir -p "$WORK/bpfroot"
	dpkg-deb -x "$bpfdeb" "$WORK/bpfroot"
	if command -v systemd-analyze >/dev/null; then
		ok "systemd-analyze verify bbr2-bpf.service (as installed)" sh -c \
			"systemd-analyze verify --root='$WORK/bpfroot' /lib/systemd/system/bbr2-bpf.service 2>&1 | tee /dev/stderr | grep . && exit 1 || exit 0"
	else
		n=$((n + 1)) skipped=$((skipped + 1))
		echo "ok $n systemd-analyze verify bbr2-bpf.service # SKIP no systemd-analyze"
	fi
fi
# lintian: no error but bogus-mail-host on the project's default address
# (tcp-bbr2@localhost: the project has no public mail host; a build with
# DEBEMAIL set carries the builder's); warnings listed
if command -v lintian >/dev/null; then
	lintian --info "$pkgs"/deb/*.changes >"$WORK/lintian.txt" 2>&1
	sed -n 's/^\([EW]\): /#   lintian \1: /p' "$WORK/lintian.txt"
	ok "lintian: no error but bogus-mail-host on tcp-bbr2@localhost" sh -c \
		"! grep '^E: ' '$WORK/lintian.txt' | grep -v 'bogus-mail-host.* tcp-bbr2@localhost'"
	ok "lintian: warnings only no-manual-page (the commands' --help and packages.rst)" sh -c \
		"! grep '^W: ' '$WORK/lintian.txt' | grep -v 'no-manual-page'"
	ok "make deb with DEBFULLNAME/DEBEMAIL: the builder maintains the packages" sh -c \
		"DEBFULLNAME='Ada Builder' DEBEMAIL=ada@example.org '$REPO/tools/build-deb.sh' '$pkgs/deb-env' >/dev/null &&
		 dpkg-deb -f '$pkgs/deb-env/tcp-bbr2-dkms_${debversion}_all.deb' Maintainer | grep -qx 'Ada Builder <ada@example.org>' &&
		 grep -qx 'Maintainer: Ada Builder <ada@example.org>' '$pkgs/deb-env/tcp-bbr2_${debversion}.dsc' &&
		 lintian '$pkgs'/deb-env/*.changes 2>&1 | grep '^E: ' | grep -v 'bogus-mail-host-in-debian-changelog' | grep -q . && exit 1 || exit 0"
else
	n=$((n + 1)) skipped=$((skipped + 1))
	echo "ok $n lintian # SKIP lintian not installed"
fi

if command -v rpmbuild >/dev/null; then
	ok "make rpm built tcp_bbr2-dkms, bbr2-status (and bbr2-bpf where clang is); the kmodtool spec only parsed" \
		sh -c "ls '$pkgs'/rpm/tcp_bbr2-dkms-*.noarch.rpm '$pkgs'/rpm/bbr2-status-*.noarch.rpm >/dev/null"
	rpmver=$(sed -n 's/^Version:[[:space:]]*//p' "$REPO/rpm/tcp_bbr2-dkms.spec")
	drpm=$(find "$pkgs/rpm" -name "tcp_bbr2-dkms-$rpmver-*.noarch.rpm" | head -n 1)
	ok "tcp_bbr2-dkms RPM: noarch, /usr/src/tcp_bbr2-$dkmsver with dkms.conf, no /etc" sh -c \
		"[ \"\$(rpm -qp --qf '%{ARCH}' '$drpm')\" = noarch ] &&
		 rpm -qpl '$drpm' | grep -qx '/usr/src/tcp_bbr2-$dkmsver/dkms.conf' &&
		 rpm -qpl '$drpm' | grep -qx '/usr/src/tcp_bbr2-$dkmsver/include/compat-probe.sh' &&
		 ! rpm -qpl '$drpm' | grep -q '^/etc'"
	ok "tcp_bbr2-dkms RPM: requires dkms, make, gcc" sh -c \
		"for r in dkms make gcc; do rpm -qpR '$drpm' | grep -qx \"\$r\" || exit 1; done"
	ok "tcp_bbr2-dkms RPM: scriptlets add, build/install and remove the DKMS module" sh -c \
		"rpm -qp --scripts '$drpm' >'$WORK/scripts.txt' &&
		 grep -q 'dkms add -m tcp_bbr2 -v $dkmsver' '$WORK/scripts.txt' &&
		 grep -q 'dkms install -m tcp_bbr2 -v $dkmsver -k' '$WORK/scripts.txt' &&
		 grep -q 'dkms remove -m tcp_bbr2 -v $dkmsver --all' '$WORK/scripts.txt'"
	ok "bbr2-status RPM: the command, requires python3 and iproute" sh -c \
		"f=\$(ls '$pkgs'/rpm/bbr2-status-*.noarch.rpm) && rpm -qpl \"\$f\" | grep -qx /usr/sbin/bbr2-status &&
		 rpm -qpR \"\$f\" | grep -qx python3 && rpm -qpR \"\$f\" | grep -qx iproute"
	brpm=$(find "$pkgs/rpm" -name 'bbr2-bpf-*.x86_64.rpm' | head -n 1)
	if [ -n "$brpm" ]; then
		ok "bbr2-bpf RPM: loader, unit, helper, %config(noreplace) file, preset (not enable) in %post" sh -c \
			"for f in /usr/sbin/bbr2-bpf /usr/lib/systemd/system/bbr2-bpf.service \
			  /usr/libexec/bbr2-bpf/bbr2-bpf-boot /etc/bbr2-bpf.conf; do
			  rpm -qpl '$brpm' | grep -qx \"\$f\" || exit 1; done &&
			 rpm -qpc '$brpm' | grep -qx /etc/bbr2-bpf.conf &&
			 rpm -qp --scripts '$brpm' | grep -q 'systemctl --no-reload preset bbr2-bpf.service' &&
			 ! rpm -qp --scripts '$brpm' | grep -q 'systemctl.* enable'"
	fi
	ok "rpmspec -P rpm/tcp_bbr2-kmod.spec (kmodtool's template, without kmodtool)" \
		rpmspec -P "$REPO/rpm/tcp_bbr2-kmod.spec"
	if command -v rpmlint >/dev/null; then
		rpmlint "$REPO"/rpm/*.spec "$pkgs"/rpm/*.rpm >"$WORK/rpmlint.txt" 2>&1
		# each tag once, with how often it was raised
		grep -oE ' [EW]: [a-z0-9-]+' "$WORK/rpmlint.txt" | sort | uniq -c |
			sed 's/^ */#   rpmlint: /'
		# Errors of Debian's rpmlint configuration that Fedora's does not
		# raise: unsigned packages (signing is the distributor's),
		# no Packager and no Group tag (Fedora forbids the first and
		# dropped the second), and a source tarball holding every spec
		# (the whole tree, for rpmbuild -ta).
		ok "rpmlint: no error but no-signature, no-packager-tag, no-group-tag, multiple-specfiles" sh -c \
			"! grep ' E: ' '$WORK/rpmlint.txt' | grep -vE ' E: (no-signature|no-packager-tag|no-group-tag|multiple-specfiles)'"
	fi
else
	n=$((n + 1)) skipped=$((skipped + 1))
	echo "ok $n make rpm # SKIP rpmbuild not installed"
fi

# ---- 1. DKMS from the source tree
ok "dkms.conf's PACKAGE_VERSION is the module's version ($version)" \
	grep -qx "PACKAGE_VERSION=\"$version\"" "$REPO/dkms.conf"
ok "the guide's examples use version $version" \
	grep -q "tcp_bbr2/$version " "$REPO/Documentation/admin-guide.rst"
copy_tree
run_doc host-dkms
ok "dkms status: installed for $k" status_is "$k" installed
ok "module in /lib/modules/$k is version $version for it" module_for "$k"
ok "dkms build tcp_bbr2/$version -k ${kernels[1]}" in_root dkms build "tcp_bbr2/$version" -k "${kernels[1]}"
ok "dkms status: built, not installed, for ${kernels[1]}" status_is "${kernels[1]}" built
# what a new kernel's postinst runs (AUTOINSTALL=yes in dkms.conf)
ok "kernel-install hook /etc/kernel/postinst.d/dkms ${kernels[1]} installs it" \
	in_root /etc/kernel/postinst.d/dkms "${kernels[1]}"
ok "dkms status: installed for ${kernels[1]}" status_is "${kernels[1]}" installed
ok "module in /lib/modules/${kernels[1]} is version $version for it" module_for "${kernels[1]}"

# Secure Boot: DKMS signed it with its key; enrolling that key needs UEFI
# firmware, which the chroot has not, so mokutil must get as far as saying
# so, with a certificate it can read.
while IFS= read -r cmd; do
	case $cmd in
	mokutil*)
		out=$(in_tree "$cmd" 2>&1 </dev/null)
		n=$((n + 1))
		if grep -qi 'EFI variables are not supported' <<<"$out" &&
		   openssl x509 -inform DER -noout -in "$ROOT/var/lib/dkms/mok.pub"; then
			skipped=$((skipped + 1))
			echo "ok $n admin guide [host-mok]: $cmd # SKIP needs UEFI firmware (key is a valid DER certificate)"
		else
			failed=$((failed + 1))
			echo "not ok $n admin guide [host-mok]: $cmd"
			printf '#   %s\n' "$out"
		fi
		;;
	*)
		ok "admin guide [host-mok]: $cmd" in_tree "$cmd | grep -qx 'DKMS module signing key'"
		;;
	esac
done < <(doc_cmds host-mok)
run_doc host-dkms-remove
rm -rf "$ROOT/build"
ok "nothing left after the guide's DKMS removal" nothing_left

# ---- 2. the Debian package
copy_tree
run_doc host-deb
ok "the package was built as tcp-bbr2-dkms_${debversion}_all.deb" \
	test -s "$ROOT/build/tcp_bbr2/tcp-bbr2-dkms_${debversion}_all.deb"
for kk in "${kernels[@]}"; do
	ok "dkms status after apt install: installed for $kk" status_is "$kk" installed
	ok "module in /lib/modules/$kk is version $version for it" module_for "$kk"
done
ok "the package does not make bbr2 the default by itself" sh -c \
	"! grep -rqs bbr2 '$ROOT/etc/sysctl.d' '$ROOT/etc/sysctl.conf' '$ROOT/etc/modules-load.d' '$ROOT/etc/modules'"
# The status command and bbr2-bpf, as packages.rst installs them, beside
# tcp-bbr2-dkms: installed, the unit not enabled, the status command
# reports the module built for both kernels.
tooldir=/var/cache/tcp-bbr2-test/debs
mkdir -p "$ROOT/$tooldir"
cp "$pkgs"/deb/bbr2-status_*.deb "$pkgs"/deb/bbr2-bpf_*.deb "$ROOT/$tooldir/" 2>/dev/null
in_dir() {	# in_dir DIR CMD: CMD as the admin types it, in DIR of the chroot
	in_root env DEBIAN_FRONTEND=noninteractive bash -c "cd '$1' && $2"
}
if [ -s "$bpfdeb" ]; then
	while IFS= read -r cmd; do
		ok "packages.rst [pkg-deb-tools]: $cmd" in_dir "$tooldir" "$cmd"
	done < <(python3 "$DOC" commands pkg-deb-tools)
	ok "bbr2-bpf.service installed, not enabled" sh -c \
		"test -f '$ROOT/lib/systemd/system/bbr2-bpf.service' &&
		 ! find '$ROOT/etc/systemd' -name bbr2-bpf.service 2>/dev/null | grep -q ."
	ok "bbr2-status in the chroot: tcp_bbr2 installed for ${kernels[*]}, DKMS says so" \
		in_root sh -c "bbr2-status --json > /tmp/status.json; python3 -c \"
import json; d = json.load(open('/tmp/status.json'))['dkms']['kernels']
for k in '${kernels[*]}'.split():
    assert d[k]['module'] and d[k]['dkms'].endswith('installed'), (k, d.get(k))
\""
fi
# the opt-in, copied as the guide says (systemd, absent from the minimal
# chroot, owns the directories); the files say what the guide shows
mkdir -p "$ROOT/etc/modules-load.d" "$ROOT/etc/sysctl.d"
run_doc host-deb-default
settings() { grep -v '^#' "$1" | grep . | sort; }
python3 "$DOC" block vm-boot-files 0 >"$WORK/modules-load.rst.conf"
python3 "$DOC" block vm-boot-files 1 >"$WORK/sysctl.rst.conf"
ok "the shipped modules-load.d file is the one the guide shows" \
	diff <(settings "$ROOT/etc/modules-load.d/tcp_bbr2.conf") <(settings "$WORK/modules-load.rst.conf")
ok "the shipped sysctl.d file is the one the guide shows" \
	diff <(settings "$ROOT/etc/sysctl.d/90-tcp-bbr2.conf") <(settings "$WORK/sysctl.rst.conf")
rm -f "$ROOT/etc/modules-load.d/tcp_bbr2.conf" "$ROOT/etc/sysctl.d/90-tcp-bbr2.conf"

# A third kernel's headers, installed after the package: DKMS's hook
# (/etc/kernel/header_postinst.d/dkms) builds and installs the module.
ok "linux-headers-$THIRD installed after the package" in_root dpkg -i "$THIRD_DEB"
ok "dkms status: installed for $THIRD by the kernel hook" status_is "$THIRD" installed
ok "module in /lib/modules/$THIRD is version $version for it" module_for "$THIRD"
# removal: all three packages as packages.rst shows (the guide's purge of
# tcp-bbr2-dkms alone runs after the upgrade below)
if [ -s "$bpfdeb" ]; then
	while IFS= read -r cmd; do
		ok "packages.rst [pkg-deb-remove]: $cmd" in_dir / "$cmd"
	done < <(python3 "$DOC" commands pkg-deb-remove)
	ok "nothing of bbr2-status or bbr2-bpf left (binaries, unit, /etc/bbr2-bpf.conf)" sh -c \
		"! ls '$ROOT'/usr/sbin/bbr2-status '$ROOT'/usr/sbin/bbr2-bpf '$ROOT'/etc/bbr2-bpf.conf \
		   '$ROOT'/lib/systemd/system/bbr2-bpf.service 2>/dev/null | grep -q ."
else
	run_doc host-deb-remove
fi
ok "purge took the module out of $THIRD too" sh -c \
	"! find '$ROOT/lib/modules/$THIRD' -name 'tcp_bbr2.ko*' | grep -q ."
in_root dpkg --purge "linux-headers-$THIRD" >/dev/null
rm -rf "$ROOT/lib/modules/$THIRD"
rm -rf "${ROOT:?}/$tooldir"
rm -rf "$ROOT/build"
ok "nothing left after apt purge (files, dkms status, dpkg)" nothing_left

# ---- 3. make install / make uninstall, and signing by hand
copy_tree
run_doc host-make-install
ok "installed in /lib/modules/$k and in its modules.dep" sh -c \
	"find '$ROOT/lib/modules/$k' -name 'tcp_bbr2.ko*' | grep -q . &&
	 grep -q 'tcp_bbr2.ko' '$ROOT/lib/modules/$k/modules.dep'"
while IFS= read -r cmd; do
	case $cmd in
	modinfo*)
		ok "admin guide [host-sign]: $cmd" \
			in_tree "$cmd | grep -qx 'tcp_bbr2 module signing key'" ;;
	*)	ok "admin guide [host-sign]: $cmd" in_tree "$cmd" ;;
	esac
done < <(doc_cmds host-sign)
run_doc host-make-install-remove
rm -rf "$ROOT/build"
ok "nothing left after make uninstall" nothing_left

# make install into a staging root, for image builders
stage=$WORK/stage
ok "make install KVER=$k INSTALL_MOD_PATH=<stage>" \
	make -C "$REPO" -s install KVER="$k" INSTALL_MOD_PATH="$stage"
ok "installed under <stage>/lib/modules/$k and in its modules.dep" sh -c \
	"find '$stage/lib/modules/$k' -name 'tcp_bbr2.ko*' | grep -q . &&
	 grep -q 'tcp_bbr2.ko' '$stage/lib/modules/$k/modules.dep'"
ok "make uninstall KVER=$k INSTALL_MOD_PATH=<stage>" \
	make -C "$REPO" -s uninstall KVER="$k" INSTALL_MOD_PATH="$stage"
ok "nothing of tcp_bbr2 left under <stage>" sh -c \
	"! find '$stage' -name 'tcp_bbr2.ko*' | grep -q . &&
	 ! grep -qs tcp_bbr2 '$stage/lib/modules/$k/modules.dep'"

# ---- 4. upgrade from the 0.1.0 package (8b68a68, its own build-deb.sh)
old=$WORK/old
if git -C "$REPO" cat-file -e '8b68a68^{commit}'  2>/dev/null; then
	mkdir -p "$old/src"
	git -C "$REPO" archive 8b68a68 | tar -C "$old/src" -xf -
	ok "the 0.1.0 package, built at 8b68a68" \
		"$old/src/tools/build-deb.sh" 0.1.0 "$old"
	cp "$old/tcp-bbr2-dkms_0.1.0_all.deb" "$deb" "$ROOT/var/cache/tcp-bbr2-test/"
	hide_kernels
	ok "0.1.0 installed (dpkg -i)" in_root dpkg -i /var/cache/tcp-bbr2-test/tcp-bbr2-dkms_0.1.0_all.deb
	ok "dkms status: 0.1.0 installed for $k" status_is "$k" installed 0.1.0
	while IFS= read -r cmd; do
		ok "packages.rst [pkg-deb-upgrade]: $cmd" in_dir /var/cache/tcp-bbr2-test \
			"${cmd//_1.0.0_all/_${debversion}_all}"
	done < <(python3 "$DOC" commands pkg-deb-upgrade)
	# shellcheck disable=SC2016 # dpkg-query's format
	deb_state() { [ "$(in_root dpkg-query -W -f='${Version} ${Status}' tcp-bbr2-dkms)" = "$1" ]; }
	ok "dpkg: tcp-bbr2-dkms $debversion installed" deb_state "$debversion install ok installed"
	ok "dkms status: $dkmsver installed for $k after the upgrade" status_is "$k" installed "$dkmsver"
	ok "module in /lib/modules/$k is version $version (the new one) for it" module_for "$k"
	if [ "$dkmsver" != 0.1.0 ]; then
		no_old() { [ -z "$(in_root dkms status tcp_bbr2/0.1.0)" ]; }
		ok "DKMS no longer knows 0.1.0" no_old
	fi
	mkdir -p "$ROOT/build/tcp_bbr2"
	run_doc host-deb-remove
	rm -rf "$ROOT/build"
	rm -f "$ROOT"/var/cache/tcp-bbr2-test/tcp-bbr2-dkms_*.deb
	show_kernels
	ok "nothing left after the upgrade and purge" nothing_left
else
	n=$((n + 1)) skipped=$((skipped + 1))
	echo "ok $n upgrade from 0.1.0 # SKIP no git history with 8b68a68 in $REPO"
fi

# ---- 5. the DKMS RPM, its scriptlets run by rpm in the chroot
# rpm --root runs the scriptlets chrooted; /proc is mounted for them (and
# for dkms) in a private mount namespace.  --nodeps: Debian's dkms, make
# and gcc are there, but not in an RPM database.
rpm_root() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private sh -c \
		'mount -t proc proc "$0/proc" && exec rpm --root "$0" "$@"' "$ROOT" "$@"
}
if [ -n "${drpm:-}" ] && [ -s "$drpm" ]; then
	hide_kernels
	# the package file is read from this side of the chroot
	ok "rpm --root <chroot> --nodeps -i tcp_bbr2-dkms (its %posttrans builds the module)" \
		rpm_root --nodeps -i "$drpm"
	ok "dkms status: installed for $k by the RPM's scriptlet" status_is "$k" installed "$dkmsver"
	ok "module in /lib/modules/$k is version $version for it" module_for "$k"
	ok "rpm --root <chroot> -e tcp_bbr2-dkms" rpm_root --nodeps -e tcp_bbr2-dkms
	ok "rpm: tcp_bbr2-dkms no longer installed" sh -c "! rpm --root '$ROOT' -q tcp_bbr2-dkms"
	show_kernels
	rm -rf "$ROOT/var/lib/rpm" "$ROOT/usr/lib/sysimage/rpm"
	ok "nothing left after rpm -e (files, DKMS tree, modules)" nothing_left
fi

rm -f "$ROOT/etc/apt/apt.conf.d/90packaging-test-assume-yes"
finish
