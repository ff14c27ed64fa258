#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the tcp_bbr2 behavioural selftests.
#
# A test sources this file, builds a dumbbell, runs iperf3 flows with each
# congestion control in $CCS, prints the numbers side by side as TAP comments
# and asserts ratios against the configured link or against baselines measured
# in the same run.  Output is KTAP ("TAP version 13", "ok N desc",
# "not ok N desc", "ok N desc # SKIP why", plan and totals at the end); the
# exit code follows kselftest: 0 pass, 1 fail, 4 skip.
#
# The dumbbell (all addresses private, all traffic inside namespaces):
#
#   snd --veth-- r1 --veth-- r2 --veth-- rcv
#   fq           netem        tbf / htb at RATE, queue BUF_BDP x BDP
#   (pacing)     delay RTT,   [+ fq_codel ce_threshold | red ecn]
#                loss, jitter
#
# Data flows snd -> rcv; every qdisc sits on the data direction, ACKs return
# unshaped.  netem's own limit is huge so that the only queue that can
# overflow is the bottleneck's.

set -o pipefail
export LC_ALL=C

NET_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NETTOOL="python3 $NET_DIR/nettool.py"

readonly KSFT_PASS=0
readonly KSFT_FAIL=1
readonly KSFT_SKIP=4

# Congestion controls under test; bbr = the kernel's BBRv1 (tcp_bbr),
# bbr2 = this project's module.
CCS=${CCS:-"bbr2 bbr cubic"}
# BBR-family CCs: the behaviour claims of BBRv2/v3 are asserted for bbr2;
# bbr (v1) is measured beside it as the reference it must improve on.
BBR2_CC=${BBR2_CC:-bbr2}
BBR2_MODULE=${BBR2_MODULE:-tcp_bbr2}

TEST_NAME=${TEST_NAME:-$(basename "$0" .sh)}
RESULTS_DIR=${RESULTS_DIR:-/tmp/bbr2-selftests}
TEST_OUT=$RESULTS_DIR/$TEST_NAME
mkdir -p "$TEST_OUT"

# ----------------------------------------------------------------- KTAP ---

_ktap_nr=0
_ktap_pass=0
_ktap_fail=0
_ktap_skip=0

ktap_header()
{
	echo "TAP version 13"
	echo "# $TEST_NAME"
}

ktap_info()
{
	local line

	while IFS= read -r line; do
		echo "# $line"
	done <<<"$*"
}

ktap_pass()
{
	_ktap_nr=$((_ktap_nr + 1))
	_ktap_pass=$((_ktap_pass + 1))
	echo "ok $_ktap_nr $*"
}

ktap_fail()
{
	_ktap_nr=$((_ktap_nr + 1))
	_ktap_fail=$((_ktap_fail + 1))
	echo "not ok $_ktap_nr $*"
}

# ktap_skip DESC REASON
ktap_skip()
{
	_ktap_nr=$((_ktap_nr + 1))
	_ktap_skip=$((_ktap_skip + 1))
	echo "ok $_ktap_nr $1 # SKIP $2"
}

# ktap_result DESC CMD...: ok if CMD succeeds
ktap_result()
{
	local desc=$1

	shift
	if "$@"; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
	fi
}

# ktap_finished: plan, totals, kselftest exit code.  Never returns.
ktap_finished()
{
	echo "1..$_ktap_nr"
	echo "# Totals: pass:$_ktap_pass fail:$_ktap_fail xfail:0 xpass:0 skip:$_ktap_skip error:0"
	if [ "$_ktap_fail" -gt 0 ]; then
		exit $KSFT_FAIL
	elif [ "$_ktap_pass" -eq 0 ] && [ "$_ktap_skip" -gt 0 ]; then
		exit $KSFT_SKIP
	fi
	exit $KSFT_PASS
}

