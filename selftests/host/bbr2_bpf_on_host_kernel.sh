#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bbr2_bpf on this machine's own kernel, with no VM, where the kernel takes
# BPF struct_ops congestion controls (6.10+ with BTF).  Everything runs in
# three network namespaces of its own (sender -> router with a tbf
# bottleneck of HOST_RATE_MBIT -> receiver); bbr2_bpf is selected per
# socket there (iperf3 -C), never as a default of the machine.
#
#  1. bpftool alone registers the object (bpf/build/bbr2_bpf.bpf.o, its
#     tunables from its initialised data): a flow uses bbr2_bpf (ss shows
#     it) and carries the bottleneck's rate, within the margin the kernel's
#     bbr measured in the same run gets.
#  2. bbr2-bpf loads the object the kernel's BTF calls for (bbr2_bpf_tx.bpf.o
#     where struct tcp_congestion_ops has cwnd_event_tx_start, else
#     bbr2_bpf.bpf.o, and then the other one is refused), which registers
#     bbr2_bpf and bbr2_bpf_ref; an init() that finds no free per-CPU slot
#     (every slot marked taken by bpf_slots.py while the connection opens)
#     is counted in status and show, and the socket's first ACK after the
#     slots come back initialises its model: show lists it in a mode.  With
#     loss_mode=1, a bbr2_bpf and a bbr2_bpf_ref connection opened so at
#     once each keep their own flavour: show says reference:0 loss_mode:1
#     and reference:1 loss_mode:0; a bbr2_bpf connection to a receiver
#     that does not offer SACK runs loss_mode 0 (show: loss_mode:0).
#  3. With ecn_enable=1, a flow that negotiated ECN is ECN-eligible
#     (show: ecn_eligible:1): classic ECN (tcp_ecn=1), and AccECN
#     (tcp_ecn=3) where the kernel takes it.
#  4. The kernel log written since the test started has no complaint.
# Registrations, pins and namespaces are removed whatever happens.
#
# Needs root, bpftool, iperf3, ip, tc, ss, python3 and make bpf's output.

source "$(dirname "$0")/../net/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
HOST_DIR=$(cd "$(dirname "$0")" && pwd)
OBJ=${BBR2_BPF_OBJ:-$REPO/bpf/build/bbr2_bpf.bpf.o}
CLI=${BBR2_BPF:-$REPO/bpf/build/bbr2-bpf}
RATE=${HOST_RATE_MBIT:-500}
SECS=${HOST_SECS:-4}
CC=bbr2_bpf
NSP=bbr2h$$
NS_S=$NSP-s NS_R=$NSP-r NS_C=$NSP-c
PIN=/sys/fs/bpf/bbr2_bpf_host$$
RCV=10.77.2.2
LOCK=/tmp/bbr2-host-bpf.lock

require_root
require_cmds ip tc iperf3 ss bpftool python3 flock nsenter
[ -r /sys/kernel/btf/vmlinux ] || ktap_skip_all "no kernel BTF (/sys/kernel/btf/vmlinux)"
kv=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
[ "$kv" -ge 6010 ] || ktap_skip_all "kernel $(uname -r): bbr2_bpf needs 6.10+"
{ [ -r "$OBJ" ] && [ -x "$CLI" ]; } || ktap_skip_all "no $OBJ or $CLI (make bpf)"
cc_available bbr || ktap_skip_all "the kernel's bbr (the peer measured beside bbr2_bpf) is not available"
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf 2>/dev/null ||
	ktap_skip_all "cannot mount bpffs on /sys/fs/bpf"
# one host test at a time on this machine; the name bbr2_bpf is global
exec 9>"$LOCK"
flock -w 300 9 || ktap_skip_all "$LOCK held for 5 minutes"
cc_available "$CC" && ktap_skip_all "a bbr2_bpf registered by someone else is in the way"

ktap_header
dmesg_mark

# shellcheck disable=SC2317 # called from the exit trap
cleanup()
{
	local ns pids

	for ns in "$NS_S" "$NS_R" "$NS_C"; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086 # a list of pids
		[ -n "$pids" ] && kill $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	[ -e "$PIN/state" ] && python3 "$HOST_DIR/bpf_slots.py" "$PIN/state" \
		"$NCPUS" "$STRIDE" "$DEPTH_OFF" free 2>/dev/null
	[ -e "$PIN/ops" ] && "$CLI" --pin "$PIN" unload
	cc_available "$CC" && bpftool struct_ops unregister name "$CC" >/dev/null 2>&1
	cc_available "${CC}_ref" && bpftool struct_ops unregister name "${CC}_ref" >/dev/null 2>&1
	rm -rf "$PIN"
	return 0
}

