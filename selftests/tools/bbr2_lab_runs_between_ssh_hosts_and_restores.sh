#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bbr2-lab between "real hosts" over SSH.  The dumbbell's sender and
# receiver namespaces each run their own sshd on the dumbbell's addresses
# (10.0.1.1, 10.0.3.2), the first router (r1, 10.0.1.2) is the netem host,
# and this namespace is the researcher's machine: it reaches them through a
# management link to r1 with a key made for the test, and bbr2-lab drives
# them with plain ssh as it would DTNs.  Proves:
#
#   - a two-host TOML job: iperf3 through the netem bbr2-lab set (the ss
#     RTTs sampled on the sender are at least the job's 40 ms, never the
#     dumbbell's 10 ms), raw data and report in the netns runs' layout,
#     per-core CPU of both hosts, each host's metadata;
#   - the ESnet INI job of Documentation/admin-guide.rst (netem-lat, a
#     param-sweep of pacing_gain's first element), run with the command the
#     page shows: each point ran with the vector it names;
#   - SIGTERM in the middle of a run: every tcp_bbr2 parameter and every
#     qdisc is as before (compared), no process is left on any host but its
#     sshd (SIGINT goes through the same handler: tools/tests/
#     test_remote_lab.py interrupts a run with each);
#   - an unreachable receiver: a clear error, nothing changed on the sender.
#
# Before any run a parameter is set to a non-default value (loss_thresh 7),
# so that a restore which just reloaded the defaults would be caught.

source "$(dirname "$0")/../net/lib.sh"
source "$(dirname "$0")/sshlab.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
LAB=$REPO/tools/bbr2-lab
DOC=$REPO/Documentation/doc-commands.py
PARAMS=/sys/module/tcp_bbr2/parameters
OUT=$TEST_OUT/lab

require_root
require_cmds ip tc iperf3 ss ssh ssh-keygen /usr/sbin/sshd setsid /usr/bin/python3
cc_available bbr2 || ktap_skip_all "$(cc_skip_reason bbr2)"
[ -d $PARAMS ] || ktap_skip_all "no $PARAMS"
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
	ktap_skip_all "python3-matplotlib missing (run selftests/runner/setup-deps.sh)"
ktap_header
dmesg_mark

KEYS=$(mktemp -d /tmp/bbr2-lab-test-keys.XXXXXX)
cleanup_ssh()
{
	sshlab_stop
	cp "$KEYS"/sshd-*.log "$TEST_OUT/" 2>/dev/null
	ip link del lab0 2>/dev/null
	rm -rf "$KEYS"
	echo 5 >$PARAMS/loss_thresh 2>/dev/null
	return 0
}
on_exit cleanup_ssh

# 20 Mbit/s, 10 ms, 2 BDP; the jobs replace r1's netem
dumbbell_setup 20 10 0 2 || ktap_skip_all "dumbbell setup failed"
if ! { ip link add lab0 type veth peer name r1m netns "$NS_R1" &&
	ip addr add 10.0.9.1/24 dev lab0 && ip link set lab0 up &&
	in_r1 ip addr add 10.0.9.2/24 dev r1m && in_r1 ip link set r1m up &&
	ip route add 10.0.1.0/24 via 10.0.9.2 && ip route add 10.0.3.0/24 via 10.0.9.2 &&
	in_r2 ip route add 10.0.9.0/24 via 10.0.2.1; }; then
	ktap_skip_all "management link setup failed"
fi
sshlab_init "$KEYS" || ktap_skip_all "ssh keys"
if ! { sshlab_sshd "$NS_SND" 10.0.1.1 && sshlab_sshd "$NS_RCV" 10.0.3.2 &&
	sshlab_sshd "$NS_R1" 10.0.1.2; }; then
	ktap_skip_all "sshd did not start: $(cat "$KEYS"/sshd-*.log 2>/dev/null | tail -n 3)"
fi
export BBR2_LAB_SSH_CONFIG=$SSHLAB_CONFIG
# every remote command with its duration, for when this test is slow
export BBR2_LAB_SSH_TRACE=$TEST_OUT/ssh-trace.log
reach=1
for h in 10.0.1.1 10.0.3.2 10.0.1.2; do
	if ! ssh -v -F "$SSHLAB_CONFIG" -o BatchMode=yes "root@$h" true >"$TEST_OUT/ssh-$h.log" 2>&1; then
		reach=0
		ktap_info "ssh root@$h: $(grep -v '^debug' "$TEST_OUT/ssh-$h.log" | tail -n 3)"
		ktap_info "$(grep -iE 'offer|authentications that can continue|identity file' "$TEST_OUT/ssh-$h.log" | tail -n 4)"
	fi
done
check "ssh reaches the sender, receiver and netem hosts" "$reach == 1"
if [ $reach = 0 ]; then
	ktap_info "sshd log: $(tail -n 8 "$KEYS"/sshd-*.log 2>/dev/null)"
	dmesg_check
	ktap_finished
fi

