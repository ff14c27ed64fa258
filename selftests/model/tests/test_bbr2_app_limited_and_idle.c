// SPDX-License-Identifier: GPL-2.0
/*
 * Application-limited and idle senders:
 *  - an app writing 10 Mbit/s into a 50 Mbit/s path gets its 10 Mbit/s
 *    through with an empty queue (no standing queue from probing);
 *  - an on/off bulk sender (1 s on, 1 s off) restarts after each idle
 *    period (CA_EVENT_TX_START) paced, not as a cwnd-sized burst, and the
 *    idle periods' app-limited samples do not drag the bw estimate down.
 */
#include "bbr2_util.h"

/* The sender is on in [0.04 + 2k, 1.04 + 2k) s (the handshake takes one
 * 40 ms RTT): track the queue in the first 20 ms (half an RTT) of each
 * restart. Pacing at up to 1.25 x bw (a restart may well begin a probe)
 * queues at most ~BDP/16 by then; a cwnd-sized burst would queue ~cwnd. */
static u32 restart_max_queue;

static void on_tick(struct linksim *sim, void *arg)
{
	u64 t = linksim_now_us(sim);

	if (t > 2 * USEC_PER_SEC && (t - 40000) % (2 * USEC_PER_SEC) < 20000)
		restart_max_queue = max(restart_max_queue, linksim_queue_pkts(sim));
}

int main(void)
{
	struct linksim_cfg cfg;
	struct linksim *sim;
	double g;
	u64 bw;
	u32 bdp;

	tap_plan(5);
	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	bdp = linksim_bdp_pkts(&cfg);
	cfg.queue_pkts = 2 * bdp;
	cfg.flow[0].app_rate_bps = 10000000;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	g = linksim_goodput_bps(sim, 0);
	tap_diag("app-limited 10 of 50 Mbit/s: goodput %.2f Mbit/s, avg queue %.2f pkts, max %u, retrans %llu",
		 g / 1e6, linksim_avg_queue_pkts(sim), linksim_link_stats(sim)->max_queue_pkts,
		 linksim_flow_stats(sim, 0)->pkts_retrans);
	tap_ok(g > 0.95 * 10e6 && g < 1.01 * 10e6, "the app's 10 Mbit/s gets through (%.2f)", g / 1e6);
	tap_ok(linksim_avg_queue_pkts(sim) < 2.0, "no standing queue (avg %.2f pkts)",
	       linksim_avg_queue_pkts(sim));
	linksim_free(sim);

	linksim_cfg_default(&cfg);
	cfg.rate_bps = 50000000;
	cfg.queue_pkts = 4 * bdp;
	cfg.flow[0].app_on_us = USEC_PER_SEC;
	cfg.flow[0].app_off_us = USEC_PER_SEC;
	cfg.on_tick = on_tick;
	cfg.tick_us = 500;
	sim = linksim_new(&cfg, "bbr2");
	linksim_run_until(sim, 30 * USEC_PER_SEC);
	bw = cc_info_bw(linksim_sk(sim, 0), NULL);
	tap_diag("on/off: bw %.2f Mbit/s, max queue %u pkts, %u pkts in the first 20 ms after restarts (BDP %u), retrans %llu",
		 bw * 8 / 1e6, linksim_link_stats(sim)->max_queue_pkts, restart_max_queue, bdp,
		 linksim_flow_stats(sim, 0)->pkts_retrans);
	tap_ok(bw * 8 > 0.9 * 50e6, "idle periods do not drag the bw estimate down (%.2f Mbit/s)",
	       bw * 8 / 1e6);
	tap_ok(restart_max_queue <= bdp / 8,
	       "restarts after idle are paced, not a cwnd burst (queue %u <= BDP/8 = %u)",
	       restart_max_queue, bdp / 8);
	linksim_free(sim);
	tap_ok(shim_warn_count == 0, "no kernel WARN fired (%lu)", shim_warn_count);
	return tap_done();
}
