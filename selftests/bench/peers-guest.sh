#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of the peer benchmark (vm-bench-peers.sh): runs inside one
# booted kernel (the Debian kernel through vm-run, or a peer kernel such as
# Google's BBRv3 from the initramfs vm-bench-peers.sh builds), measures every
# scenario with every congestion control of CCS on the dumbbell of
# ../net/lib.sh, and writes the numbers, one per line, to
# $RESULTS_DIR/raw.tsv:
#
#   <scenario> TAB <cc spec> TAB <metric> TAB <value>
#
# plus the raw material (iperf3 JSON, ping logs, TCP_INFO/TCP_CC_INFO samples,
# bbr2 tracepoint logs) under $RESULTS_DIR/bench-peers/.  It asserts nothing:
# the host compares kernels and CCs.
#
# Environment:
#   CCS        congestion control specs, "name[:param=value...]": the params
#              are written to /sys/module/tcp_<name>/parameters/ (tcp_bbr2's
#              for bbr2_ref) for that run and every parameter of the module
#              is restored afterwards (e.g. "bbr2_ref bbr2 bbr2:version=2
#              bbr cubic")
#   SCENARIOS  subset of: deep16 late2 loss0 loss1 loss3 flows16 vscubic1
#              vscubic2 tiny1 tiny3 nosack01 nosack1 ecn ecn2 vscubic8q
#              vscubic8 transperf4
#   CCINFO     path of the static ccinfo sampler (TCP_INFO + TCP_CC_INFO)
#   BBR2_KO    tcp_bbr2.ko to insmod when a spec needs bbr2
#   BENCH_SECS flow length (20; the late-flow scenario runs twice as long)
#   BENCH_RTT  base RTT, ms (40)
#   BENCH_RATE bottleneck rate, Mbit/s (50)
#   TRACE      scenarios whose flows are sampled and traced (deep16 late2;
#              a flows16 trace is 16 flows' worth of tracepoints)
#
# Every scenario: RATE 50 Mbit/s (BENCH_RATE), RTT 40 ms (BENCH_RTT), fq at
# the sender (lib.sh); tiny1 and tiny3 run a 10 Mbit/s x 10 ms path
# (TINY_RATE, TINY_RTT) whatever BENCH_RATE and BENCH_RTT say.

# shellcheck disable=SC2317 # the scenarios are called as sc_$name
export TEST_NAME=bench-peers
source "$(dirname "$0")/../net/lib.sh"

RATE=${BENCH_RATE:-50}
RTT=${BENCH_RTT:-40}
SECS=${BENCH_SECS:-20}
LATE=3				# s, start of the second flow in late2
WARMUP=5			# s of each flow left out of ping statistics
EARLY_FROM=1			# s, the window after STARTUP that deep16's
EARLY_TO=5			# early queueing delay covers
TINY_RATE=10			# Mbit/s, tiny1/tiny3
TINY_RTT=10			# ms, tiny1/tiny3
TP_FLOWS=2			# transperf4: flows per sender address
TP_SND_IP1=10.0.1.1		# transperf4: the two senders' addresses (lib.sh
TP_SND_IP2=10.0.1.3		# gives s0 the first)
ALL_SCENARIOS="deep16 late2 loss0 loss1 loss3 flows16 vscubic1 vscubic2 \
tiny1 tiny3 nosack01 nosack1 ecn ecn2 vscubic8q vscubic8 transperf4"
SCENARIOS=${SCENARIOS:-$ALL_SCENARIOS}
CCS=${CCS:-"bbr2 bbr cubic"}
CCINFO=${CCINFO:-}
TRACE=${TRACE:-"deep16 late2"}
RAW=$RESULTS_DIR/raw.tsv
TRACEFS=/sys/kernel/tracing

say() { echo "# $*"; }

# record SCENARIO SPEC METRIC VALUE
record()
{
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$RAW"
	say "  $1 $2 $3=$4"
}

# ---------------------------------------------------- module parameters ---

_saved_params=()
_saved_dir=""

# spec_cc SPEC: the congestion control name of a spec
spec_cc() { echo "${1%%:*}"; }

