#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In a deep bottleneck buffer (BUF BDPs), a loss-based CC (cubic) fills the
# queue; bbr2 paces at the bottleneck rate with inflight near the BDP, so its
# queueing delay (smoothed RTT minus the base RTT, median over the second
# half of the flow) must stay at most QDELAY_RATIO of cubic's while it keeps
# the link used.  If cubic's own queueing delay stays under DISCRIMINATE_RTTS
# base RTTs, the scenario cannot tell them apart and the test fails.

source "$(dirname "$0")/lib.sh"

RATE=${RATE:-20}
RTT=${RTT:-20}
BUF=${BUF:-8}
SECS=${SECS:-20}
QDELAY_RATIO=${QDELAY_RATIO:-0.5}
DISCRIMINATE_RTTS=${DISCRIMINATE_RTTS:-2}
UTIL=${UTIL:-0.8}

scenario_begin "$RATE"
scenario_dumbbell "$RATE" "$RTT" 0 "$BUF"
ktap_info "$(dumbbell_describe), 1 flow, ${SECS}s; a full buffer adds $(fcalc "$BUF * $RTT") ms"

declare -A gput retr qd qd90
for cc in $CCS; do
	reason=$(cc_skip_reason "$cc")
	if [ -n "$reason" ]; then
		ktap_skip "$cc: deep buffer" "$reason"
		continue
	fi
	out=$TEST_OUT/$cc.json
	tcp_sampler_start "$TEST_OUT/$cc.samples" 0.1
	iperf_flow "$out" "$cc" "$SECS"
	rc=$?
	tcp_sampler_stop
	if [ $rc -ne 0 ]; then
		ktap_info "$(head -c 400 "$out.err" "$out" 2>/dev/null)"
		ktap_fail "$cc: iperf3"
		continue
	fi
	read -r g _ p _ < <(iperf_summary "$out")
	read -r q q90 _ n < <(qdelay "$TEST_OUT/$cc.samples")
	gput[$cc]=$g retr[$cc]=$p qd[$cc]=$q qd90[$cc]=$q90
	[ "$n" -gt 0 ] || ktap_info "$cc: no RTT samples"
done

table_row cc "Mbit/s" "retrans%" "qdelay_ms" "p90_ms"
for cc in $CCS; do
	table_row "$cc" "${gput[$cc]:--}" "${retr[$cc]:--}" "${qd[$cc]:--}" "${qd90[$cc]:--}"
done

for cc in $CCS; do
	[ -n "${gput[$cc]:-}" ] || continue
	check "$cc: uses >= $UTIL of the link (${gput[$cc]} Mbit/s)" "${gput[$cc]} >= $UTIL * $RATE"
done
if [ -n "${qd[cubic]:-}" ]; then
	check "scenario discriminates: cubic queues >= $DISCRIMINATE_RTTS base RTTs (${qd[cubic]} ms)" \
		"${qd[cubic]} >= $DISCRIMINATE_RTTS * $RTT"
fi
if [[ " $CCS " == *" $BBR2_CC "* ]] && [ -n "${qd[cubic]:-}" ]; then
	desc="$BBR2_CC: queueing delay <= $QDELAY_RATIO x cubic's"
	reason=$(cc_skip_reason "$BBR2_CC")
	if [ -n "$reason" ] || [ -z "${qd[$BBR2_CC]:-}" ]; then
		ktap_skip "$desc" "${reason:-no measurement}"
	else
		check "$desc (${qd[$BBR2_CC]} vs ${qd[cubic]} ms)" \
			"${qd[$BBR2_CC]} <= $QDELAY_RATIO * ${qd[cubic]}"
	fi
fi

dumbbell_teardown
capacity_recheck "$RATE"

dmesg_check
ktap_finished
