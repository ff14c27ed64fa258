#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test bed itself: the emulated bottleneck, not the (possibly emulated,
# possibly busy) CPU, must limit throughput, or no other number in this suite
# means anything.  cubic, the kernel's default, must carry >= 85 % of the
# fastest link the suite uses, with a few flows and with 16 parallel flows.
# (Each behavioural test repeats the one-flow check before its scenarios.)

source "$(dirname "$0")/lib.sh"

RATE=${RATE:-20}

require_root
require_cmds ip tc iperf3 ss ethtool python3
ktap_header
dmesg_mark

capacity_check "$RATE" "$CAPACITY_FLOWS"
capacity_check "$RATE" 16

# two iperf3 processes at once, as the fairness and coexistence tests run
# them: per-process cost under emulation is what this exposes
if dumbbell_setup "$RATE" "$CAPACITY_RTT" 0 2 && iperf_server_next; then
	p1=$IPERF_PORT
	if iperf_server_next; then
		iperf_client "$TEST_OUT/two-1.json" cubic "$CAPACITY_SECS" "$p1" &
		pid=$!
		iperf_client "$TEST_OUT/two-2.json" cubic "$CAPACITY_SECS" "$IPERF_PORT"
		wait "$pid"
		a=$($NETTOOL iperf-window "$TEST_OUT/two-1.json" 2 "$CAPACITY_SECS" 0)
		b=$($NETTOOL iperf-window "$TEST_OUT/two-2.json" 2 "$CAPACITY_SECS" 0)
		ktap_info "capacity: two iperf3 processes: $a + $b Mbit/s"
		check "capacity ${RATE}Mbit/s, two iperf3 processes: emulator is not the bottleneck" \
			"$a + $b >= $CAPACITY_FRACTION * $RATE"
	fi
	dumbbell_teardown
else
	ktap_fail "capacity with two iperf3 processes: setup"
fi

dmesg_check
ktap_finished
