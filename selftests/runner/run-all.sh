#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every tcp_bbr2 test, in tiers, on a fresh Debian bookworm machine:
#
#   1. setup    the set-up scripts on a stubbed machine with nothing
#               installed (fresh-machine-test.sh), then install the test bed
#               (selftests/runner/setup-deps.sh), then sid-kernel.sh on the
#               stubbed machine (it needs the test bed's depmod), and fetch
#               the kernel's checkpatch and reference CCs (fetch-kernel-source.sh)
#   2. quick    build against the VM kernel's headers with W=1 -Werror,
#               checkpatch --strict, sparse, parameter docs in sync, one
#               version everywhere, tables from raw data, no process
#               text, shellcheck,
#               userspace model tests (plain and under ASan/UBSan)
#               the build matrix (5.10 to 7.x), the packages (make deb and
#               make rpm, lintian, rpmlint; install, new kernel, upgrade and
#               removal in a chroot), DKMS and make install
#   host        bbr2_bpf on this machine's kernel over tools/pathemu, short
#               profile (selftests/hostbench; skipped where the kernel cannot)
#   3. vm       the behavioural suite inside a QEMU VM (selftests/runner/run-suite.sh)
#               on each kernel of VM_KERNELS (default: all of vm/kernels.conf):
#               all of it on FULL_SUITE_ABI, with bbr2_bpf's functional
#               tests in the same boot (BPF_ABI), the functional tests and
#               the loss scenario (SUITE=series) on the others unless
#               VM_SUITE=all, with a table test x kernel; then, on
#               the default kernel, in one boot, the short stress/fault
#               profile, the tools/ tests and the admin guide's commands;
#               last, bbr2_bpf on sid's 7.x
#
# Each stage is a test; the model and VM stages add their own counts.  The
# last line is "total: N passed, N failed, N skipped"; the exit code is 0
# only if nothing failed.  QUICK=1 stops after the quick tier.
set -uo pipefail
export LC_ALL=C

SELFTESTS=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$SELFTESTS/.." && pwd)
# shellcheck source=vm/kernels.conf
source "$SELFTESTS/vm/kernels.conf"
# The behavioural suite's kernels (about 25 minutes for the whole suite
# with bbr2_bpf's functional tests, 7 for SUITE=series): every kernel of
# vm/kernels.conf (6.1, and 6.12, which Google's BBRv3 is compared on),
# KVER alone when one is given, or VM_KERNELS="ABI ..."; the word 7 there
# is Debian sid's newest 7.x kernel (vm/sid-kernel.sh; on demand only).
VM_KERNELS=${VM_KERNELS:-${KVER:-all}}
[ "$VM_KERNELS" = all ] && VM_KERNELS=$KERNEL_ABIS
KVER=${KVER:-${KERNEL_ABIS%% *}}
RESULTS=${RESULTS:-$SELFTESTS/results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$RESULTS"

passed=0 failed=0 skipped=0
declare -a report=() failed_logs=()

stage() {	# stage NAME LOG CMD...: run CMD, log it, count it
	local name=$1 log=$RESULTS/$2.log start rc
	shift 2
	start=$(date +%s)
	echo "== $name"
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1)); report+=("ok      $name ($(( $(date +%s) - start ))s)")
	else
		failed=$((failed + 1)); report+=("FAILED  $name (exit $rc, log $log)")
		failed_logs+=("$log")
		tail -n 25 "$log" | sed 's/^/   | /'
	fi
	return $rc
}

skip() {
	skipped=$((skipped + 1)); report+=("skip    $1 ($2)")
}

# Adds a runner's own "N passed, N failed, N skipped" line to the totals.
add_counts() {
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	[ -n "$line" ] || return 0
	read -r p _ f _ s _ <<<"${line//,/}"
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
}

# Adds a KTAP log's top-level "ok N" / "not ok N" lines to the totals.
add_ktap() {
	passed=$((passed + $(grep -cE '^ok [0-9]+ [^#]*$' "$1")))
	skipped=$((skipped + $(grep -cE '^ok [0-9]+ .*# SKIP' "$1")))
	failed=$((failed + $(grep -cE '^not ok [0-9]+' "$1")))
}

