#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bbr2_bpf, the BPF struct_ops build of the same algorithm (bpf/), through
# its CLI (bbr2-bpf): the kernel's verifier accepts it (its instruction
# counts and log size are printed); it stays registered after the loader
# exits, and so does bbr2_bpf_ref beside it; a flow runs on it; its
# tunables have the module's names and
# ranges (compared with the module's own, from modinfo), a bad value is
# refused with nothing changed, a good one is read back and reaches the
# program; unloading while a flow runs leaves that flow running to the
# end; the object registered by bpftool alone (no loader: its tunables
# are its initialised data) carries a flow as the module's bbr2 measured
# in the same boot does; it loads again; the kernel log stays clean.
#
# BBR2_BPF is the CLI (default bpf/build/bbr2-bpf; make bpf builds it).
# The test leaves bbr2_bpf loaded for the tests that follow it.

source "$(dirname "$0")/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
BBR2_BPF=${BBR2_BPF:-$REPO/bpf/build/bbr2-bpf}
CC=bbr2_bpf
PDIR=/sys/module/$BBR2_MODULE/parameters

require_root
require_cmds ip tc iperf3 ss nsenter jq
[ -x "$BBR2_BPF" ] || ktap_skip_all "no $BBR2_BPF (make bpf)"
ktap_header
dmesg_mark
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# never leave the suite without bbr2_bpf, whatever happens below
# shellcheck disable=SC2317 # called from the exit trap
ensure_loaded()
{
	# a registration by bpftool (below) has no pins: replace it
	if cc_available "$CC" && [ ! -e /sys/fs/bpf/bbr2_bpf/ops ]; then
		bpftool struct_ops unregister name "$CC" >/dev/null 2>&1
		bpftool struct_ops unregister name "${CC}_ref" >/dev/null 2>&1
	fi
	cc_available "$CC" || "$BBR2_BPF" load >/dev/null
}
on_exit ensure_loaded

cc_available "$CC" && "$BBR2_BPF" unload
if "$BBR2_BPF" --verifier-log "$TEST_OUT/verifier.log" load \
	>"$TEST_OUT/load.out" 2>"$TEST_OUT/load.err"; then
	ktap_pass "the verifier accepts bbr2_bpf ($(uname -r))"
	ktap_info "$(cat "$TEST_OUT/load.out")"
	ktap_info "full verifier log: $(stat -c %s "$TEST_OUT/verifier.log") bytes"
else
	ktap_info "$(grep -v '^[0-9]*: \|^; ' "$TEST_OUT/load.err" | tail -n 15)"
	ktap_fail "the verifier accepts bbr2_bpf ($(uname -r))"
	dmesg_check
	ktap_finished
fi
ktap_result "$CC registered after the loader exited" cc_available "$CC"
ktap_result "${CC}_ref registered beside it" cc_available "${CC}_ref"

# ---- tunables: the module's names and ranges, checked the module's way
declare -A VAL LO HI
while IFS='=' read -r name val; do
	VAL[$name]=$val
done < <("$BBR2_BPF" get)
ktap_info "bbr2-bpf get: ${#VAL[@]} tunables"
if [ -d "$PDIR" ]; then
	mod_names=$(find "$PDIR" -mindepth 1 -printf '%f\n' | sort | tr '\n' ' ')
	bpf_names=$(printf '%s\n' "${!VAL[@]}" | sort | tr '\n' ' ')
	ktap_result "the module's parameter names, no more, no fewer" \
		test "$mod_names" = "$bpf_names"
else
	ktap_skip "the module's parameter names, no more, no fewer" "$BBR2_MODULE not loaded"
fi
bbr2_param_ranges

wrong="" tried=0 by_rule=""
for p in "${!HI[@]}"; do
	# a list: its range is per element (the module's test probes it apart)
	[ "$p" = pacing_gain ] && continue
	[ -n "${VAL[$p]:-}" ] || { wrong+=" $p(missing)"; continue; }
	bad=(abc -1 99999999999 "" "$(( HI[$p] + 1 ))")
	[ "${LO[$p]}" -gt 0 ] && bad+=("$(( LO[$p] - 1 ))")
	for v in "${bad[@]}"; do
		tried=$((tried + 1))
		if "$BBR2_BPF" set "$p=$v" 2>"$TEST_OUT/set.err"; then
			wrong+=" $p='$v'(accepted)"
		elif ! grep -q "nothing changed" "$TEST_OUT/set.err"; then
			wrong+=" $p='$v'(no clear error: $(head -n 1 "$TEST_OUT/set.err"))"
		fi
	done
	# an end may break a rule between parameters with the others at
	# their defaults (bbr2_tunables_check()): refused, naming the rule,
	# not the range
	for v in "${LO[$p]}" "${HI[$p]}"; do
		tried=$((tried + 1))
		"$BBR2_BPF" set "$p=$v" 2>"$TEST_OUT/set.err" && continue
		if grep -q "(range " "$TEST_OUT/set.err"; then
			wrong+=" $p='$v'(refused as out of range)"
		else
			by_rule+=" $p=$v"
		fi
	done
	"$BBR2_BPF" set "$p=${VAL[$p]}"