# spec_module SPEC: the module whose parameters a spec sets: tcp_bbr2 for
# both of its names (bbr2, and bbr2_ref, the reference column: Google's
# model exactly), tcp_NAME for the others
spec_module()
{
	case $(spec_cc "$1") in
	"$BBR2_CC" | bbr2_ref) echo tcp_bbr2 ;;
	*) echo "tcp_$(spec_cc "$1")" ;;
	esac
}

# is_bbr2_spec SPEC: does the spec run one of tcp_bbr2's names
is_bbr2_spec() { [ "$(spec_module "$1")" = tcp_bbr2 ]; }

# spec_apply SPEC: remember every parameter of the CC's module, then set the
# spec's; version (which loads a whole set of constants) is written first
spec_apply()
{
	local spec=$1 dir p kv params

	_saved_params=()
	_saved_dir=""
	[[ "$spec" == *:* ]] || return 0
	dir=/sys/module/$(spec_module "$spec")/parameters
	[ -d "$dir" ] || { say "$spec: no $dir"; return 1; }
	_saved_dir=$dir
	for p in "$dir"/*; do
		[ -w "$p" ] && _saved_params+=("${p##*/}=$(cat "$p")")
	done
	IFS=: read -r -a params <<<"${spec#*:}"
	for kv in "${params[@]}"; do
		[ "${kv%%=*}" = version ] && { echo "${kv#*=}" >"$dir/version" || return 1; }
	done
	for kv in "${params[@]}"; do
		[ "${kv%%=*}" = version ] && continue
		echo "${kv#*=}" >"$dir/${kv%%=*}" || { say "$spec: cannot set $kv"; return 1; }
	done
	return 0
}

spec_restore()
{
	local kv

	[ -n "$_saved_dir" ] || return 0
	for kv in "${_saved_params[@]}"; do
		[ "${kv%%=*}" = version ] && echo "${kv#*=}" >"$_saved_dir/version"
	done
	for kv in "${_saved_params[@]}"; do
		[ "${kv%%=*}" = version ] && continue
		echo "${kv#*=}" >"$_saved_dir/${kv%%=*}" 2>/dev/null
	done
	_saved_dir=""
	return 0
}

# spec_file SPEC: the spec as a file name part
spec_file() { echo "${1//[:=,]/_}"; }

# ------------------------------------------------------------- samplers ---

_ccinfo_pid=""
_trace_on=0
_trace_ready=0

# trace_setup: enable bbr2's tracepoints once, before any measurement.
# Turning an event on or off patches kernel text (static keys, int3); a
# TCG guest with 2 vCPUs once took an "Oops: int3" right after such a
# switch, so it happens once per boot, and every bbr2 run of every scenario
# runs with the events on.
trace_setup()
{
	[ -d "$TRACEFS/events/bbr2" ] || return 0
	echo 16384 >"$TRACEFS/buffer_size_kb" 2>/dev/null
	echo 1 >"$TRACEFS/events/bbr2/enable" || return 0
	echo 0 >"$TRACEFS/tracing_on"
	: >"$TRACEFS/trace"
	_trace_ready=1
}

# trace_start SPEC NAME / trace_stop: the CC's state over the flow.  The
# ccinfo sampler reads TCP_INFO and TCP_CC_INFO (52 bytes with BBRv3's
# mode, phase, inflight_lo/hi, bw_lo/hi) every 100 ms from iperf3's
# sockets; for bbr2 the module's tracepoint log of the flow is kept too.
trace_start()
{
	local spec=$1 name=$2 base

	[[ " $TRACE " == *" $name "* ]] || return 0
	base=$TEST_OUT/$name-$(spec_file "$spec")
	if [ -n "$CCINFO" ] && [ -x "$CCINFO" ]; then
		"$CCINFO" "$RCV_IP" 100 "$base.ccinfo" </dev/null >/dev/null 2>&1 &
		_ccinfo_pid=$!
		bg_track "$_ccinfo_pid"
	fi
	if is_bbr2_spec "$spec" && [ "$_trace_ready" = 1 ]; then
		: >"$TRACEFS/trace"
		echo 1 >"$TRACEFS/tracing_on"
		# ties the trace clock to the epoch the other samples use
		echo "bench-peers epoch $EPOCHREALTIME" >"$TRACEFS/trace_marker"
		_trace_on=1
	fi
}

