# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the suite runners (run-suite.sh, stress/run-stress.sh,
# tools/run-tools.sh) share: loading the module under test and running one
# test script as a KTAP subtest.  Sourced; the caller sets RESULTS_DIR and
# TEST_TIMEOUT.

# runner_load_module KO: insmod KO unless tcp_bbr2 is loaded already; says
# what happened as KTAP comments.  A failure is not fatal: the tests that
# need bbr2 skip or fail on their own.
runner_load_module()
{
	local ko=$1 vermagic

	if [ -d /sys/module/tcp_bbr2 ]; then
		echo "# tcp_bbr2 already loaded"
		return 0
	fi
	if [ -z "$ko" ] || [ ! -f "$ko" ]; then
		echo "# no tcp_bbr2.ko (BBR2_KO='$ko'): bbr2 parts will be skipped"
		return 1
	fi
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null | awk '{print $1}')
	[ "$vermagic" != "$(uname -r)" ] &&
		echo "# WARNING: $ko built for '$vermagic', running '$(uname -r)'"
	if insmod "$ko"; then
		echo "# insmod $ko: ok"
		return 0
	fi
	echo "# insmod $ko FAILED: bbr2 parts will be skipped"
	dmesg | tail -n 20 | sed 's/^/# /'
	return 1
}

# runner_load_bpf CLI: register bbr2_bpf (the BPF build, bpf/) with its CLI
# unless it is registered already; says what happened as KTAP comments.  A
# failure is not fatal: the tests that need bbr2_bpf skip or fail.
runner_load_bpf()
{
	local cli=$1

	if grep -qw bbr2_bpf /proc/sys/net/ipv4/tcp_available_congestion_control; then
		echo "# bbr2_bpf already registered"
		return 0
	fi
	if [ ! -x "$cli" ]; then
		echo "# no $cli (make bpf): bbr2_bpf parts will be skipped"
		return 1
	fi
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	if "$cli" load | sed 's/^/# /'; then
		return 0
	fi
	echo "# $cli load FAILED: bbr2_bpf parts will be skipped"
	return 1
}

# runner_attempt NAME SCRIPT: run SCRIPT (KTAP on stdout) under
# TEST_TIMEOUT, its output indented as a subtest and kept in
# RESULTS_DIR/NAME/.  Sets RUNNER_RESULT (PASS, SKIP, TIMEOUT or FAIL) and
# RUNNER_SECS; prints no verdict (runner_verdict does).
runner_attempt()
{
	local name=$1 script=$2 start rc

	start=$(date +%s)
	mkdir -p "$RESULTS_DIR/$name"
	TEST_NAME=$name timeout -k 10 "$TEST_TIMEOUT" "$script" \
		2>"$RESULTS_DIR/$name/stderr.log" |
		tee "$RESULTS_DIR/$name/tap.log" | sed -u 's/^/  /'
	rc=${PIPESTATUS[0]}
	RUNNER_SECS=$(( $(date +%s) - start ))
	case $rc in
	0) RUNNER_RESULT=PASS ;;
	4) RUNNER_RESULT=SKIP ;;
	124) RUNNER_RESULT=TIMEOUT ;;
	*) RUNNER_RESULT=FAIL RUNNER_RC=$rc ;;
	esac
}

# runner_verdict NR NAME [NOTE]: the "ok NR NAME" line for the last attempt;
# returns 0 unless it failed
runner_verdict()
{
	local nr=$1 name=$2 note=${3:-}

	case $RUNNER_RESULT in
	PASS) echo "ok $nr $name (${RUNNER_SECS}s${note})" ;;
	SKIP) echo "ok $nr $name # SKIP" ;;
	TIMEOUT) echo "not ok $nr $name # TIMEOUT after ${TEST_TIMEOUT}s${note}" ;;
	*) echo "not ok $nr $name # exit=$RUNNER_RC (${RUNNER_SECS}s${note})" ;;
	esac
	[ "$RUNNER_RESULT" = PASS ] || [ "$RUNNER_RESULT" = SKIP ]
}

# runner_run_test NR NAME SCRIPT: runner_attempt, then its verdict
runner_run_test()
{
	runner_attempt "$2" "$3"
	runner_verdict "$1" "$2"
}
