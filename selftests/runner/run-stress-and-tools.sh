#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stress suite (stress/run-stress.sh), then the tools/ tests
# (tools/run-tools.sh), in one guest: make test's boot for both (make -C
# selftests vm-stress-tools).  STRESS_TESTS and TOOLS_TESTS are each
# runner's TESTS; PROFILE is the stress profile.  Output: the two runners'
# KTAP one after the other; exit 0 only if both passed.
set -uo pipefail

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
TESTS=${STRESS_TESTS:-} "$SELFTESTS/stress/run-stress.sh"
stress_rc=$?
TESTS=${TOOLS_TESTS:-} "$SELFTESTS/tools/run-tools.sh"
tools_rc=$?
[ $stress_rc = 0 ] && [ $tools_rc = 0 ]
