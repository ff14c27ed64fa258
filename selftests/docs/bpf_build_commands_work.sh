#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The admin guide's build commands for bbr2_bpf (doc-test tag host-bpf),
# taken from the page and run in the top of the tree as shown, installing
# under a temporary DESTDIR: the installed bbr2-bpf must be there, carry
# the BPF object, and refuse a bad tunable before touching the kernel.
# Quick tier; needs the packages of selftests/runner/setup-deps.sh, not root.

source "$(dirname "$0")/../net/lib.sh"

REPO=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$REPO/Documentation/doc-commands.py
tmp=$(mktemp -d)
# shellcheck disable=SC2317 # called from the exit trap
cleanup() { rm -rf "$tmp"; }
on_exit cleanup

require_cmds clang bpftool make python3
ktap_header

export DESTDIR=$tmp
cmds=$(python3 "$DOC" commands host-bpf) || { ktap_fail "host-bpf commands from the page"; ktap_finished; }
while IFS= read -r cmd; do
	if (cd "$REPO" && bash -c "$cmd") >"$TEST_OUT/build.log" 2>&1; then
		ktap_pass "'$cmd'"
	else
		ktap_info "$(tail -n 20 "$TEST_OUT/build.log")"
		ktap_fail "'$cmd'"
	fi
done <<<"$cmds"

bin=$tmp/usr/local/sbin/bbr2-bpf
ktap_result "bbr2-bpf installed" test -x "$bin"
ktap_result "the BPF object is inside it (struct_ops bbr2_bpf)" \
	grep -qa "struct_ops/bbr2_bpf_cong_control" "$bin"
"$bin" --pin "$tmp/none" load loss_thresh=4096 >"$TEST_OUT/bad.out" 2>&1
rc=$?
ktap_result "a bad tunable is refused before loading (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -q 'loss_thresh=4096: Invalid argument (range 1..255)' '$TEST_OUT/bad.out'"
ktap_finished