# lane_begin FUNC: run FUNC's stages in the background (their console
# output held back); lane_join waits for it and adds its output, report
# lines and counts to this run's.  The lane is a subshell of its own
# (lane_run): its counts start at zero.
# shellcheck disable=SC2030,SC2031
lane_run() (
	passed=0 failed=0 skipped=0 report=() failed_logs=()
	"$1"
	echo "$passed $failed $skipped" >"$RESULTS/lane.counts"
	printf '%s\n' "${report[@]}" >"$RESULTS/lane.report"
	printf '%s\n' "${failed_logs[@]}" >"$RESULTS/lane.failed"
)

lane_begin() {
	lane_run "$1" >"$RESULTS/lane.out" 2>&1 &
	lane_pid=$!
	lane_name=$1
}

# shellcheck disable=SC2031 # the counts are the lane's, read back
lane_join() {
	local p f s
	wait "$lane_pid"
	cat "$RESULTS/lane.out"
	if ! read -r p f s <"$RESULTS/lane.counts"; then
		failed=$((failed + 1)); report+=("FAILED  $lane_name (ended early, log $RESULTS/lane.out)")
		return
	fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	mapfile -t -O "${#report[@]}" report < <(grep . "$RESULTS/lane.report")
	mapfile -t -O "${#failed_logs[@]}" failed_logs < <(grep . "$RESULTS/lane.failed")
}

# ---- 1. setup
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
# The set-up's "not installed yet" branches, which this machine no longer
# takes once set up (stubs in a private mount namespace; ~20 s).
stage "setup: set-up scripts on a machine with nothing installed" fresh-machine \
	"${sudo[@]}" "$SELFTESTS/runner/fresh-machine-test.sh"
add_counts "$RESULTS/fresh-machine.log"
stage "setup: test bed (setup-deps.sh)" setup-deps "${sudo[@]}" "$SELFTESTS/runner/setup-deps.sh"
# sid-kernel.sh's "not fetched yet" branches: they index modules with the
# host's depmod, which comes with the test bed
stage "setup: sid's 7.x kernel fetched on demand (vm/sid-kernel.sh)" fresh-sid-kernel \
	"${sudo[@]}" "$SELFTESTS/runner/fresh-machine-test.sh" sid-kernel
add_counts "$RESULTS/fresh-sid-kernel.log"
KSRC=$("$SELFTESTS/runner/fetch-kernel-source.sh" 2>"$RESULTS/fetch-ksrc.log") || KSRC=
if [ -n "$KSRC" ]; then
	passed=$((passed + 1)); report+=("ok      setup: kernel source files ($KSRC)")
else
	failed=$((failed + 1)); report+=("FAILED  setup: kernel source files (log $RESULTS/fetch-ksrc.log)")
fi

# ---- 2. quick tier
build_ok=0
stage "quick: build against $KVER headers, W=1 -Werror" build \
	make -C "$REPO" KVER="$KVER" W=1 && build_ok=1
if [ -n "$KSRC" ]; then
	stage "quick: checkpatch --strict" checkpatch \
		perl "$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse \
		--ignore MACRO_ARG_REUSE -f "$REPO"/src/*.[ch] "$REPO"/include/*.h \
		"$REPO"/include/probes/*.c
else
	skip "quick: checkpatch --strict" "no kernel source"
fi
if command -v sparse >/dev/null; then
	stage "quick: sparse (make C=2) against $KVER headers" sparse \
		"$SELFTESTS/build/sparse-check.sh" "$KVER"
else
	skip "quick: sparse (make C=2)" "sparse not installed"
fi
stage "quick: Documentation/parameters.rst matches the source" params-doc \
	python3 "$REPO/Documentation/gen-parameters.py" --check
stage "quick: every command in Documentation/ is run by a test" doc-commands \
	python3 "$REPO/Documentation/doc-commands.py" check
stage "quick: Documentation/*.rst is valid reStructuredText" rst \
	/usr/bin/python3 "$REPO/Documentation/check-rst.py"
