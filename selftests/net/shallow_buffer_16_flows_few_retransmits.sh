#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 16 flows into a shallow bottleneck buffer (BUF of a BDP): BBRv1 ignores the
# loss and keeps overrunning the queue (> 10 % retransmits in published
# measurements); bbr2 bounds its inflight on loss and must retransmit at most
# half of what bbr (v1) does over the whole run, and at most a third of
# bbr's and at most MAX_RETRANS_PCT once the flows have left STARTUP (from STEADY_FROM s on: sixteen
# simultaneous STARTUPs overrunning a 17-packet buffer lose packets with any
# BBR), while keeping the link used.
#
# If bbr v1 itself stays below DISCRIMINATE_PCT here, the buffer is not
# shallow enough to tell the two apart, and the test says so (fails).

source "$(dirname "$0")/lib.sh"

RATE=${RATE:-20}
RTT=${RTT:-100}
BUF=${BUF:-0.1}
FLOWS=${FLOWS:-16}
SECS=${SECS:-20}
STEADY_FROM=${STEADY_FROM:-8}
MAX_RETRANS_PCT=${MAX_RETRANS_PCT:-5}
DISCRIMINATE_PCT=${DISCRIMINATE_PCT:-5}
UTIL=${UTIL:-0.75}

scenario_begin "$RATE"
scenario_dumbbell "$RATE" "$RTT" 0 "$BUF"
ktap_info "$(dumbbell_describe), $FLOWS flows, ${SECS}s"

declare -A gput retr steady
for cc in $CCS; do
	reason=$(cc_skip_reason "$cc")
	if [ -n "$reason" ]; then
		ktap_skip "$cc: $FLOWS flows" "$reason"
		continue
	fi
	out=$TEST_OUT/$cc.json
	if ! iperf_flow "$out" "$cc" "$SECS" -P "$FLOWS"; then
		ktap_info "$(head -c 400 "$out.err" "$out" 2>/dev/null)"
		ktap_fail "$cc: iperf3 $FLOWS flows"
		continue
	fi
	read -r g _ p _ < <(iperf_summary "$out")
	gput[$cc]=$g
	retr[$cc]=$p
	steady[$cc]=$($NETTOOL iperf-retrans-from "$out" "$STEADY_FROM")
	bottleneck_stats >"$TEST_OUT/$cc.qdisc"
done

ktap_info "$FLOWS flows, buffer $BUF BDP (${DB_BUF_BYTES} B):"
table_row cc "Mbit/s" "retrans%" "from_${STEADY_FROM}s%"
for cc in $CCS; do
	table_row "$cc" "${gput[$cc]:--}" "${retr[$cc]:--}" "${steady[$cc]:--}"
done

# utilisation is judged for the BBR family only: loss-based cubic with
# ~10-packet windows per flow may legitimately leave the link idle here
for cc in $BBR2_CC bbr; do
	[ -n "${gput[$cc]:-}" ] || continue
	check "$cc: $FLOWS flows use >= $UTIL of the link (${gput[$cc]} Mbit/s)" \
		"${gput[$cc]} >= $UTIL * $RATE"
done
if [ -n "${retr[bbr]:-}" ]; then
	check "scenario discriminates: bbr v1 retransmits >= ${DISCRIMINATE_PCT}% (${retr[bbr]}%)" \
		"${retr[bbr]} >= $DISCRIMINATE_PCT"
fi
if [[ " $CCS " == *" $BBR2_CC "* ]]; then
	reason=$(cc_skip_reason "$BBR2_CC")
	if [ -n "$reason" ] || [ -z "${retr[$BBR2_CC]:-}" ]; then
		ktap_skip "$BBR2_CC: retransmits <= ${MAX_RETRANS_PCT}% after STARTUP" "${reason:-no measurement}"
		if [ -n "${retr[bbr]:-}" ]; then
			ktap_skip "$BBR2_CC: retransmits <= half of bbr v1's" "${reason:-no measurement}"
			ktap_skip "$BBR2_CC: from ${STEADY_FROM}s on, retransmits <= a third of bbr v1's" "${reason:-no measurement}"
		fi
	else
		check "$BBR2_CC: retransmits <= ${MAX_RETRANS_PCT}% from ${STEADY_FROM}s on (${steady[$BBR2_CC]}%)" \
			"${steady[$BBR2_CC]} <= $MAX_RETRANS_PCT"
		if [ -n "${retr[bbr]:-}" ]; then
			check "$BBR2_CC: retransmits <= half of bbr v1's (${retr[$BBR2_CC]}% vs ${retr[bbr]}%)" \
				"${retr[$BBR2_CC]} <= 0.5 * ${retr[bbr]}"
			check "$BBR2_CC: from ${STEADY_FROM}s on, retransmits <= a third of bbr v1's (${steady[$BBR2_CC]}% vs ${steady[bbr]}%)" \
				"${steady[$BBR2_CC]} <= ${steady[bbr]} / 3"
		fi
	fi
fi

dumbbell_teardown
capacity_recheck "$RATE"

dmesg_check
ktap_finished
