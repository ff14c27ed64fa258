#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every way a user picks a congestion control reaches bbr2:
#  - per socket (setsockopt TCP_CONGESTION, via iperf3 -C),
#  - the default of a network namespace (sysctl tcp_congestion_control in a
#    non-init netns: needs TCP_CONG_NON_RESTRICTED),
#  - the default of the init namespace,
#  - per route (ip route ... congctl bbr2);
# and `ss -ti` shows its state as bbr:(bw:..,mrtt:..,pacing_gain:..,cwnd_gain:..).

source "$(dirname "$0")/lib.sh"

require_root
require_cmds ip tc iperf3 ss sysctl
cc_available "$BBR2_CC" || ktap_skip_all "$(cc_skip_reason "$BBR2_CC")"
ktap_header
dmesg_mark

# flow_ss NAME [CC]: `ss -tin` of snd taken 2 s into a 4 s flow to rcv that
# uses CC (or the namespace/route default when CC is empty)
flow_ss()
{
	local name=$1 cc=${2:-} pid

	iperf_server_next || return 1
	iperf_client "$TEST_OUT/$name.json" "$cc" 4 "$IPERF_PORT" &
	pid=$!
	sleep 2
	in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/$name.ss"
	wait "$pid"
}

# shellcheck disable=SC2317 # called through ktap_result
uses_cc()
{
	grep -qE "(^|[[:space:]])$BBR2_CC([[:space:]]|$)" "$TEST_OUT/$1.ss"
}

dumbbell_setup 20 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }

# 1. per socket
flow_ss sockopt "$BBR2_CC"
ktap_result "setsockopt TCP_CONGESTION (iperf3 -C $BBR2_CC) selects $BBR2_CC" uses_cc sockopt
if [ "$BBR2_CC" = bbr2_bpf ]; then
	# a BPF congestion control cannot implement get_info
	ktap_skip "ss -ti shows bbr:(bw,mrtt,pacing_gain,cwnd_gain)" \
		"bbr2_bpf has no get_info (bbr2-bpf show instead)"
else
	ktap_info "$(grep -m1 -o 'bbr:([^)]*)' "$TEST_OUT/sockopt.ss")"
	ktap_result "ss -ti shows bbr:(bw,mrtt,pacing_gain,cwnd_gain)" grep -qE \
		'bbr:\(bw:[0-9.]+[KMG]?bps,mrtt:[0-9.]+,pacing_gain:[0-9.]+,cwnd_gain:[0-9.]+\)' \
		"$TEST_OUT/sockopt.ss"
fi

# 2. namespace default (a rejected attempt leaks a module reference on 6.1:
# this test runs after the load/unload test for that reason)
if in_snd sysctl -qw net.ipv4.tcp_congestion_control="$BBR2_CC" 2>"$TEST_OUT/sysctl.err"; then
	ktap_pass "sysctl tcp_congestion_control=$BBR2_CC in a non-init netns"
	flow_ss netns_default
	ktap_result "netns default $BBR2_CC used by a new connection" uses_cc netns_default
else
	ktap_info "$(cat "$TEST_OUT/sysctl.err")"
	ktap_fail "sysctl tcp_congestion_control=$BBR2_CC in a non-init netns"
fi
in_snd sysctl -qw net.ipv4.tcp_congestion_control=cubic

# 3. init namespace default
orig=$(sysctl -n net.ipv4.tcp_congestion_control)
# shellcheck disable=SC2064 # restore the value read now
on_exit "sysctl -qw net.ipv4.tcp_congestion_control=$orig"
ktap_result "sysctl tcp_congestion_control=$BBR2_CC in the init netns" \
	sysctl -qw net.ipv4.tcp_congestion_control="$BBR2_CC"
ktap_result "init netns reads back $BBR2_CC" \
	test "$(sysctl -n net.ipv4.tcp_congestion_control)" = "$BBR2_CC"
sysctl -qw net.ipv4.tcp_congestion_control="$orig"

# 4. per route, with the namespace default left at cubic
if in_snd ip route replace 10.0.3.0/24 via 10.0.1.2 dev s0 congctl "$BBR2_CC"; then
	ktap_pass "ip route ... congctl $BBR2_CC accepted"
	flow_ss route
	ktap_result "route congctl $BBR2_CC used by a new connection" uses_cc route
else
	ktap_fail "ip route ... congctl $BBR2_CC accepted"
fi

dmesg_check
ktap_finished
