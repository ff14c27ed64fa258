#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two flows of the same CC share a bottleneck; the second joins LATE seconds
# after the first.  Over the last WINDOW seconds their throughputs must be
# fair: Jain's index >= MIN_JAIN for bbr2, with the link still used.  Other
# CCs are measured beside it for reference (reported, not judged, except
# for link utilisation).

source "$(dirname "$0")/lib.sh"

RATE=${RATE:-20}
RTT=${RTT:-40}
BUF=${BUF:-2}
SECS=${SECS:-25}
LATE=${LATE:-5}
WINDOW=${WINDOW:-10}
MIN_JAIN=${MIN_JAIN:-0.85}
UTIL=${UTIL:-0.8}

scenario_begin "$RATE"
scenario_dumbbell "$RATE" "$RTT" 0 "$BUF"
ktap_info "$(dumbbell_describe); flow 2 starts ${LATE}s after flow 1; judged over the last ${WINDOW}s of ${SECS}s"

declare -A f1 f2 jidx
for cc in $CCS; do
	reason=$(cc_skip_reason "$cc")
	if [ -n "$reason" ]; then
		ktap_skip "$cc: two flows converge" "$reason"
		continue
	fi
	iperf_server_next || { ktap_fail "$cc: iperf3 server"; continue; }
	p1=$IPERF_PORT
	iperf_server_next || { ktap_fail "$cc: iperf3 server"; continue; }
	p2=$IPERF_PORT
	t1=$EPOCHREALTIME
	iperf_client "$TEST_OUT/$cc-1.json" "$cc" "$SECS" "$p1" &
	pid1=$!
	sleep "$LATE"
	t2=$EPOCHREALTIME
	iperf_client "$TEST_OUT/$cc-2.json" "$cc" "$((SECS - LATE))" "$p2"
	rc2=$?
	wait "$pid1"
	rc1=$?
	if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
		ktap_fail "$cc: iperf3 runs ($rc1, $rc2)"
		continue
	fi
	off=$(fcalc "$t2 - $t1")
	from=$((SECS - WINDOW))
	f1[$cc]=$($NETTOOL iperf-window "$TEST_OUT/$cc-1.json" "$from" "$SECS" 0)
	f2[$cc]=$($NETTOOL iperf-window "$TEST_OUT/$cc-2.json" "$from" "$SECS" "$off")
	jidx[$cc]=$(jain "${f1[$cc]}" "${f2[$cc]}")
done

table_row cc "flow1" "flow2" "sum" "jain"
for cc in $CCS; do
	[ -n "${jidx[$cc]:-}" ] || { table_row "$cc" - - - -; continue; }
	table_row "$cc" "${f1[$cc]}" "${f2[$cc]}" "$(fcalc "${f1[$cc]} + ${f2[$cc]}")" "${jidx[$cc]}"
done

for cc in $CCS; do
	[ -n "${jidx[$cc]:-}" ] || continue
	check "$cc: two flows use >= $UTIL of the link" "${f1[$cc]} + ${f2[$cc]} >= $UTIL * $RATE"
done
if [[ " $CCS " == *" $BBR2_CC "* ]]; then
	desc="$BBR2_CC: late flow converges, Jain >= $MIN_JAIN"
	reason=$(cc_skip_reason "$BBR2_CC")
	if [ -n "$reason" ] || [ -z "${jidx[$BBR2_CC]:-}" ]; then
		ktap_skip "$desc" "${reason:-no measurement}"
	else
		check "$desc (${jidx[$BBR2_CC]})" "${jidx[$BBR2_CC]} >= $MIN_JAIN"
	fi
fi

dumbbell_teardown
capacity_recheck "$RATE"

dmesg_check
ktap_finished
