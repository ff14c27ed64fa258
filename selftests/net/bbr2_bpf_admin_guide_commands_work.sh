#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The admin guide's "Without a module: bbr2_bpf" commands (doc-test tag
# vm-bpf), taken from the page (Documentation/doc-commands.py) and run in
# order as an admin would: each must behave as shown (a command whose shown
# output is an error must fail), and each must do what the page says:
# bbr2_bpf registered, the host default, the tunable read back, the bad
# value refused, gone after unload.  bbr2-bpf is $BBR2_BPF (make bpf).

source "$(dirname "$0")/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
DOC=$REPO/Documentation/doc-commands.py
BBR2_BPF=${BBR2_BPF:-$REPO/bpf/build/bbr2-bpf}
CC=bbr2_bpf

require_root
require_cmds python3 sysctl
[ -x "$BBR2_BPF" ] || ktap_skip_all "no $BBR2_BPF (make bpf)"
ktap_header
dmesg_mark
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
# the page calls it by name, as installed by make -C bpf install
PATH=$(dirname "$BBR2_BPF"):$PATH
[ "$(basename "$BBR2_BPF")" = bbr2-bpf ] || ktap_skip_all "$BBR2_BPF is not named bbr2-bpf"

orig_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
# shellcheck disable=SC2317 # called from the exit trap
restore()
{
	sysctl -qw net.ipv4.tcp_congestion_control="$orig_cc"
	cc_available "$CC" || "$BBR2_BPF" load >/dev/null
}
on_exit restore
cc_available "$CC" && "$BBR2_BPF" unload

cmds=$(python3 "$DOC" commands vm-bpf) || { ktap_fail "vm-bpf commands from the page"; ktap_finished; }
ktap_info "$(wc -l <<<"$cmds") commands from Documentation/admin-guide.rst (vm-bpf)"
while IFS= read -r cmd; do
	if ! bash -c "$cmd" >"$TEST_OUT/out" 2>&1; then
		ktap_info "$(cat "$TEST_OUT/out")"
		ktap_fail "'$cmd' behaves as shown"
		continue
	fi
	case $cmd in
	"bbr2-bpf load")
		ktap_result "'$cmd': $CC registered" cc_available "$CC" ;;
	"sysctl -w net.ipv4.tcp_congestion_control=$CC")
		ktap_result "'$cmd': $CC is the default" \
			test "$(sysctl -n net.ipv4.tcp_congestion_control)" = "$CC" ;;
	"! bbr2-bpf set "*)
		ktap_result "'$cmd' refused, says so" grep -q "nothing changed" "$TEST_OUT/out" ;;
	"bbr2-bpf get "*)
		ktap_result "'$cmd' reads back the value set" grep -qx "loss_thresh=3" "$TEST_OUT/out" ;;
	"bbr2-bpf unload")
		ktap_result "'$cmd': $CC gone" bash -c "! grep -qw $CC /proc/sys/net/ipv4/tcp_available_congestion_control" ;;
	*)
		ktap_pass "'$cmd'" ;;
	esac
done <<<"$cmds"

dmesg_check
ktap_finished
