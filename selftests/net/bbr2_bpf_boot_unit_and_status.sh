#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the packages ship around the code, on a real kernel:
#
#   - bbr2-bpf.service (packaging/systemd/): its ExecStart, ExecReload and
#     ExecStop lines, as the unit names them, with the tunables of a config
#     file: bbr2_bpf is registered and configured ("version" applied first
#     wherever the file has it), a bad line changes nothing and is named,
#     a kernel without BTF or older than 6.10 is refused with a message
#     saying so, and after the stop bbr2_bpf is gone;
#   - bbr2-status (tools/): in a namespace with routes, qdiscs, sockets and
#     buffer limits set up here, each item it reports is what was set up,
#     and a kernel without a tcp_bbr2 build (a modules directory made
#     here) is reported as such.
#
# BBR2_BPF is the CLI (make bpf); the module is the one run-suite.sh loaded.
# The test leaves bbr2_bpf loaded for the tests that follow it.

source "$(dirname "$0")/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
BBR2_BPF=${BBR2_BPF:-$REPO/bpf/build/bbr2-bpf}
UNIT=$REPO/packaging/systemd/bbr2-bpf.service
STATUS=$REPO/tools/bbr2-status
NS=bbr2st$$

require_root
require_cmds ip tc ss python3
[ -x "$BBR2_BPF" ] || ktap_skip_all "no $BBR2_BPF (make bpf)"
ktap_header
dmesg_mark
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# shellcheck disable=SC2317 # called from the exit trap
cleanup() {
	ip netns del "$NS" 2>/dev/null
	cc_available bbr2_bpf || "$BBR2_BPF" load >/dev/null
}
on_exit cleanup

# unit_cmd KEY: the unit's KEY= command line, with the installed paths of
# the package mapped to this tree's files
unit_cmd() {
	sed -n "s/^$1=//p" "$UNIT" |
		sed "s|^/usr/libexec/bbr2-bpf/bbr2-bpf-boot|$REPO/packaging/systemd/bbr2-bpf-boot|"
}
# unit KEY [VAR=VALUE...]: run the unit's KEY command, output in $TEST_OUT/KEY.out
unit() {
	local key=$1 cmd
	shift
	cmd=$(unit_cmd "$key")
	[ -n "$cmd" ] || { echo "no $key= in $UNIT"; return 1; }
	# shellcheck disable=SC2086 # the unit's command line, split as systemd does
	env BBR2_BPF="$BBR2_BPF" BBR2_BPF_CONF="$TEST_OUT/bbr2-bpf.conf" "$@" \
		$cmd >"$TEST_OUT/$key.out" 2>&1
	local rc=$?
	sed 's/^/  | /' "$TEST_OUT/$key.out" | while IFS= read -r l; do ktap_info "$l"; done
	return $rc
}
for key in ExecStart ExecReload ExecStop; do
	c=$(unit_cmd "$key")
	[[ $c == "$REPO/"* ]] || { ktap_fail "$key= runs the packaged helper ($c)"; ktap_finished; }
done

# ---- the unit: start with a config file, reload, refusals, stop
cc_available bbr2_bpf && "$BBR2_BPF" unload
cat >"$TEST_OUT/bbr2-bpf.conf" <<'EOF'
# loss_mode before version in the file: version is applied first
loss_mode = 1
version=2   # BBRv2
EOF
ktap_result "ExecStart registers bbr2_bpf" unit ExecStart
ktap_result "bbr2_bpf registered" cc_available bbr2_bpf
ktap_result "configured from the file: version=2, loss_mode=1" \
	test "$("$BBR2_BPF" get version loss_mode | tr '\n' ' ')" = "version=2 loss_mode=1 "

echo "beta=99999" >>"$TEST_OUT/bbr2-bpf.conf"
echo "not a setting" >>"$TEST_OUT/bbr2-bpf.conf"
unit ExecReload
ktap_result "ExecReload with a bad line fails" test $? -ne 0
ktap_result "the journal names the bad line (file:line)" \
	grep -q "bbr2-bpf.conf:5: not NAME=VALUE: not a setting" "$TEST_OUT/ExecReload.out"
sed -i '$d' "$TEST_OUT/bbr2-bpf.conf"
unit ExecReload
ktap_result "a value out of range is refused by the module's check, nothing changed" \
	bash -c "grep -q 'nothing changed' '$TEST_OUT/ExecReload.out' &&
		test \"\$('$BBR2_BPF' get version loss_mode | tr '\n' ' ')\" = 'version=2 loss_mode=1 '"
