/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tier's large-BDP point for test_bbr2_sim_matches_vm_results.c:
 * scenario deep of Documentation/results/host-tier/runs.jsonl (make host-bench, kernel
 * 6.18.44-fc-v657, commit 8143c98eda9c, 2 iterations).
 * Made by Documentation/results/gen-host-tier.py; do not edit.
 *
 * cc, rate (bit/s), RTT (ms), buffer (bytes), loss (ppm), run and window
 * start (s), the receiver's ACK ratio (frames per ACK), then mean, min,
 * max over the host's runs of goodput (Mbit/s), retransmits (%) and
 * median smoothed RTT minus the path's RTT (ms); per metric NULL (the
 * simulator must match) or why a gap is not asserted.
 */

static const struct host_point host_results[] = {
	{ "bbr2", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3770.25, 3757.30, 3783.20 }, { 0.00, 0.00, 0.00 }, { 16.74, 7.43, 26.06 },
	  { NULL, NULL, "open: host 16.7 [7.43-26.1], simulator 0.14 [0.14-0.14] (results page, host-tier.rst)" } },  /* 2 runs */
	{ "bbr2v2", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3709.55, 3697.90, 3721.20 }, { 0.00, 0.00, 0.00 }, { 3.10, 0.32, 5.89 },
	  { NULL, NULL, NULL } },  /* 2 runs */
	{ "bbr", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3627.75, 3624.90, 3630.60 }, { 0.00, 0.00, 0.00 }, { 0.34, 0.33, 0.36 },
	  { NULL, NULL, NULL } },  /* 2 runs */
	{ "cubic", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3825.60, 3825.60, 3825.60 }, { 0.17, 0.17, 0.17 }, { 301.67, 301.59, 301.75 },
	  { NULL, NULL, "open: host 301.7 [301.6-301.8], simulator 292.4 [292.4-292.4] (results page, host-tier.rst)" } },  /* 2 runs */
};