# ktap_skip_all REASON: the whole test cannot run here
ktap_skip_all()
{
	ktap_header
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

# ------------------------------------------------------------- numbers ---

# fcmp EXPR: floating point comparison, e.g. fcmp "$a >= 0.8 * $b"
fcmp()
{
	awk "BEGIN { exit !($*) }" </dev/null
}

# fcalc EXPR: print a floating point result with 2 decimals
fcalc()
{
	awk "BEGIN { printf \"%.2f\", $* }" </dev/null
}

# check DESC EXPR: one TAP line asserting a numeric relation; the expression
# with its values is printed so a failure explains itself.
check()
{
	local desc=$1 expr=$2

	if fcmp "$expr"; then
		ktap_pass "$desc"
	else
		ktap_info "FAILED: $desc: $expr"
		ktap_fail "$desc"
	fi
}

# jain X...: Jain's fairness index
jain()
{
	$NETTOOL jain "$@"
}

# -------------------------------------------------------- environment ---

require_root()
{
	[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
}

require_cmds()
{
	local c

	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			ktap_skip_all "missing '$c' (run selftests/runner/setup-deps.sh)"
	done
}

# cc_available CC: is CC registered with the running kernel?
cc_available()
{
	grep -qw -- "$1" /proc/sys/net/ipv4/tcp_available_congestion_control
}

# bbr2_param_get NAME / bbr2_param_set NAME VALUE: a tunable of $BBR2_CC:
# the module's /sys/module/$BBR2_MODULE/parameters/NAME, or for bbr2_bpf
# (the BPF build) through its CLI, $BBR2_BPF; non-zero if there is none or
# the write is refused
bbr2_param_get()
{
	if [ "$BBR2_CC" = bbr2_bpf ]; then
		"${BBR2_BPF:-bbr2-bpf}" get "$1" 2>/dev/null | sed -n "s/^$1=//p" | grep .
	else
		cat "/sys/module/$BBR2_MODULE/parameters/$1" 2>/dev/null
	fi
}

bbr2_param_set()
{
	if [ "$BBR2_CC" = bbr2_bpf ]; then
		"${BBR2_BPF:-bbr2-bpf}" set "$1=$2"
	else
		[ -w "/sys/module/$BBR2_MODULE/parameters/$1" ] &&
			echo "$2" >"/sys/module/$BBR2_MODULE/parameters/$1"
	fi
}

# bbr2_param_ranges: LO[NAME] and HI[NAME] (associative arrays the caller
# declares) for every parameter whose description gives a range
# ("[lo..hi"), read with modinfo from $BBR2_KO if that file exists, else
# from $BBR2_MODULE
# shellcheck disable=SC2034,SC2004 # LO and HI: the caller's associative arrays
bbr2_param_ranges()
{
	local src=${BBR2_KO:-} line name

	[ -n "$src" ] && [ -f "$src" ] || src=$BBR2_MODULE
	while IFS= read -r line; do
		name=${line%%:*}
		if [[ $line =~ \[([0-9]+)\.\.([0-9]+) ]]; then
			LO[$name]=${BASH_REMATCH[1]}
			HI[$name]=${BASH_REMATCH[2]}
		fi
	done < <(modinfo -F parm "$src" 2>/dev/null)
	ktap_info "ranges known for ${#HI[@]} parameters (from modinfo $src)"
}

# scenario_begin RATE_MBIT: the opening of every behavioural test: root and
# tools, the KTAP header, the dmesg mark, and the proof that the emulator
# carries RATE_MBIT (if not, the test ends here, failed)
scenario_begin()
{
	require_root
	require_cmds ip tc iperf3 python3
	ktap_header
	dmesg_mark
	capacity_recent "$1" || capacity_check "$1" ||
		{ dmesg_check; ktap_finished; }
}

# scenario_dumbbell ARGS...: dumbbell_setup ARGS, ending the test on failure
scenario_dumbbell()
{
	dumbbell_setup "$@" || { ktap_fail "dumbbell setup"; ktap_finished; }
}

# cc_skip_reason CC: print why CC cannot be tested (empty if it can)
cc_skip_reason()
{
	local cc=$1

	cc_available "$cc" && return 0
	if [ "$cc" = "$BBR2_CC" ] && [ "$cc" = bbr2_bpf ]; then
		echo "bbr2_bpf not registered (run-suite.sh loads it with BBR2_BPF)"
	elif [ "$cc" = "$BBR2_CC" ]; then
		echo "$BBR2_MODULE not loaded (run-suite.sh loads it from BBR2_KO)"
	else
		echo "congestion control '$cc' not available (modprobe tcp_$cc?)"
	fi
}

# -------------------------------------------------------------- cleanup ---

_cleanup_fns=()
_bg_pids=()

on_exit()
{
	_cleanup_fns+=("$1")
}

bg_track()
{
	_bg_pids+=("$1")
}

# _reaped_within PID TENTHS: wait up to TENTHS/10 s for background PID to
# exit (gone, or a zombie not yet reaped); reap it and return 0, else 1
_reaped_within()
{
	local pid=$1 tenths=$2 i

	for ((i = 0; i < tenths; i++)); do
		if ! kill -0 "$pid" 2>/dev/null ||
		   [ "$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)" = Z ]; then
			wait "$pid" 2>/dev/null
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# wait_or_kill PID SECS WHAT: wait up to SECS for background PID (a child
# of this shell) to exit; if it does not, say what it is stuck in, kill it
# and return 1.  A process blocked in the kernel may survive SIGKILL: then
# it is left behind rather than waited for forever.
wait_or_kill()
{
	local pid=$1 secs=$2 what=$3 state wchan

	_reaped_within "$pid" $((secs * 10)) && return 0
	state=$(awk '/^State:/ { print $2 $3 }' "/proc/$pid/status" 2>/dev/null)
	wchan=$(cat "/proc/$pid/wchan" 2>/dev/null)
	ktap_info "$what (pid $pid) still running after ${secs}s: state $state, wchan $wchan; kernel stack:"
	ktap_info "$(head -n 12 "/proc/$pid/stack" 2>/dev/null)"
	kill -KILL "$pid" 2>/dev/null
	_reaped_within "$pid" 50 ||
		ktap_info "$what (pid $pid) survived SIGKILL; left behind"
	return 1
}

# interrupt_or_kill PID SECS WHAT: wait up to SECS for background PID, a
# tracer already sent SIGINT, to exit, sending SIGINT again every second as
# a user presses Ctrl-C again; then say what it is stuck in and kill it
# (wait_or_kill).  bpftrace before 0.19 checks for its SIGINT only when
# epoll_wait() is interrupted or an event arrives: a SIGINT that lands while
# it is reading events, with no event after it, is not acted on.
interrupt_or_kill()
{
	local pid=$1 secs=$2 what=$3 i

	for ((i = 1; i < secs; i++)); do
		_reaped_within "$pid" 10 && return 0
		kill -INT "$pid" 2>/dev/null
	done
	wait_or_kill "$pid" 1 "$what"
}

_run_cleanup()
{
	local rc=$? i pid

	trap - EXIT INT TERM
	for pid in "${_bg_pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for ((i = ${#_cleanup_fns[@]} - 1; i >= 0; i--)); do
		${_cleanup_fns[i]} 2>/dev/null
	done
	exit "$rc"
}
trap _run_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --------------------------------------------------------------- dmesg ---

DMESG_MARK=""

# dmesg_mark: remember where this test's kernel log starts
dmesg_mark()
{
	DMESG_MARK="bbr2-selftest: begin $TEST_NAME $$ $(date +%s%N)"
	echo "$DMESG_MARK" >/dev/kmsg 2>/dev/null || DMESG_MARK=""
}

# shellcheck disable=SC2034 # read by the scripts that source this file
DMESG_CLEAN=""

# _first_report KIND: of nettool.py kernel-complaints' output on stdin, the
# first report of KIND (counted or emulator), its first 40 lines
_first_report()
{
	awk -v kind="$1" '
		$1 == kind && !seen { on = 1; seen = 1; print; next }
		/^[^ ]/ { on = 0 }
		on' | head -n 40
}

# dmesg_check: one TAP line; fails on any kernel complaint (oops, WARNING,
# BUG, lockup, stall, sanitizer report) logged since dmesg_mark, and sets
# DMESG_CLEAN to 1 or 0.  On an emulated CPU (vm-run exports
# TESTBED_CPU=emulated) a WARNING the emulator raises on its own (see
# nettool.py kernel-complaints: a kernel-mode single-step trap, no frame of
# ours in it) is shown but not counted.
# shellcheck disable=SC2034 # DMESG_CLEAN: read by the scripts that source this
dmesg_check()
{
	local complaints counted

	if [ -z "$DMESG_MARK" ]; then
		ktap_skip "kernel log clean" "cannot write /dev/kmsg"
		return
	fi
	dmesg | awk -v m="$DMESG_MARK" 'found { print } index($0, m) { found = 1 }' \
		>"$TEST_OUT/dmesg.log"
	if ! complaints=$($NETTOOL kernel-complaints "$TEST_OUT/dmesg.log" \
		"${TESTBED_CPU:-}"); then
		# an unread log is not a clean one
		DMESG_CLEAN=0
		ktap_fail "kernel log clean (nettool.py kernel-complaints failed)"
		return
	fi
	if grep -q '^emulator ' <<<"$complaints"; then
		ktap_info "raised by the emulated CPU, not counted:"
		ktap_info "$(_first_report emulator <<<"$complaints")"
	fi
	counted=$(grep -c '^counted ' <<<"$complaints")
	if [ "$counted" -gt 0 ]; then
		DMESG_CLEAN=0
		ktap_info "kernel complained during $TEST_NAME ($counted reports), the first:"
		ktap_info "$(_first_report counted <<<"$complaints")"
		ktap_fail "kernel log clean"
	else
		DMESG_CLEAN=1
		ktap_pass "kernel log clean"
	fi
}

# ------------------------------------------------------------ dumbbell ---

NS_PREFIX="bb$$"
NS_SND=$NS_PREFIX-snd
NS_R1=$NS_PREFIX-r1
NS_R2=$NS_PREFIX-r2
NS_RCV=$NS_PREFIX-rcv
RCV_IP=10.0.3.2
MTU_BYTES=1514

# Configuration of the current dumbbell, set by dumbbell_setup
DB_RATE=0		# Mbit/s
DB_RTT=0		# ms, base round-trip time
DB_LOSS=0		# %, random loss on the data path
DB_BUF_BDP=0		# bottleneck queue in BDPs
DB_AQM=""		# "", fq_codel or red
DB_BDP_BYTES=0
DB_BUF_BYTES=0
# Knobs
DB_JITTER_MS=${DB_JITTER_MS:-0}
DB_CE_THRESHOLD_MS=${DB_CE_THRESHOLD_MS:-2}
DB_BURST_US=${DB_BURST_US:-4000}	# token bucket depth in time: TCG timers fire late, a 1 ms bucket loses ~15 % of a 20 Mbit/s link
DB_SHAPER=${DB_SHAPER:-tbf}		# tbf or htb
DB_ECN=${DB_ECN:-}			# net.ipv4.tcp_ecn in snd/rcv if set

_ns()
{
	local ns=$1

	shift
	ip netns exec "$ns" "$@"
}

in_snd() { _ns "$NS_SND" "$@"; }
in_rcv() { _ns "$NS_RCV" "$@"; }
in_r1() { _ns "$NS_R1" "$@"; }
in_r2() { _ns "$NS_R2" "$@"; }

dumbbell_teardown()
{
	local ns pids

	for ns in "$NS_SND" "$NS_R1" "$NS_R2" "$NS_RCV"; do
		# no process may outlive its namespace: a leftover sampler or
		# iperf3 would hold the suite's output pipe open and eat CPU
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086 # a list of pids
		[ -n "$pids" ] && kill $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

# _nsrun NS: run the shell script on stdin inside NS in one process.  Under
# emulation every exec costs ~0.1-0.3 s, so each namespace is configured by
# one bash with sysctls written by builtins and one `ip -batch`/`tc -batch`.
_nsrun()
{
	ip netns exec "$1" bash -e -s
}

# _veth NS_A DEV_A NS_B DEV_B: a veth pair between two namespaces
_veth()
{
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3"
}

# _addr DEV ADDR4 NET6: `ip -batch` lines addressing a link
_addr()
{
	printf 'addr add %s/24 dev %s\n' "$2" "$1"
	printf 'addr add %s::%s/64 dev %s nodad\n' "$3" "${2##*.}" "$1"
	printf 'link set %s up\n' "$1"
}

# dumbbell_setup RATE_MBIT RTT_MS LOSS_PCT BUF_BDP [AQM]
#   AQM: "" (tail drop), "fq_codel" (CE marks above DB_CE_THRESHOLD_MS, ecn)
#        or "red" (ecn marking)
dumbbell_setup()
{
	local rate=$1 rtt=$2 loss=$3 bufbdp=$4 aqm=${5:-}
	local burst netem_limit jitter="" pkts ns aqm_cmd="" shaper_cmd host_cmd
	local fwd_cmd

	DB_RATE=$rate DB_RTT=$rtt DB_LOSS=$loss DB_BUF_BDP=$bufbdp DB_AQM=$aqm
	DB_BDP_BYTES=$(awk "BEGIN { printf \"%d\", $rate * 125 * $rtt }")
	DB_BUF_BYTES=$(awk "BEGIN { b = $bufbdp * $DB_BDP_BYTES; if (b < 2 * $MTU_BYTES) b = 2 * $MTU_BYTES; printf \"%d\", b }")
	burst=$(awk "BEGIN { b = $rate * 1e6 / 8 * $DB_BURST_US / 1e6; if (b < 2 * $MTU_BYTES) b = 2 * $MTU_BYTES; printf \"%d\", b }")
	# generous: all of the BDP and the buffer, ten times over
	netem_limit=$(( (DB_BDP_BYTES + DB_BUF_BYTES) * 10 / MTU_BYTES + 1000 ))
	[ "$DB_JITTER_MS" != 0 ] && jitter="${DB_JITTER_MS}ms distribution normal"
	pkts=$(( DB_BUF_BYTES / MTU_BYTES + 1 ))

	if [ "$DB_SHAPER" = htb ]; then
		shaper_cmd="qdisc replace dev r2b root handle 1: htb default 1
class add dev r2b parent 1: classid 1:1 htb rate ${rate}mbit burst $burst cburst $burst"
		[ -z "$aqm" ] && shaper_cmd+="
qdisc add dev r2b parent 1:1 handle 10: bfifo limit $DB_BUF_BYTES"
	else
		shaper_cmd="qdisc replace dev r2b root handle 1: tbf rate ${rate}mbit burst $burst limit $DB_BUF_BYTES"
	fi
	case "$aqm" in
	"") ;;
	fq_codel)
		aqm_cmd="qdisc add dev r2b parent 1:1 handle 10: fq_codel limit $pkts memory_limit $((DB_BUF_BYTES * 4)) ecn ce_threshold ${DB_CE_THRESHOLD_MS}ms"
		;;
	red)
		local min max
		min=$(( DB_BUF_BYTES / 6 > 3 * MTU_BYTES ? DB_BUF_BYTES / 6 : 3 * MTU_BYTES ))
		max=$(( min * 3 ))
		aqm_cmd="qdisc add dev r2b parent 1:1 handle 10: red limit $(( DB_BUF_BYTES > 4 * max ? DB_BUF_BYTES : 4 * max )) min $min max $max avpkt 1500 burst $(( (2 * min + max) / (3 * 1500) + 1 )) probability 0.2 bandwidth ${rate}mbit ecn"
		;;
	*)
		echo "dumbbell_setup: unknown AQM '$aqm'" >&2
		return 1
		;;
	esac
	# end hosts: no cached ssthresh/RTT between the flows of one test;
	# windows never the limit (8 BDP at 50 Mbit/s, 100 ms is 5 MB)
	host_cmd="echo 1 > /proc/sys/net/ipv4/tcp_no_metrics_save
echo '4096 131072 33554432' > /proc/sys/net/ipv4/tcp_rmem
echo '4096 16384 33554432' > /proc/sys/net/ipv4/tcp_wmem"
	[ -n "$DB_ECN" ] && host_cmd+="
echo $DB_ECN > /proc/sys/net/ipv4/tcp_ecn"
	fwd_cmd="echo 1 > /proc/sys/net/ipv4/ip_forward
echo 1 > /proc/sys/net/ipv6/conf/all/forwarding"

	dumbbell_teardown
	on_exit dumbbell_teardown
	for ns in "$NS_SND" "$NS_R1" "$NS_R2" "$NS_RCV"; do
		ip netns add "$ns" || return 1
	done
	_veth "$NS_SND" s0 "$NS_R1" r1a &&
	_veth "$NS_R1" r1b "$NS_R2" r2a &&
	_veth "$NS_R2" r2b "$NS_RCV" c0 || return 1

	# sender: fq for pacing; one wire-sized packet per skb (no TSO/GSO),
	# so netem loses segments, not bursts, and queue sizes in bytes mean
	# what they say (forwarding hops do no GRO by default)
	_nsrun "$NS_SND" <<-EOF || return 1
	$host_cmd
	ethtool -K s0 tso off gso off >/dev/null 2>&1 || true
	ip -batch - <<IP
	link set lo up
	$(_addr s0 10.0.1.1 fd00:1)
	route add default via 10.0.1.2
	route add ::/0 via fd00:1::2
	IP
	tc qdisc replace dev s0 root fq
	EOF
	# r1: the path's delay and random loss, on the data direction
	_nsrun "$NS_R1" <<-EOF || return 1
	$fwd_cmd
	ip -batch - <<IP
	link set lo up
	$(_addr r1a 10.0.1.2 fd00:1)
	$(_addr r1b 10.0.2.1 fd00:2)
	route add 10.0.3.0/24 via 10.0.2.2
	route add fd00:3::/64 via fd00:2::2
	IP
	tc qdisc replace dev r1b root netem limit $netem_limit delay ${rtt}ms $jitter loss ${loss}%
	EOF
	# r2: the bottleneck
	_nsrun "$NS_R2" <<-EOF || return 1
	$fwd_cmd
	ip -batch - <<IP
	link set lo up
	$(_addr r2a 10.0.2.2 fd00:2)
	$(_addr r2b 10.0.3.1 fd00:3)
	route add 10.0.1.0/24 via 10.0.2.1
	route add fd00:1::/64 via fd00:2::1
	IP
	tc -batch - <<TC
	$shaper_cmd
	$aqm_cmd
	TC
	EOF
	_nsrun "$NS_RCV" <<-EOF || return 1
	$host_cmd
	ip -batch - <<IP
	link set lo up
	$(_addr c0 10.0.3.2 fd00:3)
	route add default via 10.0.3.1
	route add ::/0 via fd00:3::1
	IP
	EOF
	# the path answers before any flow starts; one echo of several is
	# enough, as the path may lose any one of them at random (a single
	# ping failed one setup in a hundred at 1 % loss)
	if ! in_snd ping -c 5 -i 0.2 -W 5 "$RCV_IP" >/dev/null; then
		echo "dumbbell_setup: no ping reply from $RCV_IP through the path" >&2
		return 1
	fi
	return 0
}

# dumbbell_set_loss PCT: change the random loss of the current dumbbell
dumbbell_set_loss()
{
	local limit

	limit=$(( (DB_BDP_BYTES + DB_BUF_BYTES) * 10 / MTU_BYTES + 1000 ))
	in_r1 tc qdisc change dev r1b root netem limit "$limit" \
		delay "${DB_RTT}ms" loss "${1}%" && DB_LOSS=$1
}

# fq_horizon_drops: packets sch_fq on the sender dropped because TCP had
# stamped them beyond fq's horizon (10 s): a pacing rate so low that it ran
# a socket's departure clock that far ahead
fq_horizon_drops()
{
	in_snd tc -s qdisc show dev s0 |
		awk '{ for (i = 1; i < NF; i++) if ($i == "horizon_drops") s += $(i + 1) } END { print s + 0 }'
}

# wait_for_line FILE TEXT: wait up to 10 s for TEXT to appear in FILE
wait_for_line()
{
	for _ in $(seq 100); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

dumbbell_describe()
{
	echo "dumbbell ${DB_RATE}Mbit/s rtt ${DB_RTT}ms loss ${DB_LOSS}% buffer ${DB_BUF_BDP}BDP=${DB_BUF_BYTES}B${DB_AQM:+ aqm $DB_AQM}"
}

# goodput_ceiling RATE_MBIT: the most TCP payload a RATE link can carry
# (1448 payload bytes per 1514-byte frame on the wire)
goodput_ceiling()
{
	fcalc "$1 * 1448 / $MTU_BYTES"
}

# bdp_pkts: BDP of the current dumbbell in full-sized segments
bdp_pkts()
{
	echo $(( DB_BDP_BYTES / 1448 ))
}

# bottleneck_stats: the bottleneck qdiscs' counters (drops, marks)
bottleneck_stats()
{
	in_r2 tc -s qdisc show dev r2b
}

# -------------------------------------------------------------- iperf3 ---

_port=5300

# iperf_server PORT: one-shot iperf3 server in rcv, in the background
iperf_server()
{
	local port=$1 i log=$TEST_OUT/server-$1.log

	: >"$log"
	# ip netns exec execs iperf3: $! is iperf3 itself
	ip netns exec "$NS_RCV" iperf3 -s -1 -p "$port" --forceflush \
		</dev/null >"$log" 2>&1 &
	bg_track $!
	for i in $(seq 100); do
		grep -q "listening" "$log" && return 0
		sleep 0.05
	done
	echo "iperf3 server on port $port did not start" >&2
	return 1
}

# iperf_server_next: start a one-shot server on a fresh port; the port is
# left in IPERF_PORT
IPERF_PORT=0
iperf_server_next()
{
	_port=$((_port + 1))
	IPERF_PORT=$_port
	iperf_server "$IPERF_PORT"
}

# iperf_client OUT CC SECS PORT [iperf3 args...]: one iperf3 run snd -> rcv
# with congestion control CC ("" = the namespace's default), JSON in OUT.
# A client that outlives its flow by IPERF_GRACE_S is killed (exit 124), so
# a lost control connection fails one test instead of hanging the suite.
IPERF_GRACE_S=${IPERF_GRACE_S:-90}
iperf_client()
{
	local out=$1 cc=$2 secs=$3 port=$4

	shift 4
	in_snd timeout -k 5 "$((${secs%.*} + IPERF_GRACE_S))" \
		iperf3 -c "$RCV_IP" -p "$port" ${cc:+-C "$cc"} -t "$secs" -J "$@" \
		>"$out" 2>"$out.err"
}

# iperf_flow OUT CC SECS [iperf3 args...]: server + client, foreground
iperf_flow()
{
	local out=$1 cc=$2 secs=$3

	shift 3
	iperf_server_next || return 1
	iperf_client "$out" "$cc" "$secs" "$IPERF_PORT" "$@"
}

# iperf_summary OUT: "goodput_mbit retrans retrans_pct bytes_sent"
iperf_summary()
{
	$NETTOOL iperf "$1"
}

# ----------------------------------------------------- TCP state sampling ---

_sampler_pid=""

# tcp_sampler_start FILE [PERIOD_S]: sample the `ss -ti` state (cwnd, srtt,
# bbr:(bw,mrtt,pacing_gain,cwnd_gain)) of every socket from snd towards rcv
# into FILE (see tcpsample.py; one process, no exec per sample)
tcp_sampler_start()
{
	local file=$1 period=${2:-0.05}

	# ip netns exec execs python: $! is the sampler itself, and it holds
	# none of the test's output descriptors
	ip netns exec "$NS_SND" python3 "$NET_DIR/tcpsample.py" "$RCV_IP" "$period" \
		"$file" </dev/null >/dev/null 2>&1 &
	_sampler_pid=$!
	bg_track "$_sampler_pid"
}

tcp_sampler_stop()
{
	[ -n "$_sampler_pid" ] && kill "$_sampler_pid" 2>/dev/null
	wait "$_sampler_pid" 2>/dev/null
	_sampler_pid=""
	return 0
}

# qdelay FILE: "median_ms p90_ms median_cwnd samples": queueing delay
# (smoothed RTT minus the configured base RTT) of the data sockets over the
# second half of a sample FILE
qdelay()
{
	local med p90 cwnd n

	read -r med p90 cwnd n < <($NETTOOL ss-rtt "$1" 0.5)
	echo "$(fcalc "$med - $DB_RTT") $(fcalc "$p90 - $DB_RTT") $cwnd $n"
}

# ss_snapshot FILE: append a human-readable `ss -tin` of snd to FILE
ss_snapshot()
{
	{ echo "@ $(date +%s.%N)"; in_snd ss -tin dst "$RCV_IP"; } >>"$1" 2>&1
}

# ------------------------------------------------------------ capacity ---

CAPACITY_FRACTION=${CAPACITY_FRACTION:-0.85}
CAPACITY_SECS=${CAPACITY_SECS:-8}
CAPACITY_RTT=${CAPACITY_RTT:-20}
# a few flows: their sum is smooth, so the number is the machine's, not one
# cubic sawtooth's
CAPACITY_FLOWS=${CAPACITY_FLOWS:-4}

CAPACITY_TRIES=${CAPACITY_TRIES:-3}
CAPACITY_WAIT=${CAPACITY_WAIT:-20}
# A passing measurement is kept in CAPACITY_PROOF (rate, flows, when,
# result).  A scenario's opening check takes one that ended at most
# CAPACITY_PROOF_AGE s before, at least its rate with at least as many
# flows (the previous scenario's closing check, in a suite): the machine was
# proven to carry the link moments ago, which is what measuring again
# would prove.
CAPACITY_PROOF=${CAPACITY_PROOF:-${TMPDIR:-/tmp}/bbr2-selftests-capacity-proof}
CAPACITY_PROOF_AGE=${CAPACITY_PROOF_AGE:-60}

# uptime_s: seconds since boot (a proof from before a reboot is never recent)
uptime_s()
{
	cut -d' ' -f1 /proc/uptime
}

# _capacity_measure RATE FLOWS OUT: print the steady-state cubic throughput
# (the first 2 s of ramp-up left out: this measures the machine, not cubic)
# through a clean dumbbell (CAPACITY_RTT, no loss, 2 BDP); leaves no
# dumbbell behind
_capacity_measure()
{
	local rate=$1 flows=$2 out=$3

	dumbbell_setup "$rate" "$CAPACITY_RTT" 0 2 || return 1
	if ! iperf_flow "$out" cubic "$CAPACITY_SECS" -P "$flows"; then
		ktap_info "$(head -c 400 "$out.err" "$out" 2>/dev/null)"
		dumbbell_teardown
		return 1
	fi
	dumbbell_teardown
	$NETTOOL iperf-window "$out" 2 "$CAPACITY_SECS" 0
}

# _capacity_desc RATE FLOWS WHEN: the KTAP description of a capacity check
_capacity_desc()
{
	echo "capacity $1Mbit/s, $2 flows, $3: emulator is not the bottleneck"
}

# capacity_check RATE_MBIT [FLOWS] [WHEN (one word)]: prove the emulated link, not the
# CPU, is the bottleneck at RATE: cubic must carry >= CAPACITY_FRACTION of
# RATE.  A busy host is usually busy for a while only, so a failed
# measurement is repeated up to CAPACITY_TRIES times, CAPACITY_WAIT s apart,
# before the check fails (loudly).  Returns non-zero on failure.
capacity_check()
{
	local rate=$1 flows=${2:-$CAPACITY_FLOWS} when=${3:-before} g try out
	local desc

	desc=$(_capacity_desc "$rate" "$flows" "$when")

	for try in $(seq "$CAPACITY_TRIES"); do
		out=$TEST_OUT/capacity-$when-P$flows-$try.json
		if ! g=$(_capacity_measure "$rate" "$flows" "$out"); then
			ktap_fail "$desc (setup or iperf3 failed)"
			return 1
		fi
		ktap_info "capacity: cubic x$flows ${g} Mbit/s through ${rate} Mbit/s ${CAPACITY_RTT} ms (need >= ${CAPACITY_FRACTION}x)"
		if fcmp "$g >= $CAPACITY_FRACTION * $rate"; then
			ktap_pass "$desc"
			echo "$rate $flows $(uptime_s) $g" >"$CAPACITY_PROOF" 2>/dev/null
			return 0
		fi
		[ "$try" -lt "$CAPACITY_TRIES" ] &&
			ktap_info "host busy? measuring again in ${CAPACITY_WAIT}s"
		sleep "$CAPACITY_WAIT"
	done
	ktap_info "************************************************************"
	ktap_info "CAPACITY CHECK FAILED: ${g} Mbit/s < ${CAPACITY_FRACTION} x ${rate} Mbit/s."
	ktap_info "The emulated CPU, not the bottleneck link, limits throughput;"
	ktap_info "numbers from this run would be meaningless. Run on an idle host."
	ktap_info "************************************************************"
	ktap_fail "$desc"
	return 1
}

# capacity_recent RATE_MBIT: pass the opening capacity check on a recent
# proof (CAPACITY_PROOF); false, saying nothing, without one
capacity_recent()
{
	local rate=$1 p_rate p_flows p_at p_g age

	read -r p_rate p_flows p_at p_g 2>/dev/null <"$CAPACITY_PROOF" || return 1
	[[ "$p_rate $p_flows $p_at" =~ ^[0-9.]+\ [0-9]+\ [0-9.]+$ ]] || return 1
	age=$(awk -v now="$(uptime_s)" -v at="$p_at" 'BEGIN { printf "%.0f", now - at }')
	fcmp "$p_rate >= $rate && $p_flows >= $CAPACITY_FLOWS &&" \
		"$age >= 0 && $age <= $CAPACITY_PROOF_AGE" || return 1
	ktap_info "capacity: cubic x$p_flows $p_g Mbit/s through $p_rate Mbit/s ${CAPACITY_RTT} ms, measured ${age} s ago"
	ktap_pass "$(_capacity_desc "$rate" "$CAPACITY_FLOWS" before)"
}

# capacity_recheck RATE_MBIT: after the scenarios, prove the host stayed
# quiet while they ran (one measurement, no retries: it is too late to wait)
capacity_recheck()
{
	CAPACITY_TRIES=1 CAPACITY_WAIT=0 capacity_check "$1" "$CAPACITY_FLOWS" after
}

# --------------------------------------------------------------- table ---

# table_row COLUMNS...: one row of the results table, as a TAP comment
table_row()
{
	local fmt="" c

	for c in "$@"; do
		fmt+="%-12s "
	done
	# shellcheck disable=SC2059 # the format is built above
	ktap_info "$(printf "$fmt" "$@")"
}
