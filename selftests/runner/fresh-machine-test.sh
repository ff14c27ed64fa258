#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The set-up scripts on a machine that has none of what they install.
#
# CI runs on a machine where the test bed is installed already, so the
# branches a new user takes ("not installed yet") never run there, and a
# bug in them (under set -euo pipefail, `pip show virtme-ng` exiting 1 for
# an absent package ends setup-deps.sh without a word) would break
# `make demo` on every fresh machine unseen.  This test takes every such branch:
#
#   setup-deps.sh          Debian packages, the pinned kernels, virtme-ng and
#                          its vng command, each absent; then each present;
#                          then each step failing, which must say what failed
#   fetch-kernel-source.sh the reference kernel source absent, on a machine
#                          without package lists; then unreachable
#   build-matrix.sh 7      the sid chroot absent; then debootstrap missing
#   vm/sid-kernel.sh       sid's 7.x kernel absent from the cache (vm-run -k 7
#                          must say so); fetched; then dropped by sid; the
#                          host's depmod missing
#
# fresh-machine-test.sh [setup|sid-kernel]: "setup" (the default) runs every
# script but sid-kernel.sh, which indexes the fetched modules with the
# host's depmod: kmod comes with the test bed (setup-deps.sh), so make test
# runs the "sid-kernel" cases once the test bed is installed.
#
# Each case runs in a private mount namespace whose /boot, /usr/lib/modules
# and /usr/local/bin are empty, with a private HOME and cache, and with
# apt-get, dpkg-query, python3 (for pip), debootstrap and chroot replaced by
# stubs that act like the real commands on such a machine and record what
# they were asked to do.  Nothing on this machine is changed (the last
# case checks).  Runs as root
# (mount namespaces); prints TAP and "N passed, N failed, N skipped".
set -uo pipefail
export LC_ALL=C

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"

if [ "${1:-}" != --inside ]; then
	case ${1:-setup} in
	setup | sid-kernel) ;;
	*)
		echo "usage: fresh-machine-test.sh [setup|sid-kernel]" >&2
		exit 2 ;;
	esac
	if [ "$(id -u)" -ne 0 ]; then
		echo "fresh-machine-test.sh: needs root (mount namespaces)" >&2
		exit 4
	fi
	exec unshare --mount --propagation private "$0" --inside "${1:-setup}"
fi
SECTION=$2

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bbr2-fresh.XXXXXX")

# The directories the set-up scripts install into, each an empty tmpfs in
# every case (fresh_machine()).  A machine without a kernel has no
# /usr/lib/modules: a missing mount point is made for the test and removed
# at exit, and a case never runs on this machine's own directories.
FRESH_DIRS="/boot /usr/lib/modules /usr/local/bin"
made_dirs=()
unmount_fresh_dirs() {
	local d

	for d in $FRESH_DIRS; do
		while mountpoint -q "$d"; do
			umount -l "$d" || break
		done
	done
}
cleanup() {
	local d

	unmount_fresh_dirs
	for d in "${made_dirs[@]}"; do
		rmdir "$d" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
for d in $FRESH_DIRS; do
	[ -d "$d" ] && continue
	mkdir -p "$d" || { echo "fresh-machine-test.sh: cannot create $d" >&2; exit 1; }
	made_dirs+=("$d")
done
# what this machine holds there, to show at the end that no case changed it
machine_dirs() {
	local d

	for d in $FRESH_DIRS; do
		find "$d" -maxdepth 2 -printf '%p %y %l\n'
	done | sort
}
machine_before=$(machine_dirs)
STUBS=$WORK/stubs
mkdir -p "$STUBS"
REAL_PYTHON=$(command -v python3)

# ---- stubs: they keep their state under $FAKE (set per case)
cat >"$STUBS/dpkg-query" <<'EOF'
#!/bin/bash
# dpkg-query -W -f='${Status}' PKG, as dpkg answers for an unknown package
pkg=${!#}
if grep -qx -- "$pkg" "$FAKE/installed" 2>/dev/null; then
	printf 'install ok installed'
	exit 0
fi
echo "dpkg-query: no packages found matching $pkg" >&2
exit 1
EOF
cat >"$STUBS/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >>"$FAKE/calls"
args=()
for a in "$@"; do
	case $a in -*) ;; *) args+=("$a") ;; esac
