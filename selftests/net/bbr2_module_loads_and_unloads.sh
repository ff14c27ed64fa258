#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's life cycle: loaded, bbr2 is offered to the stack; while a
# socket uses bbr2 the module cannot be removed (the stack holds a
# reference); once the sockets are gone rmmod works, bbr2 disappears from
# the available list, and the module loads again.
#
# BBR2_MODULE/BBR2_CC name the module and its CC (tcp_bbr2/bbr2); the test
# bed can be checked on the kernel's own tcp_bbr/bbr the same way.
# tcp_bbr2's second name, bbr2_ref, comes and goes with the module too.

source "$(dirname "$0")/lib.sh"

require_root
require_cmds ip tc iperf3 ss rmmod
[ -d "/sys/module/$BBR2_MODULE" ] || cc_available "$BBR2_CC" ||
	ktap_skip_all "$BBR2_MODULE not loaded (run-suite.sh loads it from BBR2_KO)"
ktap_header
dmesg_mark
# A bbr2 that another module provides is the wrong module under test.
if [ ! -d "/sys/module/$BBR2_MODULE" ]; then
	ktap_fail "$BBR2_CC is registered, but not by $BBR2_MODULE"
	ktap_finished
fi

reload()
{
	if [ -n "${BBR2_KO:-}" ] && [ -f "$BBR2_KO" ]; then
		insmod "$BBR2_KO"
	else
		modprobe "$BBR2_MODULE"
	fi
}
# never leave the suite without the module, whatever happens below
# shellcheck disable=SC2317 # called from the exit trap
ensure_loaded() { [ -d "/sys/module/$BBR2_MODULE" ] || reload; }
on_exit ensure_loaded

ktap_result "$BBR2_CC listed in tcp_available_congestion_control" cc_available "$BBR2_CC"

dumbbell_setup 20 20 0 1 || { ktap_fail "dumbbell setup"; ktap_finished; }
iperf_server_next || { ktap_fail "iperf3 server"; ktap_finished; }
# long enough to outlast the checks below even on a loaded host
iperf_client "$TEST_OUT/flow.json" "$BBR2_CC" 15 "$IPERF_PORT" &
flow=$!
sleep 3
in_snd ss -tin dst "$RCV_IP" >"$TEST_OUT/ss.txt"
ktap_result "a socket uses $BBR2_CC (ss -ti)" grep -qE "(^|[[:space:]])$BBR2_CC([[:space:]]|$)" "$TEST_OUT/ss.txt"
ktap_info "refcnt with the flow running: $(cat "/sys/module/$BBR2_MODULE/refcnt")"
kill -0 "$flow" 2>/dev/null || ktap_info "the flow ended before rmmod: host too slow"
if rmmod "$BBR2_MODULE" 2>"$TEST_OUT/rmmod.err"; then
	ktap_fail "rmmod refused while a $BBR2_CC socket exists"
	reload
else
	ktap_info "rmmod said: $(cat "$TEST_OUT/rmmod.err")"
	ktap_result "rmmod refused while a $BBR2_CC socket exists" test -d "/sys/module/$BBR2_MODULE"
fi
wait "$flow"
ktap_result "flow completed while rmmod was attempted" test $? -eq 0
dumbbell_teardown

removed=0
for _ in $(seq 30); do
	if rmmod "$BBR2_MODULE" 2>"$TEST_OUT/rmmod.err"; then
		removed=1
		break
	fi
	sleep 0.5
done
if [ $removed = 1 ]; then
	ktap_pass "rmmod works once the sockets are gone"
	ktap_result "$BBR2_CC gone from tcp_available_congestion_control" \
		bash -c "! grep -qw '$BBR2_CC' /proc/sys/net/ipv4/tcp_available_congestion_control"
	[ "$BBR2_MODULE" = tcp_bbr2 ] &&
		ktap_result "bbr2_ref gone from tcp_available_congestion_control" \
			bash -c "! grep -qw bbr2_ref /proc/sys/net/ipv4/tcp_available_congestion_control"
	ktap_result "module loads again" reload
	ktap_result "$BBR2_CC offered again after reload" cc_available "$BBR2_CC"
	[ "$BBR2_MODULE" = tcp_bbr2 ] &&
		ktap_result "bbr2_ref offered again after reload" cc_available bbr2_ref
else
	ktap_info "rmmod: $(cat "$TEST_OUT/rmmod.err"); refcnt $(cat "/sys/module/$BBR2_MODULE/refcnt")"
	ktap_fail "rmmod works once the sockets are gone"
fi

dmesg_check
ktap_finished
