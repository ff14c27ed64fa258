/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tier's large-BDP point for test_bbr2_sim_matches_vm_results.c:
 * scenario deep of Documentation/results/host-tier/runs.jsonl (make host-bench, kernel
 * 6.18.44-fc-v657, commit fcd4227640d8, 3 iterations).
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
	  { 3726.10, 3677.80, 3757.30 }, { 0.00, 0.00, 0.00 }, { 0.97, 0.40, 1.68 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "bbr2v2", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3740.93, 3649.00, 3795.00 }, { 0.00, 0.00, 0.00 }, { 0.40, 0.35, 0.45 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "bbr", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3611.60, 3601.80, 3617.10 }, { 0.00, 0.00, 0.00 }, { 0.37, 0.35, 0.41 },
	  { NULL, NULL, NULL } },  /* 3 runs */
	{ "cubic", 4000000000ULL, 100, 200000000ULL, 0, 15, 6, 1,
	  { 3825.63, 3825.50, 3825.70 }, { 0.17, 0.17, 0.17 }, { 299.21, 298.42, 299.86 },
	  { NULL, NULL, "open: host 299.2 [298.4-299.9], simulator 292.4 [292.4-292.4] (results page, host-tier.rst)" } },  /* 3 runs */
};