done
case ${args[0]:-} in
update)
	[ -e "$FAKE/offline" ] && { echo "E: network unreachable" >&2; exit 100; }
	touch "$FAKE/lists"
	;;
install)
	[ -e "$FAKE/apt-install-fails" ] && { echo "E: Unable to locate package" >&2; exit 100; }
	for p in "${args[@]:1}"; do
		echo "$p" >>"$FAKE/installed"
		case $p in
		linux-image-*-unsigned)
			[ -e "$FAKE/image-has-no-kernel" ] && continue
			abi=${p#linux-image-}; abi=${abi%-unsigned}
			touch "/boot/vmlinuz-$abi" ;;
		linux-headers-*)
			mkdir -p "/usr/lib/modules/${p#linux-headers-}/build" ;;
		esac
	done
	;;
download)
	# a machine that never ran "apt-get update" knows no package
	[ -e "$FAKE/lists" ] || { echo "E: Unable to locate package ${args[1]}" >&2; exit 100; }
	cp "$FAKE/../linux-source.deb" "./${args[1]}_6.1.0-1_all.deb"
	;;
esac
EOF
cat >"$STUBS/python3" <<'EOF'
#!/bin/bash
# pip as it behaves on Debian's system Python: "pip show" exits 1 for an
# absent package; a plain "pip install" is refused where the interpreter is
# externally managed.
if [ "${1:-}" = -m ] && [ "${2:-}" = pip ]; then
	echo "pip $*" >>"$FAKE/calls"
	case $3 in
	show)
		if [ -e "$FAKE/pip-virtme-ng" ]; then
			printf 'Name: virtme-ng\nVersion: %s\n' "$(cat "$FAKE/pip-virtme-ng")"
			exit 0
		fi
		echo "WARNING: Package(s) not found: $4" >&2
		exit 1 ;;
	install)
		if [ -e "$FAKE/offline" ] || [ -e "$FAKE/pypi-down" ]; then
			echo "ERROR: No matching distribution found" >&2
			exit 1
		fi
		if [ -e "$FAKE/externally-managed" ] && [[ " $* " != *" --break-system-packages "* ]]; then
			echo "error: externally-managed-environment" >&2
			exit 1
		fi
		echo "${!##*==}" >"$FAKE/pip-virtme-ng"
		mkdir -p "$FAKE/pybin"
		printf '#!/bin/sh\necho vng stub\n' >"$FAKE/pybin/vng"
		chmod +x "$FAKE/pybin/vng"
		exit 0 ;;
	esac
	exit 2
fi
if [ "${1:-}" = -c ] && [[ $2 == *sysconfig* ]]; then
	echo "$FAKE/pybin"
	exit 0
fi
exec "$REAL_PYTHON" "$@"
EOF
cat >"$STUBS/debootstrap" <<'EOF'
#!/bin/bash
echo "debootstrap $*" >>"$FAKE/calls"
root=${@: -2:1}
mkdir -p "$root/usr/bin" "$root/etc/apt/apt.conf.d"
printf '#!/bin/sh\n' >"$root/usr/bin/apt-get"
chmod +x "$root/usr/bin/apt-get"
EOF
cat >"$STUBS/chroot" <<'EOF'
#!/bin/bash
# the sid chroot: apt answers as sid does, the module build succeeds
root=$1
shift
echo "chroot $*" >>"$FAKE/calls"
[ "$1" = env ] && { shift; while [[ $1 == *=* ]]; do shift; done; }
case "$1 $2" in
"apt-get -q")
	case $3 in
	install)
		hdr=${!#}
		mkdir -p "$root/usr/src/$hdr"
		printf '#!/bin/sh\n' >"$root/usr/bin/make"
		chmod +x "$root/usr/bin/make" ;;
	esac ;;
"apt-get clean") ;;
"apt-cache pkgnames")
	printf 'linux-headers-7.1.4+deb14-amd64\nlinux-headers-7.2.13+deb14-amd64\nlinux-headers-7.2.13+deb14-common\n'
	# sid moved on: a newer ABI, and the old one's files gone from the pool
	[ -e "$FAKE/sid-moved" ] && echo linux-headers-7.3.1+deb14-amd64
	: ;;
