#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bbr2-lab end to end on this machine: one tiny job (tools/tests/
# smoke.toml: a bbr2 and a cubic flow, 5 s), then its report.  Asserts the
# raw data (iperf3 JSON per flow group, ss samples as CSV), the summary
# table (a row per CC with a non-zero throughput) and the plots (PNG files
# with data) are there.

source "$(dirname "$0")/../net/lib.sh"

REPO=$(cd "$NET_DIR/../.." && pwd)
LAB=$REPO/tools/bbr2-lab
OUT=$TEST_OUT/lab

require_root
require_cmds ip tc iperf3 /usr/bin/python3
cc_available bbr2 || ktap_skip_all "$(cc_skip_reason bbr2)"
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
	ktap_skip_all "python3-matplotlib missing (run selftests/runner/setup-deps.sh)"
ktap_header
dmesg_mark

rm -rf "$OUT"
ktap_result "bbr2-lab run smoke.toml" \
	"$LAB" run --where here --no-capacity-check --out "$OUT" \
	"$REPO/tools/tests/smoke.toml"
idir=$OUT/smoke/base/iter-1
ktap_info "$(tail -n 5 "$idir/point.log" 2>/dev/null)"
ktap_result "raw data: iperf3 JSON of both flow groups" \
	test -s "$idir/flows-1.json" -a -s "$idir/flows-2.json"
n=$(grep -c ',bbr2,\|,cubic,' "$idir/ss.csv" 2>/dev/null)
ktap_info "ss.csv: ${n:-0} samples of bbr2/cubic sockets"
check "raw data: ss samples as CSV" "${n:-0} >= 4"

ktap_result "bbr2-lab report" "$LAB" report --formats png "$OUT" >/dev/null
ktap_info "$(grep -E '^\| (point|base)' "$OUT/summary.md")"
for cc in bbr2 cubic; do
	mbps=$(awk -F, -v cc="$cc" '$3 == cc { print $5 }' "$OUT/summary.csv")
	check "summary: $cc throughput > 0" "${mbps:-0} > 0"
done
npng=$(find "$OUT/plots" -name '*.png' -size +5k 2>/dev/null | wc -l)
check "plots: time series and RTT CDF written" "$npng >= 2"

dmesg_check
ktap_finished
