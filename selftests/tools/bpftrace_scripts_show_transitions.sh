#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Each bpftrace script in tools/bpftrace/ attaches to the loaded tcp_bbr2
# module's tracepoints and reports what one bbr2 flow does:
#
#   bbr2-states.bt    a STARTUP -> DRAIN transition and a PROBE_BW phase
#   bbr2-model.bt     max_bw and min_rtt updates and an inflight bound
#   bbr2-loss-ecn.bt  a loss reaction (the flow runs through 1% random loss
#                     into a 1-BDP buffer, so bbr2 must cut a bound)
#
# All three trace the same flow, so the test costs one flow, not three.

source "$(dirname "$0")/../net/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
BT_DIR=$REPO/tools/bpftrace
RATE=${RATE:-20}
RTT=${RTT:-20}
SECS=${SECS:-8}
ATTACH_TIMEOUT=${ATTACH_TIMEOUT:-120}
EXIT_TIMEOUT=${EXIT_TIMEOUT:-60}
# The scripts are run as Documentation/admin-guide.rst shows them, and the
# page must show every script there is.
DOC_CMDS=$(python3 "$REPO/Documentation/doc-commands.py" commands vm-bpftrace) ||
	ktap_skip_all "admin-guide.rst shows no bpftrace commands"
SCRIPTS=$(sed -n 's|^bpftrace tools/bpftrace/\(.*\)\.bt$|\1|p' <<<"$DOC_CMDS" | sort | xargs)
SHIPPED=$(for f in "$BT_DIR"/*.bt; do basename "$f" .bt; done | sort | xargs)

require_root
require_cmds ip tc iperf3 bpftrace
cc_available bbr2 || ktap_skip_all "$(cc_skip_reason bbr2)"
ktap_header
dmesg_mark

scenario_dumbbell "$RATE" "$RTT" 1 1
ktap_info "$(dumbbell_describe), one bbr2 flow, ${SECS}s"

declare -A bt_pid
if [ "$SCRIPTS" = "$SHIPPED" ]; then
	ktap_pass "admin-guide.rst shows every script in tools/bpftrace"
else
	ktap_info "shown: $SCRIPTS; shipped: $SHIPPED"
	ktap_fail "admin-guide.rst shows every script in tools/bpftrace"
fi
# bpftrace prints "Attaching N probes..." before it attaches them, and
# under emulation attaching can outlast a flow's STARTUP (its first
# seconds would be missed).  Since 0.14 it prints this word once every probe is
# live (to stderr before 0.20, stdout after) when the variable is set.
ATTACHED_WORD=__BPFTRACE_NOTIFY_PROBES_ATTACHED
for s in $SCRIPTS; do
	# the page's command word for word, exec'd so that $! is bpftrace
	read -r -a argv < <(grep -x "bpftrace tools/bpftrace/$s.bt" <<<"$DOC_CMDS")
	(cd "$REPO" && export "$ATTACHED_WORD=1" && exec "${argv[@]}") \
		>"$TEST_OUT/$s.out" 2>"$TEST_OUT/$s.err" </dev/null &
	bt_pid[$s]=$!
	bg_track "${bt_pid[$s]}"
done

# compiling a script takes a while under emulation: wait for all of them
attached=""
deadline=$(( $(date +%s) + ATTACH_TIMEOUT ))
while [ "$(date +%s)" -lt "$deadline" ]; do
	attached="" missing=0
	for s in $SCRIPTS; do
		if grep -qx "$ATTACHED_WORD" "$TEST_OUT/$s.out" "$TEST_OUT/$s.err" 2>/dev/null; then
			attached+=" $s"
		else
			missing=1
		fi
	done
	[ $missing = 0 ] && break
	sleep 1
done
for s in $SCRIPTS; do
	if [[ " $attached " == *" $s "* ]]; then
		ktap_pass "$s.bt attaches to the bbr2 tracepoints"
	else
		ktap_info "$s.bt: $(head -c 600 "$TEST_OUT/$s.err")"
		ktap_fail "$s.bt attaches to the bbr2 tracepoints"
	fi
done

iperf_flow "$TEST_OUT/flow.json" bbr2 "$SECS" ||
	ktap_info "iperf3 failed: $(head -c 300 "$TEST_OUT/flow.json.err")"
sleep 1
for s in $SCRIPTS; do
	kill -INT "${bt_pid[$s]}" 2>/dev/null
done
# bpftrace detaches and prints its maps on SIGINT; one that does not end
# within EXIT_TIMEOUT, Ctrl-C pressed once a second, is stuck (rather than
# waiting for the runner's 1500-s limit): report where, and go on to check
# what it printed
for s in $SCRIPTS; do
	ktap_result "$s.bt exits on SIGINT" \
		interrupt_or_kill "${bt_pid[$s]}" "$EXIT_TIMEOUT" "$s.bt"
done

# expect SCRIPT DESC REGEX: one TAP line: SCRIPT's output matches REGEX
expect()
{
	local s=$1 desc=$2 re=$3 n

	n=$(grep -cE -- "$re" "$TEST_OUT/$s.out")
	if [ "$n" -gt 0 ]; then
		ktap_info "$s: $n lines match '$re', e.g. $(grep -m1 -E -- "$re" "$TEST_OUT/$s.out")"
		ktap_pass "$s.bt: $desc"
	else
		ktap_info "$s: no line matches '$re'; output:"
		ktap_info "$(head -n 15 "$TEST_OUT/$s.out")"
		ktap_fail "$s.bt: $desc"
	fi
}

expect bbr2-states "prints STARTUP -> DRAIN" ' STARTUP -> DRAIN '
expect bbr2-states "prints a PROBE_BW phase change" ' PROBE_BW:[A-Z]+ -> PROBE_BW:[A-Z]+ '
expect bbr2-model "prints max_bw updates" ' max_bw [0-9]+ -> [0-9]+ kbit/s'
expect bbr2-model "prints min_rtt updates" ' min_rtt [0-9]+ -> [0-9]+ us'
expect bbr2-model "prints inflight bounds" ' bounds inflight_hi [0-9]+ '
expect bbr2-loss-ecn "prints a loss reaction" ' loss reaction in mode [0-3]: losses '

dumbbell_teardown
dmesg_check
ktap_finished
