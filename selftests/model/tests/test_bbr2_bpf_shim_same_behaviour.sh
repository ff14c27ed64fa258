#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The BPF build of bbr2 (bpf/) compiles src/bbr2_model.c unchanged, with
# bpf/bbr2_bpf_shim.h mapping the kernel helpers it calls onto what a BPF
# congestion control may use.  Compiled for userspace, that mapping must
# make exactly the module build's decisions: the behaviour digest (bbr2's
# whole state, cwnd, ssthresh, pacing rate and app_limited after every
# hook in 25 scenarios, bench/behaviour_digest.c) must be identical.  A
# shim with a wrong 64x32 multiply (BPF_SHIM=mutant) must differ, or the
# comparison proves nothing.  Run by `make check`.
set -u

model=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
echo "1..2"

# digest NAME [MAKE ARGS]: the per-scenario digests of one build
digest() {
	name=$1
	shift
	if ! make -s --no-print-directory -C "$model" "$@" digest \
		>"$tmp/$name" 2>"$tmp/$name.err"; then
		sed 's/^/# /' "$tmp/$name.err"
		return 1
	fi
}

rc=0
if digest module && digest bpf BPF_SHIM=1; then
	scenarios=$(wc -l <"$tmp/module")
	if [ "$scenarios" -ge 20 ] && cmp -s "$tmp/module" "$tmp/bpf"; then
		echo "ok 1 - BPF shim build decides as the module build ($scenarios scenarios, equal digests)"
	else
		diff "$tmp/module" "$tmp/bpf" | sed 's/^/# /'
		echo "not ok 1 - BPF shim build decides as the module build"
		rc=1
	fi
else
	echo "not ok 1 - BPF shim build decides as the module build # build failed"
	rc=1
fi

if digest mutant BPF_SHIM=mutant && [ -s "$tmp/module" ]; then
	differ=$(diff "$tmp/module" "$tmp/mutant" | grep -c '^>')
	if [ "$differ" -gt 0 ]; then
		echo "ok 2 - a wrong shim changes the digest ($differ scenarios differ)"
	else
		echo "not ok 2 - a wrong shim changes the digest"
		rc=1
	fi
else
	echo "not ok 2 - a wrong shim changes the digest # build failed"
	rc=1
fi
exit $rc
