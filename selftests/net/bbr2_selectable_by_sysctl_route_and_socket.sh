#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every way a user picks a congestion control reaches both names the
# module (or bbr2_bpf) offers, the extended model and the reference one
# (bbr2 and bbr2_ref; bbr2_bpf and bbr2_bpf_ref):
#  - per socket (setsockopt TCP_CONGESTION, via iperf3 -C),
#  - the default of a network namespace (sysctl tcp_congestion_control in a
#    non-init netns: needs TCP_CONG_NON_RESTRICTED),
#  - the default of the init namespace,
#  - per route (ip route ... congctl NAME);
# and `ss -ti` shows the module's state as
# bbr:(bw:..,mrtt:..,pacing_gain:..,cwnd_gain:..).

source "$(dirname "$0")/lib.sh"

REF_CC=${BBR2_CC}_ref

require_root
require_cmds ip tc iperf3 ss sysctl
cc_available "$BBR2_CC" || ktap_skip_all "$(cc_skip_reason "$BBR2_CC")"
ktap_header
dmesg_mark

# flow_ss NAME [CC]: `ss -tin` of snd taken 1.5 s into a 3 s flow to rcv
# that uses CC (or the namespace/route default when CC is empty)
flow_ss()
{
	local name=$1 cc=${2:-} pid

	iperf_server_next || return 1
	iperf_client "$TEST_OUT/$name.json" "$cc" 3 "$IPERF_PORT" &
	pid=$!
	sleep 1.5
	in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/$name.ss"
	wait "$pid"
}

# uses_cc CC NAME: flow NAME's socket runs CC
# shellcheck disable=SC2317 # called through ktap_result
uses_cc()
{
	grep -qE "(^|[[:space:]])$1([[:space:]]|$)" "$TEST_OUT/$2.ss"
}

# selected_every_way CC: the four ways of picking CC, each checked on a
# new connection
selected_every_way()
{
	local cc=$1 orig

	# 1. per socket
	flow_ss "$cc-sockopt" "$cc"
	ktap_result "setsockopt TCP_CONGESTION (iperf3 -C $cc) selects $cc" \
		uses_cc "$cc" "$cc-sockopt"
	if [ "$BBR2_CC" = bbr2_bpf ]; then
		# a BPF congestion control cannot implement get_info
		ktap_skip "$cc: ss -ti shows bbr:(bw,mrtt,pacing_gain,cwnd_gain)" \
			"bbr2_bpf has no get_info (bbr2-bpf show instead)"
	else
		ktap_info "$(grep -m1 -o 'bbr:([^)]*)' "$TEST_OUT/$cc-sockopt.ss")"
		ktap_result "$cc: ss -ti shows bbr:(bw,mrtt,pacing_gain,cwnd_gain)" grep -qE \
			'bbr:\(bw:[0-9.]+[KMG]?bps,mrtt:[0-9.]+,pacing_gain:[0-9.]+,cwnd_gain:[0-9.]+\)' \
			"$TEST_OUT/$cc-sockopt.ss"
	fi

	# 2. namespace default (a rejected attempt leaks a module reference on
	# 6.1: this test runs after the load/unload test for that reason)
	if in_snd sysctl -qw net.ipv4.tcp_congestion_control="$cc" 2>"$TEST_OUT/sysctl.err"; then
		ktap_pass "sysctl tcp_congestion_control=$cc in a non-init netns"
		flow_ss "$cc-netns"
		ktap_result "netns default $cc used by a new connection" \
			uses_cc "$cc" "$cc-netns"
	else
		ktap_info "$(cat "$TEST_OUT/sysctl.err")"
		ktap_fail "sysctl tcp_congestion_control=$cc in a non-init netns"
	fi
	in_snd sysctl -qw net.ipv4.tcp_congestion_control=cubic

	# 3. init namespace default
	orig=$(sysctl -n net.ipv4.tcp_congestion_control)
	ktap_result "sysctl tcp_congestion_control=$cc in the init netns" \
		sysctl -qw net.ipv4.tcp_congestion_control="$cc"
	ktap_result "init netns reads back $cc" \
		test "$(sysctl -n net.ipv4.tcp_congestion_control)" = "$cc"
	sysctl -qw net.ipv4.tcp_congestion_control="$orig"

	# 4. per route, with the namespace default left at cubic
	if in_snd ip route replace 10.0.3.0/24 via 10.0.1.2 dev s0 congctl "$cc"; then
		ktap_pass "ip route ... congctl $cc accepted"
		flow_ss "$cc-route"
		ktap_result "route congctl $cc used by a new connection" \
			uses_cc "$cc" "$cc-route"
	else
		ktap_fail "ip route ... congctl $cc accepted"
	fi
	in_snd ip route replace 10.0.3.0/24 via 10.0.1.2 dev s0
}

dumbbell_setup 20 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }

init_default=$(sysctl -n net.ipv4.tcp_congestion_control)
# shellcheck disable=SC2064 # restore the value read now
on_exit "sysctl -qw net.ipv4.tcp_congestion_control=$init_default"

selected_every_way "$BBR2_CC"
ktap_result "$REF_CC listed in tcp_available_congestion_control" cc_available "$REF_CC"
cc_available "$REF_CC" && selected_every_way "$REF_CC"

dmesg_check
ktap_finished