stage "quick: one version in the module, dkms.conf, NEWS, packages, docs" version \
	python3 "$SELFTESTS/docs/one_version.py"
stage "quick: README and Documentation tables match the raw data" results \
	"$SELFTESTS/docs/results_match_raw_data.sh"
stage "quick: no development-process text in what ships" process-text \
	python3 "$SELFTESTS/docs/no_process_text.py"
if command -v shellcheck >/dev/null; then
	stage "quick: shellcheck" shellcheck make -C "$SELFTESTS" check
else
	skip "quick: shellcheck" "shellcheck not installed"
fi
# The model tests and then the build matrix (each single-threaded) run in
# a lane of their own, beside the packaging test, whose chroot builds keep
# the other core busy; nothing that measures time or throughput runs until
# the lane has ended.
model_lane() {
	stage "quick: model tests" model make -C "$SELFTESTS/model" check ${KSRC:+KSRC="$KSRC"}
	add_counts "$RESULTS/model.log"
	stage "quick: model tests under ASan+UBSan" model-san \
		make -C "$SELFTESTS/model" check SANITIZE=1
	add_counts "$RESULTS/model-san.log"
	stage "quick: model tests on the 7.1 API (KVER=7.1)" model-7.1 \
		make -C "$SELFTESTS/model" check KVER=7.1
	add_counts "$RESULTS/model-7.1.log"
	# The same tree on every kernel series (the sid chroot's, not the
	# packaging test's bookworm chroot).
	stage "quick: build matrix 5.10 6.1 6.12 7.x, W=1, no warnings" matrix \
		"${sudo[@]}" "$SELFTESTS/build/build-matrix.sh"
	grep -A9 '^series kernel' "$RESULTS/matrix.log" | sed 's/^/   /'
}
lane_begin model_lane

stage "quick: tools unit tests (bbr2-lab statistics, report, plots)" tools-unit \
	/usr/bin/python3 -m unittest discover -s "$REPO/tools/tests"
stage "quick: peer benchmark report unit tests (peers-report.py)" bench-report \
	/usr/bin/python3 -m unittest discover -s "$SELFTESTS/bench" -p 'test_*.py'
stage "quick: test bed unit tests (nettool.py: kernel-log complaints)" net-unit \
	/usr/bin/python3 -m unittest discover -s "$SELFTESTS/net" -p 'test_*.py'
stage "quick: bbr2_bpf: make bpf, the admin guide's build commands" bpf-build \
	"$SELFTESTS/docs/bpf_build_commands_work.sh"
add_ktap "$RESULTS/bpf-build.log"

# DKMS and packages, in a chroot, beside the lane.
stage "quick: packages (deb, rpm), DKMS, make install, signing (chroot)" packaging \
	"${sudo[@]}" "$SELFTESTS/packaging/packaging-test.sh"
add_counts "$RESULTS/packaging.log"
lane_join

stage "quick: tools/pathemu unit tests (ASan+UBSan)" pathemu \
	make -C "$REPO/tools/pathemu" -B check SANITIZE=1
add_counts "$RESULTS/pathemu.log"

# bbr2_bpf on this machine's own kernel (skipped, with the reason, where
# it does not take struct_ops congestion controls: exit 4, its log says why)
host_bpf() {
	"${sudo[@]}" "$SELFTESTS/host/bbr2_bpf_on_host_kernel.sh"
	local rc=$?
	[ $rc = 4 ] && return 0
	return $rc
}
stage "quick: bbr2_bpf on the host's kernel ($(uname -r))" host-bpf host_bpf
add_ktap "$RESULTS/host-bpf.log"

# ---- host tier: bbr2_bpf on this machine's own kernel over tools/pathemu
# (selftests/hostbench/host-bench.sh, PROFILE=short: ~2 minutes; the full
# table is `make host-bench`).  Skipped where the kernel cannot take a BPF
# struct_ops congestion control (< 6.10, no BTF) or has no TUN.
if [ "${QUICK:-0}" = 1 ]; then
	skip "host: bbr2_bpf over pathemu (short profile)" "QUICK=1"