on_exit cleanup

# The per-CPU layout, from the object's BTF (bpf/bbr2_bpf_cpu.h).
NCPUS=$(sed -n 's/^#define BBR2_BPF_MAX_CPUS[[:space:]]*\([0-9]*\).*/\1/p' "$REPO/bpf/bbr2_bpf_cpu.h")
layout=$(bpftool btf dump file "$OBJ" | awk '
	/STRUCT .bbr2_bpf_cpu. size=/ { split($4, a, "="); size = a[2]; inside = 1; next }
	inside && /.depth. / { split($3, b, "="); print size, b[2] / 8; exit }')
read -r STRIDE DEPTH_OFF <<<"$layout"

# snd --veth-- rtr --veth(tbf RATE)--> rcv
for ns in "$NS_S" "$NS_R" "$NS_C"; do
	ip netns add "$ns" || ktap_skip_all "cannot create network namespaces"
done
{ ip link add s0 netns "$NS_S" type veth peer name r0 netns "$NS_R" &&
  ip link add r1 netns "$NS_R" type veth peer name c0 netns "$NS_C"; } || ktap_skip_all "no veth"
ip -n "$NS_S" addr add 10.77.1.1/24 dev s0
ip -n "$NS_R" addr add 10.77.1.2/24 dev r0
ip -n "$NS_R" addr add 10.77.2.1/24 dev r1
ip -n "$NS_C" addr add $RCV/24 dev c0
for ns in "$NS_S" "$NS_R" "$NS_C"; do ip -n "$ns" link set lo up; done
ip -n "$NS_S" link set s0 up; ip -n "$NS_R" link set r0 up
ip -n "$NS_R" link set r1 up; ip -n "$NS_C" link set c0 up
ip -n "$NS_S" route add default via 10.77.1.2
ip -n "$NS_C" route add default via 10.77.2.1
ip netns exec "$NS_R" sysctl -qw net.ipv4.ip_forward=1
# the bottleneck: tbf on the router's egress to the receiver, 1 ms burst,
# a queue of 20 ms at the rate
burst=$(( RATE * 125 > 3000 ? RATE * 125 : 3000 ))
tc -n "$NS_R" qdisc add dev r1 root tbf rate "${RATE}mbit" burst "$burst" \
	limit $(( RATE * 125 * 20 )) ||
	ktap_skip_all "this kernel has no tbf qdisc"
ip netns exec "$NS_S" ping -c 2 -W 2 $RCV >/dev/null || { ktap_fail "the path answers"; ktap_finished; }

# the names lib.sh's iperf helpers use
# shellcheck disable=SC2034
NS_SND=$NS_S NS_RCV=$NS_C RCV_IP=$RCV
{ [ -n "$STRIDE" ] && [ -n "$DEPTH_OFF" ]; } ||
	{ ktap_fail "struct bbr2_bpf_cpu in the object's BTF"; ktap_finished; }

# in_sender CMD...: CMD in the sender's network namespace, with this
# mount namespace's bpffs (ip netns exec would remount /sys)
in_sender() { nsenter --net="/run/netns/$NS_S" "$@"; }

# flow OUT CC: one SECS flow, ss -ti of the sender sampled in its middle
flow()
{
	local out=$1 cc=$2

	iperf_server_next || return 1
	( sleep "$((SECS / 2))"; ip netns exec "$NS_S" ss -tin dst $RCV >"$out.ss" 2>&1 ) &
	iperf_client "$out" "$cc" "$SECS" "$IPERF_PORT"
	wait
}

goodput() { iperf_summary "$1" | awk '{ print $1 }'; }

# ---- 1. registered by bpftool alone, the object's own defaults
if bpftool struct_ops register "$OBJ" >"$TEST_OUT/register.out" 2>&1 && cc_available "$CC"; then
	ktap_pass "bpftool struct_ops register $(basename "$OBJ") on $(uname -r)"
else
	ktap_info "$(tail -n 5 "$TEST_OUT/register.out")"
	ktap_fail "bpftool struct_ops register $(basename "$OBJ") on $(uname -r)"
	dmesg_check
	ktap_finished
fi
flow "$TEST_OUT/bpftool-bbr2_bpf.json" "$CC"
flow "$TEST_OUT/bbr.json" bbr
g_bpf=$(goodput "$TEST_OUT/bpftool-bbr2_bpf.json")
g_bbr=$(goodput "$TEST_OUT/bbr.json")
ktap_info "tbf ${RATE} Mbit/s, ${SECS} s each: bbr2_bpf (bpftool) ${g_bpf:-?} Mbit/s, bbr ${g_bbr:-?} Mbit/s"
ktap_result "the flow ran on bbr2_bpf (ss -ti names it)" \
	grep -qw "$CC" "$TEST_OUT/bpftool-bbr2_bpf.json.ss"
ktap_result "bbr2_bpf registered by bpftool carries >= 85% of the bottleneck" \
	fcmp "${g_bpf:-0} >= $RATE * 0.85"
ktap_result "... and >= 90% of what the kernel's bbr carried in this run" \
	fcmp "${g_bpf:-0} >= ${g_bbr:-0} * 0.90"
bpftool struct_ops unregister name "$CC" >/dev/null 2>&1
bpftool struct_ops unregister name "${CC}_ref" >/dev/null 2>&1
ktap_result "bpftool unregisters it" bash -c "! grep -qw $CC /proc/sys/net/ipv4/tcp_available_congestion_control"

# ---- 2. the object for this kernel; an init() without a slot: counted,
# then recovered.  The kernel's BTF says whether struct tcp_congestion_ops
# has cwnd_event_tx_start (7.1+): bbr2-bpf load must pick the object with
# that op exactly then, and libbpf refuses it on a kernel without it.
if bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
	awk '/^\[[0-9]+\] STRUCT .tcp_congestion_ops. / { ops = 1; next }
	     /^\[/ { ops = 0 }
	     ops && /.cwnd_event_tx_start. / { found = 1 }
	     END { exit !found }'; then
	want=bbr2_bpf_tx.bpf.o
else
	want=bbr2_bpf.bpf.o
	if "$CLI" --pin "$PIN" --object tx_start load >"$TEST_OUT/load-tx.out" 2>&1; then
		"$CLI" --pin "$PIN" unload
		ktap_fail "libbpf refuses the cwnd_event_tx_start object on a kernel without the op"
	else
		ktap_pass "libbpf refuses the cwnd_event_tx_start object on a kernel without the op"
	fi
fi
if ! "$CLI" --pin "$PIN" load >"$TEST_OUT/load.out" 2>&1; then
	ktap_info "$(tail -n 5 "$TEST_OUT/load.out")"
	ktap_fail "bbr2-bpf load"
	dmesg_check
	ktap_finished
fi
ktap_info "$(grep '^object ' "$TEST_OUT/load.out")"
ktap_result "bbr2-bpf load picks $want, as the kernel's BTF says" \
	grep -q "^object $want: " "$TEST_OUT/load.out"
ktap_result "bbr2-bpf load registers ${CC}_ref too" cc_available "${CC}_ref"
"$CLI" --pin "$PIN" set loss_mode=1
python3 "$HOST_DIR/bpf_slots.py" "$PIN/state" "$NCPUS" "$STRIDE" "$DEPTH_OFF" fill
iperf_server_next
port_ext=$IPERF_PORT
iperf_client "$TEST_OUT/late.json" "$CC" "$SECS" "$IPERF_PORT" &
cpid=$!
iperf_server_next
port_ref=$IPERF_PORT
iperf_client "$TEST_OUT/late-ref.json" "${CC}_ref" "$SECS" "$IPERF_PORT" &
rpid=$!
sleep 1
python3 "$HOST_DIR/bpf_slots.py" "$PIN/state" "$NCPUS" "$STRIDE" "$DEPTH_OFF" free
sleep 1
in_sender "$CLI" --pin "$PIN" show >"$TEST_OUT/show-late.txt"
wait "$cpid" "$rpid"
"$CLI" --pin "$PIN" set loss_mode=default
"$CLI" --pin "$PIN" status >"$TEST_OUT/status.txt"
ktap_info "$(cat "$TEST_OUT/status.txt")"
ktap_info "show: $(grep -m1 "$RCV" "$TEST_OUT/show-late.txt" | cut -c1-120)"
init_fail=$(sed -n 's/.*init_failures:\([0-9]*\).*/\1/p' "$TEST_OUT/status.txt")
late=$(sed -n 's/.*late_inits:\([0-9]*\).*/\1/p' "$TEST_OUT/status.txt")
ktap_result "status counts the init() that found no slot (init_failures ${init_fail:-none})" \
	test "${init_fail:-0}" -ge 1
ktap_result "show prints the same counters" \
	grep -q "^# slot_overflows:[0-9]* init_failures:${init_fail:-x} " "$TEST_OUT/show-late.txt"
ktap_result "the socket's next ACK initialised it (late_inits ${late:-none}; show lists it in a mode)" \
	bash -c "[ '${late:-0}' -ge 1 ] && grep -qE '$RCV:[0-9]+ mode:(STARTUP|DRAIN|PROBE_BW|PROBE_RTT) ' '$TEST_OUT/show-late.txt'"
ktap_info "show: $(grep -m1 "$RCV:$port_ref " "$TEST_OUT/show-late.txt" | grep -o 'reference:.*')"
ktap_result "with loss_mode=1 the $CC socket runs it (show: reference:0 loss_mode:1)" \
	grep -q "$RCV:$port_ext .*reference:0 loss_mode:1 " "$TEST_OUT/show-late.txt"
ktap_result "... and the ${CC}_ref socket beside it runs Google's model (reference:1 loss_mode:0)" \
	grep -q "$RCV:$port_ref .*reference:1 loss_mode:0 " "$TEST_OUT/show-late.txt"

# loss_mode 1 needs SACK: the same setting, a receiver without it
"$CLI" --pin "$PIN" set loss_mode=1
ip netns exec "$NS_C" sh -c 'echo 0 >/proc/sys/net/ipv4/tcp_sack'
iperf_server_next
port_nosack=$IPERF_PORT
iperf_client "$TEST_OUT/nosack.json" "$CC" "$SECS" "$IPERF_PORT" &
sleep "$((SECS / 2))"
in_sender "$CLI" --pin "$PIN" show >"$TEST_OUT/show-nosack.txt"
wait
ip netns exec "$NS_C" sh -c 'echo 1 >/proc/sys/net/ipv4/tcp_sack'
"$CLI" --pin "$PIN" set loss_mode=default
ktap_info "show: $(grep -m1 "$RCV:$port_nosack " "$TEST_OUT/show-nosack.txt" | grep -o 'reference:.*')"
ktap_result "with loss_mode=1 a $CC connection without SACK runs Google's response (reference:0 loss_mode:0)" \
	grep -q "$RCV:$port_nosack .*reference:0 loss_mode:0 " "$TEST_OUT/show-nosack.txt"

# ---- 3. ECN: eligible as in the module, classic ECN and AccECN
# ecn_flow MODE: one flow with tcp_ecn=MODE at both ends; show's line
ecn_flow()
{
	local mode=$1 ns

	for ns in "$NS_S" "$NS_C"; do
		ip netns exec "$ns" sh -c "echo $mode >/proc/sys/net/ipv4/tcp_ecn" 2>/dev/null || return 1
	done
	iperf_server_next
	iperf_client "$TEST_OUT/ecn$mode.json" "$CC" "$SECS" "$IPERF_PORT" &
	sleep "$((SECS / 2))"
	in_sender ss -tin dst $RCV >"$TEST_OUT/ecn$mode.ss"
	in_sender "$CLI" --pin "$PIN" show >"$TEST_OUT/show-ecn$mode.txt"
	wait
	ktap_info "tcp_ecn=$mode: ss: $(grep -ow 'ecn\|ecnseen\|accecn[^ ]*' "$TEST_OUT/ecn$mode.ss" | sort -u | tr '\n' ' ')"
	return 0
}
"$CLI" --pin "$PIN" set ecn_enable=1
ecn_flow 1
ktap_result "a connection that negotiated ECN is ECN-eligible (show: ecn_eligible:1)" \
	grep -q "$RCV:[0-9]* .*ecn_eligible:1 " "$TEST_OUT/show-ecn1.txt"
if ecn_flow 3; then
	ktap_result "an AccECN connection is ECN-eligible (show: ecn_eligible:1)" \
		grep -q "$RCV:[0-9]* .*ecn_eligible:1 " "$TEST_OUT/show-ecn3.txt"
else
	ktap_skip "an AccECN connection is ECN-eligible" "kernel $(uname -r) does not take tcp_ecn=3 (AccECN)"
fi
"$CLI" --pin "$PIN" unload
ktap_result "bbr2-bpf unloads both names" bash -c "! grep -qE '$CC( |$)|${CC}_ref' /proc/sys/net/ipv4/tcp_available_congestion_control"

dmesg_check
ktap_finished