printf 'version=3\nloss_mode=0\n' >"$TEST_OUT/bbr2-bpf.conf"
ktap_result "ExecReload applies a changed file" unit ExecReload
ktap_result "now version=3, loss_mode=0" \
	test "$("$BBR2_BPF" get version loss_mode | tr '\n' ' ')" = "version=3 loss_mode=0 "

# the file Documentation/packages.rst shows
python3 "$REPO/Documentation/doc-commands.py" block pkg-bpf-conf 0 >"$TEST_OUT/bbr2-bpf.conf"
ktap_result "ExecReload applies packages.rst's /etc/bbr2-bpf.conf" unit ExecReload
want=$(grep -v '^#' "$TEST_OUT/bbr2-bpf.conf" | grep . | tr -d ' ' | sort | tr '\n' ' ')
# shellcheck disable=SC2046 # one name per line of the file
ktap_result "its values are in the program ($want)" test \
	"$("$BBR2_BPF" get $(grep -v '^#' "$TEST_OUT/bbr2-bpf.conf" | grep . | cut -d= -f1) | sort | tr '\n' ' ')" = "$want"

"$BBR2_BPF" unload
unit ExecStart BBR2_BPF_KERNEL=6.1.0-50-amd64
ktap_result "a 6.1 kernel is refused, saying it is older than 6.10" \
	bash -c "grep -q 'older than 6.10' '$TEST_OUT/ExecStart.out' && ! grep -qw bbr2_bpf /proc/sys/net/ipv4/tcp_available_congestion_control"
unit ExecStart BBR2_BPF_BTF=/nonexistent/vmlinux
ktap_result "a kernel without BTF is refused, saying so" \
	bash -c "grep -q 'has no BTF' '$TEST_OUT/ExecStart.out' && ! grep -qw bbr2_bpf /proc/sys/net/ipv4/tcp_available_congestion_control"
printf 'loss_mode=1\n' >"$TEST_OUT/bbr2-bpf.conf"
ktap_result "ExecStart again" unit ExecStart

# ---- bbr2-status in a namespace set up here
ip netns add "$NS"
in_ns() { ip netns exec "$NS" "$@"; }
in_ns ip link set lo up
in_ns ip link add d0 type dummy
in_ns ip link add d1 type dummy
in_ns ip link set d0 up
in_ns ip link set d1 up
in_ns ip addr add 10.77.0.1/24 dev d0
in_ns ip addr add 10.79.0.1/24 dev d1
in_ns ip route add default dev d0
in_ns ip route add 10.78.0.0/24 dev d0 congctl bbr2_bpf
in_ns ip route add 10.80.0.0/24 dev d1 congctl bbr2
in_ns tc qdisc add dev d0 root fq
in_ns tc qdisc replace dev d1 root pfifo limit 100
in_ns sysctl -qw net.ipv4.tcp_congestion_control=bbr2_bpf
in_ns sysctl -qw net.ipv4.tcp_rmem="4096 131072 1000000"
in_ns sysctl -qw net.ipv4.tcp_wmem="4096 16384 4000000"

# two loopback connections on the default, bbr2_bpf: four sockets
in_ns python3 -c '
import socket, sys, time
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(4)
c = [socket.create_connection(l.getsockname()) for _ in range(2)]
s = [l.accept()[0] for _ in range(2)]
print("up", flush=True)
sys.stdin.read()' >"$TEST_OUT/conns.out" < <(sleep 30) &
conns=$!
for _ in $(seq 50); do grep -q up "$TEST_OUT/conns.out" && break; sleep 0.1; done

# a kernel with the module installed (the running one) and one without
mods=$TEST_OUT/modules
rm -rf "$mods"
mkdir -p "$mods/$(uname -r)/updates/dkms" "$mods/6.99.0-nobuild/build"
cp "$BBR2_KO" "$mods/$(uname -r)/updates/dkms/tcp_bbr2.ko" 2>/dev/null ||
	: >"$mods/$(uname -r)/updates/dkms/tcp_bbr2.ko"
: >"$mods/6.99.0-nobuild/build/Makefile"

in_ns "$STATUS" --rate 1G --rtt 10ms --modules-dir "$mods" >"$TEST_OUT/status.txt"
rc=$?
in_ns "$STATUS" --rate 1G --rtt 10ms --modules-dir "$mods" --json >"$TEST_OUT/status.json"
# the command packages.rst shows, as it shows it
while IFS= read -r cmd; do
	in_ns bash -c "${cmd/#bbr2-status/$STATUS} --modules-dir '$mods'" >"$TEST_OUT/status-doc.txt"
	drc=$?
	ktap_result "packages.rst [pkg-status]: $cmd (exit $drc: 0 or 1, every item reported)" \
		bash -c "[ $drc -le 1 ] && for i in loaded default routes sockets pacing buffers dkms; do
			grep -q \"^[ !] \$i \" '$TEST_OUT/status-doc.txt' || exit 1; done"