else
	"${sudo[@]}" env PROFILE=short RESULTS="$RESULTS/host-bench" \
		"$SELFTESTS/hostbench/host-bench.sh" >"$RESULTS/host-bench.log" 2>&1
	rc=$?
	if [ $rc = 4 ]; then
		skip "host: bbr2_bpf over pathemu (short profile)" \
			"$(sed -n 's/^1\.\.0 # SKIP //p' "$RESULTS/host-bench.log")"
	else
		[ $rc = 0 ] || failed_logs+=("$RESULTS/host-bench.log")
		grep -E '^# (capacity|1 %|deep)|emulator behind' "$RESULTS/host-bench.log" | sed 's/^/   /'
		add_ktap "$RESULTS/host-bench.log"
	fi
fi

# ---- 3. VM tier
# vm_table ABI...: one row per test, one column per kernel, from each run's
# summary.txt (written by run-suite.sh in the guest)
vm_table() {
	local abi files=() labels=() cached
	for abi in "$@"; do
		files+=("$RESULTS/vm-$abi/summary.txt")
		# "7" (sid's newest 7.x, vm/sid-kernel.sh) by the ABI it booted
		cached=$(readlink "${CACHE:-$HOME/.cache/tcp_bbr2}/kernels/$abi" 2>/dev/null) || cached=
		labels+=("${cached:-$abi}")
	done
	awk -v kernels="${labels[*]}" '
		BEGIN { nk = split(kernels, k, " ") }
		FNR == 1 { f++ }
		{ if (!($1 in seen)) { seen[$1] = 1; order[++nt] = $1 }
		  cell[$1, f] = $2 " " $3 }
		END {
			printf "%-45s", "test"
			for (i = 1; i <= nk; i++) printf " %-22s", k[i]
			printf "\n"
			for (t = 1; t <= nt; t++) {
				printf "%-45s", order[t]
				for (i = 1; i <= nk; i++)
					printf " %-22s", ((order[t], i) in cell) ? cell[order[t], i] : "-"
				printf "\n"
			}
		}' "${files[@]}" 2>/dev/null
}

if [ "${QUICK:-0}" = 1 ]; then
	skip "vm: behavioural suite" "QUICK=1"
elif [ $build_ok = 0 ]; then
	skip "vm: behavioural suite" "module did not build"
