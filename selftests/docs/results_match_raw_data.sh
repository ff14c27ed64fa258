#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every measured number README.md and Documentation/ show is what
# Documentation/results/gen-results.py computes from the raw data committed
# in the repository: runs the command Documentation/results/index.rst shows
# (gen-results.py --check), which fails when a committed table differs from
# the raw data, names a region it does not know, or leaves one unshown.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
cmds=$(python3 Documentation/doc-commands.py commands results-regenerate)
[ -n "$cmds" ] || { echo "no command tagged results-regenerate"; exit 1; }
while IFS= read -r cmd; do
	echo "\$ $cmd"
	bash -c "$cmd"
done <<<"$cmds"
