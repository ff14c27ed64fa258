#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does the working tree's bbr2 behave exactly as git revision REV's?
#
#   selftests/model/bench/behaviour-diff.sh [REV] [MAKE ARGS...]
#
# Builds bench/behaviour_digest.c (this tree's copy) against REV's src/ and
# against the working tree's, runs both, and compares the per-scenario
# digests of bbr2's state after every ACK.  For changes meant to keep
# behaviour bit for bit (optimisation, refactoring); an intended change of
# the algorithm is expected to differ.  On a difference it shows the first
# step where the first differing scenario parts.  REV defaults to main;
# MAKE ARGS (e.g. KVER=7.1) go to both builds.
# Exit status: 0 identical, 1 different, 2 could not build or run.
set -eu

rev=main
if [ $# -gt 0 ]; then
	case $1 in
	*=*) ;;
	*) rev=$1; shift ;;
	esac
fi
model=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$model/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/ref"
git -C "$top" archive "$rev" | tar -x -C "$tmp/ref"
cp "$model/bench/behaviour_digest.c" "$tmp/ref/selftests/model/bench/"

# build NAME MODEL_DIR [MAKE ARGS]: the digest tool of one tree
build() {
	name=$1 dir=$2
	shift 2
	if ! make -s -C "$dir" O="$tmp/$name-build" "$@" \
		"$tmp/$name-build/bench/behaviour_digest" >"$tmp/$name.log" 2>&1; then
		cat "$tmp/$name.log" >&2
		echo "behaviour-diff: cannot build the $name digest" >&2
		exit 2
	fi
}

build ref "$tmp/ref/selftests/model" "$@"
build now "$model" "$@"
"$tmp/ref-build/bench/behaviour_digest" >"$tmp/ref.txt" || exit 2
"$tmp/now-build/bench/behaviour_digest" >"$tmp/now.txt" || exit 2

if cmp -s "$tmp/ref.txt" "$tmp/now.txt"; then
	echo "behaviour identical to $rev in all $(wc -l <"$tmp/ref.txt") scenarios"
	exit 0
fi
diff "$tmp/ref.txt" "$tmp/now.txt" || true
first=$(diff "$tmp/ref.txt" "$tmp/now.txt" | sed -n 's/^< \([^ ]*\) .*/\1/p' | head -n 1)
if [ -n "$first" ]; then
	"$tmp/ref-build/bench/behaviour_digest" -d "$first" >"$tmp/ref.dump"
	"$tmp/now-build/bench/behaviour_digest" -d "$first" >"$tmp/now.dump"
	echo "first difference in $first ($rev, then working tree):"
	diff "$tmp/ref.dump" "$tmp/now.dump" | grep -m 1 '^<' || true
	diff "$tmp/ref.dump" "$tmp/now.dump" | grep -m 1 '^>' || true
fi
exit 1
