/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tier's large-BDP point for test_bbr2_sim_matches_vm_results.c:
 * scenario loss0.1 of Documentation/results/host-tier/runs.jsonl (make host-bench, kernel
 * 6.18.44-fc-v657, commit ea2bd851d8bc, 3 iterations).
 * Made by Documentation/results/gen-host-tier.py; do not edit.
 *
 * cc, rate (bit/s), RTT (ms), buffer (bytes), loss (ppm), run and window
 * start (s), the receiver's ACK ratio (frames per ACK), then mean, min,
 * max over the host's runs of goodput (Mbit/s), retransmits (%) and
 * median smoothed RTT minus the path's RTT (ms); per metric NULL (the
 * simulator must match) or why a gap is not asserted.
 */

static const struct host_point host_results[] = {
	{ "bbr2v2", 5000000000ULL, 200, 125000000ULL, 1000, 12, 4, 1,
	  { 4315.70, 4315.70, 4315.70 }, { 1.47, 1.47, 1.47 }, { 0.76, 0.76, 0.76 },
	  { "open: host 4316 [4316-4316], simulator 4672 [4666-4676] (results page, host-tier.rst)", "open: host 1.47 [1.47-1.47], simulator 4.30 [4.27-4.36] (results page, host-tier.rst)", NULL } },  /* 1 runs */
	{ "bbr", 5000000000ULL, 200, 125000000ULL, 1000, 12, 4, 1,
	  { 4167.70, 4167.70, 4167.70 }, { 2.40, 2.40, 2.40 }, { 25.93, 25.93, 25.93 },
	  { "open: host 4168 [4168-4168], simulator 4490 [4401-4544] (results page, host-tier.rst)", "open: host 2.40 [2.40-2.40], simulator 9.39 [6.35-14.7] (results page, host-tier.rst)", "open: host 25.9 [25.9-25.9], simulator 0.11 [0.11-0.11] (results page, host-tier.rst)" } },  /* 1 runs */
	{ "cubic", 5000000000ULL, 200, 125000000ULL, 1000, 12, 4, 1,
	  { 6.15, 4.10, 8.20 }, { 0.10, 0.09, 0.11 }, { 0.43, 0.32, 0.54 },
	  { NULL, NULL, NULL } },  /* 2 runs */
};
