#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# copy-source-tree.sh DEST: copy the source tree into DEST (which exists),
# as the package builders take it.  In a git checkout that is the files git
# tracks, as they are in the work tree (a tracked file deleted in the work
# tree is left out); in an unpacked tarball it is every file but build
# products and test results.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
dest=$1

if [ "$(git -C "$REPO" rev-parse --show-toplevel 2>/dev/null)" = "$REPO" ]; then
	while IFS= read -r -d '' f; do
		if [ -e "$REPO/$f" ] || [ -L "$REPO/$f" ]; then
			printf '%s\0' "$f"
		fi
	done < <(git -C "$REPO" ls-files -z) |
		tar -C "$REPO" --null -T - -cf - | tar -C "$dest" -xf -
else
	tar -C "$REPO" --exclude=./selftests/results --exclude=./bpf/build \
		--exclude='*.o' --exclude='*.ko' --exclude='*.deb' --exclude='*.rpm' \
		-cf - . | tar -C "$dest" -xf -
fi
