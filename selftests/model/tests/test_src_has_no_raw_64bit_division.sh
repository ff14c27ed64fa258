#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A 32-bit kernel has no __udivdi3/__divdi3: a plain '/' or '%' on a u64 in
# the module fails to link there (use div_u64(), div64_u64(), do_div()).
# Compile each module source with -m32, the shim's division helpers out of
# line, and look for calls to libgcc's 64-bit division routines.
# Run by `make check` with MODEL_CC, MODEL_M32_FLAGS and MODEL_SRCS set.
set -u

CC=${MODEL_CC:-cc}
FLAGS=${MODEL_M32_FLAGS:-}
SRCS=${MODEL_SRCS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libgcc_div='__(u)?(div|mod)di3|__(u)?divmoddi4'

echo "TAP version 13"
if ! printf '#include <stdio.h>\n#include <stdint.h>\n' |
	$CC -m32 -x c -c - -o "$tmp/probe.o" 2>/dev/null; then
	echo "1..1"
	echo "ok 1 - 32-bit build check # SKIP no 32-bit toolchain (apt-get install gcc-multilib)"
	exit 4
fi
set -- $SRCS
echo "1..$(($# + 1))"

# The check itself must be able to fail: a raw u64 division is caught.
printf 'unsigned long long f(unsigned long long a, unsigned b) { return a / b; }\n' \
	>"$tmp/raw.c"
$CC -m32 -O2 -c "$tmp/raw.c" -o "$tmp/raw.o"
if nm "$tmp/raw.o" | grep -Eq "$libgcc_div"; then
	echo "ok 1 - a raw 64-bit division is detected"
else
	echo "not ok 1 - a raw 64-bit division is detected"
fi

n=1 rc=0
for f in "$@"; do
	n=$((n + 1))
	name=$(basename "$f")
	if ! $CC -m32 -O2 -std=gnu11 -DSHIM_DIV64_OUTOFLINE -DKBUILD_MODNAME=\"tcp_bbr2\" $FLAGS -c "$f" \
		-o "$tmp/$name.o" 2>"$tmp/err"; then
		sed 's/^/# /' "$tmp/err"
		echo "not ok $n - $name: builds with -m32"
		rc=1
		continue
	fi
	calls=$(nm "$tmp/$name.o" | grep -E "$libgcc_div" | awk '{print $NF}' | tr '\n' ' ')
	if [ -n "$calls" ]; then
		echo "# $name calls $calls- find the u64 '/' or '%' (objdump -dr)"
		echo "not ok $n - $name: no raw 64-bit division"
		rc=1
	else
		echo "ok $n - $name: no raw 64-bit division"
	fi
done
exit $rc