"apt-cache show")
	# from 7.x sid ships the unsigned image as linux-binary-unsigned-ABI
	[[ $3 == linux-binary-unsigned-7.* ]] ;;
"sh -c")
	case $3 in
	*download*)	# sh -c SCRIPT sh DIR PKG...: apt-get download into DIR
		dir=$root$5
		shift 5
		for p in "$@"; do
			if [ -e "$FAKE/sid-moved" ] && [[ $p == *7.2.13* ]]; then
				echo "E: Failed to fetch $p  404  Not Found" >&2
				exit 100
			fi
			cp "$FAKE/../kernel-debs/$p.deb" "$dir/${p}_1_amd64.deb" || exit 100
		done ;;
	*)	# the module build: sh -c SCRIPT sh make -C DIR ...
		echo "  CC [M]  /build/tcp_bbr2/src/bbr2_model.o"
		[ "$5 $6" = "make -C" ] && touch "$root$7/tcp_bbr2.ko" ;;
	esac ;;
*)
	echo "chroot stub: unexpected $*" >&2
	exit 1 ;;
esac
EOF
chmod +x "$STUBS"/*
# the reference kernel source package, as Debian ships it: a tarball in a .deb
mkdir -p "$WORK/srcpkg/DEBIAN" "$WORK/srcpkg/usr/src" "$WORK/tree/linux-source-6.1"
printf 'Package: linux-source-6.1\nVersion: 6.1.0-1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' \
	>"$WORK/srcpkg/DEBIAN/control"
for f in net/ipv4/tcp_bbr.c net/ipv4/tcp_cubic.c scripts/checkpatch.pl \
	 scripts/spelling.txt scripts/const_structs.checkpatch; do
	mkdir -p "$WORK/tree/linux-source-6.1/${f%/*}"
	echo "/* $f */" >"$WORK/tree/linux-source-6.1/$f"
done
tar -cJf "$WORK/srcpkg/usr/src/linux-source-6.1.tar.xz" -C "$WORK/tree" linux-source-6.1
dpkg-deb -Zgzip --build "$WORK/srcpkg" "$WORK/linux-source.deb" >/dev/null
# sid's 7.x kernel as three packages (image, modules, base files), with a
# module file depmod can index
mkdir -p "$WORK/kernel-debs"
for abi in 7.2.13+deb14-amd64 7.3.1+deb14-amd64; do
	for pkg in linux-binary-unsigned linux-modules linux-base; do
		d=$WORK/kpkg/$pkg-$abi
		mkdir -p "$d/DEBIAN" "$d/usr/lib/modules/$abi"
		printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
			"$pkg-$abi" >"$d/DEBIAN/control"
		case $pkg in
		linux-binary-unsigned)
			echo "Linux version $abi" >"$d/usr/lib/modules/$abi/vmlinuz.unsigned" ;;
		linux-modules)
			mkdir -p "$d/usr/lib/modules/$abi/kernel/net/sched"
			: >"$d/usr/lib/modules/$abi/kernel/net/sched/sch_netem.ko.xz" ;;
		linux-base)
			echo kernel/net/sched/sch_netem.ko >"$d/usr/lib/modules/$abi/modules.order" ;;
		esac
		dpkg-deb -Zgzip --build "$d" "$WORK/kernel-debs/$pkg-$abi.deb" >/dev/null
	done
done

# ---- cases
nr=0 passed=0 failed=0
ok() {	# ok DESCRIPTION CMD...: one TAP line for CMD's exit status
	local desc=$1
	shift
	nr=$((nr + 1))
	if "$@"; then
		passed=$((passed + 1)); echo "ok $nr $desc"
	else
		failed=$((failed + 1)); echo "not ok $nr $desc"
		[ -s "$OUT" ] && tail -n 15 "$OUT" | sed 's/^/#   | /'
	fi
}

