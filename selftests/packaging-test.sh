#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install tcp_bbr2 the ways Documentation/admin-guide.rst describes, and
# remove it again, checking what each step leaves behind:
#
#   - DKMS from the source tree (dkms add/build/install) for two kernels,
#     DKMS's kernel-install hook rebuilding it, dkms remove
#   - the Debian package: apt install ./tcp-bbr2-dkms_*.deb builds it for
#     every kernel with headers, apt purge leaves nothing
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

SELFTESTS=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/tcp_bbr2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ROOT=$CACHE/bookworm-chroot
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"
read -r -a kernels <<<"$KERNEL_ABIS"
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
[ ${#kernels[@]} -ge 2 ] || bail "vm/kernels.conf lists fewer than two kernels"
version=$(sed -n 's/^#define BBR2_MODULE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$REPO/src/tcp_bbr2_main.c")
[ -n "$version" ] || bail "no BBR2_MODULE_VERSION in src/tcp_bbr2_main.c"

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
}
clean_root
nothing_left() { local l; l=$(leftovers); [ -z "$l" ] || { echo "left behind:"; echo "$l"; return 1; }; }
ok "chroot starts without tcp_bbr2" nothing_left

# status_is KVER STATE: "dkms status" reports tcp_bbr2/VERSION for KVER as STATE
status_is() {
	in_root dkms status "tcp_bbr2/$version" -k "$1" | tee /dev/stderr |
		grep -q "^tcp_bbr2/$version, $1, [^:]*: $2"
}
# module_for KVER: the installed module is ours, built for KVER
module_for() {
	local ko
	ko=$(find "$ROOT/lib/modules/$1" -name 'tcp_bbr2.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "no tcp_bbr2.ko in /lib/modules/$1"; return 1; }
	echo "$ko"
	modinfo -F version "$ko" | grep -qx "$version" &&
	modinfo -F vermagic "$ko" | grep -q "^$1 "
}

# ---- 1. DKMS from the source tree
ok "dkms.conf's PACKAGE_VERSION is the module's version ($version)" \
	grep -qx "PACKAGE_VERSION=\"$version\"" "$REPO/dkms.conf"
mkdir -p "$ROOT/build/tcp_bbr2"
cp -r "$REPO/Kbuild" "$REPO/Makefile" "$REPO/dkms.conf" "$REPO/src" "$REPO/include" \
	"$ROOT/build/tcp_bbr2/"
ok "dkms add ." in_root sh -c 'cd /build/tcp_bbr2 && dkms add .'
for k in "${kernels[@]}"; do
	ok "dkms build tcp_bbr2/$version -k $k" in_root dkms build "tcp_bbr2/$version" -k "$k"
done
ok "dkms install tcp_bbr2/$version -k ${kernels[0]}" \
	in_root dkms install "tcp_bbr2/$version" -k "${kernels[0]}"
ok "dkms status: installed for ${kernels[0]}" status_is "${kernels[0]}" installed
ok "dkms status: built, not installed, for ${kernels[1]}" status_is "${kernels[1]}" built
ok "module in /lib/modules/${kernels[0]} is version $version for it" module_for "${kernels[0]}"
# what a new kernel's postinst runs (AUTOINSTALL=yes in dkms.conf)
ok "kernel-install hook /etc/kernel/postinst.d/dkms ${kernels[1]} installs it" \
	in_root /etc/kernel/postinst.d/dkms "${kernels[1]}"
ok "dkms status: installed for ${kernels[1]}" status_is "${kernels[1]}" installed
ok "module in /lib/modules/${kernels[1]} is version $version for it" module_for "${kernels[1]}"
ok "dkms signed it (Secure Boot key /var/lib/dkms/mok.pub)" \
	sh -c "test -s '$ROOT/var/lib/dkms/mok.pub' &&
	       modinfo -F signer \$(find '$ROOT/lib/modules/${kernels[0]}' -name 'tcp_bbr2.ko*') | grep -q ."
ok "dkms remove tcp_bbr2/$version --all" in_root dkms remove "tcp_bbr2/$version" --all
rm -rf "$ROOT/usr/src/tcp_bbr2-$version" "$ROOT/build"
ok "nothing left after dkms remove and rm -r /usr/src/tcp_bbr2-$version" nothing_left

# ---- 2. the Debian package
deb=$("$REPO/tools/build-deb.sh" "$version" "$WORK" 2>"$WORK/deb.log")
ok "make deb builds tcp-bbr2-dkms_${version}_all.deb" test -s "$deb"
if [ -s "${deb:-}" ]; then
	cp "$deb" "$ROOT/tmp/"
	debname=${deb##*/}
	ok "apt install ./$debname" in_root sh -c \
		"cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends ./$debname"
	for k in "${kernels[@]}"; do
		ok "dkms status after apt install: installed for $k" status_is "$k" installed
		ok "module in /lib/modules/$k is version $version for it" module_for "$k"
	done
	ok "the package does not make bbr2 the default by itself" sh -c \
		"! grep -rqs bbr2 '$ROOT/etc/sysctl.d' '$ROOT/etc/sysctl.conf' '$ROOT/etc/modules-load.d' '$ROOT/etc/modules'"
	# the admin guide's opt-in, copied as it says
	# (systemd, absent from the minimal chroot, owns the directory)
	mkdir -p "$ROOT/etc/modules-load.d" "$ROOT/etc/sysctl.d"
	ok "the example snippets enable bbr2 when copied" in_root sh -c '
		cp /usr/share/doc/tcp-bbr2-dkms/examples/tcp_bbr2.conf /etc/modules-load.d/ &&
		cp /usr/share/doc/tcp-bbr2-dkms/examples/90-tcp-bbr2.conf /etc/sysctl.d/ &&
		grep -qx tcp_bbr2 /etc/modules-load.d/tcp_bbr2.conf &&
		grep -qx "net.ipv4.tcp_congestion_control = bbr2" /etc/sysctl.d/90-tcp-bbr2.conf'
	rm -f "$ROOT/etc/modules-load.d/tcp_bbr2.conf" "$ROOT/etc/sysctl.d/90-tcp-bbr2.conf"
	ok "apt purge tcp-bbr2-dkms" in_root env DEBIAN_FRONTEND=noninteractive \
		apt-get -q purge -y tcp-bbr2-dkms
	ok "nothing left after apt purge (files, dkms status, dpkg)" nothing_left
	rm -f "$ROOT/tmp/$debname"
else
	cat "$WORK/deb.log"
fi

# ---- 3. make install / make uninstall, staged
k=${kernels[0]}
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

# ---- 4. signing by hand (make install users with Secure Boot)
ko=$REPO/tcp_bbr2.ko
sign_file=/usr/lib/linux-kbuild-${k%.*-*}/scripts/sign-file
[ -x "$sign_file" ] || sign_file=/lib/modules/$k/build/scripts/sign-file
if [ -f "$ko" ] && [ -x "$sign_file" ] && command -v openssl >/dev/null; then
	cp "$ko" "$WORK/tcp_bbr2.ko"
	ok "openssl makes a MOK key pair" openssl req -new -x509 -newkey rsa:2048 \
		-keyout "$WORK/MOK.priv" -outform DER -out "$WORK/MOK.der" -nodes \
		-days 36500 -subj "/CN=tcp_bbr2 module signing key/"
	ok "sign-file sha256 MOK.priv MOK.der tcp_bbr2.ko" \
		"$sign_file" sha256 "$WORK/MOK.priv" "$WORK/MOK.der" "$WORK/tcp_bbr2.ko"
	ok "modinfo shows the signer" sh -c \
		"modinfo -F signer '$WORK/tcp_bbr2.ko' | grep -qx 'tcp_bbr2 module signing key'"
else
	skipped=$((skipped + 1))
	echo "ok $((n + 1)) signing by hand # SKIP no built module, sign-file or openssl"
	n=$((n + 1))
fi

finish
