#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-bench-peers.sh: bbr2 against a peer kernel's own BBR (Google's BBRv3),
# the same scenarios on the same topology code, side by side
# (make -C selftests vm-bench-peers).  A benchmark, not a test: it prints
# tables and asserts nothing.
#
# Each iteration boots two kernels, each once, under QEMU TCG (2 vCPUs, 2G):
#   1. the peer kernel V3_KERNEL (a bzImage with everything built in and no
#      module support: Documentation/results/peers.rst says how to build one) from an
#      initramfs built here from the host's own files (static busybox, bash,
#      ip, tc, ss, ping, iperf3, ethtool, python3 with the stdlib modules the
#      scripts import, the shared libraries ldd lists, tc's netem tables) and
#      the scripts of this tree; its `bbr` is the "v3" column.  Results come
#      back as a tar archive the guest writes to a second virtio disk.
#   2. the Debian kernel KVER, with tcp_bbr2.ko loaded: bbr2, its variants,
#      bbr (v1) and cubic.  By default from an initramfs built the same way,
#      with the kernel's own modules and tcp_bbr2.ko added, so that both
#      kernels run the same userspace from RAM under the same QEMU command
#      (DEBIAN_BOOT=initramfs); DEBIAN_BOOT=vng boots it through vm-run
#      (virtme-ng, the host's root over 9p) as the test suite does.  Through
#      9p every exec and file read is emulated I/O, so the two guests
#      would differ in more than their BBR (cubic's 16 flows carry less
#      in the 9p guest).
# In both, peers-guest.sh runs the scenarios on ../net/lib.sh's dumbbell
# (sender with fq -> netem delay/loss -> tbf bottleneck -> receiver) after
# lib.sh's capacity check (cubic must carry the link) and samples
# TCP_INFO/TCP_CC_INFO (ccinfo.c) and bbr2's tracepoints during deep16 and
# late2.  peers-report.py prints one table per scenario (mean, min, max over
# the iterations, bbr2/v3, a verdict) and writes raw.csv and summary.json.
#
# Environment (the Makefile passes its variables through):
#   V3_KERNEL   peer kernel image; unset: the v3 column is skipped, loudly
#   KVER        Debian kernel ABI (default: first of ../vm/kernels.conf)
#   ITER        iterations (3)
#   CCS         Debian-side specs (default "bbr2_ref bbr2 bbr cubic": bbr2_ref,
#               the module's Google's model exactly, is the reference
#               column); name:p=v sets /sys/module/tcp_<name>/parameters/p
#               (tcp_bbr2's for bbr2_ref) for that run, e.g.
#               CCS="bbr2_ref bbr2 bbr2:version=2 bbr cubic"
#   PEER_CCS    peer-side specs ("bbr")
#   SCENARIOS   subset of "deep16 late2 loss0 loss1 loss3 flows16 vscubic1
#               vscubic2 tiny1 tiny3 nosack01 nosack1 ecn ecn2 vscubic8q
#               vscubic8 transperf4" (default: all of them); the ECN
#               scenarios compare e.g. CCS="bbr2_ref bbr2
#               bbr2:ecn_enable=1:ecn_max_rtt_us=0 dctcp bbr cubic"
#   RESULTS     results directory; BBR2_KO module; VM_CPU_MODEL (-cpu, max)
#   VM_TIMEOUT  per guest (2400 s)
#   GUESTS      which guests run ("v3 debian"), for development
#   DEBIAN_BOOT initramfs (default) or vng: how the Debian kernel boots
#   BENCH_SECS  flow length (20 s; shorter only to try the machinery)
#   BENCH_RTT   the dumbbell's base RTT (40 ms): a longer one gives the
#               5 %-BDP buffer of flows16 more packets (21 at 100 ms)
#   BENCH_RATE  the bottleneck's rate (50 Mbit/s): 10 with BENCH_RTT=10
#               is a flow whose whole BDP is 8.6 packets
#   TRACE       scenarios whose flows are sampled and traced ("deep16 late2")
#
# Results: RESULTS/iterN/{v3,debian}/ (raw.tsv, iperf3 JSON, ping logs,
# *.ccinfo samples, *.trace, console logs), RESULTS/raw.csv,
# RESULTS/summary.json, RESULTS/report.txt, RESULTS/commit (the commit
# the module was built from, "-dirty" after it when src/ or include/ had
# uncommitted changes; peers-merge.py joins runs of one commit).

