#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bbr2_bpf on a kernel with the cwnd_event_tx_start op (7.1+), where the
# first transmit after idle no longer reaches cwnd_event():
#  1. bbr2-bpf load picks bbr2_bpf_tx.bpf.o, as the kernel's BTF (read here
#     with bpftool) says, and the verifier accepts its
#     bbr2_bpf_cwnd_event_tx_start program.
#  2. A bbr2_bpf sender that writes 6 bursts, each after an idle gap, is
#     seen restarting from idle by the model (the idle_restarts counter
#     grows by at least the 5 gaps after the first burst); the base object
#     (--object base, the only object there was before) on the same kernel
#     with the same sender sees none: that is what the second object fixes.
#  3. AccECN end to end, where the kernel takes net.ipv4.tcp_ecn=3: with a
#     CE-marking bottleneck (fq_codel, ce_threshold) and ecn_enable=1, the
#     sender negotiates AccECN (tcp_info's ecn_mode), the qdisc marks, the
#     socket is ECN-eligible and its ecn_alpha rises (bbr2-bpf show), and
#     it reacts: its queueing delay (median srtt minus the path's RTT) is
#     at most QDELAY_RATIO of the same flow's with ecn_enable=0 in this run.
# Skipped on kernels without the op (the other tests cover bbr2_bpf.bpf.o).
# Leaves bbr2_bpf loaded with the object load picks, as it found it.

source "$(dirname "$0")/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
BBR2_BPF=${BBR2_BPF:-$REPO/bpf/build/bbr2-bpf}
CC=bbr2_bpf
CCFLOW=$NET_DIR/ccflow.py
RATE=20
RTT=20
GAPS=5
SECS=${SECS:-8}
QDELAY_RATIO=${QDELAY_RATIO:-0.7}
SINK_PORT=5190

