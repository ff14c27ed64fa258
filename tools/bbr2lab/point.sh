#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One iteration of one experiment point on the selftests' netns dumbbell
# (selftests/net/lib.sh), run as root by bbr2-lab.  Everything comes in the
# environment:
#
#   OUT          directory for this iteration's raw data (created)
#   RATE RTT LOSS BUF_BDP   bottleneck Mbit/s, base RTT ms, loss %, buffer
#   SECS         length of the run, s
#   FLOW_GROUPS  "CC:N:DELAY_S:EXTRA_RTT_MS ..." one iperf3 client per group
#                with N parallel flows, started DELAY_S after the first and
#                ending with it; EXTRA_RTT_MS adds delay for that group only
#   MAXRATE      fq maxrate on the sender ("" = none), e.g. 40mbit
#   SS_INTERVAL  seconds between ss samples of every flow
#
# Writes OUT/flows-G.json (iperf3 -J per group), OUT/ss.txt (tcpsample.py),
# OUT/qdisc.txt (bottleneck counters), OUT/mib-{snd,rcv}-{before,after}.txt
# (the end hosts' /proc/net/snmp and netstat: TCP's own counters of
# recoveries, timeouts, loss probes, undos), OUT/cpu-{before,after}.txt
# (/proc/stat's total line) and OUT/point.env (what was run).
set -uo pipefail

LAB_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$LAB_DIR/../.." && pwd)
: "${OUT:?}" "${RATE:?}" "${RTT:?}" "${LOSS:?}" "${BUF_BDP:?}" "${SECS:?}" "${FLOW_GROUPS:?}"
MAXRATE=${MAXRATE:-}
SS_INTERVAL=${SS_INTERVAL:-0.5}

mkdir -p "$OUT"
export RESULTS_DIR=$OUT TEST_NAME=dumbbell
# shellcheck source=../../selftests/net/lib.sh
source "$REPO/selftests/net/lib.sh"

dumbbell_setup "$RATE" "$RTT" "$LOSS" "$BUF_BDP" || { echo "point.sh: dumbbell setup failed" >&2; exit 1; }
[ -n "$MAXRATE" ] && { in_snd tc qdisc replace dev s0 root fq maxrate "$MAXRATE" || exit 1; }

# per-group extra delay: a prio qdisc whose bands are netem delays, picked
# by the group's iperf3 port (data packets towards rcv carry it as dport)
read -ra groups <<<"$FLOW_GROUPS"
extra=0
for g in "${groups[@]}"; do
	IFS=: read -r _ _ _ x <<<"$g"
	[ "${x:-0}" != 0 ] && extra=1
done
base_port=5400
if [ $extra = 1 ]; then
	limit=$(( (DB_BDP_BYTES + DB_BUF_BYTES) * 40 / MTU_BYTES + 1000 ))
	bands=$(( ${#groups[@]} + 1 ))
	cmds="qdisc replace dev r1b root handle 1: prio bands $bands priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
qdisc add dev r1b parent 1:1 handle 10: netem limit $limit delay ${RTT}ms loss ${LOSS}%"
	i=0
	for g in "${groups[@]}"; do
		IFS=: read -r _ _ _ x <<<"$g"
		i=$((i + 1))
		cmds+="
qdisc add dev r1b parent 1:$((i + 1)) handle $((10 + i)): netem limit $limit delay $(awk "BEGIN { print $RTT + ${x:-0} }")ms loss ${LOSS}%
filter add dev r1b parent 1: protocol ip prio 1 u32 match ip dport $((base_port + i)) 0xffff flowid 1:$((i + 1))"
	done
	in_r1 tc -batch - <<<"$cmds" || { echo "point.sh: per-group delay setup failed" >&2; exit 1; }
fi

{
	echo "RATE=$RATE RTT=$RTT LOSS=$LOSS BUF_BDP=$BUF_BDP BUF_BYTES=$DB_BUF_BYTES BDP_BYTES=$DB_BDP_BYTES"
	echo "SECS=$SECS FLOW_GROUPS=\"$FLOW_GROUPS\" MAXRATE=$MAXRATE SS_INTERVAL=$SS_INTERVAL"
	echo "KERNEL=$(uname -r)"
} >"$OUT/point.env"

# Each namespace has its own MIB: the sender's shows how TCP recovered
# (what a simulator without TLP or undo cannot), the receiver's what it
# queued out of order.
# /proc/stat's first line says how busy the host's CPUs were over the run:
# near 100 % the host, not the path, limits what the flows send.
mib_snapshot()
{
	in_snd cat /proc/net/snmp /proc/net/netstat >"$OUT/mib-snd-$1.txt" 2>&1
	in_rcv cat /proc/net/snmp /proc/net/netstat >"$OUT/mib-rcv-$1.txt" 2>&1
	head -n 1 /proc/stat >"$OUT/cpu-$1.txt"
}

i=0
for g in "${groups[@]}"; do
	i=$((i + 1))
	iperf_server $((base_port + i)) || exit 1
done
mib_snapshot before
tcp_sampler_start "$OUT/ss.txt" "$SS_INTERVAL"

pids=()
i=0
for g in "${groups[@]}"; do
	IFS=: read -r cc n delay _ <<<"$g"
	i=$((i + 1))
	secs=$(awk "BEGIN { printf \"%d\", $SECS - ${delay:-0} }")
	(
		sleep "${delay:-0}"
		iperf_client "$OUT/flows-$i.json" "$cc" "$secs" $((base_port + i)) \
			-P "$n" -i 0.5
	) &
	pids+=($!)
done
rc=0
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
tcp_sampler_stop
mib_snapshot after
bottleneck_stats >"$OUT/qdisc.txt" 2>&1
dumbbell_teardown
exit $rc