set -euo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "$0")" && pwd)
SELFTESTS=$(cd "$BENCH/.." && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
# shellcheck source=../vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"

KVER=${KVER:-${KERNEL_ABIS%% *}}
ITER=${ITER:-3}
CCS=${CCS:-"bbr2_ref bbr2 bbr cubic"}
PEER_CCS=${PEER_CCS:-bbr}
SCENARIOS=${SCENARIOS:-}
RESULTS=${RESULTS:-$SELFTESTS/results/bench-peers-$(date +%Y%m%d-%H%M%S)}
BBR2_KO=${BBR2_KO:-$REPO/tcp_bbr2.ko}
V3_KERNEL=${V3_KERNEL:-}
VM_TIMEOUT=${VM_TIMEOUT:-2400}
cpu_model=${VM_CPU_MODEL:-max}
GUESTS=${GUESTS:-"v3 debian"}
DEBIAN_BOOT=${DEBIAN_BOOT:-initramfs}
# what the dumbbell and the results disk need of a modular Debian kernel
# (their dependencies come along; built-in ones are skipped)
DEBIAN_MODULES="virtio_pci virtio_blk tcp_bbr tcp_dctcp sch_netem sch_tbf
	sch_fq sch_fq_codel sch_red veth ipv6"

say() { echo "bench-peers: $*" >&2; }
die() { say "$*"; exit 1; }

mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
if commit=$(git -C "$REPO" rev-parse HEAD 2>/dev/null); then
	git -C "$REPO" diff --quiet HEAD -- src include || commit=$commit-dirty
else
	commit=unknown
fi
echo "$commit" >"$RESULTS/commit"
BUILD=$RESULTS/build
mkdir -p "$BUILD"

[ -n "$V3_KERNEL" ] && { [ -r "$V3_KERNEL" ] || die "V3_KERNEL=$V3_KERNEL: not readable"; }
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (selftests/runner/setup-deps.sh)"

# ---------------------------------------------------------------- build ---

say "building ccinfo (static)"
gcc -static -O2 -Wall -Wextra -o "$BUILD/ccinfo" "$BENCH/ccinfo.c" ||
	die "cannot build ccinfo statically (needs libc6-dev's libc.a)"

# copy_file PATH: PATH (symlinks resolved, the link kept too) into the tree
copy_file()
{
	local f=$1 real

	[ -e "$ROOT$f" ] && return 0
	mkdir -p "$ROOT$(dirname "$f")"
	if [ -L "$f" ]; then
		real=$(readlink -f "$f")
		copy_file "$real"
		ln -sf "$real" "$ROOT$f"
	else
		cp -a "$f" "$ROOT$f"
	fi
}

# copy_bin NAME: a host binary and every shared library ldd lists for it
copy_bin()
{
	local path lib

	path=$(command -v "$1") || die "$1 missing on the host (selftests/runner/setup-deps.sh)"
	copy_file "$path"
	for lib in $(ldd "$path" 2>/dev/null | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
		[ -e "$lib" ] && copy_file "$lib"
	done
	return 0
}

# add_kernel_modules ABI: ABI's modules of DEBIAN_MODULES with their
# dependencies, its module index, kmod, and tcp_bbr2.ko as /bench/tcp_bbr2.ko
add_kernel_modules()
{
	local abi=$1 m line f
	local moddir=/lib/modules/$abi

	[ -f "$moddir/modules.dep" ] ||
		die "$moddir/modules.dep missing (apt-get install linux-image-$abi-unsigned)"
	for m in $DEBIAN_MODULES; do
		# "insmod PATH" per module to load; "builtin NAME" for none
		while read -r line; do
			f=${line#insmod }
			f=${f%% *}
			[[ "$line" == insmod* ]] && copy_file "$f"
		done < <(modprobe -S "$abi" --show-depends "$m" 2>/dev/null)
	done
	for f in "$moddir"/modules.*; do
		copy_file "$f"
	done
	copy_bin modprobe
	copy_bin insmod
	copy_bin lsmod
	copy_bin modinfo
	cp "$BBR2_KO" "$ROOT/bench/tcp_bbr2.ko"
}

# build_initramfs OUT [ABI]: the guest's root filesystem; with ABI, for that
# Debian kernel (its modules and tcp_bbr2.ko added), else for the peer
build_initramfs()
{
	local out=$1 abi=${2:-} b f

	ROOT=$BUILD/root
	rm -rf "$ROOT"
	# merged /usr, as on the host, so every path ldd prints resolves
	mkdir -p "$ROOT"/{dev,proc,sys,tmp,run,root,etc,results,var,bbin} \
		"$ROOT"/usr/{bin,sbin,lib,lib64}
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$ROOT/$d"
	done
	ln -s /run "$ROOT/var/run"
	[[ "$(ldd /bin/busybox 2>&1)" == *'not a dynamic'* ]] ||
		die "/bin/busybox is not static (apt-get install busybox-static)"
	cp /bin/busybox "$ROOT/bbin/busybox"
	# the real tools the Debian guest uses; busybox (last in PATH) fills
	# in the rest; Debian's python, not whatever python3 PATH finds first
	for b in bash ip tc ss ping iperf3 ethtool /usr/bin/python3 awk sysctl \
		 timeout; do
		copy_bin "$b"
	done
	ln -s python3 "$ROOT/usr/bin/python" 2>/dev/null || true
	ln -sf bash "$ROOT/usr/bin/sh"
	for f in /usr/lib/x86_64-linux-gnu/tc/*.dist; do
		[ -e "$f" ] && copy_file "$f"
	done
	# the python modules the scripts import (nettool.py, tcpsample.py),
	# with everything the interpreter itself loads at start-up
	for f in $(/usr/bin/python3 - <<-'EOF'
	import sys
	import json, statistics, socket, struct, time  # noqa: F401
	for m in list(sys.modules.values()):
	    f = getattr(m, "__file__", None)
	    if f and f.startswith("/"):
	        print(f)
	EOF
	); do
		copy_file "$f"
	done
	# every codec module, whatever the guest's locale asks for
	f=$(/usr/bin/python3 -c "import encodings, os; print(os.path.dirname(encodings.__file__))")
	mkdir -p "$ROOT$f"
	cp -a "$f"/*.py "$ROOT$f/"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
	printf 'root:x:0:\n' >"$ROOT/etc/group"
	printf '127.0.0.1 localhost\n' >"$ROOT/etc/hosts"
	# the scripts, at the same relative places as in the tree
	mkdir -p "$ROOT/bench/selftests/net" "$ROOT/bench/selftests/bench" \
		"$ROOT/bench/selftests/runner"
	cp "$SELFTESTS/net/lib.sh" "$SELFTESTS/net/nettool.py" "$SELFTESTS/net/tcpsample.py" \
		"$ROOT/bench/selftests/net/"
	cp "$SELFTESTS/runner/runner-lib.sh" "$ROOT/bench/selftests/runner/"
	cp "$BENCH/peers-guest.sh" "$BENCH/persec.py" "$BUILD/ccinfo" \
		"$ROOT/bench/selftests/bench/"
	cat >"$ROOT/init" <<-'EOF'
	#!/bbin/busybox sh
	/bbin/busybox --install -s /bbin
	export PATH=/usr/sbin:/usr/bin:/bbin
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	# bash's process substitution needs /dev/fd
	ln -sf /proc/self/fd /dev/fd
	ln -sf /proc/self/fd/0 /dev/stdin
	ln -sf /proc/self/fd/1 /dev/stdout
	ln -sf /proc/self/fd/2 /dev/stderr
	mount -t tmpfs tmpfs /tmp
	mount -t tmpfs tmpfs /run
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	mkdir -p /run/netns
	hostname peer
	ip link set lo up
	# a modular kernel (Debian's) loads the results disk's driver first
	if [ -d "/lib/modules/$(uname -r)" ]; then
		modprobe -a virtio_pci virtio_blk
		for i in $(seq 50); do [ -b /dev/vda ] && break; sleep 0.2; done
	fi
	. /bench/env
	echo "@@BENCH-PEERS-START@@ $(uname -r)"
	cd /bench/selftests/bench
	RESULTS_DIR=/results bash ./peers-guest.sh
	echo "@@BENCH-PEERS-RC@@ $?"
	dmesg >/results/dmesg.log
	tar -cf /dev/vda -C /results . && sync
	echo "@@BENCH-PEERS-END@@"
	poweroff -f
	EOF
	chmod +x "$ROOT/init"
	if [ -n "$abi" ]; then
		add_kernel_modules "$abi"
		write_env "$ROOT/bench/env" "$CCS"
		printf 'export BBR2_KO=/bench/tcp_bbr2.ko\n' >>"$ROOT/bench/env"
	else
		write_env "$ROOT/bench/env" "$PEER_CCS"
	fi
	(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
}

# write_env FILE CCS: the guest's settings, one export per line
write_env()
{
	{
		printf 'export CCS=%q\n' "$2"
		printf 'export SCENARIOS=%q\n' "$SCENARIOS"
		printf 'export CCINFO=%q\n' /bench/selftests/bench/ccinfo
		printf 'export BENCH_SECS=%q\n' "${BENCH_SECS:-20}"
		printf 'export BENCH_RTT=%q\n' "${BENCH_RTT:-40}"
		printf 'export BENCH_RATE=%q\n' "${BENCH_RATE:-50}"
		printf 'export TRACE=%q\n' "${TRACE:-deep16 late2}"
	} >"$1"
}

# One guest at a time on this host (vm-run's lock): the benchmark takes the
# lock once and keeps it for all its guests, so that no other guest runs
# between its kernels; vm-run, started from here, gets a private lock.
# PEERS_LOCK_HELD=1: the caller holds it already.
VM_LOCK_FILE=${VM_LOCK:-${TMPDIR:-/tmp}/tcp_bbr2-vm.lock}
take_vm_lock()
{
	[ "${PEERS_LOCK_HELD:-0}" = 1 ] && return 0
	exec 8>>"$VM_LOCK_FILE"
	if ! flock -n 8; then
		say "another guest is running (lock $VM_LOCK_FILE); waiting"
		flock -w "${VM_LOCK_WAIT:-7200}" 8 || die "gave up waiting for $VM_LOCK_FILE"
	fi
}

# run_initramfs DIR KERNEL INITRD: boot KERNEL with INITRD, results into DIR
run_initramfs()
{
	local dir=$1 kernel=$2 initrd=$3 img rc t0

	mkdir -p "$dir"
	img=$dir/out.img
	rm -f "$img"
	truncate -s 512M "$img"
	say "booting $kernel under TCG (2 cpus, 2G, -cpu $cpu_model); console: $dir/console.log"
	t0=$(date +%s)
	set +e
	# line-buffered all the way, so that console.log and the progress
	# lines follow the guest as it runs rather than in 4-KB blocks
	timeout -k 20 "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu "$cpu_model" \
		-m 2048 -smp 2 -nographic -no-reboot -nic none \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4" \
		-drive "file=$img,format=raw,if=virtio" </dev/null |
		stdbuf -oL tr -d '\r' | tee "$dir/console.log" |
		grep --line-buffered -E '^# |@@BENCH' >&2
	rc=${PIPESTATUS[0]}
	set -e
	say "guest finished after $(( $(date +%s) - t0 ))s (qemu exit $rc)"
	echo "$(( $(date +%s) - t0 ))" >"$dir/vm-secs"
	tar -xf "$img" -C "$dir" 2>/dev/null || say "no results archive on the output disk"
	rm -f "$img"
	grep -q '@@BENCH-PEERS-END@@' "$dir/console.log" ||
		say "WARNING: the guest did not finish (see $dir/console.log)"
	return 0
}

# run_debian DIR: the Debian kernel, from its initramfs or through vm-run
run_debian()
{
	local dir=$1 t0 rc=0

	if [ "$DEBIAN_BOOT" = initramfs ]; then
		run_initramfs "$dir" "$DEBIAN_KERNEL" "$DEBIAN_INITRD"
		return 0
	fi

	mkdir -p "$dir"
	t0=$(date +%s)
	VM_LOCK=$BUILD/vm.lock "$SELFTESTS/vm/vm-run" -k "$KVER" -t "$VM_TIMEOUT" -r "$dir" \
		${VM_CPU_MODEL:+--cpu-model "$VM_CPU_MODEL"} \
		-e "BBR2_KO=$BBR2_KO" -e "CCS=$CCS" -e "SCENARIOS=$SCENARIOS" \
		-e "CCINFO=$BUILD/ccinfo" -e "BENCH_SECS=${BENCH_SECS:-20}" \
		-e "BENCH_RTT=${BENCH_RTT:-40}" -e "BENCH_RATE=${BENCH_RATE:-50}" \
		-e "TRACE=${TRACE:-deep16 late2}" -- \
		"$BENCH/peers-guest.sh" >"$dir/guest-stdout.log" 2>&1 || rc=$?
	grep -E '^# ' "$dir/guest-stdout.log" >&2 || true
	echo "$(( $(date +%s) - t0 ))" >"$dir/vm-secs"
	say "Debian guest finished after $(cat "$dir/vm-secs")s (exit $rc)"
	return 0
}

if [ -n "$V3_KERNEL" ]; then
	INITRD=$BUILD/initrd.gz
	say "building the peer initramfs from the host's files"
	build_initramfs "$INITRD"
	say "initramfs: $(du -h "$INITRD" | cut -f1)"
else
	say "**************************************************************"
	say "V3_KERNEL not given: the v3 (peer kernel) column is SKIPPED."
	say "Give e.g. V3_KERNEL=/work/shared/kernels/bbr3-6.12.117/bzImage"
	say "**************************************************************"
fi
[ -f "$BBR2_KO" ] || say "WARNING: $BBR2_KO missing: the bbr2 columns will be empty"
[[ " $GUESTS " == *" debian "* ]] || DEBIAN_BOOT=none
case $DEBIAN_BOOT in
initramfs)
	DEBIAN_KERNEL=/boot/vmlinuz-$KVER
	[ -r "$DEBIAN_KERNEL" ] ||
		die "$DEBIAN_KERNEL missing (apt-get install linux-image-$KVER-unsigned; or DEBIAN_BOOT=vng)"
	[ -f "$BBR2_KO" ] || die "$BBR2_KO missing (make KVER=$KVER)"
	DEBIAN_INITRD=$BUILD/initrd-debian.gz
	say "building the Debian guest's initramfs ($KVER, its modules, $BBR2_KO)"
	build_initramfs "$DEBIAN_INITRD" "$KVER"
	say "initramfs: $(du -h "$DEBIAN_INITRD" | cut -f1)"
	;;
vng | none) ;;
*) die "DEBIAN_BOOT=$DEBIAN_BOOT: initramfs or vng" ;;
esac

take_vm_lock
bench_t0=$(date +%s)
for i in $(seq "$ITER"); do
	say "==== iteration $i of $ITER ===="
	if [ -n "$V3_KERNEL" ] && [[ " $GUESTS " == *" v3 "* ]]; then
		run_initramfs "$RESULTS/iter$i/v3" "$V3_KERNEL" "$INITRD"
	fi
	[[ " $GUESTS " == *" debian "* ]] && run_debian "$RESULTS/iter$i/debian"
done

say "all guests done after $(( $(date +%s) - bench_t0 ))s"
python3 "$BENCH/peers-report.py" "$RESULTS" ${V3_KERNEL:+--peer "$V3_KERNEL"} |
	tee "$RESULTS/report.txt"
say "results: $RESULTS"
