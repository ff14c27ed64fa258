#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Demo: one short bbr2 flow through the dumbbell; prints `ss -ti` for the
# flow as it runs (bbr2's model: bw, mrtt, pacing_gain, cwnd_gain) and the
# goodput.  Loads the module from BBR2_KO if it is not loaded yet.
#   DEMO_CC (default bbr2), RATE (50), RTT (40), SECS (5)

source "$(dirname "$0")/lib.sh"

DEMO_CC=${DEMO_CC:-$BBR2_CC}
RATE=${RATE:-20}
RTT=${RTT:-40}
SECS=${SECS:-8}

require_root
for m in sch_netem sch_tbf sch_fq veth tcp_bbr; do modprobe "$m" 2>/dev/null; done
if [ "$DEMO_CC" = "$BBR2_CC" ] && ! cc_available "$DEMO_CC" &&
   [ -n "${BBR2_KO:-}" ] && [ -f "$BBR2_KO" ]; then
	insmod "$BBR2_KO" || exit "$KSFT_FAIL"
	echo "insmod $BBR2_KO: ok"
fi
if ! cc_available "$DEMO_CC"; then
	echo "demo: $(cc_skip_reason "$DEMO_CC")" >&2
	exit "$KSFT_SKIP"
fi
echo "kernel $(uname -r); available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
dumbbell_setup "$RATE" "$RTT" 0 1 || exit "$KSFT_FAIL"
echo "$(dumbbell_describe); one $DEMO_CC flow for ${SECS}s"

iperf_server_next || exit "$KSFT_FAIL"
iperf_client "$TEST_OUT/demo.json" "$DEMO_CC" "$SECS" "$IPERF_PORT" &
pid=$!
for t in 1 2 3; do
	sleep 1
	echo "--- ss -tin at ~${t}s (data socket):"
	in_snd ss -tin dst "$RCV_IP" | grep -B1 -E "[[:space:]]${DEMO_CC}[[:space:]].*bytes_acked:[0-9]{6,}" |
		sed 's/^[[:space:]]*/    /'
done
wait "$pid" || { cat "$TEST_OUT/demo.json.err"; exit "$KSFT_FAIL"; }
read -r g r p _ < <(iperf_summary "$TEST_OUT/demo.json")
echo "--- iperf3: $DEMO_CC goodput $g Mbit/s over a $RATE Mbit/s, $RTT ms link; $r retransmits ($p %)"