# fresh_machine NAME: an empty /boot, /usr/lib/modules, /usr/local/bin,
# HOME and stub state for the next case
fresh_machine() {
	local d
	FAKE=$WORK/case-$1
	OUT=$FAKE/output
	rm -rf "$FAKE"
	mkdir -p "$FAKE/home"
	: >"$FAKE/calls"
	unmount_fresh_dirs
	for d in $FRESH_DIRS; do
		mount -t tmpfs fresh "$d" || {
			echo "fresh-machine-test.sh: cannot mount a tmpfs on $d" >&2
			exit 1
		}
	done
	export FAKE
}

# run_setup SCRIPT ARGS...: as a new user would, with only system paths
run_setup() {
	env -i HOME="$FAKE/home" FAKE="$FAKE" REAL_PYTHON="$REAL_PYTHON" \
		PATH="$STUBS:/usr/local/bin:${SYSPATH:-/usr/sbin:/usr/bin:/sbin:/bin}" \
		"$@" >"$OUT" 2>&1
}

called() { grep -qF -- "$1" "$FAKE/calls"; }
said() { grep -qE -- "$1" "$OUT"; }
exit_was() { [ "$rc" -eq "$1" ]; }

all_packages_asked() {	# every kernel of kernels.conf and the core tools
	local abi
	for abi in $KERNEL_ABIS; do
		grep -q "^apt-get .*install.* linux-image-$abi-unsigned" "$FAKE/calls" &&
		grep -q "^apt-get .*install.* linux-headers-$abi" "$FAKE/calls" || return 1
	done
	grep -q '^apt-get .*install.* qemu-system-x86 ' "$FAKE/calls" &&
	grep -q '^apt-get .*install.* iperf3 ' "$FAKE/calls"
}

echo "TAP version 13"