trace_stop()
{
	local spec=$1 name=$2

	if [ -n "$_ccinfo_pid" ]; then
		kill "$_ccinfo_pid" 2>/dev/null
		wait "$_ccinfo_pid" 2>/dev/null
		_ccinfo_pid=""
	fi
	if [ "$_trace_on" = 1 ]; then
		echo 0 >"$TRACEFS/tracing_on"
		cp "$TRACEFS/trace" "$TEST_OUT/$name-$(spec_file "$spec").trace"
		: >"$TRACEFS/trace"
		_trace_on=0
	fi
	return 0
}

# ------------------------------------------------------------ scenarios ---

# iperf_failed OUT: say why an iperf3 run failed
iperf_failed()
{
	say "iperf3 failed: $(head -c 300 "$1.err" "$1" 2>/dev/null | tr '\n' ' ')"
}

# ping_stats LOG T0 BASE: "median_ms p95_ms n" of ping RTTs (iputils ping
# -D) sent WARMUP s or more after T0, minus BASE
ping_stats()
{
	awk -v t0="$2" -v warm="$WARMUP" -v base="$3" '
		/time=/ {
			t = substr($1, 2, length($1) - 2)
			if (t + 0 < t0 + warm) next
			for (i = 1; i <= NF; i++)
				if ($i ~ /^time=/) { v[n++] = substr($i, 6) - base }
		}
		END {
			if (!n) { print "-", "-", 0; exit }
			for (i = 0; i < n; i++)		# insertion sort, n ~ 75
				for (j = i; j > 0 && v[j] < v[j - 1]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			m = (n % 2) ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
			p = int(0.95 * n + 0.999999) - 1
			printf "%.2f %.2f %d\n", m, v[p], n
		}' "$1"
}

# ping_window LOG T0 BASE FROM TO: "p95_ms max_ms n" of ping RTTs (iputils
# ping -D) sent in [T0 + FROM, T0 + TO), minus BASE
ping_window()
{
	awk -v t0="$2" -v base="$3" -v from="$4" -v to="$5" '
		/time=/ {
			t = substr($1, 2, length($1) - 2)
			if (t + 0 < t0 + from || t + 0 >= t0 + to) next
			for (i = 1; i <= NF; i++)
				if ($i ~ /^time=/) { v[n++] = substr($i, 6) - base }
		}
		END {
			if (!n) { print "-", "-", 0; exit }
			for (i = 0; i < n; i++)		# insertion sort, n ~ 20
				for (j = i; j > 0 && v[j] < v[j - 1]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			p = int(0.95 * n + 0.999999) - 1
			printf "%.2f %.2f %d\n", v[p], v[n - 1], n
		}' "$1"
}

# base_rtt: the lowest of 5 pings through the idle dumbbell, ms
base_rtt()
{
	in_snd ping -c 5 -i 0.2 "$RCV_IP" |
		awk -F'time=' '/time=/ { split($2, a, " "); if (m == "" || a[1] < m) m = a[1] } END { print m }'
}

# deep16 SPEC: 1 flow, 16-BDP buffer, ping beside it: queueing delay from
# WARMUP s on, and in the seconds right after STARTUP (EARLY_FROM to
# EARLY_TO s)
sc_deep16()
{
	local spec=$1 cc base out plog t0 g p q95 qm n pid e95 emax en

	cc=$(spec_cc "$spec")
	out=$TEST_OUT/deep16-$(spec_file "$spec").json
	plog=$TEST_OUT/deep16-$(spec_file "$spec").ping
	base=$(base_rtt)
	[ -n "$base" ] || { say "deep16: no base RTT"; return 1; }
	record deep16 "$spec" base_rtt_ms "$base"
	trace_start "$spec" deep16
	iperf_server_next || return 1
	t0=$EPOCHREALTIME
	ip netns exec "$NS_SND" ping -D -i 0.2 -w "$SECS" "$RCV_IP" >"$plog" 2>&1 &
	pid=$!
	bg_track "$pid"
	iperf_client "$out" "$cc" "$SECS" "$IPERF_PORT" || { iperf_failed "$out"; trace_stop "$spec" deep16; return 1; }
	wait "$pid"
	trace_stop "$spec" deep16
	read -r g _ p _ < <(iperf_summary "$out")
	read -r qm q95 n < <(ping_stats "$plog" "$t0" "$base")
	read -r e95 emax en < <(ping_window "$plog" "$t0" "$base" "$EARLY_FROM" "$EARLY_TO")
	record deep16 "$spec" goodput_mbit "$g"
	record deep16 "$spec" retrans_pct "$p"
	record deep16 "$spec" qdelay_med_ms "$qm"
	record deep16 "$spec" qdelay_p95_ms "$q95"
	record deep16 "$spec" ping_samples "$n"
	record deep16 "$spec" qdelay_early_p95_ms "$e95"
	record deep16 "$spec" qdelay_early_max_ms "$emax"
	record deep16 "$spec" ping_early_samples "$en"
}

# late2 SPEC: 2 flows, the 2nd LATE s after the 1st, 2*SECS s: Jain over
# the last SECS s
sc_late2()
{
	local spec=$1 cc secs=$((2 * SECS)) p1 p2 t1 t2 pid1 rc1 rc2 off f1 f2
	local o1 o2

	cc=$(spec_cc "$spec")
	o1=$TEST_OUT/late2-$(spec_file "$spec")-1.json
	o2=$TEST_OUT/late2-$(spec_file "$spec")-2.json
	iperf_server_next || return 1
	p1=$IPERF_PORT
	iperf_server_next || return 1
	p2=$IPERF_PORT
	trace_start "$spec" late2
	t1=$EPOCHREALTIME
	iperf_client "$o1" "$cc" "$secs" "$p1" &
	pid1=$!
	sleep "$LATE"
	t2=$EPOCHREALTIME
	iperf_client "$o2" "$cc" "$((secs - LATE))" "$p2"
	rc2=$?
	wait "$pid1"
	rc1=$?
	trace_stop "$spec" late2
	[ "$rc1" -eq 0 ] || { iperf_failed "$o1"; return 1; }
	[ "$rc2" -eq 0 ] || { iperf_failed "$o2"; return 1; }
	off=$(fcalc "$t2 - $t1")
	f1=$($NETTOOL iperf-window "$o1" "$((secs - SECS))" "$secs" 0)
	f2=$($NETTOOL iperf-window "$o2" "$((secs - SECS))" "$secs" "$off")
	record late2 "$spec" flow1_mbit "$f1"
	record late2 "$spec" flow2_mbit "$f2"
	record late2 "$spec" sum_mbit "$(fcalc "$f1 + $f2")"
	record late2 "$spec" jain "$(jain "$f1" "$f2")"
}

# one_flow NAME SPEC [iperf3 args]: goodput and retransmits of one run
one_flow()
{
	local name=$1 spec=$2 out g p

	shift 2
	out=$TEST_OUT/$name-$(spec_file "$spec").json
	trace_start "$spec" "$name"
	iperf_flow "$out" "$(spec_cc "$spec")" "$SECS" "$@" || { iperf_failed "$out"; trace_stop "$spec" "$name"; return 1; }
	trace_stop "$spec" "$name"
	read -r g _ p _ < <(iperf_summary "$out")
	record "$name" "$spec" goodput_mbit "$g"
	record "$name" "$spec" retrans_pct "$p"
}

sc_loss0() { one_flow loss0 "$1"; }
sc_loss1() { one_flow loss1 "$1"; }
sc_loss3() { one_flow loss3 "$1"; }
sc_flows16() { one_flow flows16 "$1" -P 16; }

# vscubic NAME SPEC [N]: N flows of SPEC (1) against N cubic flows
sc_vscubic()
{
	local name=$1 spec=$2 n=${3:-1} cc p1 p2 pid rc1 rc2 a b o1 o2

	cc=$(spec_cc "$spec")
	[ "$cc" = cubic ] && return 0
	o1=$TEST_OUT/$name-$(spec_file "$spec").json
	o2=$TEST_OUT/$name-$(spec_file "$spec")-cubic.json
	iperf_server_next || return 1
	p1=$IPERF_PORT
	iperf_server_next || return 1
	p2=$IPERF_PORT
	trace_start "$spec" "$name"
	iperf_client "$o1" "$cc" "$SECS" "$p1" -P "$n" &
	pid=$!
	iperf_client "$o2" cubic "$SECS" "$p2" -P "$n"
	rc2=$?
	wait "$pid"
	rc1=$?
	trace_stop "$spec" "$name"
	[ "$rc1" -eq 0 ] || { iperf_failed "$o1"; return 1; }
	[ "$rc2" -eq 0 ] || { iperf_failed "$o2"; return 1; }
	read -r a _ < <(iperf_summary "$o1")
	read -r b _ < <(iperf_summary "$o2")
	record "$name" "$spec" goodput_mbit "$a"
	record "$name" "$spec" cubic_mbit "$b"
	record "$name" "$spec" share "$(awk "BEGIN { printf \"%.3f\", $a / ($a + $b + 1e-9) }")"
}

sc_vscubic1() { sc_vscubic vscubic1 "$1"; }
sc_vscubic2() { sc_vscubic vscubic2 "$1"; }
sc_vscubic8q() { sc_vscubic vscubic8q "$1" 8; }
sc_vscubic8() { sc_vscubic vscubic8 "$1" 8; }

sc_tiny1() { one_flow tiny1 "$1"; }
sc_tiny3() { one_flow tiny3 "$1"; }

# nosack NAME SPEC: one flow to a receiver that does not offer SACK
sc_nosack()
{
	one_flow "$1" "$2" || return 1
	record "$1" "$2" rcv_tcp_sack "$(in_rcv cat /proc/sys/net/ipv4/tcp_sack)"
}

sc_nosack01() { sc_nosack nosack01 "$1"; }
sc_nosack1() { sc_nosack nosack1 "$1"; }

# ce_marks: CE marks the bottleneck's qdiscs made so far
ce_marks()
{
	bottleneck_stats |
		awk '{ for (i = 1; i < NF; i++) if ($i == "ce_mark" || $i == "marked") s += $(i + 1) } END { print s + 0 }'
}

# ecn_run NAME SPEC FLOWS: FLOWS flows of SPEC (one iperf3 client) through
# the CE-marking bottleneck: goodput, queueing delay from WARMUP s on, CE
# marks, and for several flows Jain over them.  The queueing delay is the
# flows' own smoothed RTT (ccinfo's samples every 100 ms) less the base
# RTT: fq_codel queues each flow apart, so a ping beside them would see
# an empty queue of its own.
ecn_run()
{
	local name=$1 spec=$2 flows=$3 cc base out samples t0 cpid rc g p qm q95 n m0 m1

	cc=$(spec_cc "$spec")
	if [ -z "$CCINFO" ] || [ ! -x "$CCINFO" ]; then
		say "$name: needs CCINFO"
		return 1
	fi
	out=$TEST_OUT/$name-$(spec_file "$spec").json
	samples=$TEST_OUT/$name-$(spec_file "$spec").srtt
	base=$(base_rtt)
	[ -n "$base" ] || { say "$name: no base RTT"; return 1; }
	m0=$(ce_marks)
	trace_start "$spec" "$name"
	iperf_server_next || return 1
	"$CCINFO" "$RCV_IP" 100 "$samples" </dev/null >/dev/null 2>&1 &
	cpid=$!
	bg_track "$cpid"
	t0=$EPOCHREALTIME
	iperf_client "$out" "$cc" "$SECS" "$IPERF_PORT" -P "$flows"
	rc=$?
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	trace_stop "$spec" "$name"
	[ "$rc" -eq 0 ] || { iperf_failed "$out"; return 1; }
	m1=$(ce_marks)
	read -r g _ p _ < <(iperf_summary "$out")
	read -r qm q95 n < <(python3 "$(dirname "$0")/persec.py" --qdelay "$samples" "$t0" "$WARMUP" "$base")
	record "$name" "$spec" base_rtt_ms "$base"
	record "$name" "$spec" goodput_mbit "$g"
	record "$name" "$spec" retrans_pct "$p"
	record "$name" "$spec" qdelay_med_ms "$qm"
	record "$name" "$spec" qdelay_p95_ms "$q95"
	record "$name" "$spec" srtt_samples "$n"
	record "$name" "$spec" ce_marks "$((m1 - m0))"
	# shellcheck disable=SC2046 # one argument per stream
	[ "$flows" -gt 1 ] && record "$name" "$spec" jain \
		"$($NETTOOL jain $($NETTOOL iperf-streams "$out" | awk '{ print $1 }'))"
	return 0
}

sc_ecn() { ecn_run ecn "$1" 1; }
sc_ecn2() { ecn_run ecn2 "$1" 2; }

# transperf4 SPEC: Google transperf's 4-flow scenario: 2 flows from each of
# two senders (here two source addresses of the sender namespace), all
# started together, 3 x SECS s (60).  ccinfo samples every flow's TCP_INFO
# every 100 ms; persec.py turns the samples into per-second goodput
# (bytes_acked), retransmits and smoothed RTTs per flow, which
# peers-report.py scores as transperf does.
sc_transperf4()
{
	local spec=$1 cc secs=$((3 * SECS)) o1 o2 p1 p2 pid cpid rc1 rc2 t0 samples
	local k flow persec retr rmin rmed

	cc=$(spec_cc "$spec")
	if [ -z "$CCINFO" ] || [ ! -x "$CCINFO" ]; then
		say "transperf4: needs CCINFO"
		return 1
	fi
	o1=$TEST_OUT/transperf4-$(spec_file "$spec")-a.json
	o2=$TEST_OUT/transperf4-$(spec_file "$spec")-b.json
	samples=$TEST_OUT/transperf4-$(spec_file "$spec").ccinfo
	iperf_server_next || return 1
	p1=$IPERF_PORT
	iperf_server_next || return 1
	p2=$IPERF_PORT
	"$CCINFO" "$RCV_IP" 100 "$samples" </dev/null >/dev/null 2>&1 &
	cpid=$!
	bg_track "$cpid"
	t0=$EPOCHREALTIME
	iperf_client "$o1" "$cc" "$secs" "$p1" -P "$TP_FLOWS" -B "$TP_SND_IP1" &
	pid=$!
	iperf_client "$o2" "$cc" "$secs" "$p2" -P "$TP_FLOWS" -B "$TP_SND_IP2"
	rc2=$?
	wait "$pid"
	rc1=$?
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	[ "$rc1" -eq 0 ] || { iperf_failed "$o1"; return 1; }
	[ "$rc2" -eq 0 ] || { iperf_failed "$o2"; return 1; }
	record transperf4 "$spec" link_mbit "$RATE"
	record transperf4 "$spec" secs "$secs"
	k=0
	while read -r flow persec retr rmin rmed; do
		k=$((k + 1))
		record transperf4 "$spec" "flow${k}_persec_mbit" "$persec"
		record transperf4 "$spec" "flow${k}_retrans_pct" "$retr"
		record transperf4 "$spec" "flow${k}_srtt_min_ms" "$rmin"
		record transperf4 "$spec" "flow${k}_srtt_med_ms" "$rmed"
		say "  transperf4 $spec flow $k = $flow"
	done < <(python3 "$(dirname "$0")/persec.py" "$samples" "$t0" "$secs")
	record transperf4 "$spec" flows "$k"
}

# scenario_net NAME: the dumbbell of a scenario
scenario_net()
{
	case $1 in
	deep16) dumbbell_setup "$RATE" "$RTT" 0 16 ;;
	late2) dumbbell_setup "$RATE" "$RTT" 0 2 ;;
	loss0) dumbbell_setup "$RATE" "$RTT" 0 1 ;;
	loss1) dumbbell_setup "$RATE" "$RTT" 1 1 ;;
	loss3) dumbbell_setup "$RATE" "$RTT" 3 1 ;;
	flows16) dumbbell_setup "$RATE" "$RTT" 0 0.05 ;;
	vscubic1) dumbbell_setup "$RATE" "$RTT" 0 1 ;;
	vscubic2) dumbbell_setup "$RATE" "$RTT" 0 2 ;;
	vscubic8q) dumbbell_setup "$RATE" "$RTT" 0 0.25 ;;
	vscubic8) dumbbell_setup "$RATE" "$RTT" 0 1 ;;
	tiny1) dumbbell_setup "$TINY_RATE" "$TINY_RTT" 1 1 ;;
	tiny3) dumbbell_setup "$TINY_RATE" "$TINY_RTT" 3 1 ;;
	nosack01 | nosack1)
		dumbbell_setup "$RATE" "$RTT" "$([ "$1" = nosack1 ] && echo 1 || echo 0.1)" 1 &&
			in_rcv sh -c 'echo 0 > /proc/sys/net/ipv4/tcp_sack'
		;;
	# CE marks above DB_CE_THRESHOLD_MS of queue (lib.sh: fq_codel
	# ce_threshold), tcp_ecn=1 at both ends
	ecn | ecn2) DB_ECN=1 dumbbell_setup "$RATE" "$RTT" 0 2 fq_codel ;;
	transperf4)
		dumbbell_setup "$RATE" "$RTT" 0 1 &&
			in_snd ip addr add "$TP_SND_IP2/24" dev s0
		;;
	*) say "unknown scenario $1"; return 1 ;;
	esac
}

