#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# include/compat-probe.sh must never drop a feature because a probe failed
# for a reason other than the API's absence.  -Wunused-parameter (which the
# script turns into an error) breaks probes/min_tso_segs.c, whose op does
# not use its argument, and not probes/baseline.c: the probe of an API the
# headers have then fails, and the script must stop with a message naming
# the probe, not print its flags without -DBBR2_HAVE_MIN_TSO_SEGS.  An API
# a tree lacks is reported on stderr with what the probe looked for.  Run
# against the model's header shim (seconds; the same script runs against a
# kernel tree through kbuild).
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
probe=$top/include/compat-probe.sh
model=$top/selftests/model
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shimflags="-O2 -std=gnu11 -I$model/shim -I$top/include -I$top/src -I$model -Wall"

echo "TAP version 13"
echo "1..3"
n=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# shellcheck disable=SC2086 # one word per flag
sh "$probe" --cc "${MODEL_CC:-cc}" $shimflags >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q -- '-DBBR2_HAVE_MIN_TSO_SEGS' "$tmp/out"
ok $(( rc != 0 || $? != 0 )) "model shim: the probe succeeds and finds min_tso_segs (rc $rc)"
grep -q 'lacks the API it looks for (cwnd_event_tx_start)' "$tmp/err"
ok $? "model shim: an absent API is reported with what the probe looked for"

# shellcheck disable=SC2086 # one word per flag
sh "$probe" --cc "${MODEL_CC:-cc}" $shimflags -Wunused-parameter >"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" | grep min_tso_segs
ok $(( rc == 0 )) "model shim, -Wunused-parameter: the probe fails loudly (rc $rc) instead of dropping min_tso_segs"

