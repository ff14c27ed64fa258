#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs the commands and installs the files that Documentation/admin-guide.rst
# shows, taken from the page itself (Documentation/doc-commands.py), in the
# order an admin would, and checks that each did what the page says.
#
# It changes the host it runs on (/lib/modules, /etc, the default congestion
# control), so it refuses to run outside a throw-away guest: vm-run with
# overlays on /etc and /lib/modules (make -C selftests vm-docs) sets
# BBR2_DOC_GUEST=1.
#
#   BBR2_KO             the module to install in /lib/modules/$(uname -r)/updates
#   BBR2_MODULE_INDEX   directory with the modules.* index files for that
#                       install (made on the host by stage-module-index.sh)

source "$(dirname "$0")/../net/lib.sh"

REPO=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$REPO/Documentation/doc-commands.py
FAR_NS=doc-far$$
KVER=$(uname -r)

[ "${BBR2_DOC_GUEST:-0}" = 1 ] ||
	ktap_skip_all "changes /etc and /lib/modules: run it in the VM (make -C selftests vm-docs)"
require_root
require_cmds ip tc iperf3 python3 depmod modprobe ss
[ -f "${BBR2_KO:-}" ] || ktap_skip_all "BBR2_KO not set or missing"

ktap_header
dmesg_mark

# run_doc TAG: every console command of TAG, in order, as the admin would
# type them; "! cmd" (the page shows an error) must fail.  Ends at the
# first command that does not behave as shown.
run_doc()
{
	local tag=$1 cmd cmds

	cmds=$(python3 "$DOC" commands "$tag") || return 1
	while IFS= read -r cmd; do
		echo "doc[$tag]: $cmd" >>"$TEST_OUT/commands.log"
		if ! bash -c "$cmd" >>"$TEST_OUT/commands.log" 2>&1; then
			ktap_info "admin-guide ($tag): '$cmd' failed; see $TEST_OUT/commands.log"
			return 1
		fi
	done <<<"$cmds"
}

# install_doc_file TAG N: write TAG's N-th file block to the path named in
# its first line ("# /etc/..."), as the page tells the admin to
install_doc_file()
{
	local text path

	text=$(python3 "$DOC" block "$1" "$2") || return 1
	path=$(sed -n '1s/^# \(\/.*\)$/\1/p' <<<"$text")
	[ -n "$path" ] || { ktap_info "block $1/$2 names no file"; return 1; }
	mkdir -p "$(dirname "$path")"
	printf '%s\n' "$text" >"$path"
	echo "$path"
}

param() { cat "/sys/module/$BBR2_MODULE/parameters/$1" 2>/dev/null; }
default_cc() { sysctl -n net.ipv4.tcp_congestion_control; }

cleanup()
{
	ip netns del "$FAR_NS" 2>/dev/null
	ip link del eth0 2>/dev/null
	sysctl -qw net.ipv4.tcp_congestion_control=cubic
	modprobe -r "$BBR2_MODULE" 2>/dev/null
}
on_exit cleanup

for m in sch_fq veth; do modprobe "$m"; done

# ---- the test host: eth0 here, the far DTN (192.0.2.2) in a namespace
# made before bbr2 is anyone's default, so it holds no reference to it.
ip netns add "$FAR_NS"
ip link add eth0 type veth peer name eth0 netns "$FAR_NS"
ip addr add 192.0.2.1/24 dev eth0
ip link set eth0 up
ip -n "$FAR_NS" addr add 192.0.2.2/24 dev eth0
ip -n "$FAR_NS" link set eth0 up
ip -n "$FAR_NS" link set lo up
ip netns exec "$FAR_NS" iperf3 -s -D -1 >/dev/null 2>&1

# ---- "installed" where DKMS or make install would leave it.  depmod
# reads every module of the kernel, minutes under TCG, so the index was
# made on the host (stage-module-index.sh; the DKMS test runs depmod itself).
[ -f "${BBR2_MODULE_INDEX:-}/modules.dep.bin" ] ||
	ktap_skip_all "BBR2_MODULE_INDEX: no module index staged for $KVER"
mkdir -p "/lib/modules/$KVER/updates"
cp "$BBR2_KO" "/lib/modules/$KVER/updates/tcp_bbr2.ko"
cp "$BBR2_MODULE_INDEX"/modules.* "/lib/modules/$KVER/"
lsmod | grep -q "^$BBR2_MODULE " && rmmod "$BBR2_MODULE"

# ---- Selecting bbr2
if run_doc vm-select; then
	route=$(ip route show 192.0.2.0/24)
	snippet=$(python3 "$DOC" block vm-select 0 | python3 - 2>&1)
	if [ "$(default_cc)" = bbr2 ] && [[ "$route" == *"congctl bbr2"* ]] &&
	   [[ "$snippet" == *bbr2* ]]; then
		ktap_pass "select: sysctl, per-route and per-socket commands take effect"
	else
		ktap_info "default $(default_cc); route '$route'; python: $snippet"
		ktap_fail "select: sysctl, per-route and per-socket commands take effect"
	fi