done
[ "${#HI[@]}" -gt 30 ] || wrong+=" (only ${#HI[@]} ranges known)"
after=$("$BBR2_BPF" get | sort)
before=$(for p in "${!VAL[@]}"; do echo "$p=${VAL[$p]}"; done | sort)
[ "$after" = "$before" ] || wrong+=" (values differ after the run)"
[ -n "$by_rule" ] && ktap_info "ends refused by a rule between parameters:$by_rule"
if [ -z "$wrong" ]; then
	ktap_pass "$tried writes at and past each range's ends: bad ones refused with 'nothing changed', ends never refused as out of range"
else
	ktap_info "wrong:$wrong"
	ktap_fail "$tried writes at and past each range's ends: bad ones refused with 'nothing changed', ends never refused as out of range"
fi
# one bad value among good ones: nothing of the command is applied
"$BBR2_BPF" set loss_thresh=10 beta=999 2>/dev/null
ktap_result "a command with one bad value changes nothing" \
	test "$("$BBR2_BPF" get loss_thresh beta)" = "$(printf 'loss_thresh=%s\nbeta=%s' "${VAL[loss_thresh]}" "${VAL[beta]}")"
"$BBR2_BPF" set version=2
ktap_result "version=2 loads the v2 constants (pacing_gain DOWN 192)" \
	bash -c "'$BBR2_BPF' get pacing_gain | grep -q '^pacing_gain=320,192,'"
"$BBR2_BPF" set version=3

# ---- a flow on bbr2_bpf; a tunable reaches the running program
dumbbell_setup 20 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }
iperf_server_next || { ktap_fail "iperf3 server"; ktap_finished; }
iperf_client "$TEST_OUT/flow1.json" "$CC" 14 "$IPERF_PORT" &
flow=$!
sleep 5
in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/ss1.txt"
ktap_result "a socket uses $CC (ss -ti)" grep -qw "$CC" "$TEST_OUT/ss1.txt"
nsenter --net="/run/netns/$NS_SND" "$BBR2_BPF" show >"$TEST_OUT/show1.txt"
ktap_info "bbr2-bpf show: $(grep -m1 "$RCV_IP" "$TEST_OUT/show1.txt")"
ktap_result "bbr2-bpf show reports the flow's model state" \
	grep -qE "$RCV_IP:[0-9]+ mode:(STARTUP|DRAIN|PROBE_BW|PROBE_RTT) .*min_rtt:[0-9]{5}" "$TEST_OUT/show1.txt"
orig_gain=${VAL[pacing_gain]}
IFS=, read -r -a gains <<<"$orig_gain"
"$BBR2_BPF" set "pacing_gain=${gains[0]},${gains[1]},300,${gains[3]}"
# The flow has ~8 s left; CRUISE fills most of each 2-3-s probe cycle.
# Every sample is kept (show2.txt) so that a failure says what was seen.
cruise=0 until=$((SECONDS + 6))
: >"$TEST_OUT/show2.txt"
while [ $SECONDS -lt $until ]; do
	echo "t=$SECONDS" >>"$TEST_OUT/show2.txt"
	nsenter --net="/run/netns/$NS_SND" "$BBR2_BPF" show >"$TEST_OUT/show.now"
	cat "$TEST_OUT/show.now" >>"$TEST_OUT/show2.txt"
	grep -q "phase:CRUISE .*pacing_gain:300 " "$TEST_OUT/show.now" && { cruise=1; break; }
	sleep 0.1
done
"$BBR2_BPF" set "pacing_gain=$orig_gain"
seen=$(grep -o 'phase:[A-Z]* [^p]*pacing_gain:[0-9]*' "$TEST_OUT/show2.txt" |
	awk '{ print $1, $NF }' | sort | uniq -c | tr -s ' \n' ' ')
ktap_info "after the write: $(grep -c '^t=' "$TEST_OUT/show2.txt") samples; seen:${seen:- nothing}"
ktap_result "a pacing_gain write reaches the running program (CRUISE at 300)" test $cruise = 1
wait "$flow"
ktap_result "flow on $CC completed" test $? -eq 0
read -r g _ p _ < <(iperf_summary "$TEST_OUT/flow1.json")
ktap_info "$CC: ${g} Mbit/s of 20, ${p}% retransmitted"
check "$CC: the flow used the link (${g} >= 0.5 x 20 Mbit/s)" "${g:-0} >= 10"

