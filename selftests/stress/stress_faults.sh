#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults on the path, bbr2 beside cubic: in each scenario one bbr2 and one
# cubic transfer of the same size run at the same time through the same
# faulty dumbbell; each transfer's bytes and CRC are verified.  bbr2 must
# finish whenever cubic does ("finish or time out as cubic's do"); the
# times of both are printed.  The kernel log must stay clean.
#
# Scenarios: netem corruption, duplication, reordering, 40 % loss bursts
# and Gilbert-Elliott bursts, the bottleneck and delay qdiscs replaced
# mid-flow, the link taken down and up, RTO storms (repeated blackouts), a
# zero-window receiver, MTU 576 and 9000; IPv4 and IPv6.  PROFILE=short
# alternates the address family between scenarios; full runs each in both.
# shellcheck disable=SC2317 # perturb_* run through scenario()'s $perturb
source "$(dirname "$0")/../net/lib.sh"

STRESS_DIR=$(cd "$(dirname "$0")" && pwd)
LOAD=$STRESS_DIR/stressload.py
PROFILE=${PROFILE:-short}
RATE=20
RTT=20
SIZE=${FAULT_SIZE:-$([ "$PROFILE" = full ] && echo 8000000 || echo 2000000)}
FLOW_TIMEOUT=${FAULT_TIMEOUT:-90}
DST6_IP=fd00:3::2
LINKS="s0@$NS_SND r1a@$NS_R1 r1b@$NS_R1 r2a@$NS_R2 r2b@$NS_R2 c0@$NS_RCV"

require_root
require_cmds ip tc python3
ktap_header
cc_available "$BBR2_CC" || ktap_skip_all "$(cc_skip_reason "$BBR2_CC")"
cc_available cubic || ktap_skip_all "cubic not available"
dmesg_mark
scenario_dumbbell "$RATE" "$RTT" 0 2
in_r1 sysctl -qw net.ipv6.conf.all.keep_addr_on_down=1 net.ipv6.conf.r1b.keep_addr_on_down=1
NETEM_LIMIT=$(( (DB_BDP_BYTES + DB_BUF_BYTES) * 10 / MTU_BYTES + 1000 ))
ktap_info "$(dumbbell_describe); $SIZE bytes per transfer, ${FLOW_TIMEOUT}s limit"

netem() { in_r1 tc qdisc replace dev r1b root netem limit "$NETEM_LIMIT" delay "${RTT}ms" "$@"; }
stopped() { [ -e "$TEST_OUT/stop" ]; }

# wait_established: both transfers past the handshake.  A fault during
# the handshake ends a connect() with ENETUNREACH (a hard error in
# SYN_SENT) for either CC: it would test nothing about the CC.
wait_established()
{
	for _ in $(seq 50); do
		[ "$(in_snd ss -Htn state established | wc -l)" -ge 2 ] && return 0
		sleep 0.1
	done
}

# ---- perturbations: each runs until the stop file appears
perturb_none() { :; }
perturb_loss_bursts()
{
	wait_established
	while ! stopped; do
		netem loss 40%; sleep 0.7
		netem loss 0%; sleep 1.5
	done
}
perturb_qdisc_replace()
{
	local burst=$(( RATE * 125 * 4 > 3028 ? RATE * 125 * 4 : 3028 ))

	wait_established
	while ! stopped; do
		in_r2 tc qdisc replace dev r2b root tbf rate $((RATE / 2))mbit burst "$burst" limit "$DB_BUF_BYTES"
		in_r1 tc qdisc replace dev r1b root pfifo limit 1000
		sleep 1
		in_r2 tc qdisc replace dev r2b root tbf rate "${RATE}mbit" burst "$burst" limit "$DB_BUF_BYTES"
		netem
		sleep 1.5
	done
}
perturb_link_flap()
{
	wait_established
	while ! stopped; do
		sleep 0.5
		in_r1 ip link set r1b down
		sleep 1.5
		in_r1 ip link set r1b up
		# IPv4 drops the routes through a device that goes down
		in_r1 ip route replace 10.0.3.0/24 via 10.0.2.2
		in_r1 ip -6 route replace fd00:2::/64 dev r1b
		in_r1 ip -6 route replace fd00:3::/64 via fd00:2::2
		in_r2 ip route replace 10.0.1.0/24 via 10.0.2.1
		in_r2 ip -6 route replace fd00:1::/64 via fd00:2::1
		sleep 1.5
	done
}
# three blackouts of 2.5 s, 1.5 s apart: retransmission timeouts back off
# through all three; then the path stays clean for the recovery
perturb_rto_storm()
{
	wait_established
	for _ in 1 2 3; do
		stopped && break
		sleep 0.5
		netem loss 100%; sleep 2.5
		netem loss 0%; sleep 1
	done
}

set_mtu()
{
	local l

	for l in $LINKS; do
		ip -n "${l#*@}" link set "${l%@*}" mtu "$1"
	done
}

