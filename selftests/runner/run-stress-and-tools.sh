#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stress suite (stress/run-stress.sh), then the tools/ tests
# (tools/run-tools.sh), in one guest: make test's boot for both (make -C
# selftests vm-stress-tools).  STRESS_TESTS and TOOLS_TESTS are each
# runner's TESTS; PROFILE is the stress profile.  In a guest made for the
# admin guide's commands (BBR2_DOC_GUEST=1: make ... DOCS=1), those come
# last (docs/admin_guide_commands_work.sh), as they install the module in
# /lib/modules and change the host's defaults.  Output: each runner's KTAP
# one after the other; exit 0 only if all passed.
set -uo pipefail

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
TESTS=${STRESS_TESTS:-} "$SELFTESTS/stress/run-stress.sh"
stress_rc=$?
TESTS=${TOOLS_TESTS:-} "$SELFTESTS/tools/run-tools.sh"
tools_rc=$?
docs_rc=0
if [ "${BBR2_DOC_GUEST:-0}" = 1 ]; then
	"$SELFTESTS/docs/admin_guide_commands_work.sh"
	docs_rc=$?
fi
[ $stress_rc = 0 ] && [ $tools_rc = 0 ] && [ $docs_rc = 0 ]