# ---- unload while a flow runs
iperf_server_next || { ktap_fail "iperf3 server"; ktap_finished; }
iperf_client "$TEST_OUT/flow2.json" "$CC" 12 "$IPERF_PORT" &
flow=$!
sleep 3
ktap_result "bbr2-bpf unload with a flow running" "$BBR2_BPF" unload
ktap_result "$CC gone from tcp_available_congestion_control" \
	bash -c "! grep -qw '$CC' /proc/sys/net/ipv4/tcp_available_congestion_control"
ktap_result "${CC}_ref gone too" \
	bash -c "! grep -qw '${CC}_ref' /proc/sys/net/ipv4/tcp_available_congestion_control"
in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/ss2.txt"
ktap_result "the running socket keeps $CC after unload" grep -qw "$CC" "$TEST_OUT/ss2.txt"
in_snd ss -tin dst "$RCV_IP" | grep -q . || ktap_info "(no socket left: the flow ended early)"
wait "$flow"
ktap_result "that flow ran to the end after unload" test $? -eq 0
read -r g _ p _ < <(iperf_summary "$TEST_OUT/flow2.json")
tail_mbit=$(jq '[.intervals[-4:][].sum.bits_per_second] | add / length / 1e6' "$TEST_OUT/flow2.json" 2>/dev/null)
ktap_info "after unload: ${g} Mbit/s overall, ${tail_mbit:-?} Mbit/s in its last 4 s"
check "after unload the socket still carries the link (last 4 s ${tail_mbit:-0} >= 10 Mbit/s)" \
	"${tail_mbit:-0} >= 10"
dumbbell_teardown

# ---- registered by bpftool alone: the object's initialised tunables
# carry a flow as the module's bbr2 does, both measured here, one after
# the other, on the same dumbbell.  An object whose tunables were zero
# (gains of 0: a cwnd of a few packets, about 2 Mbit/s at this RTT) would
# miss both margins.
OBJ=$(dirname "$BBR2_BPF")/bbr2_bpf.bpf.o
MOD_CC=bbr2
if ! cc_available "$MOD_CC"; then
	ktap_skip "bpftool-registered $CC carries a flow as the module's $MOD_CC" "$MOD_CC not registered"
elif ! command -v bpftool >/dev/null || [ ! -r "$OBJ" ]; then
	ktap_skip "bpftool-registered $CC carries a flow as the module's $MOD_CC" "no bpftool or no $OBJ"
elif ! bpftool struct_ops register "$OBJ" >"$TEST_OUT/register.out" 2>&1 ||
	! cc_available "$CC"; then
	ktap_info "$(tail -n 5 "$TEST_OUT/register.out")"
	ktap_fail "bpftool struct_ops register $(basename "$OBJ")"
else
	ktap_pass "bpftool struct_ops register $(basename "$OBJ")"
	dumbbell_setup 50 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }
	for cc in "$CC" "$MOD_CC"; do
		iperf_server_next || { ktap_fail "iperf3 server"; ktap_finished; }
		iperf_client "$TEST_OUT/bpftool-$cc.json" "$cc" 8 "$IPERF_PORT"
	done
	dumbbell_teardown
	read -r g_bpf _ < <(iperf_summary "$TEST_OUT/bpftool-$CC.json")
	read -r g_mod _ < <(iperf_summary "$TEST_OUT/bpftool-$MOD_CC.json")
	ktap_info "50 Mbit/s, 20 ms, 1 BDP, 8 s each: $CC (bpftool) ${g_bpf:-?} Mbit/s, module's $MOD_CC ${g_mod:-?} Mbit/s"
	check "$CC registered by bpftool carries >= 60% of the 50 Mbit/s bottleneck (${g_bpf:-0})" \
		"${g_bpf:-0} >= 30"
	check "... and >= 90% of what the module's $MOD_CC carried in this boot (${g_mod:-0})" \
		"${g_bpf:-0} >= ${g_mod:-0} * 0.90"
	bpftool struct_ops unregister name "$CC" >/dev/null
	bpftool struct_ops unregister name "${CC}_ref" >/dev/null
	ktap_result "bpftool unregisters it" \
		bash -c "! grep -qw '$CC' /proc/sys/net/ipv4/tcp_available_congestion_control"
fi

ktap_result "loads again" "$BBR2_BPF" load
ktap_result "$CC offered again" cc_available "$CC"

dmesg_check
ktap_finished
