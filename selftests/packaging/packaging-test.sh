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

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
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
	in_root dpkg-query -W mokutil >/dev/null 2>&1 || missing+=(mokutil)
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
	local st
	# captured first: under pipefail, grep -q leaving early can fail the
	# writer with SIGPIPE and so the whole check
	st=$(in_root dkms status "tcp_bbr2/$version" -k "$1")
	echo "$st" >&2
	grep -q "^tcp_bbr2/$version, $1, [^:]*: $2" <<<"$st"
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
DOC=$REPO/Documentation/doc-commands.py
DOC_KVER=6.1.0-50-amd64
k=${kernels[0]}
doc_cmds() {	# doc_cmds TAG: the page's commands for TAG, one per line
	python3 "$DOC" commands "$1" | sed "s/$DOC_KVER/$k/g"
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
		"$ROOT/build/tcp_bbr2/"
	cp -r "$REPO/tools/build-deb.sh" "$REPO/tools/deb" "$ROOT/build/tcp_bbr2/tools/"
	cp "$REPO/Documentation/admin-guide.rst" "$ROOT/build/tcp_bbr2/Documentation/"
}
# "apt install ./x.deb" asks before it installs; with no terminal it would
# abort, so the chroot's apt answers yes as the admin would.
echo 'APT::Get::Assume-Yes "true";' >"$ROOT/etc/apt/apt.conf.d/90packaging-test-assume-yes"

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
ok "the package was built as tcp-bbr2-dkms_${version}_all.deb" \
	test -s "$ROOT/build/tcp_bbr2/tcp-bbr2-dkms_${version}_all.deb"
for kk in "${kernels[@]}"; do
	ok "dkms status after apt install: installed for $kk" status_is "$kk" installed
	ok "module in /lib/modules/$kk is version $version for it" module_for "$kk"
done
ok "the package does not make bbr2 the default by itself" sh -c \
	"! grep -rqs bbr2 '$ROOT/etc/sysctl.d' '$ROOT/etc/sysctl.conf' '$ROOT/etc/modules-load.d' '$ROOT/etc/modules'"
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
run_doc host-deb-remove
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

rm -f "$ROOT/etc/apt/apt.conf.d/90packaging-test-assume-yes"
finish