require_root
require_cmds ip tc ss bpftool python3 nsenter jq
[ -x "$BBR2_BPF" ] || ktap_skip_all "no $BBR2_BPF (make bpf)"
if ! bpftool btf dump file /sys/kernel/btf/vmlinux format raw 2>/dev/null |
	awk '/^\[[0-9]+\] STRUCT .tcp_congestion_ops. / { ops = 1; next }
	     /^\[/ { ops = 0 }
	     ops && /.cwnd_event_tx_start. / { found = 1 }
	     END { exit !found }'; then
	ktap_skip_all "kernel $(uname -r) has no cwnd_event_tx_start op (before 7.1)"
fi
ktap_header
dmesg_mark
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# shellcheck disable=SC2317 # called from the exit trap
restore()
{
	if [ -e /sys/fs/bpf/bbr2_bpf/ops ] &&
	   ! grep -q '^object bbr2_bpf_tx' "$TEST_OUT/load.out" 2>/dev/null; then
		"$BBR2_BPF" unload >/dev/null 2>&1
	fi
	cc_available "$CC" || "$BBR2_BPF" load >/dev/null
}
on_exit restore

idle_restarts()
{
	"$BBR2_BPF" status | sed -n 's/.*idle_restarts:\([0-9]*\).*/\1/p'
}

# bursts NAME: the idle-gap sender; the idle restarts the model saw
bursts()
{
	local before after

	before=$(idle_restarts)
	in_snd python3 "$CCFLOW" bursts "$RCV_IP" "$SINK_PORT" "$CC" $((GAPS + 1)) 65536 0.4 \
		>"$TEST_OUT/bursts-$1.json"
	after=$(idle_restarts)
	echo $(( ${after:-0} - ${before:-0} ))
}

# ---- 1. the object for this kernel
cc_available "$CC" && "$BBR2_BPF" unload
if "$BBR2_BPF" load >"$TEST_OUT/load.out" 2>"$TEST_OUT/load.err"; then
	ktap_info "$(grep -E '^object |cwnd_event_tx_start' "$TEST_OUT/load.out")"
	ktap_result "bbr2-bpf load picks bbr2_bpf_tx.bpf.o (the kernel's BTF has cwnd_event_tx_start)" \
		grep -q '^object bbr2_bpf_tx.bpf.o: ' "$TEST_OUT/load.out"
	ktap_result "the verifier accepts bbr2_bpf_cwnd_event_tx_start ($(uname -r))" \
		grep -q '^program bbr2_bpf_cwnd_event_tx_start .*processed' "$TEST_OUT/load.out"
else
	ktap_info "$(tail -n 15 "$TEST_OUT/load.err")"
	ktap_fail "bbr2-bpf load ($(uname -r))"
	dmesg_check
	ktap_finished
fi

# ---- 2. idle restarts reach the model
dumbbell_setup "$RATE" "$RTT" 0 2 || { ktap_fail "dumbbell setup"; ktap_finished; }
in_rcv python3 "$CCFLOW" sink "$SINK_PORT" >"$TEST_OUT/sink.log" 2>&1 &
bg_track $!
wait_for_line "$TEST_OUT/sink.log" listening 5 ||
	{ ktap_fail "sink did not start"; ktap_finished; }
n_tx=$(bursts tx)
ktap_info "$((GAPS + 1)) bursts of 64 KB, 0.4 s idle before each: idle_restarts +$n_tx with bbr2_bpf_tx.bpf.o"
ktap_result "the model sees every restart after idle ($n_tx >= $GAPS)" test "$n_tx" -ge "$GAPS"
"$BBR2_BPF" unload
if "$BBR2_BPF" --object base load >"$TEST_OUT/load-base.out" 2>&1; then
	n_base=$(bursts base)
	ktap_info "the same with bbr2_bpf.bpf.o forced (--object base): idle_restarts +$n_base"
	ktap_result "without the op (the base object) this kernel reports none ($n_base = 0)" \
		test "$n_base" -eq 0
	"$BBR2_BPF" unload
else
	ktap_info "$(tail -n 5 "$TEST_OUT/load-base.out")"
	ktap_fail "bbr2-bpf --object base load"
fi
"$BBR2_BPF" load >"$TEST_OUT/load.out" 2>&1 || ktap_fail "bbr2-bpf load again"
dumbbell_teardown

# ---- 3. AccECN end to end
if ! (unshare -n sh -c 'echo 3 >/proc/sys/net/ipv4/tcp_ecn') 2>/dev/null; then
	ktap_skip "AccECN flow sees CE marks and reacts" "kernel $(uname -r) does not take tcp_ecn=3"
	dmesg_check
	ktap_finished
fi
# shellcheck disable=SC2034 # read by dumbbell_setup in lib.sh
DB_ECN=3
dumbbell_setup "$RATE" "$RTT" 0 2 fq_codel || { ktap_fail "dumbbell setup"; ktap_finished; }
in_rcv python3 "$CCFLOW" sink "$SINK_PORT" >"$TEST_OUT/sink2.log" 2>&1 &
bg_track $!
wait_for_line "$TEST_OUT/sink2.log" listening 5 ||
	{ ktap_fail "sink did not start"; ktap_finished; }
ktap_info "$(dumbbell_describe), ce_threshold ${DB_CE_THRESHOLD_MS}ms, tcp_ecn=3 on both ends, ${SECS}s a flow"
"$BBR2_BPF" set ecn_max_rtt_us=0
declare -A qd marks alpha eligible
prev_marks=0
for e in 0 1; do
	"$BBR2_BPF" set ecn_enable=$e
	in_snd python3 "$CCFLOW" bulk "$RCV_IP" "$SINK_PORT" "$CC" "$SECS" >"$TEST_OUT/bulk-ecn$e.json" &
	pid=$!
	: >"$TEST_OUT/show-ecn$e.txt"
	sleep 1
	while kill -0 "$pid" 2>/dev/null; do
		nsenter --net="/run/netns/$NS_SND" "$BBR2_BPF" show | grep "$RCV_IP:$SINK_PORT " >>"$TEST_OUT/show-ecn$e.txt"
		sleep 0.5
	done
	wait "$pid"
	bottleneck_stats >"$TEST_OUT/qdisc-ecn$e.txt"
	m=$(awk '{ for (i = 1; i < NF; i++) if ($i == "ce_mark") s += $(i + 1) } END { print s + 0 }' \
		"$TEST_OUT/qdisc-ecn$e.txt")
	marks[$e]=$((m - prev_marks)) prev_marks=$m
	qd[$e]=$(jq -r --argjson rtt "$RTT" '.rtt_ms_median - $rtt' "$TEST_OUT/bulk-ecn$e.json")
	alpha[$e]=$(sed -n 's/.*ecn_alpha:\([0-9]*\).*/\1/p' "$TEST_OUT/show-ecn$e.txt" | sort -n | tail -n 1)
	eligible[$e]=$(grep -c 'ecn_eligible:1 ' "$TEST_OUT/show-ecn$e.txt")
	hi=$(sed -n 's/.*inflight_hi:\([0-9]*\).*/\1/p' "$TEST_OUT/show-ecn$e.txt" | sort -n | head -n 1)
	ktap_info "ecn_enable=$e: $(jq -c . "$TEST_OUT/bulk-ecn$e.json"); CE marks ${marks[$e]}; queueing delay ${qd[$e]} ms; max ecn_alpha ${alpha[$e]:-?}; lowest inflight_hi ${hi:-?}"
done
"$BBR2_BPF" set ecn_enable=default ecn_max_rtt_us=default
dumbbell_teardown
ktap_result "the sender negotiated AccECN (tcp_info ecn_mode 2)" \
	test "$(jq -r .ecn_mode "$TEST_OUT/bulk-ecn1.json")" = 2
ktap_result "the bottleneck marked CE (${marks[1]} marks)" test "${marks[1]}" -gt 0
ktap_result "the AccECN connection is ECN-eligible (show: ecn_eligible:1)" \
	test "${eligible[1]}" -gt 0
ktap_result "its ecn_alpha rises with the marks (max ${alpha[1]:-none})" \
	test "${alpha[1]:-0}" -gt 0
check "it reacts: queueing delay ${qd[1]} ms <= $QDELAY_RATIO x ${qd[0]} ms with ecn_enable=0" \
	"${qd[1]} <= $QDELAY_RATIO * ${qd[0]}"

dmesg_check
ktap_finished