# back to the clean dumbbell, whatever a perturbation was doing when it stopped
restore_path()
{
	local burst=$(( RATE * 125 * 4 > 3028 ? RATE * 125 * 4 : 3028 ))

	in_r1 ip link set r1b up
	in_r1 ip route replace 10.0.3.0/24 via 10.0.2.2
	in_r1 ip -6 route replace fd00:2::/64 dev r1b
	in_r1 ip -6 route replace fd00:3::/64 via fd00:2::2
	in_r2 tc qdisc replace dev r2b root handle 1: tbf rate "${RATE}mbit" burst "$burst" limit "$DB_BUF_BYTES"
	netem loss 0%
	set_mtu 1500
}

# scenario NAME FAMILY SETUP PERTURB [SERVER ARGS...]
#   SETUP: a command run before the flows (netem args, mtu...), "-" for none
scenario()
{
	local name=$1 fam=$2 setup=$3 perturb=$4 dst=$RCV_IP port json srv ppid
	local bbr2_ok cubic_ok bbr2_s cubic_s cubic_bytes errs

	shift 4
	[ "$fam" = 6 ] && dst=$DST6_IP
	_port=$((_port + 1))
	port=$_port
	json=$TEST_OUT/$name-v$fam.json
	[ "$setup" != - ] && eval "$setup"
	ip netns exec "$NS_RCV" python3 "$LOAD" server --port "$port" "$@" </dev/null \
		>"$TEST_OUT/$name-v$fam-server.log" 2>&1 &
	srv=$!
	for _ in $(seq 100); do	# the server says when it listens
		grep -q listening "$TEST_OUT/$name-v$fam-server.log" && break
		sleep 0.1
	done
	rm -f "$TEST_OUT/stop"
	$perturb &
	ppid=$!
	in_snd python3 "$LOAD" client --dst "$dst" --port "$port" --flows 2 --ccs "$BBR2_CC",cubic \
		--size "$SIZE" --secs 0 --grace "$FLOW_TIMEOUT" --json "$json" </dev/null \
		2>"$json.err"
	touch "$TEST_OUT/stop"
	wait "$ppid"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	restore_path
	read -r bbr2_ok bbr2_s cubic_ok cubic_s cubic_bytes errs < <(python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("False - False - 0", "no result:", e); sys.exit()
f = {x["cc"]: x for x in d["flows"]}
g = lambda cc, k, dflt: f[cc][k] if cc in f else dflt
b = sys.argv[2]
print(g(b, "ok", False), g(b, "secs", "-"), g("cubic", "ok", False),
      g("cubic", "secs", "-"), g("cubic", "bytes", 0), "|".join(d["errors"][:2]) or "-")' "$json" "$BBR2_CC")
	table_row "$name" "IPv$fam" "bbr2 ${bbr2_s}s $([ "$bbr2_ok" = True ] && echo ok || echo FAILED)" \
		"cubic ${cubic_s}s $([ "$cubic_ok" = True ] && echo ok || echo FAILED)"
	[ "$errs" != - ] && ktap_info "$name IPv$fam: $errs"
	if [ "$cubic_bytes" = 0 ]; then
		# nothing was sent: the scenario tested nothing
		ktap_fail "$name IPv$fam: no transfer got going (setup)"
	elif [ "$cubic_ok" = True ]; then
		ktap_result "$name IPv$fam: bbr2 finishes, bytes verified, as cubic does" \
			test "$bbr2_ok" = True
	else
		ktap_info "$name IPv$fam: cubic did not finish either; bbr2 $bbr2_ok"
		ktap_pass "$name IPv$fam: cubic did not finish; bbr2 no worse"
	fi
}

SCENARIOS=(
	"corruption 4 'netem corrupt 5%' perturb_none"
	"duplication 6 'netem duplicate 10%' perturb_none"
	"reordering 4 'netem reorder 25% 50%' perturb_none"
	"loss_bursts_40pct 6 - perturb_loss_bursts"
	"qdisc_replaced 4 - perturb_qdisc_replace"
	"link_down_up 6 - perturb_link_flap"
	"rto_storm 4 - perturb_rto_storm"
	"zero_window 6 - perturb_none --stall-secs 4 --rcvbuf 65536"
	"mtu_9000 6 'set_mtu 9000' perturb_none"
)
[ "$PROFILE" = full ] && SCENARIOS+=(
	"gilbert_elliott_bursts 4 'netem loss gemodel 2% 20% 50% 0%' perturb_none"
)
# last: an MTU below 1280 removes the links' IPv6 addresses for good
SCENARIOS+=("mtu_576 4 'set_mtu 576' perturb_none")
table_row scenario family bbr2 cubic
for s in "${SCENARIOS[@]}"; do
	eval "set -- $s"
	if [ "$PROFILE" = full ]; then
		scenario "$@"
		# IPv6 needs an MTU of at least 1280
		[ "$1" = mtu_576 ] || { fam=$(( $2 == 4 ? 6 : 4 )); name=$1; shift 2; scenario "$name" "$fam" "$@"; }
	else
		scenario "$@"
	fi
done

dmesg_check
ktap_finished
