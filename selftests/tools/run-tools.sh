#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tools/ tests that need a kernel with tcp_bbr2 loaded: run as root in
# the test VM (make -C selftests vm-tools) or on a DTN.  Loads BBR2_KO,
# runs each selftests/tools/*.sh test (KTAP) and prints one "ok N name" per
# test and "N passed, N failed, N skipped" at the end.
set -uo pipefail
export LC_ALL=C

TOOLS_TESTS=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$TOOLS_TESTS/../.." && pwd)
RESULTS_DIR=${RESULTS_DIR:-/tmp/bbr2-tools-tests}
export RESULTS_DIR
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
TESTS=${TESTS:-"bpftrace_scripts_show_transitions bbr2_lab_smoke_run"}

[ "$(id -u)" -eq 0 ] || { echo "run-tools.sh: must run as root" >&2; exit 4; }
mkdir -p "$RESULTS_DIR"
for m in tcp_bbr sch_netem sch_tbf sch_fq veth; do
	modprobe "$m" 2>/dev/null
done
BBR2_KO=${BBR2_KO:-$REPO/tcp_bbr2.ko}
if [ ! -d /sys/module/tcp_bbr2 ] && ! insmod "$BBR2_KO"; then
	echo "# insmod $BBR2_KO failed: bbr2 tests will skip"
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

echo "TAP version 13"
# shellcheck disable=SC2086 # a list of test names
set -- $TESTS
echo "1..$#"
nr=0 pass=0 fail=0 skip=0
for t in "$@"; do
	nr=$((nr + 1))
	mkdir -p "$RESULTS_DIR/$t"
	start=$(date +%s)
	TEST_NAME=$t timeout -k 10 "$TEST_TIMEOUT" "$TOOLS_TESTS/$t.sh" \
		2>"$RESULTS_DIR/$t/stderr.log" | tee "$RESULTS_DIR/$t/tap.log" | sed -u 's/^/  /'
	rc=${PIPESTATUS[0]}
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) echo "ok $nr $t (${secs}s)"; pass=$((pass + 1)) ;;
	4) echo "ok $nr $t # SKIP"; skip=$((skip + 1)) ;;
	*) echo "not ok $nr $t # exit=$rc (${secs}s)"; fail=$((fail + 1)) ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
