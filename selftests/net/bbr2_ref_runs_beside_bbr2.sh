#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's second name, bbr2_ref (Google's model exactly, whatever the
# shared parameters select for bbr2):
#  - a bbr2_ref socket alone keeps the module loaded (rmmod refused);
#  - with loss_mode=1, a bbr2 flow and a bbr2_ref flow at once on one host
#    each run their own behaviour: the bbr2_state tracepoint, which reports
#    the loss_mode each socket runs, shows 1 on every event of the bbr2
#    flow and 0 on every event of the bbr2_ref flow;
#  - with loss_mode=1, a bbr2 flow to a receiver that does not offer SACK
#    runs loss_mode 0 on every event (loss_mode 1 needs SACK's loss counts).
# The kernel log stays clean.

source "$(dirname "$0")/lib.sh"

REF_CC=bbr2_ref
TRACEFS=/sys/kernel/tracing

require_root
require_cmds ip tc iperf3 ss sysctl rmmod pkill
[ -d "/sys/module/$BBR2_MODULE" ] ||
	ktap_skip_all "$BBR2_MODULE not loaded (run-suite.sh loads it from BBR2_KO)"
ktap_header
dmesg_mark

# flow_ss NAME [CC]: `ss -tin` of snd taken 2 s into a 4 s flow to rcv that
# uses CC (or the namespace/route default when CC is empty); with a third
# argument, also try to remove the module while the flow runs: then the
# flow is long enough to outlast a slow guest, NAME-after.ss shows the
# sockets after the attempt, and the flow is ended there
flow_ss()
{
	local name=$1 cc=${2:-} try_rmmod=${3:-} pid secs=4

	[ -z "$try_rmmod" ] || secs=30
	iperf_server_next || return 1
	iperf_client "$TEST_OUT/$name.json" "$cc" "$secs" "$IPERF_PORT" &
	pid=$!
	sleep 2
	in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/$name.ss"
	if [ -n "$try_rmmod" ]; then
		if rmmod "$BBR2_MODULE" 2>"$TEST_OUT/rmmod.err"; then
			echo removed >"$TEST_OUT/rmmod.err"
			reload
		fi
		in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/$name-after.ss"
		pkill -INT -f "^iperf3 -c $RCV_IP -p $IPERF_PORT( |\$)"
	fi
	wait "$pid"
}

# shellcheck disable=SC2317 # called through ktap_result
uses_ref()
{
	grep -qE "(^|[[:space:]])$REF_CC([[:space:]]|$)" "$TEST_OUT/$1.ss"
}

reload()
{
	if [ -n "${BBR2_KO:-}" ] && [ -f "$BBR2_KO" ]; then
		insmod "$BBR2_KO"
	else
		modprobe "$BBR2_MODULE"
	fi
}

ktap_result "$REF_CC listed in tcp_available_congestion_control" cc_available "$REF_CC"
cc_available "$REF_CC" || { dmesg_check; ktap_finished; }

dumbbell_setup 20 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }

# 1. the module's reference count (every way of selecting bbr2_ref is
# checked by bbr2_selectable_by_sysctl_route_and_socket.sh)
flow_ss sockopt "$REF_CC" try_rmmod
ktap_result "setsockopt TCP_CONGESTION (iperf3 -C $REF_CC) selects $REF_CC" uses_ref sockopt
ktap_info "rmmod said: $(cat "$TEST_OUT/rmmod.err")"
ktap_result "rmmod refused while a $REF_CC socket exists" \
	bash -c "! grep -qx removed '$TEST_OUT/rmmod.err' && test -d '/sys/module/$BBR2_MODULE'"
ktap_result "the $REF_CC socket was still there after the rmmod attempt" uses_ref sockopt-after

# 2. bbr2 with loss_mode=1 beside bbr2_ref, at once
mountpoint -q "$TRACEFS" 2>/dev/null || mount -t tracefs tracefs "$TRACEFS" 2>/dev/null
EVENT=$TRACEFS/events/bbr2/bbr2_state
lm_orig=$(bbr2_param_get loss_mode)
# shellcheck disable=SC2317 # called from the exit trap
restore()
{
	echo 0 >"$EVENT/enable" 2>/dev/null
	echo 0 >"$TRACEFS/tracing_on" 2>/dev/null
	: >"$TRACEFS/trace" 2>/dev/null
	bbr2_param_set loss_mode "${lm_orig:-default}" 2>/dev/null
}
on_exit restore
if [ ! -w "$EVENT/enable" ]; then
	ktap_skip "bbr2 and $REF_CC flows at once run their own loss_mode" \
		"no bbr2_state tracepoint in $TRACEFS"