else
	bpf_done=0
	for abi in $VM_KERNELS; do
		# the whole suite on FULL_SUITE_ABI, on a kernel asked for
		# alone, or with VM_SUITE=all; the series subset elsewhere
		suite=series what="functional tests and the loss scenario"
		if [ "$abi" = "$FULL_SUITE_ABI" ] || [ "$VM_KERNELS" = "$abi" ] ||
		   [ "${VM_SUITE:-}" = all ]; then
			suite=all what="behavioural suite"
		fi
		# bbr2_bpf's functional tests join the whole suite's boot
		# on BPF_ABI (vm/kernels.conf)
		with_bpf=0
		if [ "${BPF:-1}" = 1 ] && [ "$abi" = "$BPF_ABI" ] && [ $suite = all ]; then
			with_bpf=1 bpf_done=1 what="$what and bbr2_bpf's functional tests"
		fi
		# builds tcp_bbr2.ko for this kernel, then boots it
		stage "vm: $what on $abi" "vm-$abi" \
			make -C "$SELFTESTS" vm-selftest KVER="$abi" SUITE=$suite \
			WITH_BPF=$with_bpf RESULTS="$RESULTS/vm-$abi"
		# one test per top-level TAP line of run-suite.sh
		add_ktap "$RESULTS/vm-$abi.log"
		sed -n '/---- summary/,$p' "$RESULTS/vm-$abi.log"
	done
	# shellcheck disable=SC2086 # one argument per kernel
	vm_table $VM_KERNELS | tee "$RESULTS/vm-table.txt"

	# The rest on the default kernel (the module is rebuilt for it), in
	# one boot: stress, faults, bad input (selftests/stress), CI-sized
	# profile, then tools/ (bpftrace scripts on the tracepoints, bbr2-lab
	# runs), then the admin guide's commands, which change the guest's
	# /etc and /lib/modules (overlays).  STRESS=0 leaves the stress suite
	# out, and the other two run in boots of their own.
	if [ "${STRESS:-1}" = 1 ]; then
		stage "vm: stress, faults and bad input (PROFILE=short), tools, admin-guide commands, on $KVER" vm-stress-tools \
			make -C "$SELFTESTS" vm-stress-tools KVER="$KVER" PROFILE=short DOCS=1 \
			RESULTS="$RESULTS/vm-stress-tools"
		add_ktap "$RESULTS/vm-stress-tools.log"
	else
		skip "vm: stress, faults and bad input" "STRESS=0"
		stage "vm: admin-guide commands on $KVER" vm-docs \
			make -C "$SELFTESTS" vm-docs KVER="$KVER" \
			RESULTS="$RESULTS/vm-docs"
		add_ktap "$RESULTS/vm-docs.log"
		stage "vm: tools (bpftrace scripts, bbr2-lab runs) on $KVER" vm-tools \
			make -C "$SELFTESTS" vm-tools NO_BUILD=1 KVER="$KVER" TESTS= \
			RESULTS="$RESULTS/vm-tools"
		add_ktap "$RESULTS/vm-tools.log"
	fi

	# Last, as they rebuild tcp_bbr2.ko for their own kernel.
	# bbr2_bpf, the BPF build: load, tunables, unload under load, the
	# admin guide's commands, the boot unit; on BPF_ABI, in a boot of its
	# own when the suite did not run there (about 4 minutes; BPF_TESTS=all
	# adds the behavioural suite for it, about 30).  BPF=0 leaves it out.
	if [ "${BPF:-1}" = 1 ]; then
		if [ $bpf_done = 0 ] || [ -n "${BPF_TESTS:-}" ]; then
			stage "vm: bbr2_bpf (BPF struct_ops build) functional tests" vm-bpf \
				make -C "$SELFTESTS" vm-bpf ${BPF_TESTS:+BPF_TESTS="$BPF_TESTS"} \
				RESULTS="$RESULTS/vm-bpf"
			add_ktap "$RESULTS/vm-bpf.log"
		fi
		# 7.1+ only: the object with cwnd_event_tx_start (picked by
		# the kernel's BTF, idle restarts reach the model) and AccECN
		# end to end, on sid's newest 7.x (vm/sid-kernel.sh fetches it
		# once; the 7.x module is the build matrix's).  One boot, one
		# test, about 3 minutes.
		stage "vm: bbr2_bpf on sid's 7.x (cwnd_event_tx_start, AccECN)" vm-bpf7 \
			make -C "$SELFTESTS" vm-bpf7 RESULTS="$RESULTS/vm-bpf7"
		add_ktap "$RESULTS/vm-bpf7.log"
	else
		skip "vm: bbr2_bpf functional tests" "BPF=0"
	fi
fi

echo "== summary (logs in $RESULTS)"
printf '   %s\n' "${report[@]}"
# Last, so that a CI page showing only the end of the output still says
# what failed: each failed stage's failing checks, with the comment lines
# just before them (the measured values), and the runner's own errors.
for log in "${failed_logs[@]}"; do
	echo "== why $(basename "$log" .log) failed"
	grep -B3 -E '^ *not ok |^vm-run: .*(timed out|crash|oops|error)|^make.*Error' "$log" |
		grep -v '^ *ok ' | cut -c1-200 | head -n 20 | sed 's/^/   | /'
done
# Scenarios that ran a second time (run-suite.sh
# RETRIES), whichever way the second attempt went: worth a look when the
# same one recurs.
retried=$(grep -h '# retried: ' "$RESULTS"/*.log 2>/dev/null | sed 's/.*# retried: //' | sort -u)
if [ -n "$retried" ]; then
	echo "== retried (failed once; the verdict is the second attempt's)"
	printf '%s\n' "$retried" | cut -c1-200 | sed 's/^/   | /'
fi
echo "total: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
