/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tier's large-BDP point for test_bbr2_sim_matches_vm_results.c:
 * scenario deep of Documentation/results/host-tier/runs.jsonl (make host-bench, kernel
 * 6.18.44-fc-v657, commit 8143c98eda9c, 3 iterations).
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
	  { 3770.70, 3757.30, 3783.20 }, { 0.00, 0.00, 0.00 }, { 11.33, 0.50, 26.06 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "bbr2v2", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3727.00, 3697.90, 3761.90 }, { 0.00, 0.00, 0.00 }, { 3.69, 0.32, 5.89 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "bbr", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3628.57, 3624.90, 3630.60 }, { 0.00, 0.00, 0.00 }, { 0.36, 0.33, 0.40 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "cubic", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3825.60, 3825.60, 3825.60 }, { 0.17, 0.17, 0.17 }, { 301.82, 301.59, 302.13 },
	  { NULL, NULL, "open: host 301.8 [301.6-302.1], simulator 292.4 [292.4-292.4] (results page, host-tier.rst)" } },  /* 3 runs */
};
