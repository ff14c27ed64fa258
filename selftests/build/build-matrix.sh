#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build tcp_bbr2 from this tree against one kernel of every series it
# supports, with W=1, and fail on any warning or error:
#
#   5.10   Debian bullseye's headers, unpacked from the archive
#   6.1    the VM test bed's default kernel (vm/kernels.conf, installed)
#   6.12   the test bed's 6.12 kernel (vm/kernels.conf, installed)
#   7.x    Debian sid's newest headers, in a sid chroot (they need sid's gcc)
#
# Together they cross every kernel API boundary bbr2_compat.h handles
# (5.16, 5.19, 6.2, 6.10, 7.1).  What is downloaded is kept in $CACHE
# (default ~/.cache/tcp_bbr2): a warm run needs no network.
#
#   build-matrix.sh [SERIES...]     default: all four
#
# KEEP_KO=DIR keeps each module that built cleanly as DIR/<kernel>/tcp_bbr2.ko
# (vm/sid-kernel.sh boots sid's 7.x kernel with it).
#
# Needs root for the sid chroot (debootstrap, chroot); without root the 7.x
# build is skipped.  Prints one line per kernel and a table; exit code 0
# only if every build that ran is clean.
set -uo pipefail
export LC_ALL=C

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/tcp_bbr2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"
SERIES=${*:-5.10 6.1 6.12 7}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bbr2-matrix.XXXXXX")
built=$WORK	# the tree being built (in the sid chroot for 7.x)
trap 'rm -rf "$WORK" "$built"' EXIT

log() { echo "build-matrix: $*" >&2; }

# apt-get/apt-cache on another suite's package lists, kept in the cache and
# never touching the host's apt state.
suite_apt() {	# suite_apt SUITE apt-get|apt-cache ARGS...
	local suite=$1 tool=$2 dir=$CACHE/apt/$1
	shift 2
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	[ -f "$dir/sources.list" ] || echo "deb $MIRROR $suite main" >"$dir/sources.list"
	[ -f "$dir/status" ] || : >"$dir/status"
	"$tool" -q -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$dir/lists" \
		-o Dir::State::Status="$dir/status" -o Dir::Cache="$dir" \
		-o Dir::Cache::Archives="$dir/archives" -o APT::Architecture=amd64 \
		-o Acquire::Check-Valid-Until=false -o Acquire::Languages=none -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
		-o APT::Sandbox::User=root "$@"
}

# The newest "linux-headers-<ABI>-amd64" of a suite matching PATTERN.
newest_abi() {	# newest_abi SUITE REGEX
	suite_apt "$1" apt-cache pkgnames linux-headers- |
		sed -n "s/^linux-headers-\($2\)-amd64\$/\1/p" | sort -V | tail -n 1
}