else
	ktap_fail "select: sysctl, per-route and per-socket commands take effect"
fi

# ---- Checking (the iperf3 flow the page started runs for 10 s)
sleep 2
verify_from=$(wc -l <"$TEST_OUT/commands.log")
if run_doc vm-verify; then
	shown=$(tail -n "+$((verify_from + 1))" "$TEST_OUT/commands.log")
	if grep -q 'bbr:(bw:' <<<"$shown" &&
	   grep -qE '[[:space:]]bbr2[[:space:]]' <<<"$shown" &&
	   [ "$(param version)" = 3 ]; then
		ktap_pass "verify: ss -tin shows a bbr2 flow with its model state"
	else
		ktap_info "shown: $shown"
		ktap_fail "verify: ss -tin shows a bbr2 flow with its model state"
	fi
else
	ktap_fail "verify: ss -tin shows a bbr2 flow with its model state"
fi
# the page's iperf3 (-t 30) runs in the background of its own shell
pkill -f 'iperf3 -c 192.0.2.2'

# ---- Changing parameters: 3 applies, 4096 is refused and 3 stays; under
# version 2 high_gain follows v2's default while the explicit loss_thresh
# keeps 3; "default" and the switch back leave both at v3's defaults, as
# the page says
params_ok="params: valid write applies, invalid write refused, explicit values kept across version, default follows it again"
params_from=$(wc -l <"$TEST_OUT/commands.log")
if run_doc vm-params; then
	params_log=$(tail -n "+$((params_from + 1))" "$TEST_OUT/commands.log")
	shown=$(grep -A1 'cat /sys/module/tcp_bbr2/parameters/loss_thresh' <<<"$params_log" |
		tail -n 1)
	shown_v2=$(grep -A2 'cat /sys/module/tcp_bbr2/parameters/high_gain' <<<"$params_log" |
		tail -n 2 | tr '\n' ' ')
	if [ "$shown" = 3 ] && [ "$shown_v2" = "739 3 " ] &&
	   [ "$(param loss_thresh)" = 5 ] && [ "$(param high_gain)" = 710 ]; then
		ktap_pass "$params_ok"
	else
		ktap_info "loss_thresh shown '$shown', under v2 high_gain and loss_thresh '$shown_v2', now $(param loss_thresh); high_gain $(param high_gain)"
		ktap_fail "$params_ok"
	fi
else
	ktap_fail "$params_ok"
fi

# ---- Tuning a DTN
if f=$(install_doc_file vm-tuning 0) && run_doc vm-tuning &&
   [ "$(sysctl -n net.core.rmem_max)" = 2147483647 ] &&
   tc qdisc show dev eth0 | grep -q 'maxrate 9Gbit' &&
   [ "$(param ecn_enable)" = 1 ]; then
	ktap_pass "tuning: fq maxrate, $f and ECN applied"
else
	ktap_info "qdisc: $(tc qdisc show dev eth0); ecn_enable $(param ecn_enable)"
	ktap_fail "tuning: fq maxrate, sysctl file and ECN applied"
fi

# ---- Boot-time files: the sysctl file makes bbr2 the default; the
# modprobe.d options apply when the module is loaded again (below)
sysctl -qw net.ipv4.tcp_congestion_control=cubic
if install_doc_file vm-boot-files 0 >/dev/null &&
   install_doc_file vm-boot-files 1 >/dev/null &&
   install_doc_file vm-boot-files 2 >/dev/null &&
   run_doc vm-boot-files && [ "$(default_cc)" = bbr2 ] &&
   grep -qx tcp_bbr2 /etc/modules-load.d/tcp_bbr2.conf; then
	ktap_pass "boot files: sysctl.d makes bbr2 the default"
else
	ktap_info "default $(default_cc)"
	ktap_fail "boot files: sysctl.d makes bbr2 the default"
fi

# ---- Removing: refused while in use, then done
refusal=$(modprobe -r "$BBR2_MODULE" 2>&1)
if lsmod | grep -q "^$BBR2_MODULE " && [[ "$refusal" == *"in use"* ]]; then
	ktap_pass "remove: refused while bbr2 is the default"
else
	ktap_info "modprobe -r said: $refusal"
	ktap_fail "remove: refused while bbr2 is the default"
fi
if run_doc vm-remove && ! lsmod | grep -q "^$BBR2_MODULE "; then
	ktap_pass "remove: the documented steps unload the module"
else
	ktap_info "refcnt $(cat "/sys/module/$BBR2_MODULE/refcnt" 2>/dev/null)"
	ktap_fail "remove: the documented steps unload the module"
fi

# ---- the modprobe.d options file from "Changing parameters"
if modprobe "$BBR2_MODULE" && [ "$(param version)" = 3 ] &&
   [ "$(param ecn_enable)" = 1 ]; then
	ktap_pass "modprobe.d options apply on load"
else
	ktap_info "version $(param version), ecn_enable $(param ecn_enable)"
	ktap_fail "modprobe.d options apply on load"
fi
modprobe -r "$BBR2_MODULE"

dmesg_check
ktap_finished