# ----------------------------------------------------------------- main ---

require_root
require_cmds ip tc iperf3 python3 ping
mkdir -p "$RESULTS_DIR"
: >"$RAW"
start=$(date +%s)
say "bench-peers guest: $(uname -r), $(nproc) cpus, CCS='$CCS', SCENARIOS='$SCENARIOS'"

if [ -e /proc/modules ]; then
	for m in tcp_bbr tcp_dctcp sch_netem sch_tbf sch_fq sch_fq_codel veth; do
		modprobe "$m" 2>/dev/null
	done
	for spec in $CCS; do
		if is_bbr2_spec "$spec"; then
			# shellcheck source=../runner/runner-lib.sh
			source "$(dirname "$0")/../runner/runner-lib.sh"
			runner_load_module "${BBR2_KO:-}"
			break
		fi
	done
fi
mountpoint -q "$TRACEFS" 2>/dev/null || mount -t tracefs tracefs "$TRACEFS" 2>/dev/null
for spec in $CCS; do
	is_bbr2_spec "$spec" && { trace_setup; break; }
done
say "available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
record meta - kernel "$(uname -r)"
record meta - flow_secs "$SECS"
record meta - rtt_ms "$RTT"
record meta - rate_mbit "$RATE"
record meta - available "$(tr ' ' , </proc/sys/net/ipv4/tcp_available_congestion_control)"

