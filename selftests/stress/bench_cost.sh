#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU cost per byte of bbr2 against the kernel's bbr and cubic, measured
# in one run on one machine (make -C selftests vm-bench-cost).  A benchmark,
# not a test: it prints a table and ratios and asserts nothing.
#
# Each transfer is CPU-bound: one iperf3 flow over a bare veth pair between
# two namespaces, no shaping, TSO/GSO off on the sender so every wire
# packet is a segment the stack (and the CC, once per ACK) must handle, fq
# on the sender for every CC so that pacing costs the same.  CPU time is
# all CPUs' non-idle time from /proc/stat over the transfer (sender and
# receiver both, identical work but for the CC).  The CCs take turns,
# ROUNDS times, and the median of each is reported:
#   MB/CPU-s     payload bytes moved per CPU-second
#   cost x bbr   CPU per byte relative to bbr (1.10 = 10 % more CPU per byte)
#
#   BENCH_SECS (8), BENCH_ROUNDS (3), CCS ("bbr2 bbr cubic")
source "$(dirname "$0")/../net/lib.sh"
# shellcheck source=../runner/runner-lib.sh
source "$(dirname "$0")/../runner/runner-lib.sh"

SECS=${BENCH_SECS:-8}
ROUNDS=${BENCH_ROUNDS:-3}
CCS=${CCS:-"bbr2 bbr cubic"}
NS_A=$NS_PREFIX-cost-a
NS_B=$NS_PREFIX-cost-b

require_root
require_cmds ip tc iperf3 python3 ethtool

teardown() { ip netns del "$NS_A" 2>/dev/null; ip netns del "$NS_B" 2>/dev/null; return 0; }
on_exit teardown
ip netns add "$NS_A" && ip netns add "$NS_B" || exit 1
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" addr add 10.9.0.1/24 dev va
ip -n "$NS_B" addr add 10.9.0.2/24 dev vb
ip -n "$NS_A" link set va up
ip -n "$NS_B" link set vb up
ip -n "$NS_A" link set lo up
ip -n "$NS_B" link set lo up
ip netns exec "$NS_A" ethtool -K va tso off gso off >/dev/null 2>&1
ip netns exec "$NS_A" tc qdisc replace dev va root fq ||
	echo "# no fq qdisc: BBR paces with its internal timer, cubic does not pace"

# busy jiffies of all CPUs
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
hz=$(getconf CLK_TCK)

modprobe tcp_bbr 2>/dev/null
runner_load_module "${BBR2_KO:-}"
echo "# per-byte CPU cost, $(uname -r), $(nproc) CPUs, ${SECS}s x $ROUNDS rounds per CC, veth, no TSO/GSO, fq"
for cc in $CCS; do
	cc_available "$cc" || { echo "# $cc not available: $(cc_skip_reason "$cc")"; exit 4; }
done
declare -A mbps goodput
port=5500
for r in $(seq "$ROUNDS"); do
	for cc in $CCS; do
		port=$((port + 1))
		ip netns exec "$NS_B" iperf3 -s -1 -p $port >/dev/null 2>&1 &
		srv=$!
		sleep 0.5
		b0=$(busy)
		ip netns exec "$NS_A" iperf3 -c 10.9.0.2 -p $port -C "$cc" -t "$SECS" -J \
			>"$TEST_OUT/$cc-$r.json" 2>&1
		b1=$(busy)
		wait $srv 2>/dev/null
		bytes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bytes"])' \
			"$TEST_OUT/$cc-$r.json" 2>/dev/null || echo 0)
		cpu=$(fcalc "($b1 - $b0) / $hz")
		echo "# round $r $cc: $bytes bytes, $cpu CPU-s"
		mbps[$cc]+="$(fcalc "$bytes / 1e6 / ($cpu > 0 ? $cpu : 1)") "
		goodput[$cc]+="$(fcalc "$bytes * 8 / 1e6 / $SECS") "
	done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%-8s %12s %12s %12s\n' cc "Mbit/s" "MB/CPU-s" "cost x bbr"
ref=$(median <<<"${mbps[bbr]:-}")
for cc in $CCS; do
	m=$(median <<<"${mbps[$cc]}")
	g=$(median <<<"${goodput[$cc]}")
	printf '%-8s %12s %12s %12s\n' "$cc" "$g" "$m" "$( [ -n "$ref" ] && fcalc "$ref / $m" || echo -)"
done