echo 7 >$PARAMS/loss_thresh

# every parameter, every qdisc of the three hosts (handles and refcounts
# left out: a re-created qdisc gets a new handle)
host_state()
{
	local f

	for f in "$PARAMS"/*; do
		echo "param ${f##*/}=$(cat "$f")"
	done
	{
		in_r1 tc qdisc show dev r1b
		in_snd tc qdisc show dev s0
		in_rcv tc qdisc show dev c0
	} | sed -E 's/^(qdisc [a-z_]+) [0-9a-f]+:/\1 H:/; s/ refcnt [0-9]+//'
}

# processes in the hosts' namespaces other than their sshd listeners, and
# bbr2-lab state directories (sshd's session processes of a closed
# connection may take a moment to go)
leftovers()
{
	local left ns

	for _ in $(seq 1 20); do
		left=$(for ns in "$NS_SND" "$NS_R1" "$NS_RCV"; do
			ip netns pids "$ns"
		done | grep -vxF -f <(printf '%s\n' "${SSHLAB_PIDS[@]}") |
			xargs -r ps -o pid=,args= -p)
		left+=$(find /tmp -maxdepth 1 -name 'bbr2-lab.*' 2>/dev/null)
		[ -z "$left" ] && return 0
		sleep 0.5
	done
	echo "$left"
}

before=$(host_state)
ktap_info "before: $(grep -c . <<<"$before") parameters and qdisc lines, loss_thresh=$(cat $PARAMS/loss_thresh)"

# --- 1. a TOML job between the two hosts ------------------------------------
rm -rf "$OUT"
ktap_result "two-host TOML job: bbr2-lab run --sender --receiver --netem" \
	"$LAB" run --sender root@10.0.1.1 --receiver root@10.0.3.2:22 \
	--netem root@10.0.1.2:r1b --out "$OUT/toml" \
	"$REPO/tools/tests/two-hosts.toml"
for cc in bbr2 cubic; do
	idir=$OUT/toml/two-hosts/mix=$cc-1/iter-1
	mbps=$(awk -F, -v cc="$cc" '$3 == cc { print $5 }' "$OUT/toml/summary.csv")
	rtt=$(awk -F, -v cc="$cc" '$3 == cc { print $10 }' "$OUT/toml/summary.csv")
	n=$(grep -c ",$cc," "$idir/ss.csv" 2>/dev/null)
	ktap_info "$cc: ${mbps:-?} Mbit/s, RTT p50 ${rtt:-?} ms, ${n:-0} ss samples, netem: $(grep -o 'delay [^ ]*' "$idir/qdisc-netem-r1b.txt" 2>/dev/null)"
	check "$cc: goodput within the 20 Mbit/s path, above a third of it" \
		"${mbps:-0} > 6.7 && ${mbps:-0} <= 20"
	check "$cc: RTT p50 at least the job's 40 ms (bbr2-lab's netem, not the dumbbell's 10)" \
		"${rtt:-0} >= 40 && ${rtt:-0} < 400"
	check "$cc: ss -tin samples of the data socket taken on the sender" "${n:-0} >= 5"
	ktap_result "$cc: per-core CPU of sender and receiver recorded" \
		test -s "$idir/cpu-sender.csv" -a -s "$idir/cpu-receiver.csv" -a \
		"$(wc -l <"$idir/cpu-receiver.csv" 2>/dev/null || echo 0)" -gt 2
done
ktap_result "hosts.json: kernel, NIC driver, MTU, qdisc, tcp_bbr2 version and parameters of each host" \
	/usr/bin/python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
for role in ("sender", "receiver", "netem"):
    h = m[role]
    assert h["kernel"] and h["driver"] == "veth" and h["mtu"] and h["qdisc"], (role, h)
s = m["sender"]
assert s["tcp_bbr2_version"] and s["params"]["loss_thresh"] == "7", s
assert len(s["params"]) > 20, s["params"]
' "$OUT/toml/hosts.json"
after=$(host_state)
ktap_result "after the TOML job: parameters (loss_thresh 7) and qdiscs as before" \
	test "$before" = "$after"
[ "$before" = "$after" ] || ktap_info "$(diff <(echo "$before") <(echo "$after"))"
left=$(leftovers)
ktap_result "after the TOML job: nothing left running on any host" test -z "$left"
[ -z "$left" ] || ktap_info "left: $left"

# --- 2. the ESnet INI job of the admin guide -----------------------------------
ini=$(python3 "$DOC" block vm-tools-ssh 0)
ini_path=$(sed -n '1s/^# \(\/.*\)$/\1/p' <<<"$ini")
mkdir -p "$(dirname "$ini_path")" && printf '%s\n' "$ini" >"$ini_path"
doc_out=$(sed -n 's/.*--out \([^ ]*\).*/\1/p' <<<"$(python3 "$DOC" commands vm-tools-ssh)")
rm -rf "$doc_out"
: >"$TEST_OUT/doc-commands.log"
doc_rc=0
while IFS= read -r cmd; do
	echo "\$ $cmd" >>"$TEST_OUT/doc-commands.log"
	(cd "$REPO" && bash -c "$cmd") >>"$TEST_OUT/doc-commands.log" 2>&1 || doc_rc=1