# 5.10: bullseye's linux-headers, -common and linux-kbuild unpacked under
# $CACHE/headers; prints the build directory.  Debian's headers name their
# -common tree by absolute path, so that path is rewritten.  bullseye built
# it with gcc-10, which bookworm lacks: gcc-12 builds it (CC=gcc below).
kdir_510() {
	local root abi kdir
	root=$CACHE/headers/bullseye
	kdir=$(find "$root/usr/src" -maxdepth 1 -name 'linux-headers-5.10.*-amd64' 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$kdir" ]; then
		log "fetching bullseye's 5.10 headers into $root"
		suite_apt bullseye apt-get update >&2 || return 1
		abi=$(newest_abi bullseye '5\.10\.[0-9]*-[0-9]*')
		[ -n "$abi" ] || { log "no 5.10 headers in bullseye"; return 1; }
		(cd "$WORK" && suite_apt bullseye apt-get download \
			"linux-headers-$abi-amd64" "linux-headers-$abi-common" linux-kbuild-5.10) >&2 ||
			return 1
		mkdir -p "$root"
		for deb in "$WORK"/*.deb; do
			dpkg-deb -x "$deb" "$root" || return 1
		done
		kdir=$root/usr/src/linux-headers-$abi-amd64
		sed -i "s|include /usr/src/|include $root/usr/src/|" "$kdir/Makefile"
	fi
	echo "$kdir"
}

# 7.x: a minimal sid chroot with the newest 7.x headers and their gcc.
sid_root() {
	local root=$CACHE/sid-chroot abi
	if [ ! -x "$root/usr/bin/make" ] ||
	   ! compgen -G "$root/usr/src/linux-headers-7.*-amd64" >/dev/null; then
		command -v debootstrap >/dev/null || { log "debootstrap missing"; return 1; }
		if [ ! -x "$root/usr/bin/apt-get" ]; then
			log "creating a sid chroot in $root (debootstrap)"
			rm -rf "$root"
			debootstrap --variant=minbase sid "$root" "$MIRROR" >&2 || return 1
		fi
		# a mirror that is a snapshot serves Release files past their
		# Valid-Until date; the signature is still checked
		echo 'Acquire::Check-Valid-Until "false";' \
			>"$root/etc/apt/apt.conf.d/99tcp-bbr2-matrix"
		chroot "$root" apt-get -q update >&2 || return 1
		abi=$(chroot "$root" apt-cache pkgnames linux-headers-7 |
			sed -n 's/^linux-headers-\(7\.[0-9.]*+deb[0-9]*\)-amd64$/\1/p' | sort -V | tail -n 1)
		[ -n "$abi" ] || { log "no 7.x headers in sid"; return 1; }
		log "installing linux-headers-$abi-amd64 in the sid chroot"
		chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
			--no-install-recommends make "linux-headers-$abi-amd64" >&2 || return 1
		chroot "$root" apt-get clean
	fi
	echo "$root"
}

# Build a copy of the tree (never the worktree itself: a concurrent build
# there must not see our objects) and judge the log.
build_in() {	# build_in LOG DIR MAKE-ARGS...: DIR is where the copy goes
	local log=$1 dir=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$REPO/Kbuild" "$REPO/Makefile" "$REPO/src" "$REPO/include" "$dir/"
	"$@" >"$log" 2>&1
}

# keep_ko DIR KERNEL: copy the module built in DIR to $KEEP_KO/KERNEL/
keep_ko() {
	[ -n "${KEEP_KO:-}" ] || return 0
	mkdir -p "$KEEP_KO/$2" && cp "$1/tcp_bbr2.ko" "$KEEP_KO/$2/tcp_bbr2.ko" &&
		log "kept $KEEP_KO/$2/tcp_bbr2.ko"
}

declare -a table
failed=0
row() {	# row SERIES KERNEL RESULT SECONDS LOG
	local flags=""
	[ -r "$5" ] && flags=$(grep -o 'BBR2_HAVE_[A-Z0-9_]*' "$5" | sort -u | sed 's/BBR2_HAVE_//' | tr '\n' ' ')
	table+=("$(printf '%-5s %-28s %-5s %4ss  %s' "$1" "$2" "$3" "$4" "$flags")")
	echo "build-matrix: $1 $2: $3 ($4 s)"
}

for series in $SERIES; do
	start=$(date +%s)
	logf=$WORK/$series.log
	kernel=- rc=1 built=$WORK/src-$series
	case $series in
	5.10)
		if kdir=$(kdir_510); then
			kernel=$(basename "$kdir" | sed 's/^linux-headers-//')
			build_in "$logf" "$WORK/src-$series" \
				make -C "$WORK/src-$series" KDIR="$kdir" CC=gcc W=1 V=1
			rc=$?
		fi
		;;
	6.1|6.12)
		for abi in $KERNEL_ABIS; do
			case $abi in "$series".*) kernel=$abi; break ;; esac
		done
		if [ "$kernel" != - ] && [ -d "/lib/modules/$kernel/build" ]; then
			build_in "$logf" "$WORK/src-$series" \
				make -C "$WORK/src-$series" KVER="$kernel" W=1 V=1
			rc=$?
		else
			log "no $series kernel installed (vm/kernels.conf: $KERNEL_ABIS)"
		fi
		;;
	7)
		if [ "$(id -u)" != 0 ]; then
			row "$series" - skip 0 /dev/null
			continue
		fi
		if root=$(sid_root); then
			kdir=$(find "$root/usr/src" -maxdepth 1 -name 'linux-headers-7.*-amd64' | sort -V | tail -n 1)
			kernel=${kdir##*/linux-headers-}
			# a directory of this run's own: two runs may share the chroot
			built=$root/build/tcp_bbr2-$$
			# objtool reads /proc: mount it in a private mount
			# namespace, which takes the mount away when it ends
			build_in "$logf" "$built" \
				unshare --mount --propagation private chroot "$root" \
				sh -c 'mount -t proc proc /proc && exec "$@"' sh \
				make -C "/build/tcp_bbr2-$$" KDIR="${kdir#"$root"}" W=1 V=1
			rc=$?
		fi
		;;
	*)
		log "unknown series $series (5.10 6.1 6.12 7)"
		;;
	esac
	result=ok
	if [ $rc -ne 0 ] || [ ! -s "$logf" ]; then
		result=FAIL
	elif grep -E '(warning|error):' "$logf" >&2; then
		result=WARN
	fi
	if [ $result != ok ]; then
		failed=$((failed + 1))
		[ -s "$logf" ] && tail -n 30 "$logf" | sed 's/^/   | /' >&2
	else
		keep_ko "$built" "$kernel" || result=FAIL failed=$((failed + 1))
	fi
	[ "$series" = 7 ] && rm -rf "$built"
	row "$series" "$kernel" "$result" $(( $(date +%s) - start )) "$logf"
done

echo "series kernel                       build  time  API found by the probes (BBR2_HAVE_*)"
printf '%s\n' "${table[@]}"
[ $failed -eq 0 ]
