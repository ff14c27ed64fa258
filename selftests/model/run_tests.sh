#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run model test binaries, kselftest style: each test's TAP output is
# shown indented under "# ", then one "ok N selftests: model: NAME" line.
# The last line counts the individual test cases of all programs:
#	N passed, N failed, N skipped
# A failing case marked "# TODO" (a known bug) counts as skipped.
# A program that exits abnormally (crash, sanitizer report, wrong plan)
# without reporting a failed case counts as one failure.
# Exit status: 0 if nothing failed, 1 otherwise.
#
# --expect-fail: the programs run against a deliberately broken module; each
# one must report at least one failure (or die). The closing line then
# counts programs: passed = failed as expected, failed = passed wrongly.

TIMEOUT=${MODEL_TEST_TIMEOUT:-600}
expect_fail=0
if [ "${1:-}" = "--expect-fail" ]; then
	expect_fail=1
	shift
fi
pass=0 fail=0 skip=0 n=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

echo "TAP version 13"
echo "1..$#"
for bin in "$@"; do
	n=$((n + 1))
	name=$(basename "$bin")
	echo "# selftests: model: $name"
	if [ ! -x "$bin" ]; then
		echo "# $name: not built (see the compiler errors above)"
		echo "not ok $n selftests: model: $name # build failed"
		fail=$((fail + 1))
		continue
	fi
	start=$(date +%s.%N)
	timeout "$TIMEOUT" "$bin" >"$tmp" 2>&1
	rc=$?
	end=$(date +%s.%N)
	sed 's/^/# /' "$tmp"
	p=$(grep -c '^ok ' "$tmp" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$tmp" | tr -d ' ')
	f=$(grep -c '^not ok ' "$tmp" | tr -d ' ')
	todo=$(grep -c '^not ok .*# TODO' "$tmp" | tr -d ' ')
	p=$((p - s))
	f=$((f - todo)) s=$((s + todo))	# known bugs: reported, not failing
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "# $name exited with status $rc"
	fi
	secs=$(awk "BEGIN { printf \"%.2f\", $end - $start }")
	if [ "$expect_fail" -eq 1 ]; then
		if [ "$rc" -eq 4 ] && [ "$f" -eq 0 ]; then
			skip=$((skip + 1))
			echo "ok $n selftests: model: $name # SKIP"
		elif [ "$f" -ne 0 ]; then
			pass=$((pass + 1))
			echo "ok $n selftests: model: $name fails against the broken module ($f failures)"
		else
			fail=$((fail + 1))
			echo "not ok $n selftests: model: $name passes against the broken module"
		fi
		continue
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" -ne 0 ]; then
		echo "not ok $n selftests: model: $name # ${secs}s"
	elif [ "$rc" -eq 4 ]; then
		echo "ok $n selftests: model: $name # SKIP"
	else
		echo "ok $n selftests: model: $name # ${secs}s"
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
