#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse over every module source, as the kernel's `make C=2` runs it
# (address spaces, endianness, context imbalance, undeclared non-static
# symbols...), against the headers of KVER.  Fails on any warning or error
# sparse reports for our files, and if sparse did not check every one of
# them (a check that silently checked nothing must not pass).
#
#   sparse-check.sh KVER
set -uo pipefail

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
KVER=${1:?usage: sparse-check.sh KVER}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v sparse >/dev/null || { echo "sparse-check: sparse missing (apt-get install sparse)"; exit 1; }

# The checker can fail: a non-static symbol without a declaration.
printf 'int bbr2_sparse_canary;\n' >"$tmp/canary.c"
# (its report captured first: sparse's own exit status must not decide)
canary=$(sparse "$tmp/canary.c" 2>&1)
if ! grep -q "was not declared" <<<"$canary"; then
	echo "sparse-check: sparse did not flag the canary; is it working?"
	exit 1
fi

make -C "$REPO" KVER="$KVER" C=2 >"$tmp/build.log" 2>&1
rc=$?
cat "$tmp/build.log"
[ $rc -eq 0 ] || { echo "sparse-check: build failed"; exit 1; }

srcs=("$REPO"/src/*.c)
checked=$(grep -c '^ *CHECK .*/src/.*\.c$' "$tmp/build.log")
if [ "$checked" -ne "${#srcs[@]}" ]; then
	echo "sparse-check: sparse checked $checked of ${#srcs[@]} sources"
	exit 1
fi
complaints=$(grep -E "^$REPO/.*: (warning|error):" "$tmp/build.log")
if [ -n "$complaints" ]; then
	echo "sparse-check: sparse complains:"
	echo "$complaints"
	exit 1
fi
echo "sparse-check: $checked sources checked, no warnings"