# the set-up scripts but sid-kernel.sh
setup_cases() {
	# 1. nothing installed, Debian's system Python (externally managed)
	fresh_machine absent
	touch "$FAKE/externally-managed"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, nothing installed: exits 0" exit_was 0
	ok "setup-deps, nothing installed: apt-get update before install" \
		bash -c "grep -n '^apt-get' '$FAKE/calls' | head -n 1 | grep -q 'apt-get update'"
	ok "setup-deps, nothing installed: installs every pinned kernel and the tools" all_packages_asked
	ok "setup-deps, nothing installed: installs virtme-ng from PyPI (--break-system-packages)" \
		called "pip -m pip install --break-system-packages virtme-ng=="
	ok "setup-deps, nothing installed: vng is on PATH afterwards" test -x /usr/local/bin/vng
	ok "setup-deps, nothing installed: ends with 'done'" said '^setup-deps.sh: done$'

	# 2. the same machine, now set up: nothing installed twice
	: >"$FAKE/calls"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, all installed: exits 0" exit_was 0
	ok "setup-deps, all installed: no apt-get, no pip install" \
		bash -c "! grep -qE '^apt-get|pip install' '$FAKE/calls'"
	ok "setup-deps, all installed: says so" said 'already installed'

	# 3. a pip that may install into its interpreter (pyenv, a venv)
	fresh_machine pyenv
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, writable Python: exits 0, plain pip install" \
		bash -c "[ $rc -eq 0 ] && grep -q 'pip -m pip install virtme-ng==' '$FAKE/calls'"

	# 4-7. each step failing must say what failed and what to do
	fresh_machine apt-fails
	touch "$FAKE/apt-install-fails"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, apt-get install fails: exits non-zero and names the step" \
		bash -c "[ $rc -ne 0 ] && grep -q 'apt-get install .* failed' '$OUT'"

	fresh_machine offline
	touch "$FAKE/offline"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, no network: exits non-zero and says apt-get update failed" \
		bash -c "[ $rc -ne 0 ] && grep -q 'apt-get update failed' '$OUT'"

	fresh_machine pypi-down
	touch "$FAKE/pypi-down" "$FAKE/externally-managed"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, PyPI unreachable: exits non-zero and names virtme-ng" \
		bash -c "[ $rc -ne 0 ] && grep -q 'pip install virtme-ng==.* failed' '$OUT'"

	fresh_machine no-kernel
	touch "$FAKE/image-has-no-kernel"
	run_setup "$SELFTESTS/runner/setup-deps.sh"; rc=$?
	ok "setup-deps, a kernel image without vmlinuz: exits non-zero and names the kernel" \
		bash -c "[ $rc -ne 0 ] && grep -q 'kernel .* incomplete' '$OUT'"

	# 8. the reference kernel source, on a machine without package lists
	fresh_machine ksrc
	run_setup "$SELFTESTS/runner/fetch-kernel-source.sh" "$FAKE/home/cache"; rc=$?
	ok "fetch-kernel-source, absent and no package lists: exits 0" exit_was 0
	ok "fetch-kernel-source, absent: updates the lists, then downloads" \
		bash -c "grep '^apt-get' '$FAKE/calls' | tr '\n' ' ' |
			grep -q 'download linux-source-6.1 apt-get update apt-get download linux-source-6.1'"
	ok "fetch-kernel-source, absent: checkpatch and the reference CCs unpacked" \
		test -r "$FAKE/home/cache/linux-source-6.1/scripts/checkpatch.pl" -a \
		     -r "$FAKE/home/cache/linux-source-6.1/net/ipv4/tcp_bbr.c"
	: >"$FAKE/calls"
	run_setup "$SELFTESTS/runner/fetch-kernel-source.sh" "$FAKE/home/cache"; rc=$?
	ok "fetch-kernel-source, present: no download" \
		bash -c "[ $rc -eq 0 ] && ! grep -q apt-get '$FAKE/calls'"
	fresh_machine ksrc-offline
	touch "$FAKE/offline"
	run_setup "$SELFTESTS/runner/fetch-kernel-source.sh" "$FAKE/home/cache"; rc=$?
	ok "fetch-kernel-source, unreachable: exits non-zero and says why" \
		bash -c "[ $rc -ne 0 ] && grep -q 'apt-get download linux-source-6.1 failed' '$OUT'"

	# 9. the build matrix's sid chroot
	fresh_machine sid
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/build/build-matrix.sh" 7; rc=$?
	ok "build-matrix 7, no sid chroot: exits 0" exit_was 0
	ok "build-matrix 7, no sid chroot: debootstraps sid" called "debootstrap --variant=minbase sid $FAKE/home/cache/sid-chroot"
	ok "build-matrix 7, no sid chroot: installs the newest 7.x headers" \
		called "apt-get -q install -y --no-install-recommends make linux-headers-7.2.13+deb14-amd64"
	ok "build-matrix 7, no sid chroot: builds against them" said '^7 +7\.2\.13\+deb14-amd64 +ok'
	: >"$FAKE/calls"
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/build/build-matrix.sh" 7; rc=$?
	ok "build-matrix 7, sid chroot present: no debootstrap, builds" \
		bash -c "[ $rc -eq 0 ] && ! grep -q debootstrap '$FAKE/calls'"
	fresh_machine sid-no-debootstrap
	mv "$STUBS/debootstrap" "$WORK/debootstrap.off"
	# debootstrap lives in /usr/sbin: a PATH without the sbin directories
	SYSPATH=/usr/bin:/bin run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/build/build-matrix.sh" 7; rc=$?
	mv "$WORK/debootstrap.off" "$STUBS/debootstrap"
	ok "build-matrix 7, debootstrap missing: fails and says so" \
		bash -c "[ $rc -ne 0 ] && grep -q 'debootstrap missing' '$OUT'"
}

