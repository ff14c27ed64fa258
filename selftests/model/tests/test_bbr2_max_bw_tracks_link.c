// SPDX-License-Identifier: GPL-2.0
/*
 * The max-bw estimate (what `ss -ti` shows as bbr:(bw:...)) converges to
 * the bottleneck rate within 5 %, and the flow keeps the link busy, over
 * four decades of link rate. The buffer is 1 BDP.
 */
#include "bbr2_util.h"

static void run(u64 rate_bps, u32 rtt_us, u32 secs)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	u64 bw, busy0, t0;
	double err, util;
	u32 min_rtt = 0;

	linksim_cfg_default(&cfg);
	cfg.rate_bps = rate_bps;
	cfg.rtt_us = rtt_us;
	cfg.queue_pkts = max(linksim_bdp_pkts(&cfg), 8U);
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, (u64)secs * USEC_PER_SEC / 4);
	busy0 = linksim_link_stats(sim)->busy_ns;
	t0 = linksim_now_us(sim);
	linksim_run_until(sim, (u64)secs * USEC_PER_SEC);
	bw = cc_info_bw(linksim_sk(sim, 0), &min_rtt);
	err = ((double)bw - link_payload_Bps(&cfg)) / link_payload_Bps(&cfg);
	util = (double)(linksim_link_stats(sim)->busy_ns - busy0) /
	       ((linksim_now_us(sim) - t0) * 1000.0);
	tap_diag("%.3f Mbit/s, %u ms: bw %.3f Mbit/s (%+.2f%%), min_rtt %u us, utilisation %.1f%% after warm-up, retrans %llu",
		 rate_bps / 1e6, rtt_us / 1000, bw * 8 / 1e6, err * 100, min_rtt,
		 util * 100, linksim_flow_stats(sim, 0)->pkts_retrans);
	tap_ok(err > -0.05 && err < 0.05, "%.3f Mbit/s: max-bw within 5%% of the link (%+.2f%%)",
	       rate_bps / 1e6, err * 100);
	tap_ok(util > 0.90, "%.3f Mbit/s: link > 90%% busy after warm-up (%.1f%%)",
	       rate_bps / 1e6, util * 100);
	linksim_free(sim);
}

int main(void)
{
	tap_plan(11);
	run(500000, 40000, 120);
	run(10000000, 40000, 30);
	run(50000000, 40000, 30);
	run(100000000, 10000, 20);
	run(1000000000, 20000, 10);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