elif ! bbr2_param_set loss_mode 1; then
	ktap_fail "loss_mode=1 accepted"
else
	: >"$TRACEFS/trace"
	# one switch of the event per boot of this test (it patches kernel text)
	echo 1 >"$EVENT/enable"
	echo 1 >"$TRACEFS/tracing_on"
	iperf_server_next && port_ext=$IPERF_PORT
	iperf_server_next && port_ref=$IPERF_PORT
	iperf_client "$TEST_OUT/both-bbr2.json" bbr2 6 "$port_ext" &
	pid_ext=$!
	iperf_client "$TEST_OUT/both-ref.json" "$REF_CC" 6 "$port_ref" &
	pid_ref=$!
	sleep 3
	in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/both.ss"
	wait "$pid_ext"
	rc_ext=$?
	wait "$pid_ref"
	rc_ref=$?
	# 3. the same bbr2 to a receiver without SACK, in the same trace
	sack_orig=$(in_rcv cat /proc/sys/net/ipv4/tcp_sack)
	in_rcv sh -c 'echo 0 > /proc/sys/net/ipv4/tcp_sack'
	iperf_server_next && port_nosack=$IPERF_PORT
	iperf_client "$TEST_OUT/nosack-bbr2.json" bbr2 4 "$port_nosack"
	rc_nosack=$?
	in_rcv sh -c "echo ${sack_orig:-1} > /proc/sys/net/ipv4/tcp_sack"
	echo 0 >"$TRACEFS/tracing_on"
	echo 0 >"$EVENT/enable"
	cp "$TRACEFS/trace" "$TEST_OUT/both.trace"
	bbr2_param_set loss_mode "${lm_orig:-default}"
	ktap_result "both flows completed" test "$rc_ext" = 0 -a "$rc_ref" = 0
	ktap_result "ss -ti shows a bbr2 and a $REF_CC socket at once" \
		bash -c "grep -qE '(^|[[:space:]])bbr2([[:space:]]|$)' '$TEST_OUT/both.ss' &&
			 grep -qE '(^|[[:space:]])$REF_CC([[:space:]]|$)' '$TEST_OUT/both.ss'"
	# "... bbr2_state: SPORT>DPORT mode ... loss_mode N": N per server port
	lm_seen()
	{
		awk -v port="$1" '
			/bbr2_state:/ {
				for (i = 1; i < NF; i++)
					if ($i ~ /^[0-9]+>[0-9]+$/) {
						split($i, p, ">")
						if (p[2] == port && $NF ~ /^[01]$/)
							seen[$NF]++
					}
			}
			END { printf "%d %d", seen[0], seen[1] }' "$TEST_OUT/both.trace"
	}
	read -r ext0 ext1 <<<"$(lm_seen "$port_ext")"
	read -r ref0 ref1 <<<"$(lm_seen "$port_ref")"
	ktap_info "bbr2_state events, loss_mode 0/1: bbr2 $ext0/$ext1, $REF_CC $ref0/$ref1"
	ktap_result "the bbr2 flow runs loss_mode 1 on every state change" \
		test "$ext1" -gt 0 -a "$ext0" = 0
	ktap_result "the $REF_CC flow runs loss_mode 0 (Google's model) on every state change" \
		test "$ref0" -gt 0 -a "$ref1" = 0
	read -r ns0 ns1 <<<"$(lm_seen "$port_nosack")"
	ktap_info "bbr2_state events of the bbr2 flow without SACK, loss_mode 0/1: $ns0/$ns1"
	ktap_result "a bbr2 flow without SACK runs loss_mode 0 on every state change" \
		test "$rc_nosack" = 0 -a "$ns0" -gt 0 -a "$ns1" = 0
fi

dmesg_check
ktap_finished