# sid-kernel.sh: needs the host's depmod (kmod, from setup-deps.sh)
sid_kernel_cases() {
	# 10. sid's 7.x kernel for the VM (vm/sid-kernel.sh, on demand): fetched
	# into the cache, nothing installed on the host
	fresh_machine sid-kernel
	K=$FAKE/home/cache/kernels
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/vm-run" -k 7 true; rc=$?
	ok "vm-run -k 7, not fetched: exits 125 and says to run sid-kernel.sh" \
		bash -c "[ $rc -eq 125 ] && grep -q 'fetch the kernel with: .*sid-kernel.sh' '$OUT'"
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/sid-kernel.sh"; rc=$?
	ok "sid-kernel, no sid chroot: exits 0, prints the ABI" \
		bash -c "[ $rc -eq 0 ] && tail -n 1 '$OUT' | grep -qx '7.2.13+deb14-amd64'"
	ok "sid-kernel, no sid chroot: downloads the unsigned image, modules, base files" \
		grep -qE 'download .* linux-binary-unsigned-7\.2\.13\+deb14-amd64 linux-modules-7\.2\.13\+deb14-amd64 linux-base-7\.2\.13\+deb14-amd64$' "$FAKE/calls"
	ok "sid-kernel: image, indexed modules and module in the cache, kernels/7 points there" \
		bash -c "[ \"\$(readlink '$K/7')\" = 7.2.13+deb14-amd64 ] &&
			grep -q 'Linux version' '$K/7/boot/vmlinuz-7.2.13+deb14-amd64' &&
			grep -q sch_netem '$K/7/usr/lib/modules/7.2.13+deb14-amd64/modules.dep' &&
			[ -f '$K/7/tcp_bbr2.ko' ]"
	ok "sid-kernel: nothing installed on the host (/boot, /usr/lib/modules empty)" \
		bash -c "[ -z \"\$(find /boot /usr/lib/modules -mindepth 1)\" ]"
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/vm-run" -k 7 true
	ok "vm-run -k 7, fetched: finds the image and its modules in the cache" \
		bash -c "! grep -qE 'missing .*(vmlinuz|modules|sid-kernel)' '$OUT' && grep -q 'missing vng' '$OUT'"
	: >"$FAKE/calls"
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/sid-kernel.sh"; rc=$?
	ok "sid-kernel, fetched: rebuilds the module, downloads nothing" \
		bash -c "[ $rc -eq 0 ] && grep -q 'make -C /build' '$FAKE/calls' && ! grep -q download '$FAKE/calls'"
	fresh_machine sid-kernel-moved
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/build/build-matrix.sh" 7
	touch "$FAKE/sid-moved"
	run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/sid-kernel.sh"; rc=$?
	ok "sid-kernel, sid dropped the chroot's ABI: updates, installs the newest headers, fetches that" \
		bash -c "[ $rc -eq 0 ] && tail -n 1 '$OUT' | grep -qx '7.3.1+deb14-amd64' &&
			grep -q 'apt-get -q update' '$FAKE/calls' &&
			grep -q 'install -y --no-install-recommends linux-headers-7.3.1+deb14-amd64' '$FAKE/calls' &&
			[ \"\$(readlink '$FAKE/home/cache/kernels/7')\" = 7.3.1+deb14-amd64 ]"
	fresh_machine sid-no-depmod
	# depmod lives in the sbin directories: a PATH without them
	SYSPATH=/usr/bin:/bin run_setup env CACHE="$FAKE/home/cache" "$SELFTESTS/vm/sid-kernel.sh"; rc=$?
	ok "sid-kernel, depmod missing: fails, says to install kmod, downloads nothing" \
		bash -c "[ $rc -ne 0 ] && grep -q 'depmod missing: apt-get install .*kmod' '$OUT' &&
			! grep -q download '$FAKE/calls'"
}

if [ "$SECTION" = setup ]; then
	setup_cases
else
	sid_kernel_cases
fi
unmount_fresh_dirs
OUT=$WORK/machine-dirs
diff <(echo "$machine_before") <(machine_dirs) >"$OUT"
ok "this machine's /boot, /usr/lib/modules and /usr/local/bin are as they were" \
	test ! -s "$OUT"
echo "1..$nr"
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