done < <(python3 "$DOC" commands vm-tools-ssh)
ktap_result "admin-guide ESnet INI job (commands vm-tools-ssh) runs" test $doc_rc = 0
ktap_info "$(grep -E '^\| (point|pacing)' "$doc_out/summary.md" 2>/dev/null)"
up_before=$(cut -d, -f1 <<<"$(grep '^param pacing_gain=' <<<"$before" | cut -d= -f2)")
rest_before=$(grep '^param pacing_gain=' <<<"$before" | cut -d= -f2 | cut -d, -f2-)
for up in 288 384; do
	pj=$(find "$doc_out" -path "*pacing_gain_1=$up/iter-1/params.json" | head -n 1)
	got=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pacing_gain"])' "$pj" 2>/dev/null)
	ktap_info "point UP=$up ran with pacing_gain $got (before: $up_before,$rest_before)"
	check "INI param-sweep: UP gain $up, the rest of the vector as before" \
		"\"$got\" == \"$up,$rest_before\""
	mbps=$(awk -F, -v p="pacing_gain_1=$up" '$2 == p && $3 == "bbr2" { print $5 }' "$doc_out/summary.csv")
	rtt=$(awk -F, -v p="pacing_gain_1=$up" '$2 == p && $3 == "bbr2" { print $10 }' "$doc_out/summary.csv")
	check "INI point UP=$up: bbr2 goodput in (0, 20] Mbit/s" "${mbps:-0} > 0 && ${mbps:-0} <= 20"
	check "INI point UP=$up: RTT p50 at least 2 x netem-lat = 30 ms" "${rtt:-0} >= 30"
done
after=$(host_state)
ktap_result "after the INI job: parameters and qdiscs as before" test "$before" = "$after"
[ "$before" = "$after" ] || ktap_info "$(diff <(echo "$before") <(echo "$after"))"

# --- 3. an interrupted run ---------------------------------------------------
sig=TERM
rm -rf "$OUT/int-$sig"
"$LAB" run --sender root@10.0.1.1 --receiver root@10.0.3.2 --netem root@10.0.1.2:r1b \
	--duration 40 --no-report --out "$OUT/int-$sig" "$REPO/tools/tests/two-hosts.toml" \
	>"$TEST_OUT/int-$sig.log" 2>&1 &
pid=$!
during=""
# The hosts have been changed once the first point's qdisc snapshots
# exist (written after its netem and parameters are applied; ss.txt
# comes back only at the end of the flow).  Under TCG that is 30-60 s.
for _ in $(seq 1 360); do
	if compgen -G "$OUT/int-$sig/two-hosts/mix=bbr2-1/iter-1/qdisc-*.txt" >/dev/null; then
		during=$(host_state)
		break
	fi
	sleep 0.5
done
ktap_info "SIG$sig during the run: $(diff <(echo "$before") <(echo "$during") | grep -c '^>') state lines differ from before"
check "SIG$sig: the run had changed the hosts (netem, version reload)" \
	"$([ -n "$during" ] && [ "$during" != "$before" ] && echo 1 || echo 0) == 1"
kill -"$sig" "$pid"
wait "$pid"
rc=$?
check "SIG$sig: bbr2-lab exits 130" "$rc == 130"
after=$(host_state)
ktap_result "SIG$sig: every parameter and qdisc restored" test "$before" = "$after"
[ "$before" = "$after" ] || ktap_info "$(diff <(echo "$before") <(echo "$after"))"
left=$(leftovers)
ktap_result "SIG$sig: nothing left running on any host" test -z "$left"
[ -z "$left" ] || ktap_info "left: $left"
ktap_info "$(tail -n 3 "$TEST_OUT/int-$sig.log")"

# --- 4. an unreachable receiver ---------------------------------------------------
"$LAB" run --sender root@10.0.1.1 --receiver root@10.0.3.99 --netem root@10.0.1.2:r1b \
	--out "$OUT/unreach" "$REPO/tools/tests/two-hosts.toml" >"$TEST_OUT/unreach.log" 2>&1
rc=$?
ktap_info "$(grep -v '^$' "$TEST_OUT/unreach.log" | tail -n 3)"
check "unreachable receiver: exit 2" "$rc == 2"
ktap_result "unreachable receiver: the error names it and says nothing changed" \
	grep -q "cannot reach the receiver root@10.0.3.99.*" "$TEST_OUT/unreach.log"
ktap_result "unreachable receiver: ... nothing was changed" \
	grep -q "nothing was changed on any host" "$TEST_OUT/unreach.log"
after=$(host_state)
ktap_result "unreachable receiver: sender and netem host unchanged" test "$before" = "$after"
left=$(leftovers)
ktap_result "unreachable receiver: nothing started on the sender" test -z "$left"

dmesg_check
ktap_finished