dmesg_mark
# capacity WHEN: the emulator must carry the link: cubic through a clean
# dumbbell, as every behavioural test proves it (lib.sh)
capacity()
{
	local ok=1 last="" f

	if [ "$1" = before ]; then
		capacity_check "$RATE" "$CAPACITY_FLOWS" before || ok=0
	else
		capacity_recheck "$RATE" || ok=0
	fi
	for f in "$TEST_OUT"/capacity-"$1"-*.json; do
		[ -e "$f" ] && last=$f	# the last try's
	done
	[ -n "$last" ] && record meta - "capacity_${1}_mbit" \
		"$($NETTOOL iperf-window "$last" 2 "$CAPACITY_SECS" 0)"
	record meta - "capacity_${1}_ok" "$ok"
}
capacity before

for sc in $SCENARIOS; do
	if [[ " $ALL_SCENARIOS " != *" $sc "* ]]; then
		say "unknown scenario '$sc' (known: $ALL_SCENARIOS)"
		continue
	fi
	t_sc=$(date +%s)
	scenario_net "$sc" || { say "$sc: dumbbell setup failed"; continue; }
	say "$sc: $(dumbbell_describe)"
	for spec in $CCS; do
		cc=$(spec_cc "$spec")
		if ! cc_available "$cc"; then
			say "$sc $spec: $(cc_skip_reason "$cc")"
			continue
		fi
		if ! spec_apply "$spec"; then
			spec_restore
			continue
		fi
		"sc_$sc" "$spec" || say "$sc $spec: FAILED"
		spec_restore
	done
	dumbbell_teardown
	record meta - "secs_$sc" "$(( $(date +%s) - t_sc ))"
done

capacity after
dmesg_check
record meta - kernel_log_clean "${DMESG_CLEAN:-0}"
record meta - secs_total "$(( $(date +%s) - start ))"
say "bench-peers guest done in $(( $(date +%s) - start ))s"
exit 0
