#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tcp_bbr2 stress, fault and bad-input suite.  Runs as root inside the
# test VM (make -C selftests vm-stress) or on a host that loads modules.
#
#   PROFILE=short|full      short: sized for CI; full: minutes of load, every
#                           fault in IPv4 and IPv6
#   BBR2_KO=/path/tcp_bbr2.ko  (default ../../tcp_bbr2.ko)
#   TESTS="a b"             only these (names of stress/*.sh)
#   RESULTS_DIR=dir, TEST_TIMEOUT=secs per test
#
# Output: nested KTAP, one subtest per script, like run-suite.sh; exit 0
# only if nothing failed.
set -uo pipefail
export LC_ALL=C

STRESS=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$STRESS/../.." && pwd)
# shellcheck source=../runner/runner-lib.sh
source "$STRESS/../runner/runner-lib.sh"
export PROFILE=${PROFILE:-short}
RESULTS_DIR=${RESULTS_DIR:-$STRESS/../results/stress-$(date +%Y%m%d-%H%M%S)}
export RESULTS_DIR
TEST_TIMEOUT=${TEST_TIMEOUT:-$([ "$PROFILE" = full ] && echo 1800 || echo 400)}
TESTS=${TESTS:-"stress_param_fuzz stress_load stress_hostile_params stress_faults"}

if [ "$(id -u)" -ne 0 ]; then
	echo "run-stress.sh: must run as root" >&2
	exit 4
fi
mkdir -p "$RESULTS_DIR"
echo "TAP version 13"
echo "# tcp_bbr2 stress suite, profile $PROFILE, on $(uname -r) ($(nproc) cpus, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB)"
for m in tcp_bbr sch_netem sch_tbf sch_fq veth; do
	modprobe "$m" 2>/dev/null || echo "# modprobe $m failed"
done
BBR2_KO=${BBR2_KO:-$REPO/tcp_bbr2.ko}
export BBR2_KO
runner_load_module "$BBR2_KO"
echo "# taint: $(cat /proc/sys/kernel/tainted)"

# shellcheck disable=SC2086 # word list
set -- $TESTS
echo "1..$#"
nr=0 failed=0 start_all=$(date +%s)
for t in "$@"; do
	t=${t%.sh}
	nr=$((nr + 1))
	runner_run_test "$nr" "$t" "$STRESS/$t.sh" || failed=1
done
dmesg >"$RESULTS_DIR/dmesg.log" 2>/dev/null
echo "# stress suite: $(( $(date +%s) - start_all ))s, taint at end: $(cat /proc/sys/kernel/tainted)"
exit "$failed"
