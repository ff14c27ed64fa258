/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel in the VM, for test_bbr2_sim_matches_vm_results.c: the
 * 50 Mbit/s x 40 ms points of tools/jobs/sim/sim-validation.toml, run with
 *   tools/bbr2-lab run --where vm tools/jobs/sim/sim-validation.toml
 * on 2026-11-23 11:54-12:30 UTC (Debian 6.1.0-50-amd64 in a QEMU TCG guest,
 * tcp_bbr2 with src/ as of 8a7ffcd; raw data
 * tools/doc/sim-validation-vm-raw.tar.xz).
 * The first iteration of the first nine points ran while a simulator on
 * the host starved the guest (bbr2 got 10 of 50 Mbit/s) and is left out
 * (kept as starved-iter-1 in the raw data). Made by
 *   tools/bbr2-lab compare --c-table RESULTS_DIR
 * then each gap the simulator does not close is given its reason.
 *
 * cc, flows, buffer (BDP), loss (ppm), then mean, min, max over the runs of
 * goodput (Mbit/s, all flows), retransmits (%) and the median of the ss
 * smoothed-RTT samples minus the base RTT (ms).
 */

/* Why the simulator differs where it does (tools/README.md, "Simulator
 * validation"): */
#define GAP_EMULATOR	"the VM carries ~4 % less than the link (cubic too; the capacity check's 4 cubic flows got 92.6 of 100 Mbit/s), the model's link is exact"
#define GAP_TCG_BURSTS	"TCG fires fq's and the tbf's watchdogs late, so paced flows queue at the tbf (4-6 ms for every BBR flow); the exact link does not; the test bed modelled gives 6.5-8 ms, at the edge of the kernel's spread"
#define GAP_DELACK	"the kernel's receiver ACKs every 2nd segment, at 3 Mbit/s a 4-ms segment time of delayed ACK; frame mode ACKs each frame (per-packet mode with ack_every=2 gives 3.6 ms)"
#define GAP_V2_LOSS	"not explained: at 1 % random loss the kernel's version=2 gets 28 Mbit/s, the model 38-41 (frame and per-packet mode alike, so not the frame unit)"
#define GAP_TESTBED	"the test bed: TCG fires fq's and the tbf's watchdogs late, so packets reach and leave the bottleneck in bursts; modelled (pace_late_us, link_late_us), the gap closes"
#define GAP_V3_4FLOWS	"not explained: 4 v3 flows in 0.25 BDP retransmit 1.1 % in the kernel, 0.67 % in the model (version=2 agrees)"
#define GAP_V1_4FLOWS	"not explained: 4 BBRv1 flows in 0.25 BDP retransmit 8 % in the kernel, 13 % in the model (both modes alike)"

static const struct vm_point vm_results[] = {
	{ "bbr2", 1, 1, 0, { 42.35, 40.62, 44.07 }, { 0.29, 0.28, 0.29 }, { 5.74, 4.27, 7.20 },
	  { NULL, GAP_TESTBED, NULL } },  /* 2 runs */
	{ "bbr2", 1, 1, 10000, { 31.34, 28.55, 34.13 }, { 1.27, 1.14, 1.40 }, { 1.92, 1.86, 1.99 },
	  { NULL, NULL, NULL } },  /* 2 runs */
	{ "bbr2v2", 1, 1, 0, { 44.11, 43.40, 44.82 }, { 0.32, 0.27, 0.37 }, { 4.47, 3.94, 4.99 },
	  { NULL, NULL, GAP_TCG_BURSTS } },  /* 2 runs */
	{ "bbr2v2", 1, 1, 10000, { 28.21, 26.61, 29.80 }, { 1.23, 1.20, 1.25 }, { 1.83, 1.79, 1.86 },
	  { GAP_V2_LOSS, NULL, NULL } },  /* 2 runs */
	{ "bbr", 1, 1, 0, { 44.57, 44.51, 44.63 }, { 0.47, 0.42, 0.53 }, { 5.86, 4.80, 6.92 },
	  { GAP_EMULATOR, NULL, NULL } },  /* 2 runs */
	{ "bbr", 1, 1, 10000, { 43.63, 43.47, 43.80 }, { 1.29, 1.19, 1.39 }, { 5.18, 4.92, 5.44 },
	  { GAP_EMULATOR, NULL, GAP_TCG_BURSTS } },  /* 2 runs */
	{ "cubic", 1, 1, 0, { 45.68, 44.78, 46.57 }, { 0.20, 0.06, 0.33 }, { 23.65, 21.13, 26.17 },
	  { NULL, NULL, NULL } },  /* 2 runs */
	{ "cubic", 1, 1, 10000, { 3.12, 3.01, 3.22 }, { 0.96, 0.92, 1.00 }, { 3.36, 3.30, 3.41 },
	  { NULL, NULL, GAP_DELACK } },  /* 2 runs */
	{ "bbr2", 4, 0.25, 0, { 42.39, 39.40, 45.39 }, { 1.11, 1.11, 1.11 }, { 4.72, 3.72, 5.73 },
	  { NULL, GAP_V3_4FLOWS, NULL } },  /* 2 runs */
	{ "bbr2v2", 4, 0.25, 0, { 40.30, 30.81, 45.29 }, { 1.02, 0.85, 1.12 }, { 6.86, 4.51, 11.49 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "bbr", 4, 0.25, 0, { 45.36, 44.77, 45.71 }, { 8.04, 7.52, 8.84 }, { 10.49, 10.23, 10.85 },
	  { NULL, GAP_V1_4FLOWS, NULL } },  /* 3 runs */
	{ "cubic", 4, 0.25, 0, { 43.95, 42.54, 45.06 }, { 0.47, 0.39, 0.59 }, { 4.44, 3.88, 4.83 },
	  { NULL, NULL, NULL } },  /* 3 runs */
};
