#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One flow of each BBR-family CC in $CCS against one cubic flow, started
# together, in BUFS (BDP multiples) buffers.  Shares are reported; the test
# asserts only sanity: neither flow starves below MIN_SHARE of the total, and
# together they use >= UTIL of the link.

source "$(dirname "$0")/lib.sh"

RATE=${RATE:-20}
RTT=${RTT:-40}
BUFS=${BUFS:-"1 2"}
SECS=${SECS:-20}
MIN_SHARE=${MIN_SHARE:-0.05}
UTIL=${UTIL:-0.8}


if ! cc_available cubic; then
	ktap_skip_all "cubic not available"
fi
scenario_begin "$RATE"

declare -A mine theirs
others=""
for cc in $CCS; do
	[ "$cc" != cubic ] && others+=" $cc"
done
for buf in $BUFS; do
	dumbbell_setup "$RATE" "$RTT" 0 "$buf" || { ktap_fail "dumbbell setup"; continue; }
	ktap_info "$(dumbbell_describe), ${SECS}s"
	for cc in $others; do
		reason=$(cc_skip_reason "$cc")
		if [ -n "$reason" ]; then
			ktap_skip "$cc vs cubic, ${buf} BDP" "$reason"
			continue
		fi
		iperf_server_next || { ktap_fail "$cc: iperf3 server"; continue; }
		p1=$IPERF_PORT
		iperf_server_next || { ktap_fail "$cc: iperf3 server"; continue; }
		p2=$IPERF_PORT
		iperf_client "$TEST_OUT/$cc-$buf.json" "$cc" "$SECS" "$p1" &
		pid=$!
		iperf_client "$TEST_OUT/cubic-vs-$cc-$buf.json" cubic "$SECS" "$p2"
		rc2=$?
		wait "$pid"
		rc1=$?
		if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
			ktap_fail "$cc vs cubic, ${buf} BDP: iperf3 runs ($rc1, $rc2)"
			continue
		fi
		read -r a _ < <(iperf_summary "$TEST_OUT/$cc-$buf.json")
		read -r b _ < <(iperf_summary "$TEST_OUT/cubic-vs-$cc-$buf.json")
		mine[$cc,$buf]=$a theirs[$cc,$buf]=$b
	done
done

table_row "buffer" "flow" "Mbit/s" "cubic" "share"
for buf in $BUFS; do
	for cc in $others; do
		[ -n "${mine[$cc,$buf]:-}" ] || continue
		a=${mine[$cc,$buf]} b=${theirs[$cc,$buf]}
		table_row "${buf}BDP" "$cc" "$a" "$b" "$(fcalc "$a / ($a + $b + 1e-9)")"
	done
done
for buf in $BUFS; do
	for cc in $others; do
		[ -n "${mine[$cc,$buf]:-}" ] || continue
		a=${mine[$cc,$buf]} b=${theirs[$cc,$buf]}
		check "$cc vs cubic ${buf}BDP: $cc not starved (>= $MIN_SHARE)" \
			"$a >= $MIN_SHARE * ($a + $b)"
		check "$cc vs cubic ${buf}BDP: cubic not starved (>= $MIN_SHARE)" \
			"$b >= $MIN_SHARE * ($a + $b)"
		check "$cc vs cubic ${buf}BDP: together use >= $UTIL of the link" \
			"$a + $b >= $UTIL * $RATE"
	done
done

dumbbell_teardown
capacity_recheck "$RATE"

dmesg_check
ktap_finished
