#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tools/ tests that need a kernel with tcp_bbr2 loaded: run as root in
# the test VM (make -C selftests vm-tools) or on a DTN.  Loads BBR2_KO,
# runs each selftests/tools/*.sh test (KTAP) and prints one "ok N name" per
# test and "N passed, N failed, N skipped" at the end.  TESTS="a b" runs a
# subset (make -C selftests vm-tools TESTS=...).
set -uo pipefail
export LC_ALL=C

TOOLS_TESTS=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$TOOLS_TESTS/../.." && pwd)
# shellcheck source=../runner/runner-lib.sh
source "$TOOLS_TESTS/../runner/runner-lib.sh"
RESULTS_DIR=${RESULTS_DIR:-/tmp/bbr2-tools-tests}
export RESULTS_DIR
TEST_TIMEOUT=${TEST_TIMEOUT:-1500}
TESTS=${TESTS:-"bpftrace_scripts_show_transitions bbr2_lab_smoke_run
	bbr2_lab_runs_between_ssh_hosts_and_restores"}

[ "$(id -u)" -eq 0 ] || { echo "run-tools.sh: must run as root" >&2; exit 4; }
mkdir -p "$RESULTS_DIR"
# One matplotlib cache for every bbr2-lab process of the run: without a
# writable one, each process builds its font cache anew (tens of seconds
# under TCG).
export MPLCONFIGDIR=${MPLCONFIGDIR:-$RESULTS_DIR/.matplotlib}
mkdir -p "$MPLCONFIGDIR"
for m in tcp_bbr sch_netem sch_tbf sch_fq veth; do
	modprobe "$m" 2>/dev/null
done
BBR2_KO=${BBR2_KO:-$REPO/tcp_bbr2.ko}
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

echo "TAP version 13"
# shellcheck disable=SC2086 # a list of test names
set -- $TESTS
runner_load_module "$BBR2_KO"
echo "1..$#"
nr=0 pass=0 fail=0 skip=0
for t in "$@"; do
	nr=$((nr + 1))
	runner_run_test "$nr" "$t" "$TOOLS_TESTS/$t.sh"
	case $RUNNER_RESULT in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
