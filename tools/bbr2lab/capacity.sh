#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# capacity.sh RATE_MBIT OUT_DIR: print the Mbit/s that 4 cubic flows carry
# through a clean RATE_MBIT dumbbell (selftests/net/lib.sh, 20 ms, 2 BDP,
# first 2 s left out).  bbr2-lab runs it before and after a job list: well
# below RATE means the machine (the emulator's CPU), not the bottleneck
# link, limited the numbers of that run.
set -uo pipefail

LAB_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$LAB_DIR/../.." && pwd)
RATE=${1:?rate}
mkdir -p "${2:?out}"
export RESULTS_DIR=$2 TEST_NAME=capacity
# shellcheck source=../../selftests/net/lib.sh
source "$REPO/selftests/net/lib.sh"

_capacity_measure "$RATE" "$CAPACITY_FLOWS" "$TEST_OUT/capacity.json"