done < <(python3 "$REPO/Documentation/doc-commands.py" commands pkg-status)
kill "$conns" 2>/dev/null
wait "$conns" 2>/dev/null
while IFS= read -r l; do ktap_info "  | $l"; done <"$TEST_OUT/status.txt"

js() { python3 -c "import json, sys; d = json.load(open('$TEST_OUT/status.json')); print($1)"; }
modver=$(modinfo -F version "$BBR2_KO" 2>/dev/null)
ktap_result "status: the module, its version ($modver) and behaviour from sysfs" \
	test "$(js 'd["loaded"]["module"]["module_version"], d["loaded"]["module"]["params"]["version"], d["loaded"]["module"]["params"]["loss_mode"]')" = \
	"$modver $(cat /sys/module/tcp_bbr2/parameters/version) $(cat /sys/module/tcp_bbr2/parameters/loss_mode)"
# bbr2_bpf's tunables: read through its pins, which a namespace entered
# with "ip netns exec" (a fresh /sys) does not see; from here they are
"$STATUS" --bbr2-bpf "$BBR2_BPF" --modules-dir "$mods" --json >"$TEST_OUT/status-root.json"
ktap_result "status: bbr2_bpf with its tunables (loss_mode=1 from the unit's file)" \
	python3 -c "import json; d = json.load(open('$TEST_OUT/status-root.json')); assert d['loaded']['bpf']['params']['loss_mode'] == '1', d['loaded']"
ktap_result "status: bbr2_bpf is the namespace's default" \
	test "$(js 'd["default"]["is_bbr2"], d["default"]["tcp_congestion_control"]')" = "True bbr2_bpf"
ktap_result "status: the two congctl routes, not the default route" \
	test "$(js 'len(d["routes"]), sorted(r.split()[0] for r in d["routes"])')" = "2 ['10.78.0.0/24', '10.80.0.0/24']"
ktap_result "status: 4 sockets use bbr2_bpf, 0 bbr2" \
	test "$(js 'd["sockets"]["bbr2_bpf"], d["sockets"]["bbr2"]')" = "4 0"
ktap_result "status: d0 paced by fq, d1 (pfifo) not" \
	test "$(js 'd["pacing"]["interfaces"]["d0"]["fq"], d["pacing"]["interfaces"]["d1"]["fq"]')" = "True False"
# 1 Gbit/s x 10 ms: BDP 1.25 MB, a buffer needs 2.5 MB: tcp_rmem's
# 1000000 is short, tcp_wmem's 4000000 fits
ktap_result "status: buffers against 2 x BDP: tcp_rmem max short, tcp_wmem max fits" \
	test "$(js 'd["buffers"]["bdp"], d["buffers"]["limits"]["net.ipv4.tcp_rmem max"]["fits"], d["buffers"]["limits"]["net.ipv4.tcp_wmem max"]["fits"]')" = "1250000.0 False True"
ktap_result "status: the running kernel has the module, 6.99.0-nobuild has none (headers only)" \
	test "$(js 'd["dkms"]["kernels"]["'"$(uname -r)"'"]["module"], d["dkms"]["kernels"]["6.99.0-nobuild"]["module"], d["dkms"]["kernels"]["6.99.0-nobuild"]["headers"]')" = "True False True"
ktap_result "status: the text names the kernel without a build, and exits 1" \
	bash -c "[ $rc = 1 ] && grep -q '^! dkms  *6.99.0-nobuild: no tcp_bbr2 module' '$TEST_OUT/status.txt'"

# ---- stop: gone
ktap_result "ExecStop unregisters bbr2_bpf" unit ExecStop
ktap_result "bbr2_bpf gone: not registered, nothing pinned" \
	bash -c "! grep -qw bbr2_bpf /proc/sys/net/ipv4/tcp_available_congestion_control && [ ! -e /sys/fs/bpf/bbr2_bpf ]"
"$STATUS" --json --modules-dir "$mods" >"$TEST_OUT/status-after.json"
ktap_result "status after the stop: no bbr2_bpf" \
	python3 -c "import json; d = json.load(open('$TEST_OUT/status-after.json')); assert d['loaded']['bpf'] is None"
dmesg_check
ktap_finished
