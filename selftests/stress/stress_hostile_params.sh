#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Valid but hostile parameters must not strand a connection.
#
# 40 bbr2 transfers through a crowded, lossy dumbbell (20 Mbit/s, 10 ms,
# 3 % loss, 0.3 BDP of buffer) while beta is 255 (a congestion round cuts
# bw_lo to what the round delivered, a packet per RTO in a stalled round)
# and the DOWN and DRAIN gains are 1/256 (CRUISE and REFILL as low as the
# rules between parameters allow); after HOSTILE_S the defaults come back
# ("default" written to every parameter) and the loss goes.  Before the pacing floor, pacing
# rates of 15-30 B/s pushed sockets' departure clocks minutes ahead, sch_fq
# dropped everything stamped beyond its 10 s horizon (retransmissions too),
# and transfers stayed silent a minute after the defaults were back: the
# stress suite's "no result" stall.
#
# Passes if sch_fq dropped nothing beyond its horizon, no bbr2 socket
# (sampled by tcpsample.py) paced below one segment per 100 ms, and every transfer finished
# within GRACE_S of the defaults coming back.
source "$(dirname "$0")/../net/lib.sh"

LOAD=$(cd "$(dirname "$0")" && pwd)/stressload.py
HOSTILE_S=${HOSTILE_S:-20}
GRACE_S=${GRACE_S:-60}
FLOWS=40
PORT=5001

require_root
require_cmds ip tc python3
ktap_header
cc_available "$BBR2_CC" || ktap_skip_all "$(cc_skip_reason "$BBR2_CC")"
[ "$BBR2_CC" = bbr2 ] || ktap_skip_all "module parameters only ($BBR2_CC)"
dmesg_mark

# every parameter back to the version's default (twice: a rule between two
# parameters may refuse the first), version 3
params_to_defaults()
{
	local f _
	for _ in 1 2; do
		for f in /sys/module/"$BBR2_MODULE"/parameters/*; do
			echo default >"$f" 2>/dev/null
		done
	done
}

# every default back, whatever happens below
on_exit "params_to_defaults"
scenario_dumbbell 20 10 3 0.3
in_rcv python3 "$LOAD" server --port $PORT </dev/null >"$TEST_OUT/server.log" 2>&1 &
bg_track $!
wait_for_line "$TEST_OUT/server.log" listening ||
	ktap_info "server did not start: $(cat "$TEST_OUT/server.log")"

hostile_ok=1
bbr2_param_set beta 255 && bbr2_param_set pacing_gain 257,1,192,192 &&
	bbr2_param_set drain_gain 1 || hostile_ok=0
ktap_result "hostile parameters accepted (beta 255, DOWN and DRAIN gains 1/256, the lowest CRUISE and REFILL gains the rules allow)" \
	test "$hostile_ok" = 1

# --secs 1: the transfers start at once; the client gives up at
# HOSTILE_S + GRACE_S (a stalled transfer is reported with ss's view of it)
in_snd python3 "$LOAD" client --dst "$RCV_IP" --port $PORT --flows $FLOWS \
	--size 1000000 --ccs "$BBR2_CC" --secs 1 --grace $((HOSTILE_S + GRACE_S)) \
	--json "$TEST_OUT/client.json" </dev/null 2>"$TEST_OUT/client.err" &
client=$!
bg_track $client

# every bbr2 socket's pacing rate, twice a second, for the whole run
tcp_sampler_start "$TEST_OUT/tcp.samples" 0.5
sleep "$HOSTILE_S"
params_to_defaults
dumbbell_set_loss 0
ktap_info "defaults back after ${HOSTILE_S}s, loss 0"
wait $client
tcp_sampler_stop

# The slowest pacing of any bbr2 socket, in segments of 1448 bytes (the
# dumbbell's MSS) per second; tcpsample prints Mbit/s to 1 kbit/s, so the
# floor of 10 (115.84 kbit/s) may read as 0.115.
slowest=$(awk '/ cc=bbr2 / { for (i = 1; i <= NF; i++) if ($i ~ /^pacing_rate=/) {
		v = substr($i, 13) * 1e6 / 8 / 1448; if (min == "" || v < min) min = v } }
	END { if (min != "") printf "%.2f\n", min }' "$TEST_OUT/tcp.samples")
horizon=$(fq_horizon_drops)
read -r ok failed secs < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["ok"], d["failed"], d["secs"])
for s in d["stalls"]:
    print("stalled: " + json.dumps(s), file=sys.stderr)' "$TEST_OUT/client.json" 2>"$TEST_OUT/stalls.txt")
while read -r line; do
	ktap_info "$line"
done <"$TEST_OUT/stalls.txt"
ktap_info "$ok of $FLOWS transfers verified, $failed failed, the last ${secs}s after the start; sch_fq horizon drops: $horizon"
ktap_result "sch_fq dropped nothing beyond its horizon ($horizon)" test "$horizon" -eq 0
ktap_result "no bbr2 socket paced below one segment per 100 ms (slowest ${slowest:-none} segments/s)" \
	fcmp "${slowest:-0} >= 9.9"
ktap_result "every transfer finished within ${GRACE_S}s of the defaults ($ok of $FLOWS)" \
	test "${ok:-0}" -eq "$FLOWS" -a "${failed:-1}" -eq 0

dmesg_check
ktap_finished
