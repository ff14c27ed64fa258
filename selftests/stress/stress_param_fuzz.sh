#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz every tcp_bbr2 parameter through sysfs (stress/paramfuzz.py fuzz):
# random bytes, empty, out of range, huge, negative, junk, arrays of wrong
# length.  Each rejected write must fail with EINVAL and change no
# parameter; each accepted one must read back in range.  The kernel log
# must stay clean (the module's own "rejected" warnings are ratelimited
# pr_warn lines, not complaints).
source "$(dirname "$0")/../net/lib.sh"

STRESS_DIR=$(cd "$(dirname "$0")" && pwd)
PER_PARAM=$([ "${PROFILE:-short}" = full ] && echo 2000 || echo 200)

require_root
require_cmds python3 modinfo
ktap_header
cc_available "$BBR2_CC" || ktap_skip_all "$(cc_skip_reason "$BBR2_CC")"
if [ -z "${BBR2_KO:-}" ] || [ ! -f "$BBR2_KO" ]; then
	ktap_skip_all "BBR2_KO not set (ranges come from modinfo)"
fi
dmesg_mark

seed=${FUZZ_SEED:-$RANDOM}
python3 "$STRESS_DIR/paramfuzz.py" fuzz --ko "$BBR2_KO" --per-param "$PER_PARAM" --seed "$seed" \
	>"$TEST_OUT/fuzz.json" 2>"$TEST_OUT/fuzz.err"
rc=$?
ktap_info "$(head -c 1500 "$TEST_OUT/fuzz.json") $(tail -n 3 "$TEST_OUT/fuzz.err")"
read -r params _ rejected accepted bad noeinval norange < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["params"], d["writes"], d["rejected"], d["accepted"], len(d["bad"]),
      d["not_einval"], len(d["no_range"]))' "$TEST_OUT/fuzz.json" 2>/dev/null)
nsys=$(find "/sys/module/$BBR2_MODULE/parameters" -mindepth 1 | wc -l)
ktap_result "every parameter in sysfs fuzzed (${params:-0} of $nsys, ${norange:-?} without a documented range)" \
	test "${params:-0}" -eq "$nsys" -a "$nsys" -gt 0 -a "${norange:-1}" -eq 0
ktap_result "rejected writes fail with EINVAL and change nothing (${rejected:-0} rejected, ${noeinval:-?} other errors)" \
	test "$rc" -eq 0 -a "${rejected:-0}" -gt 0 -a "${noeinval:-1}" -eq 0 -a "${bad:-1}" -eq 0
ktap_result "accepted writes read back in range (${accepted:-0} accepted)" \
	test "${accepted:-0}" -gt 0 -a "${bad:-1}" -eq 0
ktap_info "reproduce with FUZZ_SEED=$seed"
dmesg_check
ktap_finished
